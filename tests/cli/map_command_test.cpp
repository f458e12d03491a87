// `layoutcheck map`: the index map a kernel is fed is the one generated from the contract and
// proven by lint, written as NumPy reads it (or raw int32), forward or reverse; a contract without
// a gather, or one that does not load, gets no map.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/parse.h"
#include "scratch_folder.h"

namespace {

using layoutcheck::testing::CliResult;
using layoutcheck::testing::contains;
using layoutcheck::testing::run_cli;

const std::string kWindowsContract = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/windows.yaml";
const std::string kShiftedWindowsContract = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/windows.shifted.yaml";

std::string written_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::int32_t> int32_values(const std::string& bytes, std::size_t from) {
  std::vector<std::int32_t> values;
  for (std::size_t i = from; i + 4 <= bytes.size(); i += 4) {
    std::uint32_t bits = 0;
    for (int b = 0; b < 4; ++b)
      bits |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + b])) << (8 * b);
    values.push_back(static_cast<std::int32_t>(bits));
  }
  return values;
}

layoutcheck::GatherMap generated_map(const std::string& contract,
                                 const std::map<std::string, std::int64_t>& symbols = {}) {
  layoutcheck::LoadOptions options;
  for (const auto& [name, value] : symbols) options.overrides.push_back({name, value});
  return layoutcheck::make_gather_map(layoutcheck::load_contract(contract, options));
}

TEST(MapCommand, WritesTheGeneratedMapAsNumPyReadsIt) {
  const layoutcheck::testing::ScratchFolder folder("map_command");
  const std::string path = (folder / "shifted.npy").string();
  // C=8: the map is the token grid's, whatever a token's width.
  const CliResult result = run_cli({"map", kShiftedWindowsContract, "-o", path, "--set", "C=8"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result.output, "int32 npy, the map: 138240 slots of 8 elements over "
                                      "131040 tokens, 7200 writing zero"))
      << result.output;
  const std::string bytes = written_bytes(path);
  ASSERT_GT(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header = static_cast<unsigned char>(bytes[8]) |
                             static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8;
  EXPECT_EQ((10 + header) % 64, 0u) << "the data starts aligned, as NumPy writes it";
  const std::string dictionary = bytes.substr(10, header);
  EXPECT_TRUE(contains(dictionary, "'descr': '<i4', 'fortran_order': False, 'shape': (138240,)"))
      << dictionary;
  EXPECT_EQ(dictionary.back(), '\n');
  EXPECT_EQ(int32_values(bytes, 10 + header),
            generated_map(kShiftedWindowsContract, {{"C", 8}}).slots);
}

TEST(MapCommand, TheReverseAtOtherSymbolsRaw) {
  const layoutcheck::testing::ScratchFolder folder("map_command_reverse");
  const std::string path = (folder / "reverse.bin").string();
  const CliResult result = run_cli({"map", kWindowsContract, "-o", path, "--reverse", "--format", "raw",
                                    "--set", "LAT=46", "--set", "LON=90", "--set", "C=8"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result.output, "the reverse map: 33120 tokens, each its slot of 36864"))
      << result.output;
  const std::vector<std::int32_t> reverse = int32_values(written_bytes(path), 0);
  EXPECT_EQ(reverse,
            layoutcheck::reverse_map(generated_map(kWindowsContract, {{"LAT", 46}, {"LON", 90}, {"C", 8}})));
}

TEST(MapCommand, NoGatherOrABadContractGetsNoMap) {
  const layoutcheck::testing::ScratchFolder folder("map_command_bad");
  const std::string path = (folder / "x.npy").string();
  const CliResult rows =
      run_cli({"map", std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/tokens.yaml", "-o", path});
  EXPECT_EQ(rows.exit_code, 2) << rows.output;
  EXPECT_TRUE(contains(rows.output, "declares no gather: it has no index map")) << rows.output;
  const CliResult broken = run_cli(
      {"map", std::string(LAYOUTCHECK_TEST_DATA) + "/bad_contracts/gather_broadcast.yaml", "-o",
       path});
  EXPECT_EQ(broken.exit_code, 2) << broken.output;
  EXPECT_TRUE(contains(broken.output, "error[gather]")) << broken.output;
  EXPECT_FALSE(std::ifstream(path).good()) << "no map is written for a contract with errors";
  const CliResult format = run_cli({"map", kWindowsContract, "-o", path, "--format", "csv"});
  EXPECT_EQ(format.exit_code, 2) << format.output;
}

}  // namespace
