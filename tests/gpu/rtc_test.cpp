// Runtime compilation: embedded headers are usable, a compile error carries the compiler's full
// log, and every generated adapter source compiles. Compiling needs no GPU (only loading does),
// so these run on a build machine too.
#include "layoutcheck/gpu/rtc.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gpu/gpu_test_support.h"
#include "layoutcheck/codegen/adapter_source.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck::gpu {
namespace {

using ::testing::HasSubstr;
using layoutcheck::testing::compile_arch;

TEST(Rtc, EmbeddedHeadersCompile) {
  RtcSource source;
  source.name = "uses_headers.hip";
  source.text = R"(
#include <cstdint>
#include "gdn_abi.h"
#include "generated/qwen3_5_qkvz.h"
#include "layoutcheck/platform/bf16.h"
#include "layoutcheck/platform/gpu_runtime.h"
namespace c = layoutcheck::contracts::qwen3_5_qkvz;
extern "C" __global__ void probe_headers(layoutcheck::GdnDecodeArgs args) {
  c::Symbols<int> s;
  const int offset = c::offset_V(s, (int)threadIdx.x, 3);
  args.out[threadIdx.x] = layoutcheck::float_to_bf16(layoutcheck::bf16_to_float(args.qkvz[offset]) +
                                                     (float)layoutcheck::wave::kWaveSize);
  std::uint16_t unused = 0;
  (void)unused;
}
)";
  source.entries = {"probe_headers"};
  const RtcCode code = rtc_compile(source, compile_arch());
  EXPECT_FALSE(code.code.empty());
  EXPECT_EQ(code.lowered_names.count("probe_headers"), 1u);
}

TEST(Rtc, CompileErrorCarriesTheFullLog) {
  RtcSource source;
  source.name = "broken_kernel.hip";
  source.text = "extern \"C\" __global__ void broken(int* p) {\n  p[0] = undeclared_name;\n}\n";
  source.entries = {"broken"};
  try {
    (void)rtc_compile(source, compile_arch());
    FAIL() << "no exception";
  } catch (const RtcError& error) {
    const std::string message = error.what();
    EXPECT_THAT(message, HasSubstr("broken_kernel.hip"));
    EXPECT_THAT(message, HasSubstr("undeclared_name"));
    EXPECT_THAT(error.log(), HasSubstr("undeclared_name"));
  }
}

// Adapters generated between every pair of GDN contracts of one buffer compile.
TEST(Rtc, GeneratedAdaptersCompile) {
  const std::string dir = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/";
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"qwen3_5.qkvz.yaml", "qwen3_next.qkvz.yaml"},
      {"qwen3_next.qkvz.yaml", "qwen3_5.qkvz.yaml"},
      {"qwen3_5.ba.yaml", "qwen3_next.ba.yaml"},
      {"state.hkv.yaml", "state.hvk.yaml"}};
  for (const auto& [from_file, to_file] : pairs) {
    SCOPED_TRACE(from_file + " -> " + to_file);
    const Contract from = load_contract(dir + from_file);
    const Contract to = load_contract(dir + to_file);
    const codegen::AdapterSource adapter = codegen::generate_adapter_source(from, to);
    RtcSource source;
    source.name = "adapter.hip";
    source.text = adapter.text;
    source.entries = {adapter.scalar_entry};
    if (adapter.wide_possible) source.entries.push_back(adapter.wide_entry);
    EXPECT_NO_THROW((void)rtc_compile(source, compile_arch()));
  }
}

}  // namespace
}  // namespace layoutcheck::gpu
