// Version-2 run manifests (cases/port_manifest.h), read on the CPU: the shipped RoPE ports load,
// version 1 is reported for GDN's loader, and every kind of bad manifest is an InputError naming
// file, line and column.
#include "layoutcheck/cases/port_manifest.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cases/builtin_cases.h"
#include "scratch_folder.h"

namespace layoutcheck {
namespace {

namespace fs = std::filesystem;

PortManifestOptions options() {
  register_builtin_cases();
  PortManifestOptions result;
  result.contracts_folder = LAYOUTCHECK_CONTRACTS_DIR;
  return result;
}

std::string probes(const std::string& name) {
  return std::string(LAYOUTCHECK_TEST_DATA) + "/../probes/" + name;
}

TEST(PortManifest, LoadsTheShippedRopePorts) {
  for (const char* name : {"half_split_port", "interleaved_port", "rows_packed_port"}) {
    SCOPED_TRACE(name);
    const PortManifest manifest =
        load_port_manifest(probes(std::string("rope/") + name + ".yaml"), options());
    EXPECT_EQ(manifest.version, 2);
    EXPECT_EQ(manifest.case_name, "rope");
    EXPECT_EQ(manifest.abi, "rope_apply_v1");
    EXPECT_TRUE(fs::exists(manifest.source)) << manifest.source;
    // The rows-packed mutant is wired into a model with padded rows, where its bug shows.
    EXPECT_EQ(manifest.model_layouts.at("x").name, std::string(name) == "rows_packed_port"
                                                       ? "rope.half_split_padded.x"
                                                       : "rope.half_split.x");
    EXPECT_TRUE(manifest.claimed.count("cos_sin"));  // the case's default
    const LaunchGeometry launch =
        launch_geometry(manifest, launch_symbols(manifest.claimed, 2, 64));
    EXPECT_EQ(launch.grid[0], 2);  // 8 * 32 pairs / (32 * 4) threads
    EXPECT_EQ(launch.grid[1], 2);
    EXPECT_EQ(launch.block[0], 32);
    EXPECT_EQ(launch.block[1], 4);
  }
  const PortManifest interleaved =
      load_port_manifest(probes("rope/interleaved_port.yaml"), options());
  EXPECT_EQ(interleaved.claimed.at("x").name, "rope.interleaved.x");
}

TEST(PortManifest, ReportsVersionOne) {
  const PortManifest manifest = load_port_manifest(probes("gdn/correct_native.yaml"), options());
  EXPECT_EQ(manifest.version, 1);
}

class BadManifest : public ::testing::Test {
 protected:
  // The one diagnostic loading `text` throws.
  Diagnostic failure(const std::string& text) {
    const fs::path path = folder_ / "m.yaml";
    std::ofstream(path) << text;
    try {
      load_port_manifest(path.string(), options());
    } catch (const InputError& error) {
      EXPECT_FALSE(error.diagnostics().empty());
      EXPECT_EQ(error.diagnostics().front().where.file, path.string());
      return error.diagnostics().front();
    }
    ADD_FAILURE() << "did not throw:\n" << text;
    return {};
  }

  std::string manifest(const std::string& launch = "{grid: [H, batch], block: [64]}",
                       const std::string& consumes = "{x: X}", const std::string& extra = "") {
    const std::string x = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/rope/half_split.x.yaml";
    std::string text =
        "layoutcheck_run: 2\ncase: rope\n" + extra +
        "kernel:\n  source: k.hip\n  entry: k\n  abi: rope_apply_v1\n  launch: " + launch +
        "\nconsumes: " + consumes + "\nmodel: {x: " + x + "}\n";
    for (std::size_t at; (at = text.find("{x: X}")) != std::string::npos;)
      text.replace(at, 6, "{x: " + x + "}");
    return text;
  }

