#!/usr/bin/env bash
# Where one launch of the native fused kernel spends its time (kernels/PERF_NOTES.md), on a
# machine with an NVIDIA GPU, CUDA and Nsight Compute: builds the timing tool with line info,
# profiles one launch at the given batch (`--set full`, clocks as found) and writes, as text,
# the details page, the SASS with its per-instruction stall samples, and the native kernels' SASS.
#   PROFILE_BATCH=1 bash scripts/gpu-profile.sh          # files under $OUT
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
OUT=${OUT:-$root/out-gpu-profile}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
batch=${PROFILE_BATCH:-1}
build=${PROFILE_BUILD:-/tmp/profile-build}
kernel='regex:.*fused_fast.*FlatLayout.*'

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLAYOUTCHECK_GPU_BACKEND=cuda \
  -DLAYOUTCHECK_BUILD_BENCHMARKS=OFF -DLAYOUTCHECK_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-lineinfo \
  >"$OUT/profile-build.log" 2>&1 &&
  cmake --build "$build" -j16 --target layoutcheck_gpu_timing >>"$OUT/profile-build.log" 2>&1 ||
  { tail -30 "$OUT/profile-build.log"; exit 1; }
timing=$build/kernels/layoutcheck_gpu_timing

report=$OUT/ncu-b$batch
ncu --clock-control none --kernel-name-base demangled --kernel-name "$kernel" --launch-skip 10 \
  --launch-count 1 --set full --import-source yes -f -o "$report" \
  "$timing" --batches "$batch" --layers 4 --replays 2 >"$OUT/ncu-run.log" 2>&1 ||
  { tail -30 "$OUT/ncu-run.log"; exit 1; }
ncu -i "$report.ncu-rep" --page details >"$OUT/details-b$batch.txt" 2>&1
ncu -i "$report.ncu-rep" --page source --print-source sass --csv >"$OUT/sass-b$batch.csv" 2>&1
# the kernels live in the GPU library; keep the native [HV,K,V] instances
cuobjdump -sass "$build/kernels/liblayoutcheck_gpu.so" 2>/dev/null |
  awk '/Function : / {on = /gdn_decode_fused_fast.*FlatLayout.*StateHkv/} on' >"$OUT/sass-native.txt"
grep -E "Duration|Executed Instructions|Registers Per|Achieved Occupancy|Issue Slots Busy|Warp Cycles Per Issued" \
  "$OUT/details-b$batch.txt" | head -20
