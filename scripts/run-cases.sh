#!/usr/bin/env bash
# THE main job (README, first command): the shipped cases end to end: GDN (Qwen3-Next vs Qwen3.5),
# RoPE (interleaved vs half-split pairs) and Pangu-Weather (window partitions, LayerNorm).
# On a fresh Debian 12 machine, as root, it installs what it needs, builds the layoutcheck CLI and
# runs, writing every output to out/:
#   lint     the GDN contracts (contracts/gdn/*.yaml)
#   diff     Qwen3.5's flat qkvz and ba buffers read by a kernel built for Qwen3-Next's interleaved
#            layout (text and JSON), and the control: the flat layout read as flat
#   explain  one physical offset, as each model lays it out
#   render   the two qkvz rows one above the other, moved runs marked (SVG; PNG when rsvg-convert
#            is there)
#   probe    one-hot probes of the CPU model of a Qwen3-Next kernel fed Qwen3.5 buffers, and of a
#            native kernel fed the same buffers
#   rope     lint, diff and the dependence probe of a GPT-J-style kernel fed half-split buffers
#   pangu    lint of the grid and window contracts (the gather maps proven), diff of the plain and
#            the shifted windows, the data-movement probe of the window gather (and of a mutant
#            rolling the wrong axes), of the window reverse (and one leaving the roll in place),
#            the dependence probes of LayerNorm, add + LayerNorm (and the residual added in fp32,
#            caught by the rounding-point probe) and LayerNorm + gather, `profile` of the
#            seed article's operator table, and `gate --case pangu`: the illegal calls refused
#            and the block stack's CPU model gate here, INCOMPLETE (exit 3) without a GPU
#   GPU      with a GPU and a GPU build: the same probes on the real kernels (--backend gpu), the
#            RoPE and Pangu ports and mutants (layoutcheck run probes/rope/*.yaml,
#            probes/pangu/*.yaml), the adapter-versus-native timing report (layoutcheck bench,
#            out/bench/), Pangu's gates on the kernels and its operator and block-stack bench
#            (out/pangu-bench/)
# A misread is the expected finding here: the steps on the mismatched pair must exit 1, the
# controls 0; the script fails only when an exit code differs from the expected one.
#
# Environment: LAYOUTCHECK_GPU_BACKEND=none|cuda|hip forces the backend (default: the one whose
# GPU this machine has, else none); LAYOUTCHECK_SKIP_DEPS=1 skips the package check;
# LAYOUTCHECK_OUT / LAYOUTCHECK_BUILD_DIR move out/ and build/gdn; LAYOUTCHECK_CLI=PATH runs a
# CLI built elsewhere (the test command's cpu stage) instead of building one, taken as built
# without a GPU backend unless LAYOUTCHECK_GPU_BACKEND names its own.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="${LAYOUTCHECK_CLI:+$(realpath -m -- "$LAYOUTCHECK_CLI")}"  # as the caller named it
cd "$repo_root"
out_dir="${LAYOUTCHECK_OUT:-$repo_root/out}"
build_dir="${LAYOUTCHECK_BUILD_DIR:-$repo_root/build/gdn}"
jobs="${LAYOUTCHECK_JOBS:-$(nproc)}"
mkdir -p "$out_dir"

# ---- what this machine has ----

nvidia_gpu() { command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; }
amd_gpu_archs() {
  [[ -e /dev/kfd ]] && command -v rocminfo >/dev/null || return 0
  rocminfo 2>/dev/null | grep -oE 'Name:[[:space:]]+gfx[0-9a-f]+' | awk '{print $2}' | sort -u |
    paste -sd ';'
}
find_nvcc() {
  command -v nvcc || { [[ -x /usr/local/cuda/bin/nvcc ]] && echo /usr/local/cuda/bin/nvcc; } || true
}

gpu_reason=""
backend="${LAYOUTCHECK_GPU_BACKEND:-}"
if [[ -n "$cli" && -z "$backend" ]]; then
  backend=none
  gpu_reason="the CLI given in LAYOUTCHECK_CLI is taken as built without a GPU backend"
