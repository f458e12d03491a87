#!/usr/bin/env bash
# The adapter-versus-native timing report on a GPU machine: builds layoutcheck with the
# CUDA backend, runs `layoutcheck bench --case gdn-decode`, copies report.md, report.json,
# chart.svg and the log to $OUT (default out/bench), and prints the report's tables last.
#
#   scripts/gpu-bench.sh --fetch-deps      once, on a machine with apt and a network: downloads the
#                                          Debian packages the build needs into .deps/ (ignored by
#                                          git) for a GPU machine that has nvcc but no package access
#   scripts/gpu-bench.sh [--smoke] [BENCH OPTIONS]
#                                          on the GPU machine; BENCH OPTIONS go to `layoutcheck
#                                          bench` (default: --batch 1,8,64,256 --layers 48
#                                          --steps 1024). --smoke first runs a tiny bench (batch 1,
#                                          2 layers, 8 steps) and stops if it fails.
# Exit status: that of the bench (0 clean, 1 a path INVALID, 2 error), or the build's.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deps="$root/.deps"
packages=(libyaml-cpp-dev libyaml-cpp0.7 libeigen3-dev libcli11-dev)

if [[ "${1:-}" == "--fetch-deps" ]]; then
  mkdir -p "$deps/debs"
  (cd "$deps/debs" && apt-get download "${packages[@]}")
  exclude="$root/.git/info/exclude"
  grep -qx '/.deps/' "$exclude" 2>/dev/null || echo '/.deps/' >>"$exclude"
  echo "gpu-bench: ${#packages[@]} packages in $deps/debs; carry .deps to the GPU machine"
  exit 0
fi

smoke=0
if [[ "${1:-}" == "--smoke" ]]; then
  smoke=1
  shift
fi
bench_args=("$@")
[[ ${#bench_args[@]} -gt 0 ]] || bench_args=(--batch 1,8,64,256 --layers 48 --steps 1024)

out="${OUT:-$root/out/bench}"
build="${LAYOUTCHECK_BENCH_BUILD:-$root/build-gpu-bench}"
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"

# Dependencies: the system's when CMake finds them, else the carried Debian packages.
cmake_prefix=()
if [[ -d "$deps/debs" ]]; then
  mkdir -p "$deps/root"
  for deb in "$deps"/debs/*.deb; do dpkg -x "$deb" "$deps/root"; done
  cmake_prefix=(-DCMAKE_PREFIX_PATH="$deps/root/usr")
  export LD_LIBRARY_PATH="$deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

echo "== build (CUDA backend) in $build"
start=$SECONDS
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLAYOUTCHECK_GPU_BACKEND=cuda \
  -DLAYOUTCHECK_BUILD_TESTS=OFF -DLAYOUTCHECK_BUILD_BENCHMARKS=OFF "${cmake_prefix[@]}" \
  >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 2; }
cmake --build "$build" -j"$(nproc)" --target layoutcheck_cli >>"$out/build.log" 2>&1 ||
  { grep -E 'error|Error' "$out/build.log" | head -40; exit 2; }
echo "built in $((SECONDS - start)) s"
cli="$build/src/cli/layoutcheck"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv 2>/dev/null || true

if [[ $smoke -eq 1 ]]; then
  echo "== smoke: batch 1, 2 layers, 8 steps"
  "$cli" bench --batch 1 --layers 2 --steps 8 --replays 5 --warmup 2 --no-probe \
    --out "$out/smoke" >"$out/smoke.log" 2>&1 || {
    status=$?
    if [[ $status -ne 1 ]]; then tail -40 "$out/smoke.log"; exit "$status"; fi
  }
  grep -A8 '^### batch 1' "$out/smoke/report.md" || true
fi

echo "== layoutcheck bench ${bench_args[*]}"
start=$SECONDS
set +e
"$cli" bench --case gdn-decode "${bench_args[@]}" --out "$out/report" >"$out/bench.log" 2>&1
status=$?
set -e
echo "bench finished in $((SECONDS - start)) s with exit status $status"
if [[ ! -f "$out/report/report.md" ]]; then
  tail -40 "$out/bench.log"
  exit "$status"
fi
# $OUT keeps files at most two folders down: put the report beside the logs.
cp "$out/report/report.md" "$out/report/report.json" "$out/report/chart.svg" "$out/"
rm -rf "$out/smoke" "$out/report"

# Gates and fairness first, the timing tables last: the end of the output is what a log shows.
sed -n '/^## INVALID paths/,$p' "$out/report.md"
sed -n '1,/^## INVALID paths/p' "$out/report.md" | sed '$d'
exit "$status"
