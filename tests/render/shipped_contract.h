// The contracts the project ships, loaded from the source tree for the render tests.
#pragma once

#include <string>

#include "layoutcheck/contract/parse.h"

namespace layoutcheck {

// contracts/<relative>, e.g. "gdn/qwen3_5.ba.yaml".
inline Contract shipped_contract(const std::string& relative) {
  return load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/" + relative);
}

// A GDN contract by name: contracts/gdn/<name>.yaml.
inline Contract shipped_gdn_contract(const std::string& name) {
  return shipped_contract("gdn/" + name + ".yaml");
}

}  // namespace layoutcheck
