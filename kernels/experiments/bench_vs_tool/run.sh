#!/usr/bin/env bash
# Why the bench reads native at batch 1 (overlapped) about 0.1 µs above the timing tool
# (PERF_NOTES "Next experiments" 1, session 10). Runs on the GPU machine after
# scripts/gpu-check.sh's build step (BUILD, default build-gpu). The patched variants edit the
# tree in place, rebuild the two binaries and restore the files on exit.
#   bash kernels/experiments/bench_vs_tool/run.sh values    replays, path order, fresh stack, inputs
#   bash kernels/experiments/bench_vs_tool/run.sh launch    layers, stream kinds, queued replays
#   bash kernels/experiments/bench_vs_tool/run.sh process   native timed at three points of the bench
#   bash kernels/experiments/bench_vs_tool/run.sh gates     native timed after each gate of each path
#   bash kernels/experiments/bench_vs_tool/run.sh prelude   the tool after one of the gates' actions
#   bash kernels/experiments/bench_vs_tool/run.sh gates-prelude   the tool after the gates, or a part
#   bash kernels/experiments/bench_vs_tool/run.sh repeated  the tool after N of one runner action
#   bash kernels/experiments/bench_vs_tool/run.sh context   the same under serial launches, eager
#                                                           module loading, 1 or 32 connections
#   bash kernels/experiments/bench_vs_tool/run.sh nodes     the tool after N one-thread launches
# Logs are packed into $OUT/bench-vs-tool.tar.gz; a line per run is printed. The patches are
# against commit fbccb20, before the bench and the tool settled the launch cost (launch_state.h):
# run it on that commit's tree (`git worktree add /tmp/t fbccb20`, then copy this folder in).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
build=${BUILD:-$root/build-gpu}
logs=$(mktemp -d)
export PATH=/usr/local/cuda/bin:$PATH
touched=(src/layoutcheck/gpu_bench/gdn_decode_bench.cpp src/layoutcheck/gpu_bench/graph_timing.cpp
  kernels/tools/gpu_quick_timing.cpp)
backup=$(mktemp -d)
for f in "${touched[@]}"; do cp "$f" "$backup/$(basename "$f")"; done
restore() { for f in "${touched[@]}"; do cp "$backup/$(basename "$f")" "$f"; done; }
trap 'restore; tar czf "${OUT:-/tmp}/bench-vs-tool.tar.gz" -C "$logs" .' EXIT

tool() {  # LABEL ARGS...: the tool's native and baseline medians at batch 1 (LAUNCH: --overlapped)
  local label=$1
  shift
  "$build/kernels/layoutcheck_gpu_timing" --batches 1 --layers 48 ${LAUNCH---overlapped} "$@" \
    >"$logs/$label.log" 2>&1 || echo "$label: failed"
  grep -E '^\| (native|baseline) \|' "$logs/$label.log" |
    awk -F'|' -v l="$label" '{printf "%-28s %-10s %s us\n", l, $2, $5}'
}
bench() {  # LABEL ARGS...: the bench's batch-1 native and baseline medians
  local label=$1
  shift
  rm -rf "/tmp/bench-$label"
  "$build/src/cli/layoutcheck" bench --batch 1 --steps 8 --launch overlapped --no-probe --quiet \
    --out "/tmp/bench-$label" "$@" >"$logs/$label.log" 2>&1
  grep -E '^\| (native|baseline) \| VALID \| [0-9.]+ µs' "/tmp/bench-$label/report.md" |
    awk -F'|' -v l="$label" '{printf "%-28s %-10s %s\n", l, $2, $4}'
}
variant() {  # PATCH: the committed tree plus PATCH, both binaries rebuilt
  restore
  [[ -z $1 ]] || patch -s -p1 <"$here/$1" || { echo "$1 does not apply"; return 1; }
  cmake --build "$build" -j16 --target layoutcheck_cli layoutcheck_gpu_timing \
    >"$logs/rebuild-${1:-committed}.log" 2>&1 || tail -20 "$logs/rebuild-${1:-committed}.log"
}

nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
case ${1:-} in
  values)  # run 68: none of these moved either figure
    for i in 1 2; do
      tool "tool-r30-$i" --replays 30
      tool "tool-r400-$i" --replays 400
      bench "bench-r30-$i" --replays 30 --warmup 3
      bench "bench-r400-$i" --replays 400 --warmup 3
    done
    variant bench_native_first.patch && for i in 1 2; do bench "bench-native-first-$i"; done
    variant bench_fresh_stack.patch && for i in 1 2; do bench "bench-fresh-stack-$i"; done
    variant "" && sed -i 's/distinct, 1234)/distinct, 0x1a70c4ecull + 1)/' "${touched[2]}" &&
      cmake --build "$build" --target layoutcheck_gpu_timing >/dev/null &&
      for i in 1 2; do tool "tool-bench-inputs-$i" --replays 30; done
    ;;
  launch)  # run 69: per layer, not per replay; neither the stream's kind nor the submission
    for layers in 24 48 96; do
      tool "tool-layers-$layers" --layers "$layers" --replays 100
      bench "bench-layers-$layers" --layers "$layers"
    done
    variant bench_nonblocking.patch && bench bench-nonblocking-stream
    variant tool_blocking.patch && tool tool-blocking-stream --replays 100
    variant queued_replays.patch && for layers in 24 48 96; do
      tool "tool-queued-layers-$layers" --layers "$layers" --replays 100
      bench "bench-queued-layers-$layers" --layers "$layers"
    done
    ;;
  process)  # run 70: the gates leave native slower, at the same addresses
    variant bench_early_native.patch && for i in 1 2; do
      bench "bench-early-$i"
      grep EXPERIMENT "$logs/bench-early-$i.log"
      tool "tool-addresses-$i" --replays 100
      grep EXPERIMENT "$logs/tool-addresses-$i.log"
    done
    ;;
  gates)  # run 71: the first gate (baseline's reference check) leaves native slower
    variant bench_native_between_gates.patch && for i in 1 2; do
      bench "bench-between-gates-$i"
      grep EXPERIMENT "$logs/bench-between-gates-$i.log"
    done
    ;;
  prelude)  # run 72: no single action of the gates leaves native slower
    variant tool_prelude.patch && for i in 1 2; do
      for prelude in none runner-construct runner-baseline runner-native stream-launch-baseline \
        stream-launch-native memset memset-download download; do
        LC_PRELUDE=$prelude tool "tool-prelude-$prelude-$i" --replays 100
      done
    done
    ;;
  gates-prelude)  # run 73: the gates do it; so do 11 runner steps, not the fp64 reference
    variant tool_gates_prelude.patch && for i in 1 2; do
      for prelude in none reference gates gates-single steps cpu; do
        LC_PRELUDE=$prelude tool "tool-gates-prelude-$prelude-$i" --replays 100
      done
    done
    ;;
  repeated)  # run 74: two runner steps do it, one does not; so do 11 memsets or 11 launches
    variant tool_repeated_prelude.patch && for i in 1 2; do
      for prelude in none:0 steps:1 steps:2 steps:3 steps:5 steps:11 uploads:11 downloads:11 \
        memsets:11 launches:11 launches-nosync:11 launches:100; do
        LC_PRELUDE=$prelude tool "tool-repeated-$prelude-$i" --replays 100
      done
    done
    ;;
  context)  # run 75: serial launches pay 0.35 µs a kernel; not module loading, not connections
    variant tool_repeated_prelude.patch && for i in 1 2; do
      for prelude in none:0 memsets:2 launches:2 steps:2; do
        LC_PRELUDE=$prelude tool "tool-context-$prelude-$i" --replays 100
        LAUNCH= LC_PRELUDE=$prelude tool "tool-context-serial-$prelude-$i" --replays 100
      done
      for prelude in none:0 steps:2; do
        CUDA_MODULE_LOADING=EAGER LC_PRELUDE=$prelude tool "tool-context-eager-$prelude-$i" --replays 100
        for c in 1 32; do
          CUDA_DEVICE_MAX_CONNECTIONS=$c LC_PRELUDE=$prelude \
            tool "tool-context-connections$c-$prelude-$i" --replays 100
        done
      done
    done
    ;;
  nodes)  # run 76
    variant tool_nodes_prelude.patch && for i in 1 2; do
      for prelude in none:0 nodes:2 nodes:4 nodes:6 nodes:8 nodes:16 nodes:64 nodes-legacy:16; do
        LC_PRELUDE=$prelude tool "tool-nodes-$prelude-$i" --replays 100
      done
      for prelude in none:0 nodes:16; do
        LAUNCH= LC_PRELUDE=$prelude tool "tool-nodes-serial-$prelude-$i" --replays 100
      done
    done
    ;;
  *) echo "usage: run.sh values|launch|process|gates|prelude|gates-prelude|repeated|context|nodes" >&2; exit 2 ;;
esac
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
