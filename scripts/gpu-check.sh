#!/usr/bin/env bash
# The GPU check, run on a machine with an NVIDIA GPU and CUDA 13:
# configure and build with the CUDA backend, run the GPU tests (every path against the fp64
# reference, GPU probes, adapters, ported kernels and mutants), compute-sanitizer memcheck,
# racecheck and synccheck on a reduced set of tests, `layoutcheck run` on every shipped port and
# mutant (probes/*/*.yaml), and, when asked, the GDN timing report (step bench) and Pangu's gates
# and operator bench beside PyTorch's figures on the same GPU (step pangu). Logs are packed into
# $OUT/gpu-check-logs.tar.gz; a short table is printed last.
#   bash scripts/gpu-check.sh
#   GPU_CHECK_STEPS="build tests" bash scripts/gpu-check.sh   (steps: build tests sanitize cli
#   ports bench pangu; ports runs only the `layoutcheck run` of each manifest in GPU_CHECK_PORTS,
#   which cli runs too;
#   GPU_CHECK_TEST_LIMIT: seconds for gpu_tests, default 480; GPU_CHECK_TEST_FILTER: a gtest
#   filter for gpu_tests, default all). On the H200 the build takes about 50 s, gpu_tests 250-330 s
#   (about 420 s on the H100) and pangu about 160 s, so "build tests pangu" may not fit one 600-s
#   call: run "build tests" and "build pangu" as two calls where a call is limited so.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
OUT=${OUT:-$root/out-gpu-check}
mkdir -p "$OUT"
# Only a few files come back from the device machine: logs are kept in one folder and packed into
# $OUT/gpu-check-logs.tar.gz after every step, so whatever finishes is returned.
logs=$(mktemp -d)
build=${GPU_CHECK_BUILD:-$root/build-gpu}
steps=${GPU_CHECK_STEPS:-"build tests sanitize cli"}
export PATH=/usr/local/cuda/bin:$PATH
summary=$logs/summary.txt
: >"$summary"

# step NAME TIMEOUT COMMAND...: runs with a time limit, logs to NAME.log, records rc and time.
step() {
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS
  timeout "$limit" "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  printf '%-22s rc=%-3s %4ss\n' "$name" "$rc" "$((SECONDS - start))" | tee -a "$summary"
  tar czf "$OUT/gpu-check-logs.tar.gz" -C "$logs" . 2>/dev/null
  return $rc
}
wants() { [[ " $steps " == *" $1 "* ]]; }

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
  nvcc --version | tail -2
  cmake --version | head -1
} >"$logs/machine.txt" 2>&1
cat "$logs/machine.txt"

if wants build; then
  step configure 60 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DLAYOUTCHECK_GPU_BACKEND=cuda -DLAYOUTCHECK_BUILD_BENCHMARKS=OFF \
    -DLAYOUTCHECK_PTXAS_VERBOSE=ON || { cat "$logs/configure.log"; exit 1; }
  step build 300 cmake --build "$build" -j16 --target gpu_tests codegen_tests layoutcheck_cli \
    || { tail -60 "$logs/build.log"; exit 1; }
  grep -A3 "Compiling entry function.*gdn_decode_fused_fast.*FlatLayout" "$logs/build.log" \
    | grep -E "registers|spill" >"$logs/ptxas-native.txt" || true
fi
tests=$build/tests/gpu_tests
cli=$build/src/cli/layoutcheck

if wants tests; then
  # line-buffered, so a run stopped by its time limit still shows what passed
  step gpu_tests "${GPU_CHECK_TEST_LIMIT:-480}" stdbuf -oL -eL "$tests" \
    --gtest_output=xml:"$logs/gpu_tests.xml" --gtest_filter="${GPU_CHECK_TEST_FILTER:-*}"
  step codegen_tests 60 "$build/tests/codegen_tests" --gtest_brief=1
fi

if wants sanitize; then
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  filter='GdnPathTiles.*:Shapes/GdnPathsTest.ValidPathsMatchTheReference/2x6x37x65_batch3'
  filter+=':Shapes/GdnPathsTest.ValidPathsMatchTheReference/1x3x128x96_batch1'
  filter+=':HandWrittenAdapters.*:GeneratedAdapters.StateTranspose*:GpuWave.*'
  filter+=':RecurrentPorts.*:RopePorts.*'
  step memcheck 120 "$sanitizer" --tool memcheck --leak-check full --error-exitcode 9 \
    "$tests" --gtest_brief=1 --gtest_filter="$filter"
  step racecheck 120 "$sanitizer" --tool racecheck --error-exitcode 9 \
    "$tests" --gtest_brief=1 --gtest_filter="$filter"
  step synccheck 60 "$sanitizer" --tool synccheck --error-exitcode 9 \
    "$tests" --gtest_brief=1 --gtest_filter='GdnPathTiles.*'
