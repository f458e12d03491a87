#!/usr/bin/env bash
# THE test command (README, second command; .ci/run calls it). On a fresh Debian 12 machine, as
# root, it installs what it needs, then builds and tests every configuration CI cares about:
#
#   deps      Debian packages (scripts/install-deps.sh test); nothing when all are present
#   cpu       Release, CPU only: every GoogleTest suite, the CLI tests, consumer_project
#             (cmake --install, then tests/consumer built and run against the installed package)
#             and the Python module's pytest files (python/tests; python_installed imports it
#             after cmake --install)
#   bench     the lint/diff benchmark on a 10^7-element row and the other benchmarks: prints
#             figures, judged by a reader, not by a threshold
#   cases     the main job (scripts/run-cases.sh, README's first command) as a user runs it, CPU
#             only: every step's exit code the expected one
#   sanitize  the same tests built with AddressSanitizer + UndefinedBehaviorSanitizer, the Python
#             ones too (the interpreter with the ASan runtime preloaded), but the install test
#   fuzz      libFuzzer for LAYOUTCHECK_FUZZ_SECONDS (30), side by side, on the contract parser,
#             seeded with the shipped contracts and tests/bad_contracts, and on the profile readers,
#             seeded with tests/profile/fixtures: no crash, no leak, no hang
#   hip       the HIP backend for gfx906 and gfx90a with Debian's hipcc: compile and link; with no
#             AMD GPU here the GPU tests must report SKIPPED (a failure is a failure); every
#             shipped port compiled through hipRTC (run --compile-only)
#   cuda      the CUDA backend for sm_90 when nvcc exists: compile and link; GPU tests run (and must
#             pass) when an NVIDIA GPU is present, else they must skip; every shipped port compiled
#             through NVRTC
#
# Every stage runs even after an earlier one failed; the summary at the end lists each stage and
# the exit code is non-zero when any failed. Local iteration: LAYOUTCHECK_SKIP_<STAGE>=1 skips a
# stage (e.g. LAYOUTCHECK_SKIP_HIP=1); CI runs them all. Build trees live in build/<stage>
# (LAYOUTCHECK_BUILD_ROOT), logs in build/logs. LAYOUTCHECK_JOBS overrides the parallelism.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
build_root="${LAYOUTCHECK_BUILD_ROOT:-$repo_root/build}"
log_dir="$build_root/logs"
jobs="${LAYOUTCHECK_JOBS:-$(nproc)}"
fuzz_seconds="${LAYOUTCHECK_FUZZ_SECONDS:-30}"
mkdir -p "$log_dir"

# Tests that cannot run under AddressSanitizer, as a ctest -E regex over that stage's names
# (<concern>_tests.shardN, python_*). Empty: every test runs.
sanitize_exclude="${LAYOUTCHECK_SANITIZE_EXCLUDE:-}"

