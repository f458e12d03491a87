// The layout rules of a contract (design brief section 4): every offset in bounds of the row;
// no two logical elements on one offset unless declared as aliasing; every gap reported, and an
// error unless declared as padding; padding in bounds and not over elements; row strides at least
// the row size. Each finding names the file, line and column of the field or region at fault.
#pragma once

#include <string>
#include <vector>

#include "layoutcheck/contract/contract.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck {

// Layout checks on a resolved contract.
std::vector<Diagnostic> check_contract(const Contract& contract);

// Everything lint reports for one file: parse problems, then layout checks.
std::vector<Diagnostic> lint_file(const std::string& path, const LoadOptions& options = {});

}  // namespace layoutcheck
