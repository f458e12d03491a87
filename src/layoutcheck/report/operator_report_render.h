// The renderings of an operator bench's result model (bench/operator_report.h): the Markdown a
// reviewer reads (gates first, then each time beside its floor, the targets and what was not
// merged) and the JSON a later tool reads.
#pragma once

#include <string>

#include "layoutcheck/bench/operator_report.h"
#include "layoutcheck/json/json.h"

namespace layoutcheck {

std::string render_operator_markdown(const OperatorBenchReport& report);
Json operator_report_json(const OperatorBenchReport& report);

}  // namespace layoutcheck
