// The cases layoutcheck ships. The CLI registers them at start-up; a consumer's test may too.
#pragma once

#include "layoutcheck/cases/registry.h"

namespace layoutcheck {

// Adds every shipped case to `registry`, and their merge gates to CaseGateRegistry (idempotent).
void register_builtin_cases(CaseRegistry& registry = CaseRegistry::instance());

}  // namespace layoutcheck
