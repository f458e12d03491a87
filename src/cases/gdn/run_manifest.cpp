#include "cases/gdn/run_manifest.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <set>

#include "cases/gdn/shape.h"
#include "kernels/gdn/gdn_abi.h"
#include "layoutcheck/contract/join.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/contract/read_file.h"

namespace layoutcheck {
namespace {

namespace fs = std::filesystem;

class ManifestReader {
 public:
  explicit ManifestReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message,
                         const std::string& fix = "") const {
    SourceLocation where{file_};
    if (node.IsDefined()) {
      where.line = node.Mark().line + 1;
      where.column = node.Mark().column + 1;
    }
    throw InputError(Diagnostic{where, Severity::error, "manifest", message, fix});
  }

  // A mapping whose keys are all in `allowed`, none repeated (yaml-cpp 0.7 keeps duplicates).
  void check_keys(const YAML::Node& node, const std::string& what,
                  const std::set<std::string>& allowed) const {
    if (!node.IsMap()) fail(node, what + " must be a mapping");
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = it->first.as<std::string>();
      if (!allowed.count(key))
        fail(it->first, "unknown key '" + key + "' in " + what,
             "known keys: " + join({allowed.begin(), allowed.end()}));
      if (!seen.insert(key).second) fail(it->first, "duplicate key '" + key + "' in " + what);
    }
  }

  YAML::Node require(const YAML::Node& map, const std::string& key, const std::string& what) const {
    const YAML::Node node = map[key];
    if (!node.IsDefined()) fail(map, what + " needs '" + key + "'");
    return node;
  }

  std::string scalar(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar()) fail(node, what + " must be a string");
    return node.Scalar();
  }

  Expression expression(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar()) fail(node, what + " must be an integer or an expression");
    SourceLocation where{file_, node.Mark().line + 1, node.Mark().column + 1};
    return Expression::parse(node.Scalar(), where);
  }

  std::vector<Expression> dims(const YAML::Node& node, const std::string& what) const {
    std::vector<Expression> result;
    if (node.IsScalar()) {
      result.push_back(expression(node, what));
    } else if (node.IsSequence() && node.size() >= 1 && node.size() <= 3) {
      for (const YAML::Node& item : node) result.push_back(expression(item, what));
    } else {
      fail(node, what + " must be 1 to 3 expressions", "e.g. [HV, batch]");
    }
    return result;
  }

  std::string path(const YAML::Node& node, const std::string& what) const {
    const fs::path relative = scalar(node, what);
    const fs::path resolved =
        relative.is_absolute() ? relative : fs::path(file_).parent_path() / relative;
    return resolved.lexically_normal().string();
  }

  GdnContractPaths contracts(const YAML::Node& node, const std::string& what) const {
    check_keys(node, what, {"qkvz", "ba", "state"});
    return {path(require(node, "qkvz", what), what + ".qkvz"),
            path(require(node, "ba", what), what + ".ba"),
            path(require(node, "state", what), what + ".state")};
  }

  RunManifest read(const YAML::Node& root) const {
    check_keys(root, "the manifest", {"layoutcheck_run", "name", "kernel", "consumes", "model"});
    const YAML::Node version = require(root, "layoutcheck_run", "the manifest");
    if (scalar(version, "layoutcheck_run") != "1")
      fail(version, "unsupported manifest version '" + version.Scalar() + "'",
           "this layoutcheck reads layoutcheck_run: 1");
    RunManifest manifest;
    manifest.file = file_;
    if (root["name"]) manifest.name = scalar(root["name"], "name");

    const YAML::Node kernel = require(root, "kernel", "the manifest");
    check_keys(kernel, "kernel", {"source", "entry", "abi", "launch", "compile_options"});
    manifest.source = path(require(kernel, "source", "kernel"), "kernel.source");
    manifest.entry = scalar(require(kernel, "entry", "kernel"), "kernel.entry");
    const YAML::Node abi = require(kernel, "abi", "kernel");
    manifest.abi = scalar(abi, "kernel.abi");
    if (manifest.abi != LAYOUTCHECK_GDN_DECODE_ABI)
      fail(abi, "unknown ABI '" + manifest.abi + "'",
           std::string("this layoutcheck runs kernels of ABI ") + LAYOUTCHECK_GDN_DECODE_ABI +
               " (kernels/gdn/ABI.md)");
    if (const YAML::Node options = kernel["compile_options"]) {
      if (!options.IsSequence()) fail(options, "kernel.compile_options must be a list of strings");
      for (const YAML::Node& option : options)
        manifest.compile_options.push_back(scalar(option, "a compile option"));
    }
    const YAML::Node launch = require(kernel, "launch", "kernel");
    check_keys(launch, "kernel.launch", {"grid", "block", "shared_bytes"});
    manifest.grid = dims(require(launch, "grid", "kernel.launch"), "kernel.launch.grid");
    manifest.block = dims(require(launch, "block", "kernel.launch"), "kernel.launch.block");
    if (launch["shared_bytes"])
      manifest.shared_bytes = expression(launch["shared_bytes"], "kernel.launch.shared_bytes");

    manifest.consumes = contracts(require(root, "consumes", "the manifest"), "consumes");
    manifest.model = contracts(require(root, "model", "the manifest"), "model");
    return manifest;
  }

 private:
  std::string file_;
};

}  // namespace

void check_run_manifest_launch(const RunManifest& manifest,
                               const std::vector<std::pair<std::string, std::int64_t>>& overrides) {
  LoadOptions load;
  load.overrides = overrides;
  load.ignore_unknown_overrides = true;  // W lives in the conv contracts, not in qkvz
  const Contract qkvz = load_contract(manifest.consumes.qkvz, load);
  SymbolTable symbols = qkvz.symbol_table();
  symbols["W"] = GdnShape{}.W;
  for (const auto& [name, value] : overrides)
    if (name == "W") symbols["W"] = value;
  if (symbols.count("H") && symbols.count("HV") && symbols["H"] > 0)
    symbols["G"] = symbols["HV"] / symbols["H"];
  symbols["batch"] = 1;
  const auto check = [&](const Expression& expression, const std::string& what,
                         std::int64_t limit) {
    const std::int64_t value = expression.evaluate(symbols);
    if (value < (what == "shared_bytes" ? 0 : 1) || value > limit)
      throw InputError(Diagnostic{
          expression.where(), Severity::error, "launch",
          what + " '" + expression.text() + "' evaluates to " + std::to_string(value) +
              ", outside " + (what == "shared_bytes" ? "0" : "1") + ".." + std::to_string(limit),
          ""});
  };
  for (std::size_t i = 0; i < manifest.grid.size(); ++i)
    check(manifest.grid[i], "grid dimension", i == 0 ? 2147483647 : 65535);
  for (const Expression& block : manifest.block) check(block, "block dimension", 1024);
  check(manifest.shared_bytes, "shared_bytes", std::int64_t{1} << 30);
}

RunManifest load_run_manifest(const std::string& path) {
  const std::optional<std::string> text = read_file_capped(path, kMaxManifestBytes, "a manifest");
  const ManifestReader reader(path);
  YAML::Node root;
  try {
    root = YAML::Load(*text);
  } catch (const YAML::Exception& error) {
    throw InputError(Diagnostic{SourceLocation{path, error.mark.line + 1, error.mark.column + 1},
                                Severity::error, "yaml", error.msg, ""});
  }
  if (!root.IsMap()) reader.fail(root, "the manifest must be a mapping");
  return reader.read(root);
}

}  // namespace layoutcheck
