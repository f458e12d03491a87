// The renderings of a gate report (cases/gate_report.h): Markdown for a reviewer (the verdict
// first, then each gate's checks, then what was not verified and why) and JSON for a tool.
#pragma once

#include <string>

#include "layoutcheck/cases/gate_report.h"
#include "layoutcheck/json/json.h"

namespace layoutcheck {

std::string render_gate_markdown(const GateReport& report);
Json gate_report_json(const GateReport& report);

}  // namespace layoutcheck
