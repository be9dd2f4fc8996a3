#!/usr/bin/env bash
# Installs every system dependency memplan needs (Debian packages only).
# Idempotent: when everything is present it returns in well under a second.
set -euo pipefail

packages=(
  bazel-bootstrap bazel-rules-cc bazel-rules-java bazel-platforms bazel-skylib
  default-jdk-headless
  g++ clang libclang-rt-14-dev
  libgtest-dev libgmock-dev librapidcheck-dev
  libflatbuffers-dev flatbuffers-compiler
  libbenchmark-dev
  libpugixml-dev
  libcli11-dev liblemon-dev
  nlohmann-json3-dev
  zip unzip python3 python3-yaml
  python3-dev pybind11-dev
)
if [[ "${MEMPLAN_WITH_CHROMIUM:-0}" == 1 ]]; then
  packages+=(chromium)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "bootstrap: installing ${missing[*]}" >&2
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
