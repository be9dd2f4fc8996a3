#!/usr/bin/env bash
# Copies examples/oracle_workspace, points its @memplan at this source tree
# and runs `bazel build` + `bazel test` there with a fresh output base:
# memplan's oracle used from another Bazel workspace, offline.
set -euo pipefail

script="$(readlink -f "${BASH_SOURCE[0]}")"
root="$(cd "$(dirname "$script")/.." && pwd)"
example="$root/examples/oracle_workspace"
if [[ ! -f "$example/WORKSPACE" || ! -f "$root/third_party/repos.bzl" ]]; then
  echo "FAIL: no source tree at $root (is this script a symlink into it?)"
  exit 1
fi
bazel="$(command -v bazel || true)"
if [[ -z "$bazel" ]]; then
  echo "FAIL: no bazel on PATH"
  exit 1
fi

tmp="${TEST_TMPDIR:-$(mktemp -d)}"
work="$tmp/oracle_workspace"
rm -rf "$work"
mkdir -p "$work"
# The example's files only (not bazel-* links of a build made in place).
for f in "$example"/* "$example"/.bazelrc; do
  case "$(basename "$f")" in bazel-*) continue ;; esac
  cp -r "$f" "$work/"
done
sed -i "s|path = \"../..\"|path = \"$root\"|" "$work/WORKSPACE"
grep -q "path = \"$root\"" "$work/WORKSPACE"

cd "$work"
export HOME="$tmp/home"
mkdir -p "$HOME"
startup=(--output_user_root="$tmp/bazel_root" --batch --nohome_rc)
# Two jobs: this runs beside the rest of the suite on small machines.
flags=(--jobs=2 --color=no --curses=no --noshow_progress)
"$bazel" "${startup[@]}" build "${flags[@]}" //:my_planner
set +e
"$bazel" "${startup[@]}" run "${flags[@]}" //:my_planner > "$tmp/run.txt"
status=$?
set -e
cat "$tmp/run.txt"
# The toy planner's plan is valid (exit 0) and memplan's suite beats it.
[[ $status -eq 0 ]] || { echo "FAIL: my_planner exited $status"; exit 1; }
grep -q "valid: no violations" "$tmp/run.txt"
grep -q "my planner: 160 bytes; memplan" "$tmp/run.txt"
"$bazel" "${startup[@]}" test "${flags[@]}" --test_output=errors //:my_planner_test
echo "PASS: @memplan//properties:oracle builds, runs and tests from another workspace"
