// The cases this process knows: the built-in ones (src/cases/builtin_cases.cpp) and any a
// consumer adds. `layoutcheck cases` lists them; `--case NAME` selects one.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/cases/case.h"

namespace layoutcheck {

class CaseRegistry {
 public:
  static CaseRegistry& instance();

  // Adds a case; one of the same name is replaced.
  void add(std::shared_ptr<const Case> added);
  // @post throws InputError (rule "case") listing the registered cases when `name` is unknown.
  std::shared_ptr<const Case> get(std::string_view name) const;
  std::shared_ptr<const Case> find(std::string_view name) const;  // nullptr when unknown
  std::vector<std::shared_ptr<const Case>> list() const;          // sorted by name
  // The case whose bench reports carry `report_name` (or that is named so); nullptr when none.
  std::shared_ptr<const Case> find_bench(std::string_view report_name) const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const Case>> cases_;
};

}  // namespace layoutcheck
