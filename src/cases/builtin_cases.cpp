#include "cases/builtin_cases.h"

#include "cases/gdn/gdn_case.h"
#include "cases/gdn/recurrent_case.h"
#include "cases/pangu/add_layer_norm_case.h"
#include "cases/pangu/layer_norm_case.h"
#include "cases/pangu/layer_norm_gather_case.h"
#include "cases/pangu/operator_gate.h"
#include "cases/pangu/window_gather_case.h"
#include "cases/pangu/window_reverse_case.h"
#include "cases/rope/rope_case.h"

namespace layoutcheck {

// One line per case: adding a case adds its folder and its line here.
void register_builtin_cases(CaseRegistry& registry) {
  registry.add(make_gdn_case());
  registry.add(make_gdn_recurrent_case());
  registry.add(make_rope_case());
  registry.add(make_pangu_window_gather_case());
  registry.add(make_pangu_window_reverse_case());
  registry.add(make_pangu_layer_norm_case());
  registry.add(make_pangu_add_layer_norm_case());
  registry.add(make_pangu_layer_norm_gather_case());
  pangu::register_pangu_gates();
}

}  // namespace layoutcheck
