// The layouts a GDN decode kernel can be built for, as policies. Every offset comes from a header
// generated from a reviewed contract (kernels/gdn/generated/, `layoutcheck codegen`): porting the fused
// kernel from Qwen3-Next to Qwen3.5 is the one-line change of its Layout argument from
// InterleavedLayout to FlatLayout, and what each one reads is exactly what its contract says.
// Usable on host and device (the runners check the policies' assumptions on the host).
#pragma once

#include "generated/conv_channels.h"
#include "generated/conv_state.h"
#include "generated/gdn_out.h"
#include "generated/qwen3_5_ba.h"
#include "generated/qwen3_5_qkvz.h"
#include "generated/qwen3_next_ba.h"
#include "generated/qwen3_next_qkvz.h"
#include "generated/state_hkv.h"
#include "generated/state_hvk.h"

#if defined(__HIPCC__) || defined(__CUDACC__)
#define LC_LAYOUT_FN __host__ __device__ inline
#else
#define LC_LAYOUT_FN inline
#endif

namespace layoutcheck::kernels {

// Problem sizes as the kernels use them (32-bit: one row never holds 2^31 elements; the host
// checks before launching).
struct GdnDims {
  int H = 0, HV = 0, K = 0, V = 0, W = 0;
  LC_LAYOUT_FN int G() const { return HV / H; }
  LC_LAYOUT_FN int conv_channels() const { return 2 * H * K + HV * V; }
};

template <class Symbols>
LC_LAYOUT_FN Symbols symbols_of(const GdnDims& d) {
  Symbols s;
  s.H = d.H;
  s.HV = d.HV;
  s.K = d.K;
  s.V = d.V;
  return s;
}

// Qwen3.5: qkvz and ba flat, group-major (contracts/gdn/qwen3_5.*.yaml).
struct FlatLayout {
  static constexpr const char* kName = "flat (qwen3_5.qkvz, qwen3_5.ba)";
  using Qkvz = contracts::qwen3_5_qkvz::Symbols<int>;
  using Ba = contracts::qwen3_5_ba::Symbols<int>;
  LC_LAYOUT_FN static int q(const GdnDims& d, int h, int k) {
    return contracts::qwen3_5_qkvz::offset_Q(symbols_of<Qkvz>(d), h, k);
  }
  LC_LAYOUT_FN static int k(const GdnDims& d, int h, int k) {
    return contracts::qwen3_5_qkvz::offset_K(symbols_of<Qkvz>(d), h, k);
  }
  LC_LAYOUT_FN static int v(const GdnDims& d, int hv, int v) {
    return contracts::qwen3_5_qkvz::offset_V(symbols_of<Qkvz>(d), hv, v);
  }
  LC_LAYOUT_FN static int z(const GdnDims& d, int hv, int v) {
    return contracts::qwen3_5_qkvz::offset_Z(symbols_of<Qkvz>(d), hv, v);
  }
  LC_LAYOUT_FN static int b(const GdnDims& d, int hv) {
    return contracts::qwen3_5_ba::offset_B(symbols_of<Ba>(d), hv);
  }
  LC_LAYOUT_FN static int a(const GdnDims& d, int hv) {
    return contracts::qwen3_5_ba::offset_A(symbols_of<Ba>(d), hv);
  }
};

// Qwen3-Next: qkvz and ba interleaved per key head (contracts/gdn/qwen3_next.*.yaml).
struct InterleavedLayout {
  static constexpr const char* kName = "interleaved (qwen3_next.qkvz, qwen3_next.ba)";
  using Qkvz = contracts::qwen3_next_qkvz::Symbols<int>;
  using Ba = contracts::qwen3_next_ba::Symbols<int>;
  LC_LAYOUT_FN static int q(const GdnDims& d, int h, int k) {
    return contracts::qwen3_next_qkvz::offset_Q(symbols_of<Qkvz>(d), h, k);
  }
  LC_LAYOUT_FN static int k(const GdnDims& d, int h, int k) {
    return contracts::qwen3_next_qkvz::offset_K(symbols_of<Qkvz>(d), h, k);
  }
  LC_LAYOUT_FN static int v(const GdnDims& d, int hv, int v) {
    return contracts::qwen3_next_qkvz::offset_V(symbols_of<Qkvz>(d), hv, v);
  }
  LC_LAYOUT_FN static int z(const GdnDims& d, int hv, int v) {
    return contracts::qwen3_next_qkvz::offset_Z(symbols_of<Qkvz>(d), hv, v);
  }
  LC_LAYOUT_FN static int b(const GdnDims& d, int hv) {
    return contracts::qwen3_next_ba::offset_B(symbols_of<Ba>(d), hv);
  }
  LC_LAYOUT_FN static int a(const GdnDims& d, int hv) {
    return contracts::qwen3_next_ba::offset_A(symbols_of<Ba>(d), hv);
  }
};

// The recurrent state, fp32. kValueInnermost says which index the tiled kernels vectorise over;
// the host checks it against the contract's strides before choosing the tiled kernel.
struct StateHkv {
  static constexpr const char* kName = "[HV,K,V] (gdn.state.hkv)";
  static constexpr bool kValueInnermost = true;
  using Symbols = contracts::gdn_state_hkv::Symbols<int>;
  LC_LAYOUT_FN static int offset(const GdnDims& d, int hv, int k, int v) {
    return contracts::gdn_state_hkv::offset_S(symbols_of<Symbols>(d), hv, k, v);
  }
};

struct StateHvk {
  static constexpr const char* kName = "[HV,V,K] (gdn.state.hvk)";
  static constexpr bool kValueInnermost = false;
  using Symbols = contracts::gdn_state_hvk::Symbols<int>;
  LC_LAYOUT_FN static int offset(const GdnDims& d, int hv, int k, int v) {
    return contracts::gdn_state_hvk::offset_S(symbols_of<Symbols>(d), hv, k, v);
  }
};

// Conv channel numbering [Q all | K all | V all] (contracts/gdn/conv_channels.yaml), which also
// indexes the conv weight [C][W], and the conv state (contracts/gdn/conv_state.yaml).
struct ConvLayout {
  using Channels = contracts::gdn_conv_channels::Symbols<int>;
  using State = contracts::gdn_conv_state::Symbols<int>;
  LC_LAYOUT_FN static State state_symbols(const GdnDims& d) {
    State s = symbols_of<State>(d);
    s.W = d.W;
    return s;
  }
  LC_LAYOUT_FN static int q_channel(const GdnDims& d, int h, int k) {
    return contracts::gdn_conv_channels::offset_Q(symbols_of<Channels>(d), h, k);
  }
  LC_LAYOUT_FN static int k_channel(const GdnDims& d, int h, int k) {
    return contracts::gdn_conv_channels::offset_K(symbols_of<Channels>(d), h, k);
  }
  LC_LAYOUT_FN static int v_channel(const GdnDims& d, int hv, int v) {
    return contracts::gdn_conv_channels::offset_V(symbols_of<Channels>(d), hv, v);
  }
  // Offset of tap 0 of a channel's conv state; taps are consecutive (the t dim has stride 1,
  // which the host checks).
  LC_LAYOUT_FN static int q_taps(const GdnDims& d, int h, int k) {
    return contracts::gdn_conv_state::offset_Q(state_symbols(d), h, k, 0);
  }
  LC_LAYOUT_FN static int k_taps(const GdnDims& d, int h, int k) {
    return contracts::gdn_conv_state::offset_K(state_symbols(d), h, k, 0);
  }
  LC_LAYOUT_FN static int v_taps(const GdnDims& d, int hv, int v) {
    return contracts::gdn_conv_state::offset_V(state_symbols(d), hv, v, 0);
  }
};

}  // namespace layoutcheck::kernels
