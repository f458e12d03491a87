#!/usr/bin/env bash
# The Python module's GPU check, on a machine with a GPU, PyTorch and Triton: builds the CLI and the Python module (the module needs no GPU backend: a probe on
# a GPU stages its buffers through PyTorch), then probes, through `import layoutcheck`, the Triton
# GDN decode step built for the interleaved layout and fed flat buffers (its misread set must be
# the static diff's exactly), the same source built for the flat layout (clean), and PyTorch's
# layer_norm with the dependence decoder; each verdict is compared with the CLI's.
#   bash scripts/python-gpu-check.sh
# $OUT receives python-gpu-check.log and python-gpu-verdicts.tar.gz (one JSON verdict per probe).
#
# pybind11: its CMake package (Debian's pybind11-dev, or pip's pybind11), else the headers PyTorch
# bundles (torch/include/pybind11); with neither the check stops and says so. The probes run
# under pytest when it is installed, else as a plain script (python/tests/gpu_probes.py).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
OUT=${OUT:-$root/out-python-gpu-check}
mkdir -p "$OUT"
build=${PYTHON_GPU_CHECK_BUILD:-$root/build-python-gpu}
python=${PYTHON:-$(command -v python3)}
log=$OUT/python-gpu-check.log
results=$(mktemp -d)
exec > >(tee "$log") 2>&1

"$python" - <<'PY'
import sys
print("python", sys.version.split()[0], sys.executable)
for name in ("numpy", "torch", "triton", "pytest", "pybind11"):
    try:
        module = __import__(name)
        print(f"{name} {getattr(module, '__version__', '?')}")
    except ImportError:
        print(f"{name}: not installed")
import torch
print("cuda available:", torch.cuda.is_available(),
      torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")
PY

pybind11_option=()
if [[ -d /usr/lib/cmake/pybind11 || -d /usr/share/cmake/pybind11 ]]; then
  echo "pybind11: the system's CMake package"
elif dir=$("$python" -c "import pybind11; print(pybind11.get_cmake_dir())" 2>/dev/null); then
  echo "pybind11: pip's CMake package in $dir"
  pybind11_option=(-Dpybind11_DIR="$dir")
elif dir=$("$python" -c "import os, torch; print(os.path.dirname(torch.__file__))" 2>/dev/null) &&
     dir=$dir/include && [[ -f $dir/pybind11/pybind11.h ]]; then
  echo "pybind11: the headers PyTorch bundles, $dir"
  pybind11_option=(-DLAYOUTCHECK_PYBIND11_INCLUDE_DIR="$dir")
else
  echo "error: no pybind11 here (no CMake package, no pip pybind11, none in torch/include);" \
       "apt-get install pybind11-dev, or set pybind11_DIR" >&2
  exit 2
fi

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLAYOUTCHECK_GPU_BACKEND=none \
  -DLAYOUTCHECK_BUILD_TESTS=OFF -DLAYOUTCHECK_BUILD_BENCHMARKS=OFF -DLAYOUTCHECK_BUILD_PYTHON=ON \
  -DPython3_EXECUTABLE="$python" "${pybind11_option[@]}" || exit 2
cmake --build "$build" -j"$(nproc)" --target _layoutcheck layoutcheck_cli || exit 2

export PYTHONPATH=$build/python LAYOUTCHECK_CLI=$build/src/cli/layoutcheck
export LAYOUTCHECK_SOURCE_DIR=$root LAYOUTCHECK_RESULTS_DIR=$results PYTHONDONTWRITEBYTECODE=1
if "$python" -c "import pytest" 2>/dev/null; then
  "$python" -m pytest -v -rs -p no:cacheprovider python/tests/test_gpu_kernels.py
else
  "$python" python/tests/gpu_probes.py
fi
status=$?
tar czf "$OUT/python-gpu-verdicts.tar.gz" -C "$results" .
echo "verdicts: $(ls "$results" | tr '\n' ' ')"
exit $status
