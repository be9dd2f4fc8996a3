"""memplan_fuzz_test: one libFuzzer target, its corpus replay test and smoke test."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

_FUZZ = "//:fuzz_build"

def _corpus_list_impl(ctx):
    # One runfiles-relative path per line; an empty corpus filegroup (data
    # absent on this machine) is allowed, unlike in $(rootpaths).
    files = depset(transitive = [c.files for c in ctx.attr.corpus]).to_list()
    out = ctx.actions.declare_file(ctx.label.name + ".txt")
    ctx.actions.write(out, "".join([f.short_path + "\n" for f in files]))
    return [DefaultInfo(
        files = depset([out]),
        runfiles = ctx.runfiles(files = [out] + files),
    )]

_corpus_list = rule(
    implementation = _corpus_list_impl,
    attrs = {"corpus": attr.label_list(allow_files = True)},
)

def memplan_fuzz_test(name, srcs, deps = [], corpus = [], dict = None):
    """Defines <name>, <name>_replay and <name>_smoke.

    Args:
      name: target name; also the libFuzzer binary.
      srcs: sources defining LLVMFuzzerTestOneInput (and optional mutators).
      deps: libraries the target uses.
      corpus: labels of filegroups with seed/regression inputs (a filegroup
        that is empty where its data is absent is fine).
      dict: optional libFuzzer dictionary, used by the smoke test.
    """
    lib = name + "_lib"
    corpus_list = name + "_corpus"
    _corpus_list(name = corpus_list, corpus = corpus, testonly = 1)
    cc_library(
        name = lib,
        srcs = srcs,
        deps = deps + ["//fuzz:fuzzed_data_provider"],
        # The entry points are only referenced by the driver or libFuzzer.
        alwayslink = 1,
        testonly = 1,
    )

    # With --config=fuzz: a libFuzzer binary. Otherwise: the replay driver,
    # so `bazel run //fuzz:<name> -- files...` reproduces a crash under gcc.
    cc_binary(
        name = name,
        deps = [":" + lib] + select({
            _FUZZ: [],
            "//conditions:default": ["//fuzz:replay_main"],
        }),
        linkopts = select({
            _FUZZ: ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
        testonly = 1,
    )

    # Every corpus file through the entry point, in every configuration, in
    # the manner of rules_fuzzing's regression tests.
    cc_test(
        name = name + "_replay",
        deps = [":" + lib, "//fuzz:replay_main"],
        data = [":" + corpus_list],
        args = ["@$(rootpath :%s)" % corpus_list],
        size = "small",
    )

    # With --config=fuzz: a short bounded libFuzzer run on the seeds. Without
    # it the binary is the replay driver, so the same script replays instead.
    data = [":" + name, ":" + corpus_list] + ([dict] if dict else [])
    native.sh_test(
        name = name + "_smoke",
        srcs = ["//fuzz:smoke_test.sh"],
        data = data,
        args = [
            "$(rootpath :%s)" % name,
            "$(rootpath %s)" % dict if dict else "-",
            "$(rootpath :%s)" % corpus_list,
        ],
        env = select({
            _FUZZ: {"MEMPLAN_FUZZ_ENGINE": "libfuzzer"},
            "//conditions:default": {"MEMPLAN_FUZZ_ENGINE": "replay"},
        }),
        size = "medium",
    )
