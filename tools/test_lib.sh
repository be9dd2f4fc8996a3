# Helpers for the command-line tests (sourced): run a command, compare its
# exit code, look for text in what it wrote, count failures.
# Uses $tmp for the last command's stdout ($tmp/out) and stderr ($tmp/err).
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_rc WANT CMD...: runs CMD, keeps stdout in $tmp/out, stderr in
# $tmp/err.
expect_rc() {
  local want="$1"
  shift
  "$@" >"${tmp}/out" 2>"${tmp}/err"
  local rc=$?
  if [[ ${rc} -ne ${want} ]]; then
    fail "'$*' exited ${rc}, want ${want}"
    cat "${tmp}/out" "${tmp}/err" >&2
  fi
}

# expect_in TEXT FILE: FILE contains TEXT (fixed string).
expect_in() {
  grep -qF -- "$1" "$2" || { fail "'$1' not in $2"; cat "$2" >&2; }
}

# finish: the exit status of the test.
finish() {
  if [[ ${failures} -ne 0 ]]; then
    echo "${failures} check(s) failed" >&2
    exit 1
  fi
  echo "PASS"
  exit 0
}