  layoutcheck::testing::ScratchFolder folder_{"lc_port_manifest"};
};

TEST_F(BadManifest, GoodOneLoads) {
  const fs::path path = folder_ / "good.yaml";
  std::ofstream(path) << manifest();
  EXPECT_EQ(load_port_manifest(path.string(), options()).grid.size(), 2u);
}

TEST_F(BadManifest, UnknownAndDuplicateKeys) {
  Diagnostic d = failure(manifest("{grid: [H], block: [64]}", "{x: X}", "colour: red\n"));
  EXPECT_EQ(d.rule, "manifest");
  EXPECT_NE(d.message.find("unknown key 'colour'"), std::string::npos) << d.message;
  EXPECT_EQ(d.where.line, 3);
  EXPECT_EQ(d.where.column, 1);

  d = failure(manifest("{grid: [H], block: [64]}", "{x: X}", "case: rope\n"));
  EXPECT_NE(d.message.find("duplicate key 'case'"), std::string::npos) << d.message;
  EXPECT_EQ(d.where.line, 3);

  d = failure(manifest("{grid: [H], block: [64], shared: 0}"));
  EXPECT_NE(d.message.find("unknown key 'shared'"), std::string::npos) << d.message;
  EXPECT_EQ(d.where.line, 7);
}

TEST_F(BadManifest, UnknownBufferCaseAndAbi) {
  Diagnostic d = failure(manifest("{grid: [H], block: [64]}", "{y: a.yaml}"));
  EXPECT_NE(d.message.find("unknown key 'y'"), std::string::npos) << d.message;
  EXPECT_EQ(d.where.line, 8);
  EXPECT_EQ(d.where.column, 12);

  std::string text = manifest();
  text.replace(text.find("case: rope"), 10, "case: ropes");
  d = failure(text);
  EXPECT_NE(d.message.find("unknown case 'ropes'"), std::string::npos) << d.message;
  EXPECT_EQ(d.where.line, 2);
  EXPECT_EQ(d.where.column, 7);

  text = manifest();
  text.replace(text.find("rope_apply_v1"), 13, "rope_apply_v9");
  d = failure(text);
  EXPECT_NE(d.message.find("no ABI 'rope_apply_v9'"), std::string::npos) << d.message;
  EXPECT_EQ(d.where.line, 6);
}

TEST_F(BadManifest, WrongTypesAndVersion) {
  Diagnostic d = failure(manifest("{grid: [H], block: [64]}", "[x]"));
  EXPECT_NE(d.message.find("must be a mapping"), std::string::npos) << d.message;
  EXPECT_EQ(d.where.line, 8);

  d = failure(manifest("{grid: [1, 2, 3, 4], block: [64]}"));
  EXPECT_NE(d.message.find("1 to 3"), std::string::npos) << d.message;

  std::string text = manifest();
  text.replace(0, 18, "layoutcheck_run: 7");
  d = failure(text);
  EXPECT_NE(d.message.find("unsupported manifest version '7'"), std::string::npos);
  EXPECT_EQ(d.where.line, 1);
  EXPECT_EQ(d.where.column, 18);
}

TEST_F(BadManifest, LaunchExpressionsAreEvaluatedAtLoad) {
  // Divides by zero for wave_size 32 only: still an input error on any build.
  Diagnostic d = failure(manifest("{grid: ['ceil_div(H, wave_size - 32)'], block: [64]}"));
  EXPECT_EQ(d.rule, "divisibility");
  EXPECT_EQ(d.where.line, 7);

  d = failure(manifest("{grid: [HEADS], block: [64]}"));
  EXPECT_EQ(d.rule, "undefined-symbol");
  EXPECT_EQ(d.where.line, 7);

  d = failure(manifest("{grid: [ceil_div(H, 4), batch], block: [64]}"));
  EXPECT_NE(d.message.find("unbalanced parentheses"), std::string::npos) << d.message;

  d = failure(manifest("{grid: [H], block: ['max(wave_size, 2048)']}"));
  EXPECT_EQ(d.rule, "launch");

  d = failure(manifest("{grid: [H], block: [floor(1)]}"));
  EXPECT_EQ(d.rule, "expression");
  EXPECT_NE(d.message.find("unknown function 'floor'"), std::string::npos) << d.message;
}

TEST_F(BadManifest, SizesAreIntegersOfDeclaredSymbols) {
  Diagnostic d = failure(manifest("{grid: [H], block: [64]}", "{x: X}", "set: {HEADS: 4}\n"));
  EXPECT_NE(d.message.find("size 'HEADS'"), std::string::npos) << d.message;
  EXPECT_EQ(d.where.line, 3);

  d = failure(manifest("{grid: [H], block: [64]}", "{x: X}", "set: {H: D / 2}\n"));
  EXPECT_NE(d.message.find("must be an integer"), std::string::npos) << d.message;
  EXPECT_EQ(d.where.line, 3);
  EXPECT_EQ(d.where.column, 10);

  d = failure(manifest("{grid: [H], block: [64]}", "{x: X}", "set: [H]\n"));
  EXPECT_NE(d.message.find("set must be a mapping"), std::string::npos) << d.message;

  d = failure(manifest("{grid: [H], block: [64]}", "{x: X}", "set: {P: 4}\n"));
  EXPECT_EQ(d.rule, "derived-symbol") << d.message;  // a derived symbol cannot be set
}

TEST_F(BadManifest, ContractOfTheWrongBuffer) {
  const std::string out = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/rope/half_split.out.yaml";
  const Diagnostic d = failure(manifest("{grid: [H], block: [64]}", "{x: " + out + "}"));
  EXPECT_NE(d.message.find("describes buffer 'out'"), std::string::npos) << d.message;
  EXPECT_EQ(d.where.line, 8);
}

}  // namespace
}  // namespace layoutcheck

namespace layoutcheck {
namespace {

TEST(PortManifest, LoadsTheShippedRecurrentPortsAtTheirOwnSizes) {
  for (const char* name : {"recurrent_port", "recurrent_hvk_port", "recurrent_key_head_modulo"}) {
    SCOPED_TRACE(name);
    const PortManifest manifest =
        load_port_manifest(probes(std::string("gdn/") + name + ".yaml"), options());
    EXPECT_EQ(manifest.case_name, "gdn-recurrent");
    EXPECT_EQ(manifest.abi, "gdn_recurrent_v1");
    // set: {H: 2, HV: 4, K: 16, V: 8} reaches every contract, claimed and model.
    for (const CaseLayouts* layouts : {&manifest.claimed, &manifest.model_layouts}) {
      EXPECT_EQ(layouts->at("state").symbol("K"), 16);
      EXPECT_EQ(layouts->at("out").symbol("HV"), 4);
      EXPECT_EQ(layouts->at("q").symbol("H"), 2);
    }
  }
  // --set wins over the manifest's own sizes.
  PortManifestOptions wider = options();
  wider.load.overrides = {{"V", 12}};
  const PortManifest manifest = load_port_manifest(probes("gdn/recurrent_port.yaml"), wider);
  EXPECT_EQ(manifest.claimed.at("state").symbol("V"), 12);
  EXPECT_EQ(manifest.claimed.at("state").symbol("K"), 16);
}

}  // namespace
}  // namespace layoutcheck
