// Addressing of Qwen3.5's flat buffers and the [HV,K,V] state, from the headers generated from the
// reviewed contracts (embedded for runtime compilation as generated/*.h). The correct native port
// uses it as is; each mutant overrides one function with a bug.
#pragma once

#include "generated/qwen3_5_ba.h"
#include "generated/qwen3_5_qkvz.h"
#include "generated/state_hkv.h"
#include "ported_gdn_body.h"

namespace port {

namespace flat_qkvz = layoutcheck::contracts::qwen3_5_qkvz;
namespace flat_ba = layoutcheck::contracts::qwen3_5_ba;
namespace state_hkv = layoutcheck::contracts::gdn_state_hkv;

template <class Symbols>
__device__ inline Symbols symbols(const Dims& d) {
  Symbols s;
  s.H = d.H;
  s.HV = d.HV;
  s.K = d.K;
  s.V = d.V;
  return s;
}

struct FlatAddressing {
  static constexpr bool kSkipL2norm = false;
  using Q = flat_qkvz::Symbols<long long>;
  using B = flat_ba::Symbols<long long>;
  using S = state_hkv::Symbols<long long>;
  __device__ static long long q(const Dims& d, long long h, long long k) {
    return flat_qkvz::offset_Q(symbols<Q>(d), h, k);
  }
  __device__ static long long k(const Dims& d, long long h, long long k) {
    return flat_qkvz::offset_K(symbols<Q>(d), h, k);
  }
  __device__ static long long v(const Dims& d, long long hv, long long v) {
    return flat_qkvz::offset_V(symbols<Q>(d), hv, v);
  }
  __device__ static long long z(const Dims& d, long long hv, long long v) {
    return flat_qkvz::offset_Z(symbols<Q>(d), hv, v);
  }
  __device__ static long long b(const Dims& d, long long hv) {
    return flat_ba::offset_B(symbols<B>(d), hv);
  }
  __device__ static long long a(const Dims& d, long long hv) {
    return flat_ba::offset_A(symbols<B>(d), hv);
  }
  __device__ static long long s(const Dims& d, long long hv, long long k, long long v) {
    return state_hkv::offset_S(symbols<S>(d), hv, k, v);
  }
  // The output is the ABI's [batch][HV][V], not a contract's.
  __device__ static long long out(const Dims& d, long long row, long long hv, long long v) {
    return (row * d.HV + hv) * d.V + v;
  }
  __device__ static long long key_head(const Dims& d, long long hv) { return hv / d.G; }
  __device__ static long long qkvz_row(const GdnDecodeArgs& args, long long row) {
    return row * args.qkvz_row_stride;
  }
  __device__ static long long ba_row(const GdnDecodeArgs& args, long long row) {
    return row * args.ba_row_stride;
  }
};

}  // namespace port
