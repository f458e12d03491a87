#!/usr/bin/env bash
# Kernel tuning on the GPU machine (kernels/PERF_NOTES.md): builds the timing tool once per
# variant — a copy of the tree with one sed edit applied — and prints each variant's native and
# baseline rows, so several hypotheses cost one device call. The committed tree is the baseline.
#   bash scripts/gpu-tune-variants.sh 'NAME|FILE|SED-EXPRESSION' ...
#   e.g. 'chunk16|kernels/gdn_decode_fused.hip|s/kStreamChunk = 32/kStreamChunk = 16/'
# A variant that spans files is a patch instead: 'NAME|FILE.patch|' (applied with patch -p1 to
# the copy; `git diff -R > old.patch` times the last commit beside the working tree).
# Environment: TUNE_BATCHES (default 1,64,256), TUNE_ARGS (more options for the timing tool, e.g.
# --overlapped); logs under $OUT/tune-<name>.log.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$root/out-gpu-tune}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
batches=${TUNE_BATCHES:-1,64,256}
read -r -a extra_args <<<"${TUNE_ARGS:-}"

time_variant() {  # NAME SOURCE-TREE
  local name=$1 tree=$2 build=/tmp/tune-build-$1
  {
    cmake -S "$tree" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLAYOUTCHECK_GPU_BACKEND=cuda \
      -DLAYOUTCHECK_BUILD_BENCHMARKS=OFF -DLAYOUTCHECK_BUILD_TESTS=OFF -DLAYOUTCHECK_PTXAS_VERBOSE=ON \
      && cmake --build "$build" -j16 --target layoutcheck_gpu_timing \
      && "$build/kernels/layoutcheck_gpu_timing" --batches "$batches" --layers 48 --replays 20 \
        --split-sweep "${extra_args[@]}"
  } >"$OUT/tune-$name.log" 2>&1 || { echo "$name: FAILED (see tune-$name.log)"; tail -5 "$OUT/tune-$name.log"; return; }
  grep -E '^\| (native|baseline) \|' "$OUT/tune-$name.log" | sed "s/^/$name /"
}

time_variant committed "$root"
for spec in "$@"; do
  IFS='|' read -r name file expression <<<"$spec"
  tree=/tmp/tune-tree-$name
  rm -rf "$tree" && mkdir -p "$tree"
  tar -C "$root" --exclude='./build*' --exclude='./out*' -cf - . | tar -C "$tree" -xf -
  if [[ $file == *.patch ]]; then
    patch -s -p1 -d "$tree" <"$root/$file" || { echo "$name: $file does not apply"; continue; }
  elif ! sed -i "$expression" "$tree/$file" || cmp -s "$root/$file" "$tree/$file"; then
    echo "$name: the edit changed nothing in $file"
    continue
  fi
  time_variant "$name" "$tree"
done
