// `layoutcheck gate` as a user meets it: an illegal call is a clear error and exit 2 before
// anything is launched, on any build; a legal one without a GPU is "not run", exit 3 (never a
// pass); the whole Pangu gate on the host refuses every illegal input, passes the CPU model gate
// and reads INCOMPLETE, not clean, when the GPU checks could not run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_runner.h"
#include "layoutcheck/json/json.h"

namespace {

using layoutcheck::Json;
using layoutcheck::testing::CliResult;
using layoutcheck::testing::contains;
using layoutcheck::testing::run_cli;

CliResult gate_call(const std::vector<std::string>& call) {
  std::vector<std::string> args = {"gate", "--case", "pangu"};
  for (const std::string& item : call) {
    args.push_back("--call");
    args.push_back(item);
  }
  return run_cli(args);
}

TEST(GateCommand, EachIllegalCallIsAnInputErrorNamingWhatIsWrong) {
  struct Illegal {
    std::vector<std::string> call;
    std::string says;
  };
  const std::vector<Illegal> illegal = {
      {{"operator=layernorm", "shape=1,131040,191"}, "rows of 191 channels"},
      {{"operator=layernorm", "shape=1,1024,256"}, "192, 384 and 768"},
      {{"operator=layernorm", "shape=1,1024,96"}, "rows of 96 channels"},
      {{"operator=layernorm", "shape=1,1024,192", "dtype=fp32"}, "x is fp32, not fp16"},
      {{"operator=add-layernorm", "shape=1,1024,384", "dtype=bf16"}, "is bf16, not fp16"},
      {{"operator=gather", "grid=8,91,180", "width=192", "map_dtype=i64"}, "is i64, not i32"},
      {{"operator=gather", "grid=8,91,180", "width=192", "map_entry=5:131040"},
       "entry 5 is 131040, outside [-1, 131040)"},
      {{"operator=reverse", "grid=8,46,90", "width=384", "shifted=1", "map_entry=0:-2"},
       "entry 0 is -2"},
      {{"operator=gather", "grid=8,91,180", "width=192", "map_length=138239"},
       "138239 slots are not whole windows of 144"},
      {{"operator=layernorm-gather", "grid=8,91,180", "width=256"}, "rows of 256 channels"},
      // Entries in range that break the index protocol: a token read twice (so another read
      // by none), a token of the reverse written zero.
      {{"operator=gather", "grid=8,91,180", "width=192", "map_entry=0:7", "map_entry=1:7"},
       "token 7 is read by slots"},
      {{"operator=layernorm-gather", "grid=2,6,12", "width=384", "map_entry=0:-1"},
       "token 0 is read by no slot"},
      {{"operator=reverse", "grid=8,46,90", "width=384", "map_entry=0:-1"},
       "reverse map entry 0 is -1"},
      {{"operator=reverse", "grid=2,6,12", "width=192", "map_entry=0:1"},
       "slot 1 is read by tokens 0 and 1"},
  };
  for (const Illegal& input : illegal) {
    const CliResult result = gate_call(input.call);
    SCOPED_TRACE(input.call[0] + " " + input.call[1]);
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_TRUE(contains(result.output, "error[operator-input]")) << result.output;
    EXPECT_TRUE(contains(result.output, input.says)) << result.output;
  }
}

TEST(GateCommand, MalformedCallsAreUsageErrors) {
  for (const std::vector<std::string>& call :
       {std::vector<std::string>{"shape=1,2,192"}, {"operator=softmax", "shape=1,2,192"},
        {"operator=layernorm", "shape=1,2"}, {"operator=layernorm", "shape=1,x,192"},
        {"operator=gather", "width=192"}, {"operator=layernorm", "shape=1,2,192", "colour=red"},
        {"operator=gather", "grid=8,91,180", "width=192", "map_entry=999999999:0"},
        {"operator=layernorm", "shape=99999,99999,99999"},
        // Sizes whose product wraps past 64 bits, and a map longer than any windows contract.
        {"operator=layernorm", "shape=2147483648,2147483648,192"},
        {"operator=gather", "grid=8,91,180", "width=1", "map_length=268435456"},
        {"operator=gather", "grid=8,91,180", "width=65536", "map_length=65536"},
        {"operator=gather", "grid=8,91,180", "width=65536"}}) {
    const CliResult result = gate_call(call);
    EXPECT_EQ(result.exit_code, 2) << call.back() << "\n" << result.output;
    EXPECT_TRUE(contains(result.output, "error[usage]")) << result.output;
  }
  // A call is checked as given or refused: never a key read another way, twice, or ignored.
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"operator=layernorm", "shape=1,1,+192"}, "shape: '+192' is not an integer"},
      {{"operator=layernorm", "shape= 1,1,192"}, "shape: ' 1' is not an integer"},
      {{"operator=gather", "grid=8,,91", "width=192"}, "grid: '' is not an integer"},
      {{"operator=gather", "grid=8,91,180", "width=192", "shifted=false"},
       "shifted=false: 0 (a plain block's windows) or 1 (shifted)"},
      {{"operator=layernorm", "shape=1,5,192", "dtype=fp16", "dtype=fp32"},
       "dtype= is given twice (fp16 and fp32)"},
      {{"operator=layernorm", "shape=1,5,192", "grid=8,91,180"}, "layernorm takes no grid="},
      {{"operator=add-layernorm", "shape=1,5,192", "map_entry=0:5"},
       "add-layernorm takes no map_entry= (the LayerNorms read no map)"},
      {{"operator=gather", "grid=8,91,180", "width=192", "shape=1,5,192"},
       "gather takes no shape="},
      {{"operator=gather", "grid=8,91,180", "width=192", "map_entry=0:7", "map_entry=0:9"},
       "map_entry 0 is given twice"},
      {{"operator=gather", "grid=4096,4096,4096", "width=192"},
       "grid=4096,4096,4096: the windows contract refuses it: field 'x' has"},
      // Edits the kernels take, leaving a map that is not the contract's: checked against
      // itself, a misplaced token would pass.
      {{"operator=gather", "grid=8,91,180", "width=192", "map_entry=0:0", "map_entry=24:-1"},
       "not the windows contract's (slot 0 reads token 0; in the contract's map it writes zero)"},
      {{"operator=layernorm-gather", "grid=8,91,180", "width=192", "map_entry=24:1",
        "map_entry=25:0"},
       "(slot 24 reads token 1; in the contract's map it reads token 0)"},
      {{"operator=reverse", "grid=2,6,12", "width=192", "map_entry=0:1", "map_entry=1:0"},
       "(token 0 comes from slot 1; in the contract's map it comes from slot 0)"},
      // A whole window of zero-writing slots more: whole windows, every token read once.
      {{"operator=gather", "grid=2,6,12", "width=192", "map_length=288"},
       "(the map has 288 entries where the contract's has 144)"}};
  for (const auto& [call, message] : refused) {
    const CliResult result = gate_call(call);
    EXPECT_EQ(result.exit_code, 2) << call.back() << "\n" << result.output;
    EXPECT_TRUE(contains(result.output, message)) << result.output;
    EXPECT_FALSE(contains(result.output, "--max-elements")) << "gate has no such option";
  }
  const CliResult unknown = run_cli({"gate", "--case", "gdn"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.output, "gated: pangu")) << unknown.output;
}

