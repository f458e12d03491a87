#include "cases/gdn/probe/runner_registry.h"

#include "cases/gdn/probe/mutants.h"
#include "cases/gdn/reference_runner.h"

namespace layoutcheck {

RunnerRegistry& RunnerRegistry::instance() {
  static RunnerRegistry* registry = [] {
    auto* created = new RunnerRegistry;  // never destroyed: runners may outlive static teardown
    created->add_cpu_runners();
    return created;
  }();
  return *registry;
}

void RunnerRegistry::add(std::string name, std::string description, RunnerFactory factory) {
  std::lock_guard lock(mutex_);
  entries_[std::move(name)] = Entry{std::move(description), std::move(factory)};
}

bool RunnerRegistry::contains(std::string_view name) const {
  std::lock_guard lock(mutex_);
  return entries_.find(name) != entries_.end();
}

std::vector<std::pair<std::string, std::string>> RunnerRegistry::list() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, std::string>> result;
  for (const auto& [name, entry] : entries_) result.emplace_back(name, entry.description);
  return result;
}

std::unique_ptr<GdnRunner> RunnerRegistry::make(std::string_view name,
                                                const RunnerRequest& request) const {
  RunnerFactory factory;
  std::string known;
  bool any_gpu = false;
  {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(name); it != entries_.end()) factory = it->second.factory;
    for (const auto& [entry_name, entry] : entries_) {
      known += (known.empty() ? "" : ", ") + entry_name;
      any_gpu |= entry_name.rfind("gpu", 0) == 0;
    }
  }
  if (factory) return factory(request);
  const bool wants_gpu = name.rfind("gpu", 0) == 0;
  const std::string message =
      wants_gpu && !any_gpu
          ? "this build has no GPU backend, so there is no runner '" + std::string(name) + "'"
          : "no runner named '" + std::string(name) + "'";
  throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "backend", message,
                              wants_gpu && !any_gpu
                                  ? "use --backend cpu, or build with -DLAYOUTCHECK_GPU_BACKEND="
                                    "hip or cuda"
                                  : "known runners: " + known});
}

void RunnerRegistry::add_cpu_runners() {
  add("cpu", "the CPU model of a kernel built for the consumer's layouts (the fp64 reference)",
      [](const RunnerRequest& request) -> std::unique_ptr<GdnRunner> {
        return std::make_unique<ReferenceRunner>(request.shape, request.consumer);
      });
  for (MutantKind kind : all_mutant_kinds()) {
    const MutantInfo info = describe_mutant(kind);
    add("cpu:mutant:" + info.name, "a deliberately broken CPU kernel: " + info.description,
        [kind](const RunnerRequest& request) {
          return make_mutant(kind, request.shape, request.consumer).kernel;
        });
  }
}

}  // namespace layoutcheck