fi
backend_args=()
amd_archs="$(amd_gpu_archs)"
nvcc="$(find_nvcc)"
if [[ -z "$backend" ]]; then
  if nvidia_gpu && [[ -n "$nvcc" ]]; then
    backend=cuda
  elif [[ -n "$amd_archs" ]] && command -v hipcc >/dev/null; then
    backend=hip
  else
    backend=none
    if nvidia_gpu; then gpu_reason="an NVIDIA GPU is present but nvcc is not (install CUDA 13)"
    elif [[ -n "$amd_archs" ]]; then gpu_reason="an AMD GPU is present but hipcc is not"
    else gpu_reason="no GPU on this machine (nvidia-smi and rocminfo find none)"; fi
  fi
fi
case "$backend" in
  cuda) backend_args=(-DCMAKE_CUDA_COMPILER="$nvcc")
        nvidia_gpu || gpu_reason="built for CUDA, but no NVIDIA GPU is present" ;;
  hip) backend_args=(-DCMAKE_CXX_COMPILER=hipcc)
       if [[ -n "$amd_archs" ]]; then backend_args+=(-DLAYOUTCHECK_HIP_ARCHS="$amd_archs")
       else gpu_reason="built for HIP, but no AMD GPU is present"; fi ;;
  none) [[ -n "$gpu_reason" ]] || gpu_reason="built without a GPU backend (LAYOUTCHECK_GPU_BACKEND=none)" ;;
  *) echo "LAYOUTCHECK_GPU_BACKEND must be none, cuda or hip (got '$backend')" >&2; exit 2 ;;
esac

# ---- dependencies and build ----

if [[ "${LAYOUTCHECK_SKIP_DEPS:-0}" != 1 ]]; then bash scripts/install-deps.sh run; fi
if [[ -n "$cli" ]]; then
  [[ -x "$cli" && "$(basename "$cli")" == layoutcheck ]] ||
    { echo "LAYOUTCHECK_CLI must name a built layoutcheck executable (got '$cli')" >&2; exit 2; }
  echo "== the layoutcheck CLI given: $cli (GPU backend: $backend)"
  cli_dir="$(cd "$(dirname "$cli")" && pwd)"
else
  echo "== building the layoutcheck CLI (GPU backend: $backend) in ${build_dir#"$repo_root"/}"
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DLAYOUTCHECK_GPU_BACKEND="$backend" -DLAYOUTCHECK_BUILD_TESTS=OFF \
    -DLAYOUTCHECK_BUILD_BENCHMARKS=OFF "${backend_args[@]}" \
    >"$out_dir/configure.log" 2>&1 || { cat "$out_dir/configure.log"; exit 2; }
  cmake --build "$build_dir" --parallel "$jobs" --target layoutcheck_cli
  cli_dir="$build_dir/src/cli"
fi
export PATH="$cli_dir:$PATH"  # so every step below reads as the user would type it

# ---- the case ----

results=()
unexpected=0

# step NAME EXPECTED_EXIT OUTPUT_FILE COMMAND...: runs COMMAND, shows and saves its output.
step() {
  local name="$1" expected="$2" output="$out_dir/$3"
  shift 3
  printf '\n== %s\n$ %s\n' "$name" "$*"
  local rc
  set +e
  if [[ "$output" == *.json ]]; then  # keep JSON files pure: diagnostics stay on the terminal
    "$@" | tee "$output"
  else
    "$@" 2>&1 | tee "$output"
  fi
  rc=${PIPESTATUS[0]}
  set -e
  local verdict="ok"
  if [[ "$rc" -ne "$expected" ]]; then
    verdict="UNEXPECTED (wanted $expected)"
    unexpected=1
  fi
  results+=("$(printf '%-64s exit %d  %s' "$name" "$rc" "$verdict")")
}

qkvz_flat=contracts/gdn/qwen3_5.qkvz.yaml
qkvz_interleaved=contracts/gdn/qwen3_next.qkvz.yaml
ba_flat=contracts/gdn/qwen3_5.ba.yaml
ba_interleaved=contracts/gdn/qwen3_next.ba.yaml

