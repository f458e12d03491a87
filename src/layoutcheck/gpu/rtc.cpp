#include "layoutcheck/gpu/rtc.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <utility>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/read_file.h"
#include "layoutcheck/gpu/device.h"
#include "layoutcheck/gpu/rtc_headers.h"

namespace layoutcheck::gpu {
namespace {

struct ProgramDeleter {
  void operator()(hiprtcProgram* program) const {
    if (program != nullptr) (void)hiprtcDestroyProgram(program);
    delete program;
  }
};
using ProgramHandle = std::unique_ptr<hiprtcProgram, ProgramDeleter>;

std::string program_log(hiprtcProgram program) {
  std::size_t size = 0;
  if (hiprtcGetProgramLogSize(program, &size) != HIPRTC_SUCCESS || size == 0) return {};
  std::string log(size, '\0');
  if (hiprtcGetProgramLog(program, log.data()) != HIPRTC_SUCCESS) return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

}  // namespace

RtcCode rtc_compile(const RtcSource& source, const std::string& arch) {
  std::vector<const char*> header_texts, header_names;
  for (const EmbeddedHeader& header : embedded_rtc_headers()) {
    header_texts.push_back(header.text);
    header_names.push_back(header.include_name);
  }
  ProgramHandle program(new hiprtcProgram{});
  LC_GPU_CHECK(hiprtcCreateProgram(program.get(), source.text.c_str(), source.name.c_str(),
                                   static_cast<int>(header_texts.size()), header_texts.data(),
                                   header_names.data()));
  for (const std::string& entry : source.entries)
    LC_GPU_CHECK(hiprtcAddNameExpression(*program, entry.c_str()));

  std::vector<std::string> options = {platform::rtc_arch_option(arch), "-std=c++17",
                                      "-DLAYOUTCHECK_RTC=1"};
  for (const std::string& dir : source.include_dirs) options.push_back("-I" + dir);
  for (const std::string& option : source.extra_options) options.push_back(option);
  std::vector<const char*> option_pointers;
  for (const std::string& option : options) option_pointers.push_back(option.c_str());

  const hiprtcResult compiled = hiprtcCompileProgram(
      *program, static_cast<int>(option_pointers.size()), option_pointers.data());
  RtcCode result;
  result.log = program_log(*program);
  if (compiled != HIPRTC_SUCCESS)
    throw RtcError("runtime compilation of " + source.name + " for " + arch + " failed (" +
                       hiprtcGetErrorString(compiled) + "); compiler log:",
                   result.log);
  std::size_t code_size = 0;
  LC_GPU_CHECK(hiprtcGetCodeSize(*program, &code_size));
  result.code.assign(code_size, '\0');
  LC_GPU_CHECK(hiprtcGetCode(*program, result.code.data()));
  for (const std::string& entry : source.entries) {
    const char* lowered = nullptr;
    LC_GPU_CHECK(hiprtcGetLoweredName(*program, entry.c_str(), &lowered));
    result.lowered_names.emplace(entry, lowered);
  }
  return result;
}

RtcModule RtcModule::compile(const RtcSource& source) {
  const DeviceInfo& device = current_device();  // throws "no GPU: ..." first
  RtcCode code = rtc_compile(source, device.arch);
  RtcModule module;
  module.name_ = source.name;
  module.log_ = std::move(code.log);
  LC_GPU_CHECK(hipModuleLoadData(&module.module_, code.code.data()));
  module.loaded_ = true;
  for (const auto& [entry, lowered] : code.lowered_names) {
    hipFunction_t function{};
    try {
      LC_GPU_CHECK(hipModuleGetFunction(&function, module.module_, lowered.c_str()));
    } catch (const GpuError& error) {
      throw GpuError(std::string(error.what()) + " (kernel '" + entry + "' in " + source.name +
                     ": is it a __global__ function?)");
    }
    module.functions_.emplace(entry, function);
  }
  return module;
}

RtcModule::RtcModule(RtcModule&& other) noexcept
    : module_(std::exchange(other.module_, hipModule_t{})),
      loaded_(std::exchange(other.loaded_, false)),
      functions_(std::move(other.functions_)),
      log_(std::move(other.log_)),
      name_(std::move(other.name_)) {}

RtcModule& RtcModule::operator=(RtcModule&& other) noexcept {
  if (this != &other) {
    if (loaded_) (void)hipModuleUnload(module_);
    module_ = std::exchange(other.module_, hipModule_t{});
    loaded_ = std::exchange(other.loaded_, false);
    functions_ = std::move(other.functions_);
    log_ = std::move(other.log_);
    name_ = std::move(other.name_);
  }
  return *this;
}

RtcModule::~RtcModule() {
  if (loaded_) (void)hipModuleUnload(module_);
}

hipFunction_t RtcModule::function(const std::string& entry) const {
  const auto found = functions_.find(entry);
  if (found == functions_.end())
    throw GpuError("kernel '" + entry + "' was not requested when compiling " + name_);
  return found->second;
}

void RtcModule::launch(const std::string& entry, dim3 grid, dim3 block, unsigned shared_bytes,
                       hipStream_t stream, void** params) const {
  const hipFunction_t kernel = function(entry);
  const std::string what = "launch of " + entry + " (" + name_ + ")";
  check_result(hipModuleLaunchKernel(kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                     shared_bytes, stream, params, nullptr),
               what.c_str(), __FILE__, __LINE__);
}

RtcSource rtc_source_file(const std::string& manifest, const std::string& path,
                          const std::string& entry, std::vector<std::string> options) {
  std::optional<std::string> text;
  try {
    text = read_file_capped(path, kMaxKernelSourceBytes, "a kernel source");
  } catch (const InputError& error) {  // said of the manifest that names the source
    throw InputError(Diagnostic{SourceLocation{manifest}, Severity::error, "io",
                                error.diagnostics().front().message,
                                "kernel.source is relative to the manifest"});
  }
  RtcSource source;
  source.name = std::filesystem::path(path).filename().string();
  source.text = std::move(*text);
  source.entries = {entry};
  source.include_dirs = {std::filesystem::path(path).parent_path().string()};
  source.extra_options = std::move(options);
  return source;
}

}  // namespace layoutcheck::gpu
