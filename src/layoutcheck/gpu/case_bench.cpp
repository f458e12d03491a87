#include "layoutcheck/gpu/case_bench.h"

#include <algorithm>
#include <utility>

namespace layoutcheck::gpu {

CaseBenchRegistry& CaseBenchRegistry::instance() {
  static CaseBenchRegistry registry;
  return registry;
}

void CaseBenchRegistry::add(CaseBench bench) {
  const std::lock_guard lock(mutex_);
  const auto same = std::find_if(benches_.begin(), benches_.end(), [&](const CaseBench& known) {
    return known.case_name == bench.case_name;
  });
  if (same != benches_.end())
    *same = std::move(bench);
  else
    benches_.push_back(std::move(bench));
}

const CaseBench* CaseBenchRegistry::find(std::string_view case_name) const {
  const std::lock_guard lock(mutex_);
  for (const CaseBench& bench : benches_)
    if (bench.case_name == case_name) return &bench;
  return nullptr;
}

}  // namespace layoutcheck::gpu
