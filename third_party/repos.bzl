"""Repository rules that wire Debian-packaged dependencies into Bazel 4."""

def _rules_cc_impl(rctx):
    # Debian's rules_cc loads use_cpp_toolchain, which Bazel 4.2.3's
    # @bazel_tools lacks; copy it and replace the two call sites.
    src = rctx.path(rctx.attr.path)
    if not src.exists:
        fail("%s is missing: run tools/bootstrap.sh" % rctx.attr.path)
    rctx.execute(["cp", "-r", str(src) + "/.", "."])
    for f in [
        "cc/private/rules_impl/cc_flags_supplier.bzl",
        "cc/private/rules_impl/compiler_flag.bzl",
    ]:
        text = rctx.read(f)
        text = text.replace(', "use_cpp_toolchain")', ")")
        text = text.replace("use_cpp_toolchain()", '["@bazel_tools//tools/cpp:toolchain_type"]')
        rctx.file(f, text)

_rules_cc = repository_rule(
    implementation = _rules_cc_impl,
    attrs = {"path": attr.string()},
)

def _cuda_impl(rctx):
    # The toolkit is optional: without it the CUDA allocator is compiled
    # out and reports that it is unavailable.
    root = rctx.os.environ.get("CUDA_PATH", "/usr/local/cuda")
    header = rctx.path(root + "/include/cuda_runtime.h")
    static_lib = rctx.path(root + "/lib64/libcudart_static.a")
    has_cuda = header.exists and static_lib.exists
    if has_cuda:
        rctx.symlink(root + "/include", "include")
        rctx.symlink(root + "/lib64/libcudart_static.a", "libcudart_static.a")
        rctx.file("BUILD", """
package(default_visibility = ["//visibility:public"])
cc_library(
    name = "cudart",
    hdrs = glob(["include/**/*.h", "include/**/*.hpp"]),
    includes = ["include"],
    srcs = ["libcudart_static.a"],
    # Static everywhere, so a binary copied to a GPU machine needs no cudart.
    linkstatic = True,
    linkopts = ["-ldl", "-lpthread", "-lrt"],
    defines = ["MEMPLAN_HAVE_CUDA=1"],
)
""")
    else:
        rctx.file("BUILD", """
package(default_visibility = ["//visibility:public"])
cc_library(name = "cudart")
""")
    rctx.file("defs.bzl", "HAS_CUDA = %s\n" % has_cuda)

_cuda = repository_rule(
    implementation = _cuda_impl,
    environ = ["CUDA_PATH"],
    local = True,
)

def _shared_data_impl(rctx):
    # ../shared holds real ExecuTorch programs; it is optional, so the
    # build must not fail where it is absent (tests then skip).
    workspace = rctx.path(Label("//:WORKSPACE")).dirname
    shared = rctx.path(str(workspace) + "/../shared/data")
    if shared.exists:
        rctx.symlink(shared, "data")
        rctx.file("BUILD", """
package(default_visibility = ["//visibility:public"])
filegroup(name = "pte", srcs = glob(["data/pte/*"]))
filegroup(name = "minimalloc", srcs = glob(["data/minimalloc/*"]))
""")
    else:
        rctx.file("BUILD", """
package(default_visibility = ["//visibility:public"])
filegroup(name = "pte", srcs = [])
filegroup(name = "minimalloc", srcs = [])
""")

_shared_data = repository_rule(
    implementation = _shared_data_impl,
    local = True,
)

def _python_impl(rctx):
    # Debian's python3 with python3-dev and pybind11-dev; optional like
    # CUDA: without them the module is not built and its tests skip.
    python = rctx.which("python3") if rctx.attr.python == "" else rctx.path(rctx.attr.python)
    include = None
    if python and python.exists:
        result = rctx.execute([
            str(python),
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['include'])",
        ])
        if result.return_code == 0:
            include = result.stdout.strip()
    has_python = (include != None and
                  rctx.path(include + "/Python.h").exists and
                  rctx.path("/usr/include/pybind11/pybind11.h").exists)
    if has_python:
        rctx.symlink(include, "python_include")
        rctx.symlink("/usr/include/pybind11", "pybind11_include/pybind11")
        rctx.file("BUILD", """
package(default_visibility = ["//visibility:public"])
cc_library(
    name = "pybind11",
    hdrs = glob(["python_include/**/*.h", "pybind11_include/**/*.h"]),
    includes = ["python_include", "pybind11_include"],
)
exports_files(["python3"])
""")
        rctx.symlink(python, "python3")
    else:
        rctx.file("BUILD", """
package(default_visibility = ["//visibility:public"])
cc_library(name = "pybind11")
""")
    rctx.file("defs.bzl", "HAS_PYBIND11 = %s\nPYTHON3 = %r\n" % (
        has_python,
        str(python) if has_python else "",
    ))

_python = repository_rule(
    implementation = _python_impl,
    attrs = {"python": attr.string(default = "/usr/bin/python3")},
    local = True,
)

def _coverage_tools_impl(rctx):
    # Bazel 4 names @remote_coverage_tools in every test; the real one is
    # downloaded. A copy of memplan's stand-in works from any workspace.
    src = rctx.path(Label("//third_party/remote_coverage_tools:BUILD")).dirname
    for f in ["BUILD", "unsupported.sh"]:
        rctx.symlink(str(src) + "/" + f, f)
    rctx.file("WORKSPACE", "")

_coverage_tools = repository_rule(implementation = _coverage_tools_impl)

def memplan_dependencies():
    """Every repository memplan's BUILD files name, from Debian packages.

    Call it from the WORKSPACE of memplan or of any workspace that uses
    @memplan (local_repository); nothing is downloaded. Repositories the
    caller already declared are left alone.
    """
    existing = native.existing_rules()
    if "rules_java" not in existing:
        native.local_repository(
            name = "rules_java",
            path = "/usr/share/bazel/rules/java",
        )
    if "remote_coverage_tools" not in existing:
        _coverage_tools(name = "remote_coverage_tools")
    _python(name = "local_python")
    _rules_cc(name = "rules_cc", path = "/usr/share/bazel/rules/cc")
    native.new_local_repository(
        name = "system_libs",
        path = "/usr",
        # A Label, so that it names memplan's file from any workspace.
        build_file = str(Label("//third_party:system_libs.BUILD")),
    )
    _cuda(name = "local_cuda")
    _shared_data(name = "shared_data")