# ccache (Debian package, installed by the deps stage): the cuda stage's CPU library is the cpu
# stage's sources with the same g++ flags, so it comes from the cache, and reruns are quick. The
# cache lives with the build trees. LAYOUTCHECK_CCACHE=0 turns it off. Decided per stage, after
# the deps stage had its chance to install it.
export CCACHE_DIR="${CCACHE_DIR:-$build_root/ccache}"
# Paths under the repository are hashed relative to the build tree, so a unity batch generated in
# build/cuda hits the same batch compiled in build/cpu (absolute paths would differ by the tree).
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$repo_root}"
launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=)  # empty: clears a launcher an earlier run configured
cuda_launcher=(-DCMAKE_CUDA_COMPILER_LAUNCHER=)
init_launchers() {
  if [[ "${LAYOUTCHECK_CCACHE:-1}" != 0 ]] && command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cuda_launcher=(-DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  fi
}

# ---- helpers (run inside a stage's subshell) ----

note() { echo "$*" >>"$log_dir/$current_stage.note"; }
skip_stage() {
  note "$*"
  exit 77
}

configure() {
  local dir="$1"
  shift
  cmake -S "$repo_root" -B "$dir" -G Ninja "$@"
}

build() {
  local dir="$1"
  shift
  cmake --build "$dir" --parallel "$jobs" "$@"
}

# ctest over a whole tree; the pass line goes into the summary.
run_ctest() {
  local dir="$1"
  shift
  local out="$log_dir/$current_stage.ctest"
  ctest --test-dir "$dir" --output-on-failure --no-tests=error --parallel "$jobs" "$@" 2>&1 |
    tee "$out"
  note "$(grep -E 'tests passed|tests failed' "$out" | tail -n 1)"
}

# Runs the GPU test binary of a build with no usable GPU: it must exit 0, fail nothing and skip
# at least one test, each skip with its message.
expect_gpu_tests_skip() {
  local binary="$1/tests/gpu_tests"
  [[ -x "$binary" ]] || { echo "error: $binary was not built" >&2; return 1; }
  local out="$log_dir/$current_stage.gpu_tests"
  "$binary" 2>&1 | tee "$out"
  if grep -q '^\[  FAILED  \]' "$out"; then
    echo "error: GPU tests failed instead of skipping" >&2
    return 1
  fi
  local skipped
  # gtest's closing summary: "[  SKIPPED ] 3 tests, listed below:"
  skipped="$(grep -oE '^\[  SKIPPED \] [0-9]+ tests?,' "$out" | grep -oE '[0-9]+' || true)"
  if [[ -z "$skipped" || "$skipped" -eq 0 ]]; then
    echo "error: no GPU test reported SKIPPED on a machine without a GPU" >&2
    return 1
  fi
  note "gpu_tests: $skipped skipped (no GPU), 0 failed"
}

# Compiles every shipped port and mutant (probes/*/*.yaml) through the runtime compiler of a build
# (hipRTC or NVRTC), which needs no GPU: each must compile, its log is kept.
# A compilation takes one core: $jobs of them at a time, each into a log of its own, the logs
# joined in the manifests' order.
compile_every_port() {
  local cli="$1/src/cli/layoutcheck" manifest count=0 failed=0 logs
  local out="$log_dir/$current_stage.compile-only"
  local manifests=("$repo_root"/probes/*/*.yaml)
  [[ -f "${manifests[0]}" ]] || { echo "error: no ports under probes/" >&2; return 1; }
  logs="$(mktemp -d)"
  for manifest in "${manifests[@]}"; do
    if (( count >= jobs )); then wait -n || true; fi
    "$cli" run --compile-only "$manifest" >"$logs/$count.log" 2>&1 || touch "$logs/$count.failed" &
    count=$((count + 1))
  done
  wait
  : >"$out"
  for ((i = 0; i < count; ++i)); do
    echo "== ${manifests[i]#"$repo_root"/}" >>"$out"
    cat "$logs/$i.log" >>"$out"
    if [[ -f "$logs/$i.failed" ]]; then
      cat "$logs/$i.log"
      echo "error: ${manifests[i]#"$repo_root"/} does not compile" >&2
      failed=1
    fi
  done
  rm -rf "$logs"
  [[ "$failed" -eq 0 ]] || return 1
  note "run --compile-only: $count ports compiled"
}

# The interpreter the Python module is built for and tested with: Debian's, where apt puts
# python3-numpy and python3-pytest (a python3 earlier on PATH, such as pyenv's, may lack them).
python_for_tests() {
  local candidate
  for candidate in /usr/bin/python3 "$(command -v python3 || true)"; do
    if [[ -x "$candidate" ]] && "$candidate" -c "import numpy, pytest" 2>/dev/null; then
      echo "$candidate"
      return
    fi
  done
  echo "error: no python3 imports numpy and pytest (scripts/install-deps.sh test installs them)" >&2
  return 1
}

gpu_present_nvidia() { command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; }

# ---- stages ----

stage_deps() {
  bash "$repo_root/scripts/install-deps.sh" test
}

stage_cpu() {
  local dir="$build_root/cpu" python
  python="$(python_for_tests)"
  # The test executables' own sources at -O1 (they compile in two thirds of the time at -O3);
  # the library, the CLI and the module they test are the Release build's.
  configure "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="${LAYOUTCHECK_CXX:-g++}" \
    -DLAYOUTCHECK_GPU_BACKEND=none -DLAYOUTCHECK_BUILD_TESTS=ON \
    -DLAYOUTCHECK_BUILD_BENCHMARKS=ON -DLAYOUTCHECK_BUILD_PYTHON=ON \
    -DLAYOUTCHECK_TEST_OPTIMIZATION=-O1 -DPython3_EXECUTABLE="$python" "${launcher[@]}"
  build "$dir"
  # The install/consumer check is a ctest test; make sure it is there rather than silently absent.
  ctest --test-dir "$dir" -N -R '^consumer_project$' | grep -q 'Total Tests: 1' ||
    { echo "error: ctest test consumer_project is not registered" >&2; return 1; }
  local python_tests
  python_tests="$(ctest --test-dir "$dir" -N -R '^python_' | grep -oE 'Total Tests: [0-9]+' |
    grep -oE '[0-9]+')"
  [[ "${python_tests:-0}" -gt 0 ]] ||
    { echo "error: the Python module's tests are not registered" >&2; return 1; }
  run_ctest "$dir"
}

stage_bench() {
  local dir="$build_root/cpu"
  [[ -f "$dir/CMakeCache.txt" ]] ||
    configure "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="${LAYOUTCHECK_CXX:-g++}" \
      -DLAYOUTCHECK_GPU_BACKEND=none -DLAYOUTCHECK_BUILD_BENCHMARKS=ON "${launcher[@]}"
  build "$dir" --target contract_benchmark
  local out="$log_dir/bench.contract"
  "$dir/tests/benchmarks/contract_benchmark" 2>&1 | tee "$out"
  # One summary line per benchmark: name and wall time.
  while read -r name time unit _; do
    note "${name%%/*}: $time $unit"
  done < <(grep -E '^BM_' "$out" || true)
  # The other benchmarks (probe sweep, ...) when they exist.
  local other
  for other in "$dir"/tests/benchmarks/*_benchmark; do
    [[ -x "$other" && "$(basename "$other")" != contract_benchmark ]] || continue
    echo "---- $(basename "$other")"
    "$other"
  done
}

stage_cases() {
  # With the cpu stage's CLI (the same Release build the script would make), brought up to date.
  local dir="$build_root/cpu"
  [[ -f "$dir/CMakeCache.txt" ]] ||
    configure "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="${LAYOUTCHECK_CXX:-g++}" \
      -DLAYOUTCHECK_GPU_BACKEND=none "${launcher[@]}"
  build "$dir" --target layoutcheck_cli
  LAYOUTCHECK_CLI="$dir/src/cli/layoutcheck" LAYOUTCHECK_SKIP_DEPS=1 \
    LAYOUTCHECK_OUT="$build_root/cases" \
    bash "$repo_root/scripts/run-cases.sh" | tee "$log_dir/cases.run"
  note "$(grep -cE ' exit [0-9]+ +ok$' "$log_dir/cases.run") steps with their expected exit codes"
}

stage_sanitize() {
  local dir="$build_root/sanitize" python
  python="$(python_for_tests)"
  # -O1 -g1 keeps asserts, gives ASan line numbers, and keeps the numeric tests fast enough. The
  # test executables' own sources at -O0 (instrumented code at -O1 compiles in twice the time),
  # as in the cpu stage at -O1: the code under test keeps its configuration's flags.
  configure "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DCMAKE_CXX_COMPILER="${LAYOUTCHECK_CXX:-g++}" -DLAYOUTCHECK_SANITIZE=ON \
    -DLAYOUTCHECK_GPU_BACKEND=none -DLAYOUTCHECK_BUILD_TESTS=ON \
    -DLAYOUTCHECK_BUILD_BENCHMARKS=OFF -DLAYOUTCHECK_BUILD_PYTHON=ON \
    -DLAYOUTCHECK_TEST_SHARDS=4 -DLAYOUTCHECK_TEST_OPTIMIZATION=-O0 \
    -DPython3_EXECUTABLE="$python" "${launcher[@]}"
  # Stack use after return is left at ASan's default (off): it tripled the probe sweeps' time
  # under ASan; returned views of locals are GCC's -Wdangling-pointer and -Wreturn-local-addr.
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:check_initialization_order=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  build "$dir"
  # The install test (consumer_project) proves the package, which the cpu stage did; here it
  # would cost a minute on two cores and prove nothing more. Each GoogleTest executable runs as
  # four shards (LAYOUTCHECK_TEST_SHARDS): an ASan process takes a quarter of a second to start
  # and end, longer than most tests.
  local results="$log_dir/sanitize.junit.xml"
  if [[ -n "$sanitize_exclude" ]]; then
    note "excluded under ASan: $sanitize_exclude"
    run_ctest "$dir" -LE install -E "$sanitize_exclude" --output-junit "$results"
  else
    run_ctest "$dir" -LE install --output-junit "$results"
  fi
  # The shards' own summaries (their output is in ctest's JUnit file), so the count of tests that
  # ran is in the stage's line.
  local gtests
  gtests="$(grep -oE '\[  PASSED  \] [0-9]+ tests?\.' "$results" | grep -oE '[0-9]+' |
    awk '{ total += $1 } END { print total + 0 }')"
  note "GoogleTest: ${gtests:-0} tests passed"
}

# run_fuzzer NAME DICT SEED...: the libFuzzer target NAME for fuzz_seconds over the seeds, new inputs
# into a fresh work corpus; non-zero on a crash, leak or hang (the failing input in artifacts/).
# Its output goes to the log fuzz.NAME.run and its one-line summary to the work folder's summary,
# so that two can run side by side.
run_fuzzer() {
  local name="$1" dict="$2"
  shift 2
  local work="$build_root/fuzz/$name"
  local seeds="$work/seeds" corpus="$work/corpus" artifacts="$work/artifacts" file
  rm -rf "$work"
  mkdir -p "$seeds" "$corpus" "$artifacts"
  [[ $# -gt 0 ]] || { echo "$name: no seeds" >"$work/summary"; return 1; }
  for file in "$@"; do cp "$file" "$seeds/$(echo "${file#"$repo_root"/}" | tr '/' '_')"; done
  local options=(-max_total_time="$fuzz_seconds" -rss_limit_mb=2048 -timeout=10
                 -print_final_stats=1 -artifact_prefix="$artifacts/")
  [[ -f "$dict" ]] && options+=(-dict="$dict")
  local out="$log_dir/fuzz.$name.run"
  rm -f "$out"
  if ! "$build_root/fuzz/tests/fuzz/$name" "${options[@]}" "$corpus" "$seeds" >"$out" 2>&1; then
    echo "$name: FOUND a failing input, in ${artifacts#"$repo_root"/}" >"$work/summary"
    return 1
  fi
  echo "$name: $# seeds, $(grep -E '^stat::number_of_executed_units' "$out" | awk '{print $2}') inputs in ${fuzz_seconds} s, corpus +$(find "$corpus" -type f | wc -l)" >"$work/summary"
}

stage_fuzz() {
  local dir="$build_root/fuzz"
  configure "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DLAYOUTCHECK_BUILD_FUZZERS=ON -DLAYOUTCHECK_BUILD_TESTS=OFF \
    -DLAYOUTCHECK_BUILD_BENCHMARKS=OFF -DLAYOUTCHECK_GPU_BACKEND=none "${launcher[@]}"
  build "$dir" --target parse_contract_fuzzer parse_profile_fuzzer

  # The contract fuzzer from every shipped contract and every bad one; the profile fuzzer from the
  # profile fixtures (tables and a trace).
  local contracts profiles
  mapfile -d '' contracts < <(find "$repo_root/contracts" -name '*.yaml' -print0
                              find "$repo_root/tests/bad_contracts" -type f -print0)
  mapfile -d '' profiles < <(find "$repo_root/tests/profile/fixtures" -type f -print0)
  # Side by side, a core each, both whatever the other finds.
  local status=0 contract_fuzzer profile_fuzzer name
  run_fuzzer parse_contract_fuzzer "$repo_root/tests/fuzz/contract.dict" "${contracts[@]}" &
  contract_fuzzer=$!
  run_fuzzer parse_profile_fuzzer "$repo_root/tests/fuzz/profile.dict" "${profiles[@]}" &
  profile_fuzzer=$!
  wait "$contract_fuzzer" || status=1
  wait "$profile_fuzzer" || status=1
  for name in parse_contract_fuzzer parse_profile_fuzzer; do
    cat "$log_dir/fuzz.$name.run" 2>/dev/null || true
    note "$(cat "$dir/$name/summary" 2>/dev/null || echo "$name: did not run")"
  done
  return "$status"
}

stage_hip() {
  command -v hipcc >/dev/null || { echo "error: hipcc not found (Debian: hipcc)" >&2; return 1; }
  local dir="$build_root/hip"
  configure "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=hipcc \
    -DLAYOUTCHECK_GPU_BACKEND=hip -DLAYOUTCHECK_HIP_ARCHS="gfx906;gfx90a" \
    -DLAYOUTCHECK_BUILD_TESTS=ON -DLAYOUTCHECK_BUILD_BENCHMARKS=OFF
  # The AMD build is proved by the GPU library, the CLI and the GPU tests; the CPU suites are
  # the same sources the cpu stage already built and ran.
  build "$dir" --target layoutcheck_cli gpu_tests
  expect_gpu_tests_skip "$dir"
  compile_every_port "$dir"
}

stage_cuda() {
  local nvcc
  nvcc="$(command -v nvcc || true)"
  if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
  [[ -n "$nvcc" ]] || skip_stage "no nvcc on this machine"
  local dir="$build_root/cuda"
  configure "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="${LAYOUTCHECK_CXX:-g++}" \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DLAYOUTCHECK_GPU_BACKEND=cuda -DLAYOUTCHECK_CUDA_ARCHS=90 \
    -DLAYOUTCHECK_BUILD_TESTS=ON -DLAYOUTCHECK_BUILD_BENCHMARKS=OFF "${launcher[@]}" \
    "${cuda_launcher[@]}"
  if gpu_present_nvidia; then
    build "$dir"
    run_ctest "$dir"
  else
    build "$dir" --target layoutcheck_cli gpu_tests
    expect_gpu_tests_skip "$dir"
  fi
  compile_every_port "$dir"
}

# ---- driver ----

stages=(deps cpu bench cases sanitize fuzz hip cuda)
summary=()
failed=0
current_stage=""

run_stage() {
  local name="$1"
  local skip_var="LAYOUTCHECK_SKIP_${name^^}"
  if [[ "${!skip_var:-0}" == 1 ]]; then
    summary+=("$(printf 'SKIP  %-9s %6s  %s' "$name" "-" "($skip_var=1)")")
    return
  fi
  current_stage="$name"
  rm -f "$log_dir/$name.note"
  printf '\n========== %s ==========\n' "$name"
  local start=$SECONDS rc
  set +e
  (set -euo pipefail; init_launchers; "stage_$name") 2>&1 | tee "$log_dir/$name.log"
  rc=${PIPESTATUS[0]}
  set -e
  local took="$((SECONDS - start))s" status
  case "$rc" in
    0) status=PASS ;;
    77) status=SKIP ;;
    *) status=FAIL failed=1 ;;
  esac
  local detail=""
  [[ -f "$log_dir/$name.note" ]] && detail="$(paste -sd ';' "$log_dir/$name.note" | sed 's/;/; /g')"
  [[ "$status" == FAIL ]] && detail="exit $rc, log: ${log_dir#"$repo_root"/}/$name.log${detail:+; $detail}"
  summary+=("$(printf '%s  %-9s %6s  %s' "$status" "$name" "$took" "$detail")")
}

total_start=$SECONDS
for stage in "${stages[@]}"; do run_stage "$stage"; done

printf '\n========== layoutcheck test summary (%ss) ==========\n' "$((SECONDS - total_start))"
printf '%s\n' "${summary[@]}"
if [[ "$failed" -ne 0 ]]; then
  echo "RESULT: FAILED"
  exit 1
fi
echo "RESULT: all stages passed"
