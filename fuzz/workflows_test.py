"""Checks .github/workflows against ClusterFuzzLite's documented actions.

Usage: workflows_test.py ROOT_FILE... where the files are the workflows,
.clusterfuzzlite/project.yaml, .clusterfuzzlite/Dockerfile, .ci/run and the
fuzz target sources (fuzz/*_fuzzer.cc). Every workflow must parse (PyYAML),
name only inputs the actions declare (google/clusterfuzzlite
actions/{build,run}_fuzzers/action.yml, v1), give the required ones, use a
documented mode and sanitizer, build and run with the same sanitizer, and
together cover PR (code-change, ASan + UBSan), batch (on a schedule, corpus
in a storage repo), prune, coverage and .ci/run. A typo fails.
"""

import os
import re
import sys

import yaml

BUILD = "google/clusterfuzzlite/actions/build_fuzzers@v1"
RUN = "google/clusterfuzzlite/actions/run_fuzzers@v1"
BUILD_INPUTS = {
    "language", "dry-run", "allowed-broken-targets-percentage", "sanitizer",
    "project-src-path", "bad-build-check", "storage-repo",
    "storage-repo-branch", "storage-repo-branch-coverage", "upload-build",
    "github-token",
}
RUN_INPUTS = {
    "language", "fuzz-seconds", "dry-run", "sanitizer", "mode", "github-token",
    "storage-repo", "storage-repo-branch", "storage-repo-branch-coverage",
    "report-unreproducible-crashes", "minimize-crashes", "parallel-fuzzing",
    "output-sarif",
}
RUN_REQUIRED = {"github-token", "fuzz-seconds"}
MODES = {"code-change", "batch", "prune", "coverage"}
SANITIZERS = {"address", "undefined", "memory", "coverage"}
STEP_KEYS = {"name", "id", "uses", "with", "run", "env", "if", "shell",
             "working-directory", "continue-on-error", "timeout-minutes"}
JOB_KEYS = {"runs-on", "steps", "strategy", "concurrency", "container",
            "timeout-minutes", "permissions", "needs", "if", "env", "name",
            "services", "outputs", "defaults", "environment",
            "continue-on-error"}
WORKFLOW_KEYS = {"name", "on", "permissions", "jobs", "env", "concurrency",
                 "defaults", "run-name"}
EVENTS = {"pull_request", "push", "schedule", "workflow_dispatch"}
EXPECTED = {"cflite_pr.yml", "cflite_batch.yml", "cflite_build.yml",
            "cflite_cron.yml", "ci.yml"}
MIN_SECONDS_PER_TARGET_PR = 120  # "A few minutes per target".

failures = []


def fail(where, what):
    failures.append(f"{where}: {what}")


