// The layouts of every buffer of a case that has a contract: the case's defaults (BufferSpec::
// contract, relative to a contracts folder), each replaced by a given contract of the same buffer.
// Shared by `probe --case` (files on the command line) and `run` (a manifest's consumes/model).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/cases/case.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck {

// @post every buffer of `subject` with a default contract has a layout, a file's contract
//       replacing its buffer's default; --set overrides apply to the files that declare them.
//       Throws InputError (rule "case-layout") for a file of a buffer the case does not have,
//       for a second file of one buffer, and for a file of `probed` (a probe's own buffer,
//       whose layouts its producer and consumer give).
// @post throws InputError (rule "case-layout", at `file`) when `subject` has no buffer `buffer`.
void require_case_buffer(const Case& subject, const std::string& buffer, const std::string& file);

CaseLayouts case_layouts(const Case& subject, const LoadOptions& load,
                         const std::vector<std::string>& files,
                         const std::filesystem::path& contracts_folder,
                         std::string_view probed = {});

}  // namespace layoutcheck
