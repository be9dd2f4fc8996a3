#include "properties/alias_ops.h"

#include <algorithm>

namespace memplan {
namespace properties {
namespace {

constexpr const char* kExecuTorch =
    "ExecuTorch: exir/passes/replace_view_copy_with_view_pass.py turns "
    "view_copy into memory.view, which exir/emit/_emitter.py emits as "
    "et_view (the output's data pointer is the input's)";
constexpr const char* kPyTorchViews =
    "PyTorch's view operators (docs: Tensor Views): the output shares "
    "its input's storage";

std::string_view WithoutOverload(std::string_view name) {
  // "ns::op.overload": the overload follows the first '.' after "::".
  size_t ns = name.find("::");
  size_t dot = name.find('.', ns == std::string_view::npos ? 0 : ns + 2);
  return dot == std::string_view::npos ? name : name.substr(0, dot);
}

}  // namespace

const std::vector<AliasOp>& KnownViewOps() {
  static const std::vector<AliasOp> kOps = {
      {"executorch_prim::et_view", kExecuTorch},
      {"aten::_reshape_alias", kPyTorchViews},
      {"aten::_unsafe_view", kPyTorchViews},
      {"aten::alias", kPyTorchViews},
      {"aten::as_strided", kPyTorchViews},
      {"aten::chunk", kPyTorchViews},
      {"aten::detach", kPyTorchViews},
      {"aten::diagonal", kPyTorchViews},
      {"aten::expand", kPyTorchViews},
      {"aten::imag", kPyTorchViews},
      {"aten::indices", kPyTorchViews},
      {"aten::movedim", kPyTorchViews},
      {"aten::narrow", kPyTorchViews},
      {"aten::permute", kPyTorchViews},
      {"aten::real", kPyTorchViews},
      {"aten::select", kPyTorchViews},
      {"aten::slice", kPyTorchViews},
      {"aten::split", kPyTorchViews},
      {"aten::split_with_sizes", kPyTorchViews},
      {"aten::squeeze", kPyTorchViews},
      {"aten::swapaxes", kPyTorchViews},
      {"aten::swapdims", kPyTorchViews},
      {"aten::t", kPyTorchViews},
      {"aten::tensor_split", kPyTorchViews},
      {"aten::transpose", kPyTorchViews},
      {"aten::unbind", kPyTorchViews},
      {"aten::unflatten", kPyTorchViews},
      {"aten::unfold", kPyTorchViews},
      {"aten::unsqueeze", kPyTorchViews},
      {"aten::values", kPyTorchViews},
      {"aten::view", kPyTorchViews},
      {"aten::view_as", kPyTorchViews},
      {"aten::view_as_complex", kPyTorchViews},
      {"aten::view_as_real", kPyTorchViews},
  };
  return kOps;
}

AliasOps::AliasOps(std::vector<std::string> extra) {
  for (const std::string& name : extra) {
    extra_.emplace_back(WithoutOverload(name));
  }
}

bool OverwritesSelf(std::string_view name) {
  // PyTorch's native_functions.yaml: these set self from other arguments
  // or a distribution alone.
  static constexpr std::string_view kOverwriting[] = {
      "aten::copy_",      "aten::fill_",        "aten::zero_",
      "aten::normal_",    "aten::uniform_",     "aten::random_",
      "aten::bernoulli_", "aten::exponential_", "aten::geometric_",
      "aten::cauchy_",    "aten::log_normal_"};
  name = WithoutOverload(name);
  return std::find(std::begin(kOverwriting), std::end(kOverwriting), name) !=
         std::end(kOverwriting);
}

AliasRule AliasOps::RuleOf(std::string_view name) const {
  name = WithoutOverload(name);
  for (const AliasOp& op : KnownViewOps()) {
    if (name == op.name) return AliasRule::kView;
  }
  if (std::find(extra_.begin(), extra_.end(), name) != extra_.end()) {
    return AliasRule::kView;
  }
  // ATen's naming contract: "op_" mutates and returns self ("add_",
  // "index_put_"); dunder names ("__and__") are not in-place.
  size_t ns = name.find("::");
  std::string_view base =
      ns == std::string_view::npos ? name : name.substr(ns + 2);
  if (name.substr(0, 6) == "aten::" && base.size() >= 2 && base.back() == '_' &&
      base[base.size() - 2] != '_') {
    return AliasRule::kInPlace;
  }
  return AliasRule::kNone;
}

}  // namespace properties
}  // namespace memplan
