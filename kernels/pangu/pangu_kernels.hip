// Pangu's LayerNorm family and window gather (pangu_kernels.h, kernels/pangu/DESIGN.md). The
// LayerNorms keep a row in registers, so it is read once: the mean by a sum over the lanes holding
// the row, then the spread about it by a second sum of the same registers (two passes over
// registers, not memory: a row of mean 1000 and spread 0.01 keeps its digits, which
// sum-of-squares would lose). add + LayerNorm takes one wave per row, a lane holding pieces lane,
// lane + kWaveSize, ...; LayerNorm, LayerNorm + gather, and the gather at 384 and 768 channels take
// a row (or one step of the map's walk, gather_walk.h) to a group of lanes, three pieces a lane;
// the gather at 192 channels and other widths takes two steps a wave, or one. Wave-size agnostic:
// every loop steps by kWaveSize, groups are counted in threads of the block.
//
// Launched overlapped (launch_order.h), a kernel reads before its wait only the gather's walk (the
// model's constant, which no kernel writes) and, in LayerNorm, prefetches its row into L2;
// everything else after.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "layoutcheck/gpu/check.h"
#include "layoutcheck/platform/fp16.h"
#if defined(LC_GPU_VENDOR_NVIDIA)
#include <cuda_fp16.h>
#else
#include <hip/hip_fp16.h>
#endif
#include "layoutcheck/platform/wave.h"
#include "pangu_kernels.h"

namespace layoutcheck::kernels {
namespace {

constexpr float kEpsilon = 1e-5f;  // torch.nn.LayerNorm's default
constexpr int kWavesPerBlock = 4;
constexpr int kLineBytes = 128;  // what one L2 prefetch fetches

// Threads a block, as the host sizes it: kWavesPerBlock waves of the host pass's wave size. On
// AMD that is 64 whatever the device (hipcc's host pass cannot know it), so a wave-32 GPU runs
// twice the waves; the launch bounds take the same number, never fewer threads than a launch has.
#if defined(LC_GPU_VENDOR_AMD)
constexpr int kBlockThreads = kWavesPerBlock * 64;
#else
constexpr int kBlockThreads = kWavesPerBlock * wave::kWaveSize;
#endif

// A kernel's launch bound: kBlockThreads a block and, on NVIDIA, at least `min_blocks` blocks a
// multiprocessor, which caps the registers a thread may take. 16 blocks of 4 waves fill an sm_90
// multiprocessor (64 waves) at 32 registers a thread. HIP's second bound counts waves per
// execution unit instead, so HIP asks for nothing more.
#if defined(LC_GPU_VENDOR_NVIDIA)
#define LC_PANGU_LAUNCH_BOUNDS(min_blocks) __launch_bounds__(kBlockThreads, min_blocks)
#else
#define LC_PANGU_LAUNCH_BOUNDS(min_blocks) __launch_bounds__(kBlockThreads)
#endif
constexpr int kFullMultiprocessorBlocks = 16;

// The hardware's fp16 conversions (round to nearest even, as the project's own in fp16.h, which
// the CPU reference uses: the same bits for every finite value and infinity; a NaN stays a NaN).
__device__ inline float half_to_float(unsigned int bits) {
  return __half2float(__ushort_as_half(static_cast<unsigned short>(bits)));
}
__device__ inline unsigned int float_to_half(float value) {
  return __half_as_ushort(__float2half_rn(value));
}

// How a kernel touches memory. Streaming marks the lines evict-first: right for bytes read or
// written once, but not for every kernel (DESIGN.md has the figures). gfx9's non-temporal
// accesses have never been timed here (no AMD GPU), so HIP stays plain.
enum class Access { plain, streaming };

template <Access kAccess>
__device__ inline uint4 load_piece(const uint4* p) {
#if defined(LC_GPU_VENDOR_NVIDIA)
  if constexpr (kAccess == Access::streaming) return __ldcs(p);
#endif
  return *p;
}

template <Access kAccess>
__device__ inline void store_piece(uint4* p, uint4 value) {
#if defined(LC_GPU_VENDOR_NVIDIA)
  if constexpr (kAccess == Access::streaming) {
    __stcs(p, value);
    return;
  }
#endif
  *p = value;
}

// The eight fp16 values of a piece, in channel order, as fp32.
__device__ inline void unpack_piece(uint4 piece, float (&values)[8]) {
  const unsigned int words[4] = {piece.x, piece.y, piece.z, piece.w};
  for (int w = 0; w < 4; ++w) {
    values[2 * w] = half_to_float(words[w] & 0xffffu);
    values[2 * w + 1] = half_to_float(words[w] >> 16);
  }
}

__device__ inline uint4 pack_piece(const float (&values)[8]) {
  unsigned int words[4];
  for (int w = 0; w < 4; ++w)
    words[w] = float_to_half(values[2 * w]) | (float_to_half(values[2 * w + 1]) << 16);
  return make_uint4(words[0], words[1], words[2], words[3]);
}

// A row's 16-byte pieces (8 fp16) as one lane holds them: pieces lane, lane + kWaveSize, ...
template <int kWidth>
struct LaneShare {
  static constexpr int kPieces = kWidth / 8;
  static constexpr int kPerLane = (kPieces + wave::kWaveSize - 1) / wave::kWaveSize;
  float v[kPerLane][8];
  __device__ static bool holds(int i) { return wave::lane_id() + i * wave::kWaveSize < kPieces; }
};

// A lane's pieces of one row as loaded, before conversion: add + LayerNorm loads both inputs'
// pieces before converting either, so their loads are in flight together.
template <int kWidth>
using RowBits = uint4[LaneShare<kWidth>::kPerLane];

template <int kWidth, Access kAccess>
__device__ inline void load_row(const uint4* row, RowBits<kWidth>& bits) {
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i)
    bits[i] = LaneShare<kWidth>::holds(i)
                  ? load_piece<kAccess>(row + wave::lane_id() + i * wave::kWaveSize)
                  : make_uint4(0u, 0u, 0u, 0u);
}

template <int kWidth>
__device__ inline void unpack(const RowBits<kWidth>& bits, LaneShare<kWidth>& share) {
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i) unpack_piece(bits[i], share.v[i]);
}

