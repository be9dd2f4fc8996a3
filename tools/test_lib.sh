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

# expect_help COMMAND USAGE: `memplan COMMAND --help` and `-h` exit 0 and
# print help, with the USAGE line, on stdout and nothing on stderr.
# Needs $memplan.
expect_help() {
  local flag
  for flag in --help -h; do
    expect_rc 0 "${memplan}" "$1" "${flag}"
    expect_in "$2" "${tmp}/out"
    expect_in "Exit code: 0" "${tmp}/out"
    [[ -s "${tmp}/err" ]] && fail "'memplan $1 ${flag}' wrote to stderr"
  done
}

# expect_usage_error ARGS...: `memplan ARGS...` exits 2 (kExitUsage) and
# says on stderr how to get help. Check the message with expect_in after.
expect_usage_error() {
  expect_rc 2 "${memplan}" "$@"
  expect_in "Run 'memplan $1 --help' for every option." "${tmp}/err"
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
