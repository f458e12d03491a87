#include "layoutcheck/cases/registry.h"

#include <algorithm>

#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck {

std::optional<BufferSpec> Case::buffer(std::string_view name) const {
  for (BufferSpec& spec : buffers())
    if (spec.name == name) return std::move(spec);
  return std::nullopt;
}

CaseRegistry& CaseRegistry::instance() {
  static CaseRegistry registry;
  return registry;
}

void CaseRegistry::add(std::shared_ptr<const Case> added) {
  std::lock_guard lock(mutex_);
  for (auto& existing : cases_)
    if (existing->name() == added->name()) {
      existing = std::move(added);
      return;
    }
  cases_.push_back(std::move(added));
  std::sort(cases_.begin(), cases_.end(),
            [](const auto& a, const auto& b) { return a->name() < b->name(); });
}

std::shared_ptr<const Case> CaseRegistry::find(std::string_view name) const {
  std::lock_guard lock(mutex_);
  for (const auto& known : cases_)
    if (known->name() == name) return known;
  return nullptr;
}

std::shared_ptr<const Case> CaseRegistry::get(std::string_view name) const {
  if (auto known = find(name)) return known;
  std::string names;
  for (const auto& known : list()) names += (names.empty() ? "" : ", ") + known->name();
  throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "case",
                              "unknown case '" + std::string(name) + "'",
                              "one of: " + (names.empty() ? std::string("(none)") : names) +
                                  " (layoutcheck cases lists them)"});
}

std::vector<std::shared_ptr<const Case>> CaseRegistry::list() const {
  std::lock_guard lock(mutex_);
  return cases_;
}

std::shared_ptr<const Case> CaseRegistry::find_bench(std::string_view report_name) const {
  for (const auto& known : list()) {
    const std::optional<BenchDeclaration> bench = known->bench();
    if (bench && (bench->report_name == report_name || known->name() == report_name)) return known;
  }
  return nullptr;
}

}  // namespace layoutcheck
