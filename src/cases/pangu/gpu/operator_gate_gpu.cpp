#include "cases/pangu/gpu/operator_gate_gpu.h"

#include <cstdio>

#include "cases/pangu/block_stack.h"
#include "cases/pangu/gpu/block_stack_gpu.h"
#include "cases/pangu/gpu/pangu_entry.h"
#include "cases/pangu/model_gate.h"
#include "cases/pangu/operator_gate.h"
#include "layoutcheck/bench/statistics.h"
#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/stream.h"
#include "layoutcheck/report/format.h"

namespace layoutcheck::gpu {
namespace {

using pangu::OperatorGateInput;
using Values = std::vector<fp16_bits>;

constexpr int kPoison = 0xA5;

std::size_t tensor_bytes(const pangu::TensorSpec& t) {
  std::size_t count = 1;
  for (const std::int64_t size : t.shape) count *= static_cast<std::size_t>(std::max<std::int64_t>(size, 0));
  return count * static_cast<std::size_t>(dtype_bytes(t.dtype));
}

GateCheck run_input(const OperatorGateInput& input, const Stream& stream) {
  const pangu::PanguCall& call = input.call;
  const std::size_t outputs = call.op == pangu::PanguOperator::add_layer_norm ? 2 : 1;
  const std::size_t inputs = call.tensors.size() - outputs;
  const bool illegal = input.kind == "illegal";
  const std::vector<Values> values = illegal ? std::vector<Values>{} : pangu::gate_input_values(input);
  std::vector<DeviceBuffer<std::uint8_t>> buffers;
  std::vector<void*> pointers;
  for (std::size_t i = 0; i < call.tensors.size(); ++i) {
    buffers.emplace_back(std::max<std::size_t>(tensor_bytes(call.tensors[i]), 1));
    if (i < inputs && !illegal) {
      LC_GPU_CHECK(hipMemcpy(buffers.back().data(), values[i].data(), values[i].size() * 2,
                             hipMemcpyHostToDevice));
    } else {
      buffers.back().fill_bytes(kPoison);
    }
    pointers.push_back(buffers.back().data());
  }
  GateCheck check{"operator", input.kind, input.subject(), GateOutcome::failed, ""};
  try {
    launch_pangu_call(call, pointers, stream.get());
    if (illegal) {
      check.detail = "accepted and launched";
      return check;
    }
  } catch (const InputError& error) {
    if (!illegal) {
      check.detail = std::string("refused: ") + error.what();
      return check;
    }
    std::size_t touched = 0;
    for (std::size_t i = 0; i < buffers.size(); ++i)
      for (const std::uint8_t byte : buffers[i].to_host()) touched += byte != kPoison;
    const bool words = std::string(error.what()).find(input.refusal) != std::string::npos;
    check.outcome = touched == 0 && words ? GateOutcome::passed : GateOutcome::failed;
    check.detail = (touched == 0 ? "refused before launch, every buffer untouched: "
                                 : std::to_string(touched) + " bytes written despite the refusal: ") +
                   std::string(error.what());
    return check;
  }
  std::vector<Values> got;
  for (std::size_t i = inputs; i < buffers.size(); ++i) {
    Values host(tensor_bytes(call.tensors[i]) / 2);
    LC_GPU_CHECK(hipMemcpy(host.data(), buffers[i].data(), host.size() * 2, hipMemcpyDeviceToHost));
    got.push_back(std::move(host));
  }
  return pangu::compare_gate_outputs(input, got, pangu::gate_reference_outputs(input, values));
}

std::string us_text(const StackRun& run) { return format_us(summarize(run.us).median); }

void stack_gates(const pangu::StackGrid& grid, const GateRequest& request, const Stream& stream,
                 std::vector<GateCheck>& checks) {
  const pangu::BlockStack stack = pangu::make_block_stack(
      pangu::alternating_windows(request.contracts_folder, grid.z, grid.lat, grid.lon,
                                 grid.channels, pangu::kGateStackBlocks),
      grid.heads, 41);
  const Values input = pangu::stack_input(stack, 42);
  // Each path run once first on the stream the readings use, so that neither reading holds what
  // a first run makes for both: the BLAS handle, the stream's BLAS workspace, the kernels' modules.
  for (const pangu::StackPath path : {pangu::StackPath::generic, pangu::StackPath::native})
    (void)run_gpu_block_stack(stack, path, input, stream);
  const StackRun generic =
      time_gpu_block_stack(stack, pangu::StackPath::generic, input, stream, 3, 10);
  const StackRun native = time_gpu_block_stack(stack, pangu::StackPath::native, input, stream, 3, 10);
  const pangu::ChannelComparison gate =
      pangu::compare_channels(native.output, generic.output, stack.channels);
  checks.push_back({"model", "GPU", grid.text(),
                    gate.passed() ? GateOutcome::passed : GateOutcome::failed, gate.summary()});
  const double native_us = summarize(native.us).median, generic_us = summarize(generic.us).median;
  const std::int64_t native_bytes = native.activation_bytes + native.index_bytes;
  const std::int64_t generic_bytes = generic.activation_bytes + generic.index_bytes;
  const bool passed = gate.passed() && native_us < generic_us && native_bytes <= generic_bytes &&
                      native.replayed == native.output;
  checks.push_back({"end-to-end", "GPU", grid.text(),
                    passed ? GateOutcome::passed : GateOutcome::failed,
                    "one graph per path: native " + us_text(native) + ", generic " +
                        us_text(generic) + " (" + format_ratio(generic_us / native_us) +
                        "); device memory native " + format_bytes(native_bytes) + ", generic " +
                        format_bytes(generic_bytes) + " (activations at their peak and maps), " +
                        "as the device reads it native " + format_bytes(native.device_bytes) +
                        ", generic " + format_bytes(generic.device_bytes) +
                        " (weights, input and graph too); " + std::to_string(native.launches) +
                        " against " + std::to_string(generic.launches) + " launches"});
}

}  // namespace

std::vector<GateCheck> pangu_device_gates(const GateRequest& request) {
  const Stream stream(Stream::Kind::non_blocking);
  if (!request.call.empty())
    return {run_input(pangu::pangu_call_input(request.call, request.contracts_folder), stream)};
  std::vector<GateCheck> checks;
  const auto wanted = [&](const std::string& subject) {
    return request.only.empty() || subject.find(request.only) != std::string::npos;
  };
  for (const OperatorGateInput& input : pangu::operator_gate_inputs(request.contracts_folder))
    if (wanted(input.subject())) checks.push_back(run_input(input, stream));
  for (const pangu::StackGrid& grid : pangu::real_stack_grids())
    if (wanted(grid.text())) stack_gates(grid, request, stream, checks);
  return checks;
}

}  // namespace layoutcheck::gpu
