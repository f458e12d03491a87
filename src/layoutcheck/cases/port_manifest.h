// The manifest of a ported kernel for `layoutcheck run`, for any case (version 2): which case, the
// source, entry point and ABI of the kernel, its launch geometry as expressions, and the contracts
// it claims to consume and those of the model it is wired into. Read and validated entirely on the
// CPU, before any GPU is looked for; the GPU half (gpu/port_runner.h) only compiles and launches.
//
//   layoutcheck_run: 2
//   case: rope
//   name: interleaved_port                # optional
//   set: {H: 2, D: 16}                    # optional: sizes for every contract (--set wins)
//   kernel:
//     source: interleaved_port.hip        # relative to the manifest
//     entry: rope_port
//     abi: rope_apply_v1                  # one of the case's ABIs (layoutcheck cases)
//     launch:                             # 1..3 expressions of the contract symbols, batch and
//       grid:                             #   wave_size (64 on AMD gfx9, 32 on NVIDIA); a block
//         - ceil_div(H * P, 4)            #   list, or quoted items: YAML splits [a, b] at every
//         - batch                         #   comma, those of ceil_div(a, b) too
//       block: [32, 4]
//       shared_bytes: 0                   # optional
//     compile_options: []                 # optional
//   consumes: {x: ../../contracts/rope/interleaved.x.yaml, out: ...}  # what the kernel claims
//   model:    {x: ../../contracts/rope/half_split.x.yaml, out: ...}   # what the model produces
//
// Version 1 (`layoutcheck_run: 1`) is GDN's own format, read by src/cases/gdn/run_manifest.h;
// load_port_manifest only reports it.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "layoutcheck/cases/case.h"
#include "layoutcheck/contract/expression.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck {

struct PortManifest {
  int version = 2;   // 1: only `file` is set; the GDN loader reads the rest
  std::string file;  // the manifest itself
  std::string case_name;
  std::string name;    // optional description
  std::string source;  // resolved path of the kernel source
  std::string entry;
  std::string abi;
  std::vector<Expression> grid;   // 1..3
  std::vector<Expression> block;  // 1..3
  Expression shared_bytes = Expression::literal(0);
  std::vector<std::string> compile_options;
  // Buffer name -> resolved contract path, as written.
  std::map<std::string, std::string, std::less<>> consumes, model;
  // The case's default layouts, each overridden by the manifest's consumes (claimed) or model.
  CaseLayouts claimed, model_layouts;
};

struct PortManifestOptions {
  LoadOptions load;                        // --set overrides, applied to every contract
  std::filesystem::path contracts_folder;  // where the case's default contracts live
};

// @post version 1: {version = 1, file}. Version 2: every key checked (unknown, duplicate, missing,
//       wrong type), the case and ABI known, the contracts loaded and valid for their buffers,
//       and every launch expression evaluated with the contract symbols, batch = 1 and
//       wave_size = 32 and 64. Throws InputError with file:line:column otherwise.
PortManifest load_port_manifest(const std::string& path, const PortManifestOptions& options);

// The symbols launch expressions see: the symbols of every contract of `layouts` (a kernel's
// claimed ones), batch and wave_size.
SymbolTable launch_symbols(const CaseLayouts& layouts, std::int64_t batch, std::int64_t wave_size);

struct LaunchGeometry {
  std::array<std::int64_t, 3> grid{1, 1, 1};
  std::array<std::int64_t, 3> block{1, 1, 1};
  std::int64_t shared_bytes = 0;
};

// @post every dimension positive and within the launch limits (grid x < 2^31, y, z < 2^16, block
//       dims and their product <= 1024, shared_bytes 0..2^30); InputError (rule "launch", naming
//       the expression's location) otherwise, or the evaluation's own error.
LaunchGeometry launch_geometry(const PortManifest& manifest, const SymbolTable& symbols);

}  // namespace layoutcheck
