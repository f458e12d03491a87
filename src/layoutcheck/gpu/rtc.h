// Runtime compilation of HIP source (hipRTC on AMD, NVRTC on NVIDIA through gpu_runtime.h) for the
// current device: ported kernels given to `layoutcheck run`, and adapters generated from two
// contracts. A compile error throws RtcError carrying the compiler's full log.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "layoutcheck/gpu/check.h"
#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::gpu {

class RtcError : public GpuError {
 public:
  RtcError(const std::string& message, std::string log)
      : GpuError(message + (log.empty() ? "" : "\n" + log)), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

struct RtcSource {
  std::string name;                        // shown in messages and the log ("my_kernel.hip")
  std::string text;                        // the source
  std::vector<std::string> entries;        // kernel names to look up (C++ names or extern "C")
  std::vector<std::string> include_dirs;   // -I, searched after the embedded headers
  std::vector<std::string> extra_options;  // e.g. "-DTILE=32"
};

// A compiled code object, not yet loaded: compiling needs no GPU, only the target architecture.
struct RtcCode {
  std::string code;                                  // code object (AMD) or CUBIN (NVIDIA)
  std::string log;                                   // the compiler's log, warnings included
  std::map<std::string, std::string> lowered_names;  // entry -> symbol in the code object
};

// A manifest's kernel source as runtime compilation takes it: its folder on the include path.
// @post throws InputError naming the manifest when the source cannot be read.
RtcSource rtc_source_file(const std::string& manifest, const std::string& path,
                          const std::string& entry, std::vector<std::string> options);

// @post throws RtcError carrying the compiler's full log when the source does not compile.
RtcCode rtc_compile(const RtcSource& source, const std::string& arch);

// A compiled and loaded module; movable, unloads on destruction.
class RtcModule {
 public:
  // @post every entry is resolved; throws RtcError (compile error, with log) or GpuError.
  static RtcModule compile(const RtcSource& source);

  RtcModule(RtcModule&& other) noexcept;
  RtcModule& operator=(RtcModule&& other) noexcept;
  RtcModule(const RtcModule&) = delete;
  RtcModule& operator=(const RtcModule&) = delete;
  ~RtcModule();

  // @pre entry was listed in RtcSource::entries.
  hipFunction_t function(const std::string& entry) const;
  void launch(const std::string& entry, dim3 grid, dim3 block, unsigned shared_bytes,
              hipStream_t stream, void** params) const;
  const std::string& compiler_log() const { return log_; }

 private:
  RtcModule() = default;
  hipModule_t module_{};
  bool loaded_ = false;
  std::map<std::string, hipFunction_t> functions_;
  std::string log_;
  std::string name_;
};

}  // namespace layoutcheck::gpu
