#include "cases/gdn/bench/gdn_gates.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <random>
#include <stdexcept>
#include <utility>

#include "cases/gdn/random_problem.h"
#include "cases/gdn/reference.h"
#include "cases/gdn/relative_error.h"

namespace layoutcheck {

namespace {

// Fresh activations for one step of the multi-step gate, at the scales of random_problem.h
// (N(0, 1) for q, k, v, z, b, a); weights, state and conv state are not redrawn.
std::pair<std::vector<bf16_bits>, std::vector<bf16_bits>> step_activations(
    const GdnShape& shape, const GdnLayouts& layouts, std::int64_t batch, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  auto draw = [&](std::int64_t count) {
    std::vector<bf16_bits> values(static_cast<std::size_t>(count));
    for (bf16_bits& value : values) value = float_to_bf16(static_cast<float>(normal(engine)));
    return values;
  };
  GdnLogicalInputs logical;
  logical.shape = shape;
  logical.batch = batch;
  logical.q = draw(batch * shape.H * shape.K);
  logical.k = draw(batch * shape.H * shape.K);
  logical.v = draw(batch * shape.HV * shape.V);
  logical.z = draw(batch * shape.HV * shape.V);
  logical.b = draw(batch * shape.HV);
  logical.a = draw(batch * shape.HV);
  return {lay_out_qkvz(logical, layouts.qkvz), lay_out_ba(logical, layouts.ba)};
}

template <class T>
std::int64_t bitwise_mismatches(const std::vector<T>& left, const std::vector<T>& right) {
  if (left.size() != right.size())
    return static_cast<std::int64_t>(std::max(left.size(), right.size()));
  std::int64_t mismatches = 0;
  for (std::size_t i = 0; i < left.size(); ++i)
    if (std::memcmp(&left[i], &right[i], sizeof(T)) != 0) ++mismatches;
  return mismatches;
}

BitwiseCheck compare_bitwise(const std::string& what, const std::vector<bf16_bits>& actual,
                             const std::vector<bf16_bits>& expected) {
  return {what, static_cast<std::int64_t>(expected.size()), bitwise_mismatches(actual, expected)};
}

// The path's state, laid out by the state contract, against the reference's logical fp64 state.
double state_error(const GdnReference& reference, const std::vector<float>& state,
                   const std::vector<double>& logical, std::int64_t batch) {
  const GdnShape& shape = reference.shape();
  const std::int64_t head = shape.K * shape.V;
  const std::size_t needed = static_cast<std::size_t>(
      (batch - 1) * reference.access().state_row_stride() + reference.layouts().state.row_size);
  if (state.size() < needed)
    throw std::runtime_error("the path returned " + std::to_string(state.size()) +
                             " state values, " + std::to_string(needed) + " expected");
  std::vector<double> actual(logical.size());
  for (std::int64_t row = 0; row < batch; ++row)
    for (std::int64_t hv = 0; hv < shape.HV; ++hv)
      reference.access().read_head_state(state, row, hv,
                                         actual.data() + (row * shape.HV + hv) * head);
  return relative_l2(std::span<const double>(actual), std::span<const double>(logical));
}

}  // namespace

void add_bitwise_differences(const GdnStepOutputs& a, const GdnStepOutputs& b,
                             BitwiseCheck& check) {
  check.elements += static_cast<std::int64_t>(a.out.size() + a.state.size() + a.conv_state.size());
  check.mismatches += bitwise_mismatches(a.out, b.out) + bitwise_mismatches(a.state, b.state) +
                      bitwise_mismatches(a.conv_state, b.conv_state);
}

struct GdnGateRunner::Expected {
  std::int64_t batch = 0;
  GdnStepInputs inputs;
  GdnReferenceOutputs exact;
};

struct GdnGateRunner::MultiStepExpected {
  GdnStepInputs initial;
  std::vector<std::int64_t> checkpoints;
  std::vector<GdnReferenceOutputs> at_checkpoint;
};

namespace {

GdnReference make_reference(const GdnGatePlan& plan) {
  return GdnReference(plan.shape, flat_gdn_layouts(plan.shape, plan.state_order));
}

}  // namespace

GdnGateRunner::GdnGateRunner(GdnGatePlan plan, GateProgress progress)
    : plan_(std::move(plan)), progress_(std::move(progress)) {
  if (!plan_.shape.valid()) throw std::invalid_argument("gates: invalid GDN shape");
  for (std::int64_t batch : plan_.batches)
    if (batch <= 0) throw std::invalid_argument("gates: batch sizes must be positive");
  if (plan_.multi_step_batch <= 0 || plan_.steps < 0)
    throw std::invalid_argument("gates: multi-step batch must be positive and steps >= 0");
  std::erase_if(plan_.checkpoints,
                [&](std::int64_t step) { return step < 1 || step > plan_.steps; });
  if (plan_.steps > 0 && std::find(plan_.checkpoints.begin(), plan_.checkpoints.end(),
                                   plan_.steps) == plan_.checkpoints.end())
    plan_.checkpoints.push_back(plan_.steps);  // the last step is always checked
  std::sort(plan_.checkpoints.begin(), plan_.checkpoints.end());
}

GdnGateRunner::~GdnGateRunner() = default;

void GdnGateRunner::report(const std::string& line) const {
  if (progress_) progress_(line);
}

const GdnGateRunner::Expected& GdnGateRunner::expected_at(std::int64_t batch) {
  for (const auto& expected : expected_)
    if (expected->batch == batch) return *expected;
  report("reference: one step at batch " + std::to_string(batch));
  auto expected = std::make_unique<Expected>();
  expected->batch = batch;
  expected->inputs =
      make_random_step_inputs(plan_.shape, flat_gdn_layouts(plan_.shape, plan_.state_order), batch,
                              plan_.seed + static_cast<std::uint64_t>(batch));
  expected->exact = make_reference(plan_).step_exact(expected->inputs);
  expected_.push_back(std::move(expected));
  return *expected_.back();
}

const GdnStepInputs& GdnGateRunner::inputs_at(std::int64_t batch) {
  return expected_at(batch).inputs;
}

GateRecord GdnGateRunner::check(GdnRunner& path) {
  GateRecord record;
  try {
    check_single_steps(path, record);
    if (plan_.steps > 0) check_multi_step(path, record);
  } catch (const std::exception& error) {
    record.failures.push_back(path.name() + " failed: " + error.what());
  }
  return record;
}

void GdnGateRunner::check_single_steps(GdnRunner& path, GateRecord& record) {
  const GdnReference reference = make_reference(plan_);
  DeterminismGate determinism{2, {"out, state and conv state", 0, 0}};
  for (std::int64_t batch : plan_.batches) {
    const Expected& expected = expected_at(batch);
    report(path.name() + ": reference check at batch " + std::to_string(batch));
    const GdnStepOutputs first = path.step(expected.inputs);
    ReferenceCheck check;
    check.batch = batch;
    check.output_rel_l2 = relative_l2(std::span<const bf16_bits>(first.out),
                                      std::span<const double>(expected.exact.out));
    check.state_rel_l2 = state_error(reference, first.state, expected.exact.state, batch);
    check.conv_state = compare_bitwise("conv state", first.conv_state, expected.exact.conv_state);
    record.reference.push_back(check);

    add_bitwise_differences(first, path.step(expected.inputs), determinism.outputs);
  }
  record.determinism = determinism;
}

void GdnGateRunner::check_multi_step(GdnRunner& path, GateRecord& record) {
  const GdnReference reference = make_reference(plan_);
  const GdnLayouts layouts = flat_gdn_layouts(plan_.shape, plan_.state_order);
  const std::int64_t batch = plan_.multi_step_batch;
  auto activations = [&](std::int64_t step) {
    return step_activations(plan_.shape, layouts, batch,
                            plan_.seed ^ (0x5eedull << 20) ^ static_cast<std::uint64_t>(step));
  };

  if (!multi_step_) {
    report("reference: " + std::to_string(plan_.steps) + " steps at batch " +
           std::to_string(batch));
    multi_step_ = std::make_unique<MultiStepExpected>();
    multi_step_->initial = make_random_step_inputs(plan_.shape, layouts, batch, plan_.seed ^ 0x3u);
    multi_step_->checkpoints = plan_.checkpoints;
    GdnReferenceSession session(reference, multi_step_->initial);
    std::size_t next = 0;
    for (std::int64_t step = 1; step <= plan_.steps && next < plan_.checkpoints.size(); ++step) {
      auto [qkvz, ba] = activations(step);
      session.advance(std::move(qkvz), std::move(ba));
      if (step % 128 == 0)
        report("reference: step " + std::to_string(step) + " of " + std::to_string(plan_.steps) +
               " at batch " + std::to_string(batch));
      if (step == plan_.checkpoints[next])
        multi_step_->at_checkpoint.push_back(session.last()), ++next;
    }
  }

  MultiStepGate gate;
  gate.batch = batch;
  gate.steps = plan_.steps;
  BitwiseCheck conv_state{"conv state at every checkpoint", 0, 0};
  GdnStepInputs inputs = multi_step_->initial;
  std::size_t next = 0;
  for (std::int64_t step = 1; step <= plan_.steps && next < plan_.checkpoints.size(); ++step) {
    std::tie(inputs.qkvz, inputs.ba) = activations(step);
    GdnStepOutputs outputs = path.step(inputs);
    inputs.state = std::move(outputs.state);
    inputs.conv_state = std::move(outputs.conv_state);
    if (step != plan_.checkpoints[next]) continue;
    const GdnReferenceOutputs& expected = multi_step_->at_checkpoint[next++];
    report(path.name() + ": " + std::to_string(plan_.steps) + "-step gate, step " +
           std::to_string(step));
    gate.checkpoints.push_back({step,
                                relative_l2(std::span<const bf16_bits>(outputs.out),
                                            std::span<const double>(expected.out)),
                                state_error(reference, inputs.state, expected.state, batch)});
    const BitwiseCheck check = compare_bitwise("", inputs.conv_state, expected.conv_state);
    conv_state.elements += check.elements;
    conv_state.mismatches += check.mismatches;
  }
  gate.bitwise.push_back(conv_state);
  record.multi_step = gate;
}

}  // namespace layoutcheck
