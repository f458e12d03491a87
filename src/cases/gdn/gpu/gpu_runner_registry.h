// The GPU library's probe runners ("gpu", "gpu:native", "gpu:upstream", ...), for the registry
// of probe/runner_registry.h. GPU builds only: the CLI calls it once at start-up there.
#pragma once

#include "cases/gdn/probe/runner_registry.h"

namespace layoutcheck {

void register_gpu_runners(RunnerRegistry& registry);

}  // namespace layoutcheck
