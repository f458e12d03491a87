#!/usr/bin/env bash
# Installs the Debian packages layoutcheck needs, and nothing when they are all present already
# (reruns stay fast and work offline). Used by the two README commands:
#   scripts/install-deps.sh test   everything scripts/test.sh builds: tests, sanitizers, libFuzzer,
#                                  benchmarks, the HIP backend (Debian's hipcc), the Python module
#   scripts/install-deps.sh run    what scripts/run-cases.sh needs to build the CLI
# Needs root (or password-less sudo) only when something is missing. CUDA is never installed here:
# the CUDA backend is built where nvcc already exists.
set -euo pipefail

profile="${1:-test}"
run_packages=(cmake ninja-build g++ libyaml-cpp-dev libeigen3-dev libcli11-dev librsvg2-bin)
case "$profile" in
  run) packages=("${run_packages[@]}") ;;
  test)
    # clang + libclang-rt-dev: libFuzzer and the sanitizer runtimes for Debian's default clang
    # (clang-14 on Debian 12). hipcc + libamdhip64-dev: the HIP backend, compile and link only.
    # ccache: the same CPU library is compiled by several stages, and reruns should be quick.
    # pybind11-dev, python3-dev, python3-numpy, python3-pytest: the Python module and its tests.
    # llvm: llvm-symbolizer, so a sanitizer's or libFuzzer's report names functions and lines.
    # git: the review tests commit contract pairs to a scratch repository.
    packages=("${run_packages[@]}" clang libclang-rt-dev llvm libgtest-dev libgmock-dev
              libbenchmark-dev hipcc libamdhip64-dev ccache pybind11-dev python3-dev python3-numpy
              python3-pytest git)
    ;;
  *)
    echo "usage: $0 [test|run]" >&2
    exit 2
    ;;
esac

missing=()
for package in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)"
  [[ "$status" == "installed" ]] || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages of profile '$profile' are installed"
  exit 0
fi

if ! command -v apt-get >/dev/null; then
  echo "install-deps: missing ${missing[*]}, and this is not a Debian-like system (no apt-get);" \
       "install the equivalents yourself" >&2
  exit 1
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
  else
    echo "install-deps: missing ${missing[*]}; run as root (or with password-less sudo):" >&2
    echo "  apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