// Normalises the lane's share in place (pieces past the row count as nothing).
template <int kWidth>
__device__ inline void normalise(LaneShare<kWidth>& share) {
  float sum = 0.0f;
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i)
    if (LaneShare<kWidth>::holds(i))
      for (int e = 0; e < 8; ++e) sum += share.v[i][e];
  const float mean = wave::group_sum<wave::kWaveSize>(sum) / static_cast<float>(kWidth);
  float spread = 0.0f;
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i)
    if (LaneShare<kWidth>::holds(i))
      for (int e = 0; e < 8; ++e) {
        const float d = share.v[i][e] - mean;
        spread += d * d;
      }
  const float variance = wave::group_sum<wave::kWaveSize>(spread) / static_cast<float>(kWidth);
  const float inverse = rsqrtf(variance + kEpsilon);
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i)
    for (int e = 0; e < 8; ++e) share.v[i][e] = (share.v[i][e] - mean) * inverse;
}

template <int kWidth, Access kAccess>
__device__ inline void store_row(uint4* row, const LaneShare<kWidth>& share) {
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i)
    if (LaneShare<kWidth>::holds(i))
      store_piece<kAccess>(row + wave::lane_id() + i * wave::kWaveSize, pack_piece(share.v[i]));
}

// The first of the `rows_per_wave` consecutive rows (or slots) this wave takes. Waves are counted
// in threads of the block: hipcc's host pass sizes a block for 64-lane waves, and a wave-32 GPU
// then runs twice the waves, whose rows past the end leave.
__device__ inline long long first_row_of_wave(int rows_per_wave) {
  return (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / wave::kWaveSize *
         rows_per_wave;
}

// Two inputs a row already put two loads in flight a lane: one row a wave, plain accesses (the
// streaming ones were no faster).
template <int kWidth>
__global__ void __launch_bounds__(kBlockThreads)
    pangu_add_layer_norm_kernel(const uint4* residual, const uint4* branch, uint4* residual_out,
                                uint4* out, long long rows) {
  using Share = LaneShare<kWidth>;
  const long long r = first_row_of_wave(1);
  await_previous_kernel();
  if (r >= rows) return;
  RowBits<kWidth> a_bits, b_bits;
  load_row<kWidth, Access::plain>(residual + r * Share::kPieces, a_bits);
  load_row<kWidth, Access::plain>(branch + r * Share::kPieces, b_bits);
  Share a, b;
  unpack<kWidth>(a_bits, a);
  unpack<kWidth>(b_bits, b);
  // The framework's rounding point: the sum rounded to fp16, and the statistics of that.
  for (int i = 0; i < Share::kPerLane; ++i)
    for (int e = 0; e < 8; ++e) a.v[i][e] = half_to_float(float_to_half(a.v[i][e] + b.v[i][e]));
  store_row<kWidth, Access::plain>(residual_out + r * Share::kPieces, a);
  normalise<kWidth>(a);
  store_row<kWidth, Access::plain>(out + r * Share::kPieces, a);
}

// The layout of LayerNorm and the gathers: a row's 16-byte pieces (8 fp16) over a group of
// lanes, three a lane. Rows of 192, 384 and 768 channels are 24, 48 and 96 pieces, so groups of
// 8, 16 and 32 lanes, every lane busy with three loads in flight. Lane `sub` of a group holds
// pieces sub, sub + kLanes and sub + 2 kLanes, so each of the group's loads reads kLanes
// consecutive pieces; consecutive groups of a block take consecutive rows. The pieces stay as
// loaded, packed fp16: each pass converts again (one instruction a value), which keeps a thread
// within 32 registers under the full-multiprocessor bound (LayerNorm takes 38 under its own,
// below). add + LayerNorm measured slower in this layout and keeps one wave a row (DESIGN.md).
constexpr int kPiecesPerLane = 3;

template <int kWidth>
struct RowGroup {
  static constexpr int kPieces = kWidth / 8;
  static constexpr int kLanes = kPieces / kPiecesPerLane;
  static_assert(kPieces % kPiecesPerLane == 0 && (kLanes & (kLanes - 1)) == 0 &&
                    kLanes <= wave::kWaveSize,
                "a row is three pieces a lane over a power-of-two group within a wave");
  using Pieces = uint4[kPiecesPerLane];

  // The row (or slot) this thread's group takes. A wave past the last row leaves whole: every
  // lane of a wave takes part in its groups' sums.
  __device__ static long long row() {
    return (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kLanes;
  }
  __device__ static int piece(int i) {
    return static_cast<int>(threadIdx.x % kLanes) + i * kLanes;
  }
};

template <int kWidth, Access kAccess>
__device__ inline void load_pieces(const uint4* row, typename RowGroup<kWidth>::Pieces& pieces) {
  for (int i = 0; i < kPiecesPerLane; ++i)
    pieces[i] = load_piece<kAccess>(row + RowGroup<kWidth>::piece(i));
}

// A row's statistics from its group's registers: the mean by a group sum, then the spread about
// the mean by a second group sum over the same registers.
struct RowStatistics {
  float mean, inverse;  // inverse: 1 / sqrt(variance + epsilon)
};

template <int kWidth>
__device__ inline RowStatistics statistics(const typename RowGroup<kWidth>::Pieces& pieces) {
  constexpr int kLanes = RowGroup<kWidth>::kLanes;
  float values[8];
  float sum = 0.0f;
  for (int i = 0; i < kPiecesPerLane; ++i) {
    unpack_piece(pieces[i], values);
    for (int e = 0; e < 8; ++e) sum += values[e];
  }
  const float mean = wave::group_sum<kLanes>(sum) / static_cast<float>(kWidth);
  float spread = 0.0f;
  for (int i = 0; i < kPiecesPerLane; ++i) {
    unpack_piece(pieces[i], values);
    for (int e = 0; e < 8; ++e) {
      const float d = values[e] - mean;
      spread += d * d;
    }
  }
  const float variance = wave::group_sum<kLanes>(spread) / static_cast<float>(kWidth);
  return {mean, rsqrtf(variance + kEpsilon)};
}

__device__ inline uint4 normalised_piece(uint4 piece, RowStatistics stats) {
  float values[8];
  unpack_piece(piece, values);
  for (int e = 0; e < 8; ++e) values[e] = (values[e] - stats.mean) * stats.inverse;
  return pack_piece(values);
}

// A group of lanes takes one step of the walk (gather_walk.h): the token it names, normalised when
// kNormalise, into its slot, or zeros there. Streaming loads and stores: the tokens are read once,
// the slots written once. The group reads its step (its lanes the same eight bytes: one load)
// before the wait.
template <int kWidth, bool kNormalise>
__global__ void LC_PANGU_LAUNCH_BOUNDS(kFullMultiprocessorBlocks)
    pangu_walk_kernel(const uint4* x, const GatherStep* walk, uint4* out, long long steps) {
  using Group = RowGroup<kWidth>;
  const long long s = Group::row();
  const GatherStep step = s < steps ? walk[s] : GatherStep{0, -1};
  await_previous_kernel();
  if (wave::ballot(s < steps) == 0) return;  // the whole wave leaves together
  typename Group::Pieces pieces = {};
  if (step.token >= 0)
    load_pieces<kWidth, Access::streaming>(x + static_cast<long long>(step.token) * Group::kPieces,
                                           pieces);
  RowStatistics stats{};
  if constexpr (kNormalise) stats = statistics<kWidth>(pieces);
  if (s >= steps) return;
  uint4* slot = out + static_cast<long long>(step.slot) * Group::kPieces;
  for (int i = 0; i < kPiecesPerLane; ++i) {
    uint4 piece = make_uint4(0u, 0u, 0u, 0u);
    if (step.token >= 0) piece = kNormalise ? normalised_piece(pieces[i], stats) : pieces[i];
    store_piece<Access::streaming>(slot + Group::piece(i), piece);
  }
}

// LayerNorm, a row to a group of lanes. Plain loads and streaming stores, which measured faster
// here than streaming loads; the group prefetches its row into L2 before the wait, so its loads
// start in the previous kernel's tail. A bound of one block a multiprocessor leaves ptxas free to
// spend registers (38, so 12 blocks fit): measured faster than the 32 it takes unbounded or under
// the full-multiprocessor bound, though a quarter of the resident waves go. Its body is not the
// walk kernel's behind a shared helper: that made the gathers slower (DESIGN.md).
template <int kWidth>
__global__ void LC_PANGU_LAUNCH_BOUNDS(1)
    pangu_layer_norm_kernel(const uint4* x, uint4* out, long long rows) {
  using Group = RowGroup<kWidth>;
  const long long r = Group::row();
  const int line = static_cast<int>(threadIdx.x % Group::kLanes);
  if (r < rows && line * kLineBytes < kWidth * 2)
    prefetch_to_l2(reinterpret_cast<const char*>(x + r * Group::kPieces) + line * kLineBytes);
  await_previous_kernel();
  if (wave::ballot(r < rows) == 0) return;  // the whole wave leaves together
  typename Group::Pieces pieces = {};
  if (r < rows) load_pieces<kWidth, Access::plain>(x + r * Group::kPieces, pieces);
  const RowStatistics stats = statistics<kWidth>(pieces);
  if (r >= rows) return;
  for (int i = 0; i < kPiecesPerLane; ++i)
    store_piece<Access::streaming>(out + r * Group::kPieces + Group::piece(i),
                                   normalised_piece(pieces[i], stats));
}

// The gather at any width of whole pieces (384 and 768 channels take pangu_walk_kernel): a wave
// takes kSteps consecutive steps of the walk, kPerLane pieces a lane at a time, every load of a
// round in flight before its stores; streaming loads and stores. A token wider than kPerLane
// pieces a lane takes several rounds.
template <int kSteps, int kPerLane>
__global__ void __launch_bounds__(kBlockThreads)
    pangu_gather_kernel(const uint4* x, const GatherStep* walk, uint4* out, long long steps,
                        int pieces) {
  const long long first = first_row_of_wave(kSteps);
  GatherStep step[kSteps];
  for (int k = 0; k < kSteps; ++k)
    step[k] = first + k < steps ? walk[first + k] : GatherStep{0, -1};
  await_previous_kernel();
  if (first >= steps) return;
  for (int base = 0; base < pieces; base += kPerLane * wave::kWaveSize) {
    uint4 value[kSteps][kPerLane];
    for (int k = 0; k < kSteps; ++k)
      for (int i = 0; i < kPerLane; ++i) {
        const int piece = base + wave::lane_id() + i * wave::kWaveSize;
        value[k][i] = step[k].token >= 0 && piece < pieces
                          ? load_piece<Access::streaming>(
                                x + static_cast<long long>(step[k].token) * pieces + piece)
                          : make_uint4(0u, 0u, 0u, 0u);
      }
    for (int k = 0; k < kSteps; ++k)
      for (int i = 0; i < kPerLane; ++i) {
        const int piece = base + wave::lane_id() + i * wave::kWaveSize;
        if (first + k < steps && piece < pieces)
          store_piece<Access::streaming>(
              out + static_cast<long long>(step[k].slot) * pieces + piece, value[k][i]);
      }
  }
}

// A token of at most 32 pieces leaves a lane of the narrowest wave one load: the gather's wave
// takes two steps of the walk then, so each lane has two loads in flight (one load a lane is too
// few to reach the copy bandwidth). Chosen here from the width, not from the device's wave size,
// so host and device agree by construction.
constexpr int rows_per_wave(std::int64_t width) {
  return width / 8 <= 32 ? 2 : 1;
}

dim3 grid_for(std::int64_t rows, std::int64_t rows_per_block) {
  const std::int64_t blocks = (rows + rows_per_block - 1) / rows_per_block;
  if (blocks > 0x7fffffff)
    throw std::invalid_argument(std::to_string(rows) + " rows need more blocks than a grid holds");
  return dim3(static_cast<unsigned>(blocks));
}

// Blocks for `rows` at `rows_per_wave` rows a wave.
dim3 blocks_for(std::int64_t rows, int rows_per_wave) {
  return grid_for(rows, std::int64_t{kWavesPerBlock} * rows_per_wave);
}

// Blocks for `rows` of W channels, a row to a group of RowGroup<W>::kLanes threads.
template <int W>
dim3 row_group_blocks(std::int64_t rows) {
  return grid_for(rows, std::int64_t{kBlockThreads} / RowGroup<W>::kLanes);
}

dim3 wave_threads() {
  return dim3(static_cast<unsigned>(kBlockThreads));
}

// The kernels load and store 16-byte pieces: a pointer off that alignment (a view at an odd
// offset) would fault on the device, so it is refused here.
void require_piece_aligned(const void* pointer, const char* what) {
  if (reinterpret_cast<std::uintptr_t>(pointer) % 16 != 0)
    throw std::invalid_argument(std::string("Pangu kernels move 16-byte pieces: ") + what +
                                " is not 16-byte aligned (a view at an offset? copy it first)");
}

// Calls launch.template operator()<W>() for the supported width W.
template <class Launch>
void with_width(std::int64_t width, Launch&& launch) {
  require_pangu_width(width);
  if (width == 192) launch.template operator()<192>();
  if (width == 384) launch.template operator()<384>();
  if (width == 768) launch.template operator()<768>();
}

}  // namespace

WalkOrder pangu_walk_order(std::int64_t width) {
  return rows_per_wave(width) == 2 ? WalkOrder::by_slot : WalkOrder::by_token;
}

bool pangu_width_supported(std::int64_t width) {
  return width == 192 || width == 384 || width == 768;
}

void require_pangu_width(std::int64_t width) {
  if (!pangu_width_supported(width))
    throw std::invalid_argument(
        "Pangu LayerNorm kernels are built for widths 192, 384 and 768 "
        "only, not " +
        std::to_string(width) + " (no generic fallback)");
}

void pangu_layer_norm(const std::uint16_t* x, std::uint16_t* out, std::int64_t rows,
                      std::int64_t width, hipStream_t stream, LaunchOrder order) {
  with_width(width, [&]<int W>() {
    if (rows <= 0) return;
    require_piece_aligned(x, "the input");
    require_piece_aligned(out, "the output");
    launch_kernel(order, pangu_layer_norm_kernel<W>, row_group_blocks<W>(rows), wave_threads(),
                  0, stream, reinterpret_cast<const uint4*>(x), reinterpret_cast<uint4*>(out),
                  rows);
    LC_GPU_CHECK_LAUNCH(("pangu_layer_norm<" + std::to_string(W) + ">").c_str());
  });
}

void pangu_add_layer_norm(const std::uint16_t* residual, const std::uint16_t* branch,
                          std::uint16_t* residual_out, std::uint16_t* out, std::int64_t rows,
                          std::int64_t width, hipStream_t stream, LaunchOrder order) {
  with_width(width, [&]<int W>() {
    if (rows <= 0) return;
    require_piece_aligned(residual, "the residual");
    require_piece_aligned(branch, "the branch");
    require_piece_aligned(residual_out, "the residual output");
    require_piece_aligned(out, "the output");
    launch_kernel(order, pangu_add_layer_norm_kernel<W>, blocks_for(rows, 1),
                  wave_threads(), 0, stream, reinterpret_cast<const uint4*>(residual),
                  reinterpret_cast<const uint4*>(branch), reinterpret_cast<uint4*>(residual_out),
                  reinterpret_cast<uint4*>(out), rows);
    LC_GPU_CHECK_LAUNCH(("pangu_add_layer_norm<" + std::to_string(W) + ">").c_str());
  });
}

void pangu_layer_norm_gather(const std::uint16_t* x, const GatherStep* walk, std::uint16_t* out,
                             std::int64_t steps, std::int64_t width, hipStream_t stream,
                             LaunchOrder order) {
  with_width(width, [&]<int W>() {
    if (steps <= 0) return;
    require_piece_aligned(x, "the input");
    require_piece_aligned(out, "the output");
    launch_kernel(order, pangu_walk_kernel<W, true>, row_group_blocks<W>(steps), wave_threads(),
                  0, stream, reinterpret_cast<const uint4*>(x), walk,
                  reinterpret_cast<uint4*>(out), steps);
    LC_GPU_CHECK_LAUNCH(("pangu_layer_norm_gather<" + std::to_string(W) + ">").c_str());
  });
}

void pangu_gather(const std::uint16_t* x, const GatherStep* walk, std::uint16_t* out,
                  std::int64_t steps, std::int64_t width, hipStream_t stream, LaunchOrder order) {
  if (width <= 0 || width % 8 != 0 || width > (std::int64_t{1} << 30))
    throw std::invalid_argument("pangu_gather moves tokens in 16-byte pieces: width " +
                                std::to_string(width) + " is not a positive multiple of 8");
  if (steps <= 0) return;
  require_piece_aligned(x, "the input");
  require_piece_aligned(out, "the output");
  const auto* from = reinterpret_cast<const uint4*>(x);
  auto* to = reinterpret_cast<uint4*>(out);
  // Up to 32 pieces a token, a wave takes two: at 192 channels that measured faster than groups.
  if (pangu_width_supported(width) && rows_per_wave(width) == 1) {
    with_width(width, [&]<int W>() {
      launch_kernel(order, pangu_walk_kernel<W, false>, row_group_blocks<W>(steps),
                    wave_threads(), 0, stream, from, walk, to, steps);
    });
  } else {
    const int pieces = static_cast<int>(width / 8);
    if (rows_per_wave(width) == 2)
      launch_kernel(order, pangu_gather_kernel<2, 1>, blocks_for(steps, 2), wave_threads(), 0,
                    stream, from, walk, to, steps, pieces);
    else
      launch_kernel(order, pangu_gather_kernel<1, 2>, blocks_for(steps, 1), wave_threads(), 0,
                    stream, from, walk, to, steps, pieces);
  }
  LC_GPU_CHECK_LAUNCH("pangu_gather");
}

}  // namespace layoutcheck::kernels
