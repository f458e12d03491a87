// The JSON Schema editors use (contracts/contract.schema.json) must accept every shipped contract
// and reject the schema-level mistakes of the bad-contract corpus, so it cannot drift from the
// format the parser reads. Needs python3 with jsonschema and yaml; skipped without them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace layoutcheck {
namespace {

namespace fs = std::filesystem;

TEST(Schema, AcceptsShippedContractsAndRejectsSchemaErrors) {
  const fs::path tests = LAYOUTCHECK_TEST_DATA;
  const fs::path contracts = LAYOUTCHECK_CONTRACTS_DIR;
  std::string command = "python3 " + (tests / "check" / "validate_schema.py").string() + " " +
                        (contracts / "contract.schema.json").string() + " --valid";
  int shipped = 0;
  for (const auto& entry : fs::recursive_directory_iterator(contracts))
    if (entry.path().extension() == ".yaml") command += " " + entry.path().string(), ++shipped;
  ASSERT_GT(shipped, 0);
  command += " --invalid";
  for (const char* name : {"unknown_key", "wrong_type", "missing_key", "bad_dtype", "bad_version",
                           "negative_stride", "empty"})
    command += " " + (tests / "bad_contracts" / (std::string(name) + ".yaml")).string();
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77) GTEST_SKIP() << "python3 jsonschema/yaml not installed";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace layoutcheck