def matrix_values(job, value):
    """The values an input takes: a matrix expression expands to its list."""
    m = re.fullmatch(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", str(value))
    if not m:
        return [str(value)]
    matrix = (job.get("strategy") or {}).get("matrix") or {}
    return [str(v) for v in matrix.get(m.group(1), [])]


def check_cron(where, expr):
    fields = str(expr).split()
    if len(fields) != 5:
        fail(where, f"cron {expr!r} must have 5 fields")
    for f in fields:
        if not re.fullmatch(r"[0-9*/,\-]+", f):
            fail(where, f"cron field {f!r} of {expr!r}")


def main(paths):
    workflows = {}
    fuzzers = set()
    files = {}
    for p in paths:
        base = os.path.basename(p)
        if "/.github/workflows/" in "/" + p:
            workflows[base] = p
        elif base.endswith("_fuzzer.cc"):
            fuzzers.add(base[:-3])
        else:
            files[base] = p
    if set(workflows) != EXPECTED:
        fail("workflows", f"expected {sorted(EXPECTED)}, got {sorted(workflows)}")
    if len(fuzzers) < 6 or "plan_reader_fuzzer" not in fuzzers:
        fail("fuzz", f"fuzz targets {sorted(fuzzers)}")

    seen_modes = {}  # mode -> set of sanitizers
    stored = set()  # modes whose run step names a storage repo
    schedules = {}
    runs_ci = False
    for name, path in sorted(workflows.items()):
        with open(path) as f:
            try:
                doc = yaml.safe_load(f)
            except yaml.YAMLError as e:
                fail(name, f"does not parse: {e}")
                continue
        if not isinstance(doc, dict):
            fail(name, "not a mapping")
            continue
        # YAML 1.1 reads the key `on` as True.
        on = doc.pop(True, None) if True in doc else doc.get("on")
        if True not in doc and "on" in doc:
            doc.pop("on")
        for key in doc:
            if key not in WORKFLOW_KEYS:
                fail(name, f"unknown top-level key {key!r}")
        if not doc.get("name"):
            fail(name, "no name")
        if not isinstance(on, dict) or not on:
            fail(name, f"no triggers: {on!r}")
            on = {}
        for event, spec in on.items():
            if event not in EVENTS:
                fail(name, f"unknown event {event!r}")
            if event == "schedule":
                for entry in spec or []:
                    check_cron(name, entry.get("cron"))
                schedules[name] = spec
        if doc.get("permissions") != "read-all":
            fail(name, "permissions must be read-all")
        jobs = doc.get("jobs") or {}
        if not jobs:
            fail(name, "no jobs")
        for job_name, job in jobs.items():
            where = f"{name}: jobs.{job_name}"
            for key in job:
                if key not in JOB_KEYS:
                    fail(where, f"unknown key {key!r}")
            if not job.get("runs-on"):
                fail(where, "no runs-on")
            build_sanitizers = None
            for i, step in enumerate(job.get("steps") or []):
                sw = f"{where}.steps[{i}]"
                for key in step:
                    if key not in STEP_KEYS:
                        fail(sw, f"unknown key {key!r}")
                uses = step.get("uses", "")
                inputs = step.get("with") or {}
                if "run" in step and ".ci/run" in str(step["run"]):
                    runs_ci = True
                if "clusterfuzzlite" not in uses:
                    continue
                if uses not in (BUILD, RUN):
                    fail(sw, f"unknown action {uses!r}")
                    continue
                known = BUILD_INPUTS if uses == BUILD else RUN_INPUTS
                for key in inputs:
                    if key not in known:
                        fail(sw, f"{uses} has no input {key!r}")
                if inputs.get("language", "c++") != "c++":
                    fail(sw, "language must be c++")
                sanitizers = matrix_values(job, inputs.get("sanitizer",
                                                           "address"))
                for s in sanitizers:
                    if s not in SANITIZERS:
                        fail(sw, f"unknown sanitizer {s!r}")
                if uses == BUILD:
                    build_sanitizers = sanitizers
                    continue
                for key in RUN_REQUIRED:
                    if key not in inputs:
                        fail(sw, f"run_fuzzers needs {key!r}")
                if build_sanitizers is None:
                    fail(sw, "run_fuzzers before build_fuzzers")
                elif sorted(build_sanitizers) != sorted(sanitizers):
                    fail(sw, f"runs {sanitizers} but built {build_sanitizers}")
                mode = inputs.get("mode", "code-change")
                if mode not in MODES:
                    fail(sw, f"unknown mode {mode!r}")
                if (mode == "coverage") != (sanitizers == ["coverage"]):
                    fail(sw, "coverage mode goes with the coverage sanitizer")
                try:
                    seconds = int(inputs.get("fuzz-seconds", 0))
                except ValueError:
                    fail(sw, f"fuzz-seconds {inputs.get('fuzz-seconds')!r}")
                    seconds = 0
                if mode == "code-change" and fuzzers and (
                        seconds < MIN_SECONDS_PER_TARGET_PR * len(fuzzers)):
                    fail(sw, f"fuzz-seconds {seconds} is under "
                         f"{MIN_SECONDS_PER_TARGET_PR} s for each of "
                         f"{len(fuzzers)} targets")
                if "storage-repo" in inputs:
                    stored.add(mode)
                    repo = str(inputs["storage-repo"])
                    if not re.fullmatch(
                            r"https://\$\{\{ secrets\.PERSONAL_ACCESS_TOKEN \}\}"
                            r"@github\.com/.+\.git", repo):
                        fail(sw, f"storage-repo {repo!r}")
                seen_modes.setdefault(mode, set()).update(sanitizers)
                if mode == "code-change" and "pull_request" not in on:
                    fail(sw, "code-change fuzzing runs on pull_request")
                if mode == "batch" and "schedule" not in on:
                    fail(sw, "batch fuzzing runs on a schedule")

    for mode in MODES:
        if mode not in seen_modes:
            fail("workflows", f"no {mode} job")
    for s in ("address", "undefined"):
        if s not in seen_modes.get("code-change", set()):
            fail("workflows", f"PR fuzzing without {s}")
        if s not in seen_modes.get("batch", set()):
            fail("workflows", f"batch fuzzing without {s}")
    for mode in ("batch", "prune", "coverage"):
        if mode not in stored:
            fail("workflows", f"{mode} keeps nothing in a storage repo")
    if not runs_ci:
        fail("workflows", "no workflow runs .ci/run")

    if "project.yaml" in files:
        with open(files["project.yaml"]) as f:
            project = yaml.safe_load(f)
        if project.get("language") != "c++":
            fail("project.yaml", f"language {project.get('language')!r}")
    else:
        fail("project.yaml", "missing")
    if "Dockerfile" in files:
        with open(files["Dockerfile"]) as f:
            text = f.read()
        if not re.search(r"^FROM gcr\.io/oss-fuzz-base/base-builder@sha256:"
                         r"[0-9a-f]{64}$", text, re.M):
            fail("Dockerfile", "base image not pinned by digest")
    else:
        fail("Dockerfile", "missing")

    for f in failures:
        print("FAIL:", f)
    print(f"{len(workflows)} workflows, {len(fuzzers)} fuzz targets, "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