fi

# Every shipped port and mutant (GPU_CHECK_PORTS, default probes/*/*.yaml), each case's: the
# verdict line of each goes into the table. Four at a time: each is mostly host-side decoding,
# and the GPU has room for all.
run_ports() {
  local running=0 manifest tag
  for manifest in ${GPU_CHECK_PORTS:-probes/*/*.yaml}; do
    tag=$(basename "$(dirname "$manifest")")_$(basename "$manifest" .yaml)
    step "run_$tag" 240 "$cli" run "$manifest" &
    if (( ++running % 4 == 0 )); then wait; fi
  done
  wait
}

if wants ports && ! wants cli; then run_ports; fi

if wants cli; then
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  run_ports
  # One launch of a version-1 port under memcheck and racecheck (the version-2 ports' are in
  # the GPU tests, RunSanitize.*).
  step run_sanitize_gdn_correct_native 300 "$cli" run probes/gdn/correct_native.yaml --sanitize \
    --set H=2 --set HV=4 --set K=32 --set V=16
  # The tools' own logs of the racing and the out-of-bounds port, as `run --sanitize` reads them.
  step raw_racecheck 120 "$sanitizer" --tool racecheck "$cli" run \
    probes/rope/racing_readers_port.yaml --launch-once
  step raw_memcheck 120 "$sanitizer" --tool memcheck "$cli" run \
    probes/rope/out_of_bounds_port.yaml --launch-once
  if "$cli" probe --help 2>/dev/null | grep -q -- --backend; then
    for shape in "" "--set HV=32"; do
      tag=${shape:+_hv32}
      step "probe_upstream$tag" 120 "$cli" probe --backend gpu:upstream $shape \
        --producer contracts/gdn/qwen3_5.qkvz.yaml --consumer contracts/gdn/qwen3_next.qkvz.yaml
      step "probe_native$tag" 120 "$cli" probe --backend gpu:native $shape \
        --producer contracts/gdn/qwen3_5.qkvz.yaml --consumer contracts/gdn/qwen3_5.qkvz.yaml
    done
  else
    echo "probe CLI without --backend: skipped" | tee -a "$summary"
  fi
fi

echo
if wants bench; then
  # The GDN timing report, overlapped launches (the committed results/bench-h200-overlapped).
  step bench 420 "$cli" bench --case gdn-decode --batch 1,8,64,256 --layers 48 --steps 1024 \
    --launch overlapped --out "$logs/bench"
  cp "$logs/bench/report.json" "$OUT/bench-overlapped.json" 2>/dev/null
fi

if wants pangu; then
  # The merge gates on the kernels (operator inputs, the block stack's model and end-to-end
  # gates), then PyTorch's figures (torch.compile and eager, each in a CUDA graph), then the bench beside
  # them: one run, one GPU.
  step pangu_gate 300 "$cli" gate --case pangu --out "$logs/pangu-gate.md"
  cp "$logs/pangu-gate.md" "$OUT/pangu-gate.md" 2>/dev/null
  step pangu_framework 420 python3 scripts/pangu-framework-bench.py --json "$logs/framework.json"
  step pangu_bench 420 "$cli" bench --case pangu --framework "$logs/framework.json" \
    --out "$logs/pangu"
  cp "$logs/framework.json" "$OUT/pangu-framework.json" 2>/dev/null
  cp "$logs/pangu/report.json" "$OUT/pangu-bench.json" 2>/dev/null
  cp "$logs/pangu/report.md" "$OUT/pangu-bench.md" 2>/dev/null
fi

for log in gpu_tests codegen_tests memcheck racecheck synccheck; do
  [[ -f $logs/$log.log ]] || continue
  echo "== $log: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)|ERROR SUMMARY|RACECHECK SUMMARY|verdict:' \
    "$logs/$log.log" | tail -4 | tr '\n' ' ')"
  grep -E '^\[  FAILED  \]' "$logs/$log.log" | head -20
done
for log in "$logs"/run_*.log; do
  [[ -f $log ]] || continue
  printf '%-40s %s\n' "$(basename "$log" .log)" "$(grep -E '^port ' "$log" | tail -1 | cut -c1-200)"
done
[[ -f $logs/bench/report.md ]] && grep -E '^\| (native|adapter\+upstream|baseline) \||^### batch' \
  "$logs/bench/report.md"
[[ -f $logs/pangu/report.md ]] && sed -n '/^## Time per call/,/^## Not merged/p' \
  "$logs/pangu/report.md"
[[ -f $logs/ptxas-native.txt ]] && { echo "== ptxas (native, fast path):"; cat "$logs/ptxas-native.txt"; }
echo
cat "$summary"
# Each step's status is in the summary above (the cli steps on the upstream port exit 1 by
# design: they find its misreads); the script itself fails only when the build does.
exit 0
