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

def memplan_dependencies():
    _rules_cc(name = "rules_cc", path = "/usr/share/bazel/rules/cc")
    native.new_local_repository(
        name = "system_libs",
        path = "/usr",
        build_file = "//third_party:system_libs.BUILD",
    )
    _cuda(name = "local_cuda")
    _shared_data(name = "shared_data")
