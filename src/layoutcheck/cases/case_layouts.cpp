#include "layoutcheck/cases/case_layouts.h"

#include <map>
#include <utility>

namespace layoutcheck {

void require_case_buffer(const Case& subject, const std::string& buffer, const std::string& file) {
  if (!subject.buffer(buffer))
    throw InputError(Diagnostic{SourceLocation{file}, Severity::error, "case-layout",
                                "case '" + subject.name() + "' has no buffer '" + buffer + "'",
                                "layoutcheck cases lists its buffers"});
}

CaseLayouts case_layouts(const Case& subject, const LoadOptions& load,
                         const std::vector<std::string>& files,
                         const std::filesystem::path& contracts_folder, std::string_view probed) {
  LoadOptions defaults = load;
  defaults.ignore_unknown_overrides = true;  // --set H=3 concerns the files that declare H
  CaseLayouts layouts;
  // The probed buffer's default is not loaded: its layouts are the producer's and the consumer's.
  for (const BufferSpec& spec : subject.buffers())
    if (!spec.contract.empty() && spec.name != probed)
      layouts[spec.name] = load_contract((contracts_folder / spec.contract).string(), defaults);
  std::map<std::string, std::string> given;  // buffer -> the file that gave it
  for (const std::string& file : files) {
    Contract contract = load_contract(file, defaults);
    const std::string buffer = subject.buffer_described_by(contract);
    require_case_buffer(subject, buffer, file);
    if (!probed.empty() && buffer == probed)
      throw InputError(Diagnostic{
          SourceLocation{file}, Severity::error, "case-layout",
          "describes '" + buffer +
              "', the probed buffer, whose layouts the producer and the "
              "consumer give",
          "--with and --producer-with (Python: with_contracts, producer_with) are for the "
          "buffers not probed"});
    // A second contract of one buffer would silently replace the first.
    if (const auto [first, added] = given.emplace(buffer, file); !added)
      throw InputError(Diagnostic{
          SourceLocation{file}, Severity::error, "case-layout",
          "a second contract of buffer '" + buffer + "' (the first: " + first->second + ")",
          "give one contract per buffer"});
    layouts[buffer] = std::move(contract);
  }
  return layouts;
}

}  // namespace layoutcheck
