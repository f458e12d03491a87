// The manifest of a ported GDN decode kernel for `layoutcheck run`: where its HIP source is, the
// entry point and ABI it implements, its launch geometry as expressions of the contract symbols
// and the batch, the contracts it claims to consume, and the producer contracts of the model it
// is wired into. Example (tests/gpu/ported/native_port.yaml):
//
//   layoutcheck_run: 1
//   kernel:
//     source: native_port.hip          # relative to the manifest
//     entry: gdn_decode_port
//     abi: gdn_decode_v1
//     launch:
//       grid: [HV, batch]               # 1 to 3 expressions; symbols of the contracts + batch
//       block: [128]
//       shared_bytes: (2*K + 4*V + 32) * 4
//   consumes:                           # what the kernel claims to read
//     qkvz: ../../../contracts/gdn/qwen3_5.qkvz.yaml
//     ba: ../../../contracts/gdn/qwen3_5.ba.yaml
//     state: ../../../contracts/gdn/state.hkv.yaml
//   model:                              # what the model it is wired into produces
//     qkvz: ../../../contracts/gdn/qwen3_5.qkvz.yaml
//     ba: ../../../contracts/gdn/qwen3_5.ba.yaml
//     state: ../../../contracts/gdn/state.hkv.yaml
#pragma once

#include <string>
#include <vector>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/expression.h"

namespace layoutcheck {

struct GdnContractPaths {
  std::string qkvz, ba, state;  // resolved paths
};

struct RunManifest {
  std::string file;               // the manifest itself
  std::string name;               // optional description
  std::string source;             // resolved path of the HIP source
  std::string entry;              // kernel name
  std::string abi;                // must be LAYOUTCHECK_GDN_DECODE_ABI
  std::vector<Expression> grid;   // 1..3 expressions
  std::vector<Expression> block;  // 1..3 expressions
  Expression shared_bytes = Expression::literal(0);
  std::vector<std::string> compile_options;  // optional, e.g. "-DTILE=32"
  GdnContractPaths consumes;
  GdnContractPaths model;
};

// @post throws InputError (file, line, column) on malformed YAML, unknown or missing keys, wrong
//       types, bad expressions, an unknown ABI; paths are resolved relative to the manifest.
RunManifest load_run_manifest(const std::string& path);

// Every launch expression evaluated on the CPU, before any GPU is looked for, with the symbols
// the launch will see (the claimed qkvz contract's under `overrides`, W, G, batch = 1): a grid that
// divides by zero or names an unknown symbol is an input error on any build.
// @post throws InputError (rule "launch", or the expression's own rule) naming the expression.
void check_run_manifest_launch(const RunManifest& manifest,
                               const std::vector<std::pair<std::string, std::int64_t>>& overrides);

}  // namespace layoutcheck
