// A porting team's test, written against the INSTALLED layoutcheck package only: it loads the
// shipped GDN contracts from the installed share directory and checks what a Qwen3-Next kernel
// (interleaved per key head) misreads when it is fed Qwen3.5's flat, group-major buffers.
//
// The expected counts are derived by hand, independently of the library. With
// S = 2K + 2GV (one interleaved key-head group), an element agrees only where both layouts put it
// at the same offset:
//   Q[h,k]      h*S + k             == h*K + k               ->  h == 0
//   K[h,k]      h*S + K + k         == H*K + h*K + k         ->  h*(K + 2GV) == (H-1)*K
//   V[hG+r,v]   h*S + 2K + r*V + v  == 2HK + (hG+r)*V + v    ->  h*(2K + GV) == 2K*(H-1)
//   Z[hG+r,v]   h*S + 2K + GV + r*V + v  == 2HK + HV*V + (hG+r)*V + v
//                                                            ->  h*(2K + GV) == 2HK+HV*V-2K-GV
// At H=16, HV=48, K=V=128 (G=3): Q agrees for h=0, K never, V for h=6, Z for h=15.
// At H=16, HV=32 (G=2):          Q agrees for h=0, K for h=3, V never, Z for h=15.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "layoutcheck/check/lint.h"
#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"

namespace {

std::string installed_contract(const std::string& relative) {
  return std::string(LAYOUTCHECK_INSTALLED_CONTRACTS) + "/" + relative;
}

std::map<std::string, std::int64_t> misread_by_field(const layoutcheck::MisreadReport& report) {
  std::map<std::string, std::int64_t> counts;
  for (const layoutcheck::FieldReport& field : report.fields) counts[field.name] = field.misread;
  return counts;
}

TEST(InstalledPackage, EveryInstalledContractLintsClean) {
  int linted = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(LAYOUTCHECK_INSTALLED_CONTRACTS)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    const auto diagnostics = layoutcheck::lint_file(entry.path().string());
    EXPECT_FALSE(layoutcheck::has_errors(diagnostics));
    for (const auto& diagnostic : diagnostics)
      if (diagnostic.severity != layoutcheck::Severity::note) ADD_FAILURE() << diagnostic.str();
    ++linted;
  }
  EXPECT_GE(linted, 4) << "the qkvz and ba contracts of both models should be installed";
}

TEST(InstalledPackage, Qwen35QkvzFedToQwen3NextKernelIsMisreadAsDerived) {
  const auto producer = layoutcheck::load_contract(installed_contract("gdn/qwen3_5.qkvz.yaml"));
  const auto consumer = layoutcheck::load_contract(installed_contract("gdn/qwen3_next.qkvz.yaml"));
  const layoutcheck::MisreadReport report = layoutcheck::diff_contracts(producer, consumer);

  EXPECT_EQ(report.elements, 2 * 16 * 128 + 2 * 48 * 128);
  const std::map<std::string, std::int64_t> expected = {
      {"Q", 15 * 128}, {"K", 16 * 128}, {"V", 45 * 128}, {"Z", 45 * 128}};
  EXPECT_EQ(misread_by_field(report), expected);
  EXPECT_EQ(report.misread, 15 * 128 + 16 * 128 + 2 * 45 * 128);
  EXPECT_EQ(report.unresolved, 0);
  EXPECT_FALSE(report.runs.empty());
}

TEST(InstalledPackage, SymbolOverridesReachTheDiff) {
  // Qwen3-Next-80B's 16/32 heads: the same pair of layouts agrees on different heads.
  layoutcheck::LoadOptions options;
  options.overrides = {{"HV", 32}};
  const auto producer =
      layoutcheck::load_contract(installed_contract("gdn/qwen3_5.qkvz.yaml"), options);
  const auto consumer =
      layoutcheck::load_contract(installed_contract("gdn/qwen3_next.qkvz.yaml"), options);
  const layoutcheck::MisreadReport report = layoutcheck::diff_contracts(producer, consumer);

  EXPECT_EQ(report.elements, 2 * 16 * 128 + 2 * 32 * 128);
  const std::map<std::string, std::int64_t> expected = {
      {"Q", 15 * 128}, {"K", 15 * 128}, {"V", 32 * 128}, {"Z", 30 * 128}};
  EXPECT_EQ(misread_by_field(report), expected);
}

TEST(InstalledPackage, Qwen35BaFedToQwen3NextKernelIsMisreadAsDerived) {
  // b[hv]: h*2G + r == h*G + r -> h = 0;  a[hv]: h*2G + G + r == HV + h*G + r -> h = H-1.
  const auto producer = layoutcheck::load_contract(installed_contract("gdn/qwen3_5.ba.yaml"));
  const auto consumer = layoutcheck::load_contract(installed_contract("gdn/qwen3_next.ba.yaml"));
  const layoutcheck::MisreadReport report = layoutcheck::diff_contracts(producer, consumer);

  const std::map<std::string, std::int64_t> expected = {{"B", 45}, {"A", 45}};
  EXPECT_EQ(misread_by_field(report), expected);
  EXPECT_EQ(report.misread, 90);
}

TEST(InstalledPackage, AContractDiffedWithItselfHasNoMisread) {
  const auto flat = layoutcheck::load_contract(installed_contract("gdn/qwen3_5.qkvz.yaml"));
  const layoutcheck::MisreadReport report = layoutcheck::diff_contracts(flat, flat);
  EXPECT_EQ(report.misread, 0);
  EXPECT_TRUE(report.runs.empty());
}

TEST(InstalledPackage, BadInputIsAnInputErrorNamingTheFile) {
  const std::string missing = installed_contract("gdn/no_such_contract.yaml");
  try {
    layoutcheck::load_contract(missing);
    FAIL() << "loading a missing file should throw";
  } catch (const layoutcheck::InputError& error) {
    ASSERT_FALSE(error.diagnostics().empty());
    EXPECT_NE(error.diagnostics().front().str().find("no_such_contract.yaml"), std::string::npos)
        << error.diagnostics().front().str();
  }
}

TEST(InstalledPackage, InstalledCliRuns) {
  // The exported layoutcheck::cli target points at the installed binary.
  const std::string command = std::string("\"") + LAYOUTCHECK_INSTALLED_CLI + "\" --version";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

}  // namespace
