#!/usr/bin/env bash
# Which piece of a layoutcheck process puts it in the slower launch state (PERF_NOTES "Session
# 11")? Runs on the GPU machine: builds the library (scripts/gpu-check.sh's build step unless
# BUILD already holds it), then launch_state_bisect.cu, and runs one process per configuration,
# each twice; then (unless TOOL=0) the timing tool, settled, serial and overlapped. One row per
# process; logs in $OUT/launch-state-bisect.tar.gz.
#   bash kernels/experiments/launch_state_bisect/run.sh                 run 89's configurations
#   bash kernels/experiments/launch_state_bisect/run.sh "library new-stack" ...   these
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
build=${BUILD:-$root/build-gpu}
OUT=${OUT:-/tmp}
logs=$(mktemp -d)
export PATH=/usr/local/cuda/bin:$PATH
trap 'tar czf "$OUT/launch-state-bisect.tar.gz" -C "$logs" .' EXIT

if [[ ! -x $build/kernels/layoutcheck_gpu_timing ]]; then
  OUT=$logs GPU_CHECK_BUILD=$build GPU_CHECK_STEPS=build bash scripts/gpu-check.sh >"$logs/build.log" 2>&1 ||
    { tail -30 "$logs/build.log"; exit 1; }
fi
nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -cudart shared -DLAYOUTCHECK_GPU_CUDA=1 \
  -I. -Isrc -Ikernels -o "$logs/bisect" "$here/launch_state_bisect.cu" -L"$build/kernels" \
  -L"$build/src" -llayoutcheck_gpu -llayoutcheck >"$logs/nvcc.log" 2>&1 || { cat "$logs/nvcc.log"; exit 1; }
export LD_LIBRARY_PATH=$build/kernels:$build/src
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER >"$logs/nvidia-smi.txt" 2>&1

all="own-workspaces compiled-kernel raw-graph raw-stream own-buffers"
default_configurations=(
  "none" "library" "own" "memsets"
  "library own-workspaces" "library compiled-kernel" "library raw-graph" "library raw-timer"
  "library raw-graph raw-stream" "library own-buffers" "library $all" "own $all" "memsets $all"
)
if (($# > 0)); then configurations=("$@"); else configurations=("${default_configurations[@]}"); fi
echo "| flags | trigger | serial fresh | after | new stack | overlapped fresh | after | new stack |" \
  "state placement | new stack's | SM MHz fresh | after | ns a load, DRAM / L2, fresh | after |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for round in 1 2; do
  for configuration in "${configurations[@]}"; do
    # shellcheck disable=SC2086
    "$logs/bisect" $configuration 2>>"$logs/bisect.err" || echo "| $configuration | failed |"
  done
done | tee "$logs/bisect.md"
grep "SM clock" "$logs/bisect.err" | sort | uniq -c
[[ ${TOOL:-1} == 0 ]] && exit 0
"$build/kernels/layoutcheck_gpu_timing" --batches 1 --layers 48 --replays 100 --overlapped \
  >"$logs/tool-overlapped.log" 2>&1
"$build/kernels/layoutcheck_gpu_timing" --batches 1 --layers 48 --replays 100 \
  >"$logs/tool-serial.log" 2>&1
grep -hE "^settled|^\| (native|baseline) " "$logs/tool-overlapped.log" "$logs/tool-serial.log"