TEST(GateCommand, HostGatesRefuseEveryIllegalInputAndNeverReadCleanWithoutTheGpuChecks) {
  const CliResult result = run_cli({"gate", "--case", "pangu", "--json"});
  const Json report = Json::parse(result.output.substr(0, result.output.rfind('}') + 1));
  const bool gpu = !contains(report["device"].as_string(), "none");
  std::int64_t illegal = 0, model_passed = 0;
  for (const Json& check : report["checks"].items()) {
    if (check["kind"].as_string() == "illegal") {
      ++illegal;
      // Without a GPU the refusal is seen, but not that nothing reached the device: not a pass.
      EXPECT_EQ(check["outcome"].as_string(), gpu ? "passed" : "not run")
          << check["subject"].as_string();
      EXPECT_TRUE(contains(check["detail"].as_string(), "refused")) << check["detail"].as_string();
    }
    if (check["kind"].as_string() == "CPU model")
      model_passed += check["outcome"].as_string() == "passed";
  }
  EXPECT_GE(illegal, 17);
  EXPECT_EQ(model_passed, 2);
  EXPECT_EQ(report["failed"].as_int(), 0) << result.output;
  if (!gpu) {
    EXPECT_EQ(result.exit_code, 3) << result.output;
    EXPECT_EQ(report["verdict"].as_string(), "INCOMPLETE");
    EXPECT_GT(report["not_run"].as_int(), 40);
  } else {
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(report["verdict"].as_string(), "clean");
  }
}

TEST(GateCommand, ALegalCallRunsOnTheGpuOrIsNotRun) {
  const CliResult result = gate_call({"operator=layernorm", "shape=1,5,192"});
  if (contains(result.output, "device: none")) {
    EXPECT_EQ(result.exit_code, 3) << result.output;
    EXPECT_TRUE(contains(result.output, "not run")) << result.output;
  } else {
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_TRUE(contains(result.output, "**clean**")) << result.output;
  }
  EXPECT_TRUE(contains(result.output, "- selection: one call, operator=layernorm shape=1,5,192; "
                                      "not the merge gate"))
      << result.output;
}

// A selection of the checks can pass, but it says it is one: a clean --only is not a clean gate.
TEST(GateCommand, ASelectionOfTheChecksSaysSoBesideItsVerdict) {
  const CliResult result = run_cli({"gate", "--case", "pangu", "--only", "[1,378,192]", "--json"});
  EXPECT_EQ(result.exit_code, 0) << result.output;  // the one check that runs wholly on the host
  const Json report = Json::parse(result.output.substr(0, result.output.rfind('}') + 1));
  EXPECT_EQ(report["verdict"].as_string(), "clean");
  EXPECT_EQ(report["selection"].as_string(), "only the checks whose subject contains '[1,378,192]'");
  EXPECT_EQ(report["passed"].as_int(), 1);
  const CliResult all = run_cli({"gate", "--case", "pangu", "--json"});
  const Json whole = Json::parse(all.output.substr(0, all.output.rfind('}') + 1));
  EXPECT_EQ(whole["selection"].as_string(), "");

  // A selection of nothing is a mistyped one, not an empty pass; --only and --call do not mix.
  const CliResult none = run_cli({"gate", "--case", "pangu", "--only", "no such subject"});
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_TRUE(contains(none.output, "no check's subject contains 'no such subject'"))
      << none.output;
  const CliResult both = run_cli(
      {"gate", "--case", "pangu", "--only", "layernorm", "--call", "operator=layernorm"});
  EXPECT_EQ(both.exit_code, 2) << both.output;
  EXPECT_TRUE(contains(both.output, "--only excludes --call")) << both.output;
}

}  // namespace
