// The headers a runtime-compiled kernel may #include, embedded into the library at build time
// (kernels/EmbedFiles.cmake): gdn_abi.h, layoutcheck/platform/{gpu_runtime,wave,bf16}.h, the
// generated contract headers generated/<contract>.h, and minimal <cstdint>/<cstring> (hipRTC and
// NVRTC ship no standard library).
#pragma once

#include <vector>

namespace layoutcheck::gpu {

struct EmbeddedHeader {
  const char* include_name;  // as written in #include "..."
  const char* text;
};

const std::vector<EmbeddedHeader>& embedded_rtc_headers();

}  // namespace layoutcheck::gpu
