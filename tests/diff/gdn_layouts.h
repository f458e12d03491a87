// The GDN buffer layouts of design brief section 1 as closed-form offset formulas, written without
// the contract code, so tests can check what the diff of the shipped contracts must say.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "layoutcheck/contract/parse.h"

namespace layoutcheck::testing {

struct GdnSizes {
  std::int64_t H = 16, HV = 48, K = 128, V = 128;
  std::int64_t G() const { return HV / H; }
};

// One field: its name, its logical shape and where element [i, j, ...] (as a row-major linear
// index) lives.
struct FieldModel {
  std::string name;
  std::vector<std::int64_t> shape;
  std::function<std::int64_t(std::int64_t)> offset;
  std::int64_t elements() const {
    std::int64_t n = 1;
    for (std::int64_t s : shape) n *= s;
    return n;
  }
};
using LayoutModel = std::vector<FieldModel>;

// Qwen3.5: [Q all heads][K all][V all][Z all].
inline LayoutModel flat_qkvz(GdnSizes s) {
  const std::int64_t q = 0, k = s.H * s.K, v = 2 * s.H * s.K, z = v + s.HV * s.V;
  return {{"Q", {s.H, s.K}, [=](std::int64_t i) { return q + i; }},
          {"K", {s.H, s.K}, [=](std::int64_t i) { return k + i; }},
          {"V", {s.HV, s.V}, [=](std::int64_t i) { return v + i; }},
          {"Z", {s.HV, s.V}, [=](std::int64_t i) { return z + i; }}};
}

// Qwen3-Next: per key head h, [q(K) k(K) v(G*V) z(G*V)]; value head hv = h*G + r.
inline LayoutModel interleaved_qkvz(GdnSizes s) {
  const std::int64_t group = 2 * s.K + 2 * s.G() * s.V;
  auto key = [=](std::int64_t at) {
    return [=](std::int64_t i) { return (i / s.K) * group + at + i % s.K; };
  };
  auto value = [=](std::int64_t at) {
    return [=](std::int64_t i) {
      const std::int64_t hv = i / s.V;
      return (hv / s.G()) * group + at + (hv % s.G()) * s.V + i % s.V;
    };
  };
  return {{"Q", {s.H, s.K}, key(0)},
          {"K", {s.H, s.K}, key(s.K)},
          {"V", {s.HV, s.V}, value(2 * s.K)},
          {"Z", {s.HV, s.V}, value(2 * s.K + s.G() * s.V)}};
}

// Qwen3.5: [B all][A all].  Qwen3-Next: per key head [b(G) a(G)].
inline LayoutModel flat_ba(GdnSizes s) {
  return {{"B", {s.HV}, [](std::int64_t i) { return i; }},
          {"A", {s.HV}, [=](std::int64_t i) { return s.HV + i; }}};
}
inline LayoutModel interleaved_ba(GdnSizes s) {
  auto at = [=](std::int64_t base) {
    return [=](std::int64_t hv) { return (hv / s.G()) * 2 * s.G() + base + hv % s.G(); };
  };
  return {{"B", {s.HV}, at(0)}, {"A", {s.HV}, at(s.G())}};
}

// SSM state S[hv, k, v] stored [HV, K, V] or [HV, V, K].
inline LayoutModel state_hkv(GdnSizes s) {
  return {{"S", {s.HV, s.K, s.V}, [](std::int64_t i) { return i; }}};
}
inline LayoutModel state_hvk(GdnSizes s) {
  return {{"S", {s.HV, s.K, s.V}, [=](std::int64_t i) {
             const std::int64_t hv = i / (s.K * s.V), k = i / s.V % s.K, v = i % s.V;
             return hv * s.V * s.K + v * s.K + k;
           }}};
}

inline Contract load_shipped(const std::string& name, GdnSizes s) {
  LoadOptions options;
  options.overrides = {{"H", s.H}, {"HV", s.HV}, {"K", s.K}, {"V", s.V}};
  return load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/" + name + ".yaml", options);
}

}  // namespace layoutcheck::testing
