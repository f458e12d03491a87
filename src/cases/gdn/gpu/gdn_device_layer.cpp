#include "cases/gdn/gpu/gdn_device_layer.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace layoutcheck::gpu {
namespace {

void require_size(const char* what, std::size_t actual, std::int64_t expected) {
  if (expected < 0 || actual != static_cast<std::size_t>(expected))
    throw std::invalid_argument(std::string("GDN step inputs: ") + what + " holds " +
                                std::to_string(actual) + " elements, expected " +
                                std::to_string(expected));
}

void require_at_least(const char* what, std::int64_t actual, std::int64_t minimum) {
  if (actual < minimum)
    throw std::invalid_argument(std::string("GDN step inputs: ") + what + " is " +
                                std::to_string(actual) + ", must be at least " +
                                std::to_string(minimum));
}

}  // namespace

void check_step_inputs(const GdnStepInputs& inputs) {
  const GdnShape& s = inputs.shape;
  if (!s.valid())
    throw std::invalid_argument(
        "GDN step inputs: invalid shape (sizes must be positive, W >= 2, "
        "HV % H == 0)");
  if (inputs.batch <= 0) throw std::invalid_argument("GDN step inputs: batch must be positive");
  require_at_least("qkvz_row_stride", inputs.qkvz_row_stride, s.qkvz_elements());
  require_at_least("ba_row_stride", inputs.ba_row_stride, s.ba_elements());
  // Row strides may exceed the row (padding between rows); the last row need only be complete.
  require_at_least("qkvz size", static_cast<std::int64_t>(inputs.qkvz.size()),
                   (inputs.batch - 1) * inputs.qkvz_row_stride + s.qkvz_elements());
  require_at_least("ba size", static_cast<std::int64_t>(inputs.ba.size()),
                   (inputs.batch - 1) * inputs.ba_row_stride + s.ba_elements());
  require_size("conv_state", inputs.conv_state.size(),
               inputs.batch * s.conv_channels() * (s.W - 1));
  if (inputs.state.size() % static_cast<std::size_t>(inputs.batch) != 0)
    throw std::invalid_argument("GDN step inputs: state is not batch equal rows");
  require_at_least("state row", static_cast<std::int64_t>(inputs.state.size()) / inputs.batch,
                   s.state_elements());
  require_size("conv_weight", inputs.weights.conv_weight.size(), s.conv_channels() * s.W);
  require_size("A_log", inputs.weights.A_log.size(), s.HV);
  require_size("dt_bias", inputs.weights.dt_bias.size(), s.HV);
  require_size("norm_weight", inputs.weights.norm_weight.size(), s.V);
}

GdnDeviceLayer::GdnDeviceLayer(const GdnStepInputs& inputs, std::size_t guard_bytes) {
  check_step_inputs(inputs);
  shape_ = inputs.shape;
  batch_ = inputs.batch;
  qkvz_row_stride_ = inputs.qkvz_row_stride;
  ba_row_stride_ = inputs.ba_row_stride;
  state_row_stride_ = static_cast<std::int64_t>(inputs.state.size()) / inputs.batch;
  qkvz = DeviceBuffer<bf16_bits>(inputs.qkvz.size(), guard_bytes);
  ba = DeviceBuffer<bf16_bits>(inputs.ba.size(), guard_bytes);
  conv_state = DeviceBuffer<bf16_bits>(inputs.conv_state.size(), guard_bytes);
  state = DeviceBuffer<float>(inputs.state.size(), guard_bytes);
  out =
      DeviceBuffer<bf16_bits>(static_cast<std::size_t>(batch_ * shape_.HV * shape_.V), guard_bytes);
  conv_weight = DeviceBuffer<bf16_bits>(inputs.weights.conv_weight.size(), guard_bytes);
  norm_weight = DeviceBuffer<bf16_bits>(inputs.weights.norm_weight.size(), guard_bytes);
  A_log = DeviceBuffer<float>(inputs.weights.A_log.size(), guard_bytes);
  dt_bias = DeviceBuffer<float>(inputs.weights.dt_bias.size(), guard_bytes);
  upload(inputs);
}

bool GdnDeviceLayer::fits(const GdnStepInputs& inputs) const {
  const GdnShape& s = inputs.shape;
  return s.H == shape_.H && s.HV == shape_.HV && s.K == shape_.K && s.V == shape_.V &&
         s.W == shape_.W && inputs.batch == batch_ && inputs.qkvz_row_stride == qkvz_row_stride_ &&
         inputs.ba_row_stride == ba_row_stride_ && inputs.qkvz.size() == qkvz.size() &&
         inputs.ba.size() == ba.size() && inputs.state.size() == state.size();
}

void GdnDeviceLayer::upload(const GdnStepInputs& inputs) {
  check_step_inputs(inputs);
  if (!fits(inputs))
    throw std::invalid_argument("GdnDeviceLayer::upload: inputs of another size than the layer");
  qkvz.upload(inputs.qkvz);
  ba.upload(inputs.ba);
  conv_state.upload(inputs.conv_state);
  state.upload(inputs.state);
  conv_weight.upload(inputs.weights.conv_weight);
  norm_weight.upload(inputs.weights.norm_weight);
  A_log.upload(inputs.weights.A_log);
  dt_bias.upload(inputs.weights.dt_bias);
  for_each_buffer(*this, [](const char*, auto& buffer) { buffer.set_guard(); });
}

std::vector<std::pair<std::string, std::string>> GdnDeviceLayer::guard_findings() const {
  std::vector<std::pair<std::string, std::string>> findings;
  for_each_buffer(*this, [&](const char* name, const auto& buffer) {
    if (const auto damage = buffer.guard_damage())
      findings.emplace_back(
          name, guard_damage_message(name, buffer.bytes(), buffer.guard_bytes(), *damage));
  });
  return findings;
}

GdnStepOutputs GdnDeviceLayer::download() const {
  GdnStepOutputs outputs;
  download_into(outputs);
  return outputs;
}

void GdnDeviceLayer::download_into(GdnStepOutputs& outputs) const {
  out.download_into(outputs.out);
  conv_state.download_into(outputs.conv_state);
  state.download_into(outputs.state);
}

std::int64_t gpu_probe_batch(const GdnShape& shape) {
  constexpr std::int64_t kStateBytesPerCall = std::int64_t{512} << 20;
  const std::int64_t row_bytes =
      std::max<std::int64_t>(shape.state_elements() * static_cast<std::int64_t>(sizeof(float)), 1);
  return std::clamp<std::int64_t>(kStateBytesPerCall / row_bytes, 2, 1024);
}

void GdnDeviceLayer::poison_output() {
  out.fill_bytes(0xff);
}

GdnDecodeArgs GdnDeviceLayer::args() {
  GdnDecodeArgs args{};
  args.qkvz = qkvz.data();
  args.ba = ba.data();
  args.conv_state = conv_state.data();
  args.state = state.data();
  args.out = out.data();
  args.conv_weight = conv_weight.data();
  args.A_log = A_log.data();
  args.dt_bias = dt_bias.data();
  args.norm_weight = norm_weight.data();
  args.batch = batch_;
  args.H = shape_.H;
  args.HV = shape_.HV;
  args.K = shape_.K;
  args.V = shape_.V;
  args.W = shape_.W;
  args.qkvz_row_stride = qkvz_row_stride_;
  args.ba_row_stride = ba_row_stride_;
  args.state_row_stride = state_row_stride_;
  return args;
}

}  // namespace layoutcheck::gpu
