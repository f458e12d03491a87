// The port of design §1 step 2: a decode kernel written for Qwen3-Next's interleaved buffers
// (addressing from the qwen3_next contracts), wired into Qwen3.5 unchanged. Its manifest is honest
// about what it reads, so the static diff predicts the misreads and the probes confirm them.
#include "flat_addressing.h"
#include "generated/qwen3_next_ba.h"
#include "generated/qwen3_next_qkvz.h"

namespace port {

namespace next_qkvz = layoutcheck::contracts::qwen3_next_qkvz;
namespace next_ba = layoutcheck::contracts::qwen3_next_ba;

struct InterleavedAddressing : FlatAddressing {
  using Q = next_qkvz::Symbols<long long>;
  using B = next_ba::Symbols<long long>;
  __device__ static long long q(const Dims& d, long long h, long long k) {
    return next_qkvz::offset_Q(symbols<Q>(d), h, k);
  }
  __device__ static long long k(const Dims& d, long long h, long long k) {
    return next_qkvz::offset_K(symbols<Q>(d), h, k);
  }
  __device__ static long long v(const Dims& d, long long hv, long long v) {
    return next_qkvz::offset_V(symbols<Q>(d), hv, v);
  }
  __device__ static long long z(const Dims& d, long long hv, long long v) {
    return next_qkvz::offset_Z(symbols<Q>(d), hv, v);
  }
  __device__ static long long b(const Dims& d, long long hv) {
    return next_ba::offset_B(symbols<B>(d), hv);
  }
  __device__ static long long a(const Dims& d, long long hv) {
    return next_ba::offset_A(symbols<B>(d), hv);
  }
};

}  // namespace port

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::InterleavedAddressing>(args);
}
