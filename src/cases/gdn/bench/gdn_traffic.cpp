#include "cases/gdn/bench/gdn_traffic.h"

#include <cstdint>

namespace layoutcheck {

namespace {

constexpr std::int64_t kBf16 = 2;
constexpr std::int64_t kFp32 = 4;

ByteCount per_row(std::int64_t bytes) {
  return {0, bytes};
}
ByteCount fixed(std::int64_t bytes) {
  return {bytes, 0};
}

std::int64_t qkvz_bytes(const GdnShape& s) {
  return s.qkvz_elements() * kBf16;
}
std::int64_t qkv_bytes(const GdnShape& s) {
  return s.conv_channels() * kBf16;
}
std::int64_t z_bytes(const GdnShape& s) {
  return s.HV * s.V * kBf16;
}
std::int64_t ba_bytes(const GdnShape& s) {
  return s.ba_elements() * kBf16;
}
std::int64_t conv_state_bytes(const GdnShape& s) {
  return s.conv_channels() * (s.W - 1) * kBf16;
}
std::int64_t state_bytes(const GdnShape& s) {
  return s.state_elements() * kFp32;
}
std::int64_t out_bytes(const GdnShape& s) {
  return s.HV * s.V * kBf16;
}
std::int64_t conv_weight_bytes(const GdnShape& s) {
  return s.conv_channels() * s.W * kBf16;
}
std::int64_t gate_parameter_bytes(const GdnShape& s) {
  return 2 * s.HV * kFp32;
}  // A_log, dt_bias
std::int64_t norm_weight_bytes(const GdnShape& s) {
  return s.V * kBf16;
}

}  // namespace

ByteCount gdn_minimum_traffic(const GdnShape& shape) {
  const StageTraffic fused = gdn_fused_stage(shape, "minimum");
  return fused.bytes_read + fused.bytes_written;
}

StageTraffic gdn_fused_stage(const GdnShape& s, const std::string& name) {
  StageTraffic stage;
  stage.name = name;
  stage.launches = 1;
  stage.bytes_read = per_row(qkvz_bytes(s) + ba_bytes(s) + conv_state_bytes(s) + state_bytes(s)) +
                     fixed(conv_weight_bytes(s) + gate_parameter_bytes(s) + norm_weight_bytes(s));
  stage.bytes_written = per_row(conv_state_bytes(s) + state_bytes(s) + out_bytes(s));
  stage.note = "conv, gates, recurrent update and gated norm in one kernel";
  return stage;
}

std::vector<StageTraffic> gdn_baseline_stages(const GdnShape& s) {
  const std::int64_t conv_out = s.conv_channels() * kFp32;
  const std::int64_t gates = 2 * s.HV * kFp32;       // g and beta
  const std::int64_t core_out = s.HV * s.V * kBf16;  // o before the norm, bf16 as stored
  std::vector<StageTraffic> stages(4);
  stages[0] = {"conv update",
               1,
               per_row(qkv_bytes(s) + conv_state_bytes(s)) + fixed(conv_weight_bytes(s)),
               per_row(conv_state_bytes(s) + conv_out),
               true,
               "reads Q, K, V in place"};
  stages[1] = {"gating",       1,    per_row(ba_bytes(s)) + fixed(gate_parameter_bytes(s)),
               per_row(gates), true, "g and beta in fp32"};
  stages[2] = {"recurrent update",
               1,
               per_row(conv_out + gates + state_bytes(s)),
               per_row(state_bytes(s) + core_out),
               true,
               "l2norm, delta rule, state in place"};
  stages[3] = {
      "gated RMSNorm",       1,    per_row(core_out + z_bytes(s)) + fixed(norm_weight_bytes(s)),
      per_row(out_bytes(s)), true, "reads Z in place"};
  return stages;
}

std::vector<StageTraffic> gdn_adapter_upstream_stages(const GdnShape& s) {
  std::vector<StageTraffic> stages;
  stages.push_back({"adapter qkvz flat->interleaved", 1, per_row(qkvz_bytes(s)),
                    per_row(qkvz_bytes(s)), false, "layout conversion production never does"});
  stages.push_back({"adapter ba flat->interleaved", 1, per_row(ba_bytes(s)), per_row(ba_bytes(s)),
                    false, "layout conversion production never does"});
  stages.push_back(gdn_fused_stage(s, "fused decode (upstream layout)"));
  return stages;
}

}  // namespace layoutcheck
