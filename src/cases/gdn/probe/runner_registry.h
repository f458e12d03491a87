// Named ways to build the kernel a probe runs: the CLI's --backend picks one by name.
//   "cpu"                  the CPU model of a kernel built for the consumer's layouts
//   "cpu:mutant:<name>"    the CPU models of the deliberately broken kernels (probe/mutants.h)
//   "gpu", "gpu:<path>"    registered by the GPU library (layoutcheck_gpu) through
//                          register_gpu_runners() (gpu/gpu_runner_registry.h), which the CLI
//                          calls in builds with a backend
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cases/gdn/layouts.h"
#include "cases/gdn/problem.h"
#include "cases/gdn/shape.h"

namespace layoutcheck {

struct RunnerRequest {
  GdnShape shape;
  GdnLayouts consumer;  // the layouts the kernel claims to read
};

using RunnerFactory = std::function<std::unique_ptr<GdnRunner>(const RunnerRequest&)>;

class RunnerRegistry {
 public:
  // The process-wide registry, holding the CPU runners from the start.
  static RunnerRegistry& instance();

  // Adds or replaces a runner.
  void add(std::string name, std::string description, RunnerFactory factory);
  bool contains(std::string_view name) const;
  // (name, description), sorted by name.
  std::vector<std::pair<std::string, std::string>> list() const;
  // @post throws InputError (rule "backend") naming the registered runners when `name` is unknown;
  //       a "gpu" name in a build without a GPU backend says so.
  std::unique_ptr<GdnRunner> make(std::string_view name, const RunnerRequest& request) const;

  // Registers "cpu" and every "cpu:mutant:<name>".
  void add_cpu_runners();

 private:
  struct Entry {
    std::string description;
    RunnerFactory factory;
  };
  mutable std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace layoutcheck
