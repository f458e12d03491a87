// Shared by the GPU suites of the cases' version-2 ports (probes/<case>/*.yaml): load a shipped
// manifest as `layoutcheck run` does, and check the port it names exactly as `run` checks it.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cases/builtin_cases.h"
#include "cases/builtin_gpu_cases.h"
#include "layoutcheck/cases/port_manifest.h"
#include "layoutcheck/cases/registry.h"
#include "layoutcheck/gpu/port_runner.h"
#include "layoutcheck/gpu/rtc.h"
#include "layoutcheck/probe/port_check.h"

namespace layoutcheck::testing {

// probes/<folder>/, with its trailing slash.
inline std::string shipped_probes(const std::string& folder) {
  return std::string(LAYOUTCHECK_TEST_DATA) + "/../probes/" + folder + "/";
}

// sizes: as `run --set`, over the manifest's own set:.
inline PortManifest load_port(const std::string& path,
                              std::vector<std::pair<std::string, std::int64_t>> sizes = {}) {
  register_builtin_cases();
  register_builtin_gpu_cases();
  PortManifestOptions options;
  options.contracts_folder = LAYOUTCHECK_CONTRACTS_DIR;
  options.load.overrides = std::move(sizes);
  return load_port_manifest(path, options);
}

// Every named port of probes/<folder>/ compiles at run time (NVRTC and hipRTC need no GPU) and
// exports `entry`.
inline void expect_ports_compile(const std::string& folder, const std::vector<std::string>& names,
                                 const std::string& entry, const std::string& arch) {
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const PortManifest port = load_port(shipped_probes(folder) + name + ".yaml");
    const gpu::RtcCode code = gpu::rtc_compile(gpu::port_source(port), arch);
    EXPECT_FALSE(code.code.empty());
    EXPECT_EQ(code.lowered_names.count(entry), 1u);
  }
}

inline PortCheck check_shipped_port(const PortManifest& port) {
  const auto subject = CaseRegistry::instance().get(port.case_name);
  gpu::PortRunner runner(port);
  CaseProbeRequest request;
  request.model = port.model_layouts;
  request.claimed = port.claimed;
  request.rows = 2;
  return check_port(*subject, runner, port.name, request);
}

}  // namespace layoutcheck::testing