step "lint the GDN contracts" 0 lint.txt layoutcheck lint contracts/gdn/*.yaml
step "diff qkvz: Qwen3.5 buffer, Qwen3-Next kernel" 1 qkvz-diff.txt \
  layoutcheck diff "$qkvz_flat" "$qkvz_interleaved"
step "diff qkvz (JSON)" 1 qkvz-diff.json layoutcheck diff "$qkvz_flat" "$qkvz_interleaved" --json
step "diff ba: Qwen3.5 buffer, Qwen3-Next kernel" 1 ba-diff.txt \
  layoutcheck diff "$ba_flat" "$ba_interleaved"
step "diff qkvz at 16/32 heads (--set HV=32)" 1 qkvz-diff-hv32.txt \
  layoutcheck diff "$qkvz_flat" "$qkvz_interleaved" --set HV=32
step "diff qkvz: Qwen3.5 buffer, native kernel" 0 qkvz-diff-native.txt \
  layoutcheck diff "$qkvz_flat" "$qkvz_flat"
step "explain offset 256 in the Qwen3.5 row" 0 explain-qwen3_5.txt \
  layoutcheck explain "$qkvz_flat" --offset 256
step "explain offset 256 in the Qwen3-Next row" 0 explain-qwen3_next.txt \
  layoutcheck explain "$qkvz_interleaved" --offset 256
step "render the two qkvz rows" 0 render.txt \
  layoutcheck render "$qkvz_flat" "$qkvz_interleaved" -o "$out_dir/qkvz-diff.svg"
if command -v rsvg-convert >/dev/null && [[ -s "$out_dir/qkvz-diff.svg" ]]; then
  step "convert the picture to PNG" 0 render-png.txt \
    rsvg-convert -o "$out_dir/qkvz-diff.png" "$out_dir/qkvz-diff.svg"
fi
step "probe (CPU model): Qwen3-Next kernel, Qwen3.5 qkvz" 1 probe-cpu-qkvz.txt \
  layoutcheck probe --producer "$qkvz_flat" --consumer "$qkvz_interleaved"
step "probe (CPU model) JSON" 1 probe-cpu-qkvz.json \
  layoutcheck probe --producer "$qkvz_flat" --consumer "$qkvz_interleaved" --json
step "probe (CPU model): Qwen3-Next kernel, Qwen3.5 ba" 1 probe-cpu-ba.txt \
  layoutcheck probe --producer "$ba_flat" --consumer "$ba_interleaved"
step "probe (CPU model): native kernel, Qwen3.5 qkvz" 0 probe-cpu-native.txt \
  layoutcheck probe --producer "$qkvz_flat" --consumer "$qkvz_flat"

# The pull-request review outputs on the example pairs: Markdown for a PR comment, with the
# picture written beside it.
rope_cos_half=contracts/examples/rope_cos.half_split.yaml
rope_cos_interleaved=contracts/examples/rope_cos.interleaved.yaml
kv_nhd=contracts/examples/kv_cache.nhd.yaml
kv_hnd=contracts/examples/kv_cache.hnd.yaml
step "lint the example contracts (Markdown)" 0 examples-lint.md \
  layoutcheck lint contracts/examples/*.yaml --format md
step "diff qkvz (Markdown, picture beside it)" 1 qkvz-diff.md \
  layoutcheck diff "$qkvz_flat" "$qkvz_interleaved" --format md --picture "$out_dir/qkvz-diff.svg"
step "diff the RoPE cosine cache: half-split, interleaved kernel" 1 rope-cos-diff.md \
  layoutcheck diff "$rope_cos_half" "$rope_cos_interleaved" --format md \
  --picture "$out_dir/rope-cos-diff.svg"
step "diff a KV-cache block: token-major, head-major kernel" 1 kv-cache-diff.md \
  layoutcheck diff "$kv_nhd" "$kv_hnd" --format md --picture "$out_dir/kv-cache-diff.svg"
step "render part of the qkvz rows (--range 0:2048)" 0 render-range.txt \
  layoutcheck render "$qkvz_flat" "$qkvz_interleaved" --range 0:2048 -o "$out_dir/qkvz-diff-range.svg"
if command -v rsvg-convert >/dev/null; then
  for picture in rope-cos-diff kv-cache-diff qkvz-diff-range; do
    if [[ -s "$out_dir/$picture.svg" ]]; then
      step "convert $picture to PNG" 0 "render-$picture-png.txt" \
        rsvg-convert -o "$out_dir/$picture.png" "$out_dir/$picture.svg"
    fi
  done
fi

rope_half=contracts/rope/half_split.x.yaml
rope_interleaved=contracts/rope/interleaved.x.yaml
step "list the cases" 0 cases.txt layoutcheck cases
step "lint the RoPE contracts" 0 rope-lint.txt layoutcheck lint contracts/rope/*.yaml
step "diff x: half-split buffer, interleaved (GPT-J) kernel" 1 rope-diff.txt \
  layoutcheck diff "$rope_half" "$rope_interleaved"
step "probe (CPU model, dependence): interleaved kernel, half-split x" 1 rope-probe-cpu.txt \
  layoutcheck probe --case rope --producer "$rope_half" --consumer "$rope_interleaved" \
  --with contracts/rope/interleaved.out.yaml
step "probe (CPU model, dependence): half-split kernel, half-split x" 0 rope-probe-cpu-native.txt \
  layoutcheck probe --case rope --producer "$rope_half" --consumer "$rope_half"

pangu=contracts/pangu
pangu_level1=(--set LAT=46 --set LON=90 --set C=384)
step "lint the Pangu contracts (gather maps proven)" 0 pangu-lint.txt layoutcheck lint $pangu/*.yaml
step "lint the Pangu windows at the second level (8, 46, 90) x 384" 0 pangu-lint-level1.txt \
  layoutcheck lint $pangu/windows.yaml $pangu/windows.shifted.yaml "${pangu_level1[@]}"
step "diff windows: a plain block's gather read as a shifted block's" 1 pangu-diff.txt \
  layoutcheck diff $pangu/windows.yaml $pangu/windows.shifted.yaml --set C=8
# A shifted block: the kernel writes shifted windows (--with) and the model reads them so
# (--producer-with).
shifted_block=(--with $pangu/windows.shifted.yaml --producer-with $pangu/windows.shifted.yaml)
step "probe (CPU, data-movement): the window gather, shifted windows" 0 pangu-probe-gather.txt \
  layoutcheck probe --case pangu-window-gather --producer $pangu/grid.yaml \
  --consumer $pangu/grid.yaml "${shifted_block[@]}" --set C=8
step "probe (CPU, data-movement): a gather rolling the wrong axes" 1 pangu-probe-gather-mutant.txt \
  layoutcheck probe --case pangu-window-gather --backend cpu:mutant:shift_on_wrong_axes \
  --producer $pangu/grid.yaml --consumer $pangu/grid.yaml "${shifted_block[@]}" --set C=8
step "probe (CPU, dependence): LayerNorm rows of 192" 0 pangu-probe-layernorm.txt \
  layoutcheck probe --case pangu-layernorm --producer $pangu/tokens.yaml \
  --consumer $pangu/tokens.yaml

step "probe (CPU, data-movement): the window reverse, shifted windows" 0 pangu-probe-reverse.txt \
  layoutcheck probe --case pangu-window-reverse --producer $pangu/windows.shifted.yaml \
  --consumer $pangu/windows.shifted.yaml --set C=8
step "probe (CPU, data-movement): a reverse that leaves the roll in place" 1 \
  pangu-probe-reverse-mutant.txt layoutcheck probe --case pangu-window-reverse \
  --backend cpu:mutant:shift_not_undone --producer $pangu/windows.shifted.yaml \
  --consumer $pangu/windows.shifted.yaml --set C=8
step "probe (CPU, dependence): residual add + LayerNorm, the branch" 0 pangu-probe-add-ln.txt \
  layoutcheck probe --case pangu-add-layernorm --producer $pangu/branch.yaml \
  --consumer $pangu/branch.yaml
step "probe (CPU): the residual added in fp32, never rounded (rounding-point probe)" 1 \
  pangu-probe-add-ln-mutant.txt layoutcheck probe --case pangu-add-layernorm \
  --backend cpu:mutant:residual_in_fp32 --producer $pangu/branch.yaml --consumer $pangu/branch.yaml
step "probe (CPU, dependence): LayerNorm fused with the gather, a small grid" 0 \
  pangu-probe-ln-gather.txt layoutcheck probe --case pangu-layernorm-gather \
  --producer $pangu/grid.yaml --consumer $pangu/grid.yaml \
  --set Z=2 --set LAT=7 --set LON=13 --set C=16
step "profile: the seed article's operator table, ranked" 0 pangu-profile.md \
  layoutcheck profile tests/profile/fixtures/pangu_bw1000_operator_table.txt
step "profile: the same model grouped by input shape (JSON)" 0 pangu-profile-shapes.json \
  layoutcheck profile tests/profile/fixtures/pangu_by_input_shape.txt --copy-bandwidth 4000 --json

# Without a GPU the gate cannot run the kernels: INCOMPLETE (3) is the honest answer, not clean.
gate_expected=3
[[ -z "$gpu_reason" ]] && gate_expected=0
step "gate: Pangu's operator, model and end-to-end gates" "$gate_expected" pangu-gate.md \
  layoutcheck gate --case pangu

gpu_ran=0
if [[ -z "$gpu_reason" ]]; then
  gpu_ran=1
  step "probe (GPU): upstream kernel fed Qwen3.5 qkvz" 1 probe-gpu-qkvz.txt \
    layoutcheck probe --backend gpu --producer "$qkvz_flat" --consumer "$qkvz_interleaved"
  step "probe (GPU): native kernel fed Qwen3.5 qkvz" 0 probe-gpu-native.txt \
    layoutcheck probe --backend gpu --producer "$qkvz_flat" --consumer "$qkvz_flat"
  step "run (GPU): correct half-split RoPE port" 0 rope-run-half-split.txt \
    layoutcheck run probes/rope/half_split_port.yaml
  step "run (GPU): interleaved RoPE port in a half-split model" 1 rope-run-interleaved.txt \
    layoutcheck run probes/rope/interleaved_port.yaml
  # Pangu's ports (probes/pangu): the correct ones are clean, each mutant is a finding.
  for port in gather_by_map gather_indexed reverse_by_map reverse_indexed layer_norm \
      add_layer_norm layer_norm_gather; do
    step "run (GPU): Pangu port ${port}_port" 0 "pangu-run-$port.txt" \
      layoutcheck run "probes/pangu/${port}_port.yaml"
  done
  for port in gather_shift_on_wrong_axes gather_padding_wrong_side gather_minus_one_as_token \
      reverse_shift_not_undone layer_norm_rows_as_pairs layer_norm_partial_wave_dropped \
      layer_norm_one_pass_statistics add_layer_norm_residual_in_fp32; do
    step "run (GPU): Pangu mutant ${port}_port" 1 "pangu-run-$port.txt" \
      layoutcheck run "probes/pangu/${port}_port.yaml"
  done
  # upstream-direct is in the report as a negative control that must come out INVALID; bench exits
  # 1 only when a real path is INVALID (or the control is not), so a sound run exits 0.
  step "bench: adapter vs native timing report" 0 bench.txt \
    layoutcheck bench --case gdn-decode --out "$out_dir/bench"
  step "bench: Pangu operators and the block stack, generic vs native" 0 pangu-bench.txt \
    layoutcheck bench --case pangu --out "$out_dir/pangu-bench"
fi

# ---- summary ----

printf '\n========== cases summary (GPU backend: %s) ==========\n' "$backend"
printf '%s\n' "${results[@]}"
if [[ "$gpu_ran" -eq 0 ]]; then
  echo "GPU parts SKIPPED: $gpu_reason. The CPU-model probes above stand in for the kernels;"
  echo "  run this script on a machine with a GPU for 'probe --backend gpu', 'bench' and the"
  echo "  gates' GPU checks ('gate --case pangu' is INCOMPLETE here, by design)."
fi
echo "outputs: ${out_dir#"$repo_root"/}/"
if [[ "$unexpected" -ne 0 ]]; then
  echo "RESULT: FAILED (an exit code differs from the expected one)"
  exit 1
fi
echo "RESULT: the case ran as expected (misreads found where the layouts differ, none where they agree)"
