#include "cases/gdn/probe/value_check.h"

#include <stdexcept>
#include <string>

#include "cases/gdn/random_problem.h"
#include "cases/gdn/reference.h"
#include "cases/gdn/relative_error.h"
#include "layoutcheck/report/format.h"

namespace layoutcheck {

ValueCheck check_values(GdnRunner& runner, const GdnShape& shape, const GdnLayouts& layouts,
                        const ValueCheckOptions& options) {
  const GdnReference reference(shape, layouts);
  const GdnStepInputs inputs = make_random_step_inputs(shape, layouts, options.batch, options.seed);
  const GdnReferenceOutputs expected = reference.step_exact(inputs);
  const GdnStepOutputs actual = runner.step(inputs);

  ValueCheck check;
  check.ran = true;
  const std::int64_t B = options.batch, stride = row_stride(layouts.state);
  if (actual.out.size() < expected.out.size() ||
      actual.conv_state.size() < expected.conv_state.size() ||
      static_cast<std::int64_t>(actual.state.size()) < (B - 1) * stride + layouts.state.row_size)
    throw std::runtime_error(runner.name() + " returned fewer outputs than " + std::to_string(B) +
                             " rows need");
  check.out_relative_l2 =
      relative_l2(std::span(actual.out).first(expected.out.size()), expected.out);
  std::vector<double> state(expected.state.size());
  for (std::int64_t row = 0; row < B; ++row)
    layouts.state.find_field("S")->for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      state[static_cast<std::size_t>(row * shape.state_elements() + linear)] =
          actual.state[static_cast<std::size_t>(row * stride + offset)];
    });
  check.state_relative_l2 = relative_l2(state, expected.state);
  check.conv_state_exact =
      std::equal(expected.conv_state.begin(), expected.conv_state.end(), actual.conv_state.begin());
  check.passed = check.out_relative_l2 <= options.out_tolerance &&
                 check.state_relative_l2 <= options.state_tolerance && check.conv_state_exact;
  check.detail = "output relative L2 " + format_general(check.out_relative_l2) + " (limit " +
                 format_general(options.out_tolerance) + "), state " +
                 format_general(check.state_relative_l2) + " (limit " +
                 format_general(options.state_tolerance) + "), conv state " +
                 (check.conv_state_exact ? "bitwise equal" : "differs");
  return check;
}

}  // namespace layoutcheck
