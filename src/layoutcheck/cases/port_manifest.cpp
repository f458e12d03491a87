#include "layoutcheck/cases/port_manifest.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "layoutcheck/cases/case_layouts.h"
#include "layoutcheck/cases/registry.h"
#include "layoutcheck/contract/join.h"
#include "layoutcheck/contract/read_file.h"
#include "layoutcheck/contract/yaml_tree.h"

namespace layoutcheck {
namespace {

namespace fs = std::filesystem;
using Kind = YamlNode::Kind;

constexpr const char* kCommaFix =
    "YAML splits [a, b] at every comma: write a call with commas as a block list item "
    "(- ceil_div(H * P, 4)) or quoted (['ceil_div(H * P, 4)', batch])";

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  SourceLocation at(const YamlNode& node) const { return {file_, node.line, node.column}; }

  [[noreturn]] void fail(const YamlNode& node, const std::string& message,
                         const std::string& fix = "") const {
    throw InputError(Diagnostic{at(node), Severity::error, "manifest", message, fix});
  }

  // A mapping whose keys are all in `allowed`, none repeated.
  void check_keys(const YamlNode& node, const std::string& what,
                  const std::vector<std::string>& allowed) const {
    if (node.kind != Kind::map) fail(node, what + " must be a mapping");
    std::set<std::string> seen;
    for (const YamlEntry& entry : node.entries) {
      const std::string& key = entry.key.scalar;
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        const std::string guess = closest_name(key, allowed);
        fail(entry.key, "unknown key '" + key + "' in " + what,
             (guess.empty() ? "" : "did you mean '" + guess + "'? ") +
                 "known keys: " + join(allowed));
      }
      if (!seen.insert(key).second) fail(entry.key, "duplicate key '" + key + "' in " + what);
    }
  }

  static const YamlNode* get(const YamlNode& map, std::string_view key) {
    for (const YamlEntry& entry : map.entries)
      if (entry.key.scalar == key) return &entry.value;
    return nullptr;
  }

  const YamlNode& require(const YamlNode& map, std::string_view key,
                          const std::string& what) const {
    if (const YamlNode* node = get(map, key)) return *node;
    fail(map, what + " needs '" + std::string(key) + "'");
  }

  std::string scalar(const YamlNode& node, const std::string& what) const {
    if (node.kind != Kind::scalar) fail(node, what + " must be a string");
    return node.scalar;
  }

  Expression expression(const YamlNode& node, const std::string& what) const {
    if (node.kind != Kind::scalar) fail(node, what + " must be an integer or an expression");
    // A quoted scalar's location is its opening quote.
    SourceLocation where = at(node);
    if (node.quoted && where.column > 0) ++where.column;
    return Expression::parse(node.scalar, where);
  }

  std::vector<Expression> dims(const YamlNode& node, const std::string& what) const {
    std::vector<Expression> result;
    if (node.kind == Kind::scalar) {
      result.push_back(expression(node, what));
    } else if (node.kind == Kind::sequence) {
      // In a flow list [a, b] YAML splits at every comma, the commas of min(a, b) included.
      for (const YamlNode& item : node.items)
        if (item.kind == Kind::scalar && !item.quoted &&
            std::count(item.scalar.begin(), item.scalar.end(), '(') !=
                std::count(item.scalar.begin(), item.scalar.end(), ')'))
          fail(item, what + ": '" + item.scalar + "' has unbalanced parentheses", kCommaFix);
      if (node.items.empty() || node.items.size() > 3)
        fail(node, what + " must be 1 to 3 expressions", kCommaFix);
      for (const YamlNode& item : node.items) result.push_back(expression(item, what));
    } else {
      fail(node, what + " must be 1 to 3 expressions", kCommaFix);
    }
    return result;
  }

  std::string path(const YamlNode& node, const std::string& what) const {
    const fs::path relative = scalar(node, what);
    const fs::path resolved =
        relative.is_absolute() ? relative : fs::path(file_).parent_path() / relative;
    return resolved.lexically_normal().string();
  }

  // consumes / model: buffer name -> contract, every buffer one of the case's laid-out ones.
  void contracts(const YamlNode& node, const std::string& what, const Case& subject,
                 const LoadOptions& load, std::map<std::string, std::string, std::less<>>& paths,
                 CaseLayouts& layouts) const {
    std::vector<std::string> laid_out;
    for (const BufferSpec& spec : subject.buffers())
      if (!spec.contract.empty()) laid_out.push_back(spec.name);
    check_keys(node, what + " (buffers of case '" + subject.name() + "' with a layout)", laid_out);
    LoadOptions options = load;
    options.ignore_unknown_overrides = true;
    for (const YamlEntry& entry : node.entries) {
      const std::string& buffer = entry.key.scalar;
      const std::string file = path(entry.value, what + "." + buffer);
      Contract contract = load_contract(file, options);
      if (subject.buffer_described_by(contract) != buffer)
        fail(entry.value,
             what + "." + buffer + ": " + file + " describes buffer '" + contract.buffer +
                 "', not '" + buffer + "'",
             "give a contract of buffer '" + buffer + "'");
      subject.validate_layout(buffer, contract);
      paths[buffer] = file;
      layouts[buffer] = std::move(contract);
    }
  }

  PortManifest read(const YamlNode& root, const PortManifestOptions& options) const {
    if (root.kind != Kind::map) fail(root, "the manifest must be a mapping");
    const YamlNode& version = require(root, "layoutcheck_run", "the manifest");
    const std::string number = scalar(version, "layoutcheck_run");
    PortManifest manifest;
    manifest.file = file_;
    if (number == "1") {
      manifest.version = 1;
      return manifest;
    }
    if (number != "2")
      fail(version, "unsupported manifest version '" + number + "'",
           "this layoutcheck reads layoutcheck_run: 1 (GDN) and 2 (any case)");
    check_keys(root, "the manifest",
               {"layoutcheck_run", "case", "name", "set", "kernel", "consumes", "model"});

    const YamlNode& case_node = require(root, "case", "the manifest");
    manifest.case_name = scalar(case_node, "case");
    const std::shared_ptr<const Case> subject = CaseRegistry::instance().find(manifest.case_name);
    if (!subject) {
      std::string known;
      for (const auto& registered : CaseRegistry::instance().list())
        known += (known.empty() ? "" : ", ") + registered->name();
      fail(case_node, "unknown case '" + manifest.case_name + "'", "known cases: " + known);
    }
    if (const YamlNode* name = get(root, "name")) manifest.name = scalar(*name, "name");

    const YamlNode& kernel = require(root, "kernel", "the manifest");
    check_keys(kernel, "kernel", {"source", "entry", "abi", "launch", "compile_options"});
    manifest.source = path(require(kernel, "source", "kernel"), "kernel.source");
    manifest.entry = scalar(require(kernel, "entry", "kernel"), "kernel.entry");
    const YamlNode& abi = require(kernel, "abi", "kernel");
    manifest.abi = scalar(abi, "kernel.abi");
    std::string abis;
    bool known_abi = false;
    for (const AbiSpec& spec : subject->abis()) {
      abis += (abis.empty() ? "" : ", ") + spec.name;
      known_abi = known_abi || spec.name == manifest.abi;
    }
    if (!known_abi)
      fail(abi, "case '" + manifest.case_name + "' has no ABI '" + manifest.abi + "'",
           "its ABIs: " + (abis.empty() ? std::string("none") : abis));
    if (const YamlNode* compile = get(kernel, "compile_options")) {
      if (compile->kind != Kind::sequence)
        fail(*compile, "kernel.compile_options must be a list of strings");
      for (const YamlNode& option : compile->items)
        manifest.compile_options.push_back(scalar(option, "a compile option"));
    }
    const YamlNode& launch = require(kernel, "launch", "kernel");
    check_keys(launch, "kernel.launch", {"grid", "block", "shared_bytes"});
    manifest.grid = dims(require(launch, "grid", "kernel.launch"), "kernel.launch.grid");
    manifest.block = dims(require(launch, "block", "kernel.launch"), "kernel.launch.block");
    if (const YamlNode* shared = get(launch, "shared_bytes"))
      manifest.shared_bytes = expression(*shared, "kernel.launch.shared_bytes");

    // The manifest's own sizes, under the command line's --set.
    LoadOptions load = options.load;
    if (const YamlNode* set = get(root, "set")) {
      if (set->kind != Kind::map) fail(*set, "set must be a mapping of symbols to integers");
      std::vector<std::pair<std::string, std::int64_t>> sizes;
      for (const YamlEntry& entry : set->entries) {
        const Expression value = expression(entry.value, "set." + entry.key.scalar);
        if (!value.symbols().empty())
          fail(entry.value,
               "set." + entry.key.scalar + " must be an integer, not an expression of symbols");
        if (std::any_of(sizes.begin(), sizes.end(),
                        [&](const auto& size) { return size.first == entry.key.scalar; }))
          fail(entry.key, "duplicate key '" + entry.key.scalar + "' in set");
        sizes.emplace_back(entry.key.scalar, value.evaluate({}));
      }
      for (const auto& size : load.overrides)
        std::erase_if(sizes, [&](const auto& own) { return own.first == size.first; });
      sizes.insert(sizes.end(), load.overrides.begin(), load.overrides.end());
      load.overrides = std::move(sizes);
    }
    try {
      const CaseLayouts defaults = case_layouts(*subject, load, {}, options.contracts_folder);
      manifest.claimed = defaults;
      manifest.model_layouts = defaults;
      contracts(require(root, "consumes", "the manifest"), "consumes", *subject, load,
                manifest.consumes, manifest.claimed);
      contracts(require(root, "model", "the manifest"), "model", *subject, load, manifest.model,
                manifest.model_layouts);
    } catch (const InputError& error) {
      // A size the contracts refuse (a derived symbol, a wrong divisor) is the manifest's error
      // when its set: gave it.
      const YamlNode* set = get(root, "set");
      const Diagnostic& first = error.diagnostics().front();
      if (set == nullptr || first.where.file != "<command line>") throw;
      throw InputError(Diagnostic{at(*set), Severity::error, first.rule, first.message, first.fix});
    }
    // A size no contract declares is a typo, not a no-op.
    for (const auto& size : load.overrides) {
      const std::string& symbol = size.first;  // not a structured binding: clang 15 (hipcc)
      const auto declares = [&](const CaseLayouts& layouts) {
        return std::any_of(layouts.begin(), layouts.end(),
                           [&](const auto& entry) { return entry.second.symbol(symbol); });
      };
      if (declares(manifest.claimed) || declares(manifest.model_layouts)) continue;
      const YamlNode* set = get(root, "set");
      const YamlNode* where = set ? get(*set, symbol) : nullptr;
      fail(where ? *where : root,
           "size '" + symbol + "' (set or --set) is not a symbol of any contract of the port",
           "the contracts' symbols are listed by layoutcheck lint --json");
    }

    // Every launch expression once, for both wave sizes: a grid that divides by zero or names an
    // unknown symbol is an input error here, on any build.
    for (const std::int64_t wave_size : {32, 64})
      (void)launch_geometry(manifest, launch_symbols(manifest.claimed, 1, wave_size));
    return manifest;
  }

 private:
  std::string file_;
};

[[noreturn]] void launch_error(const Expression& expression, const std::string& what,
                               std::int64_t value, std::int64_t limit) {
  throw InputError(Diagnostic{expression.where(), Severity::error, "launch",
                              what + " '" + expression.text() + "' evaluates to " +
                                  std::to_string(value) + ", outside 1.." + std::to_string(limit),
                              ""});
}

}  // namespace

PortManifest load_port_manifest(const std::string& path, const PortManifestOptions& options) {
  const std::string text = read_file_capped(path, kMaxManifestBytes, "a manifest");
  std::vector<Diagnostic> diagnostics;
  const std::optional<YamlNode> root = parse_yaml(text, path, diagnostics);
  if (!root) throw InputError(std::move(diagnostics));
  return Reader(path).read(*root, options);
}

SymbolTable launch_symbols(const CaseLayouts& layouts, std::int64_t batch, std::int64_t wave_size) {
  SymbolTable symbols;
  for (const auto& [buffer, contract] : layouts)
    for (const Symbol& symbol : contract.symbols) symbols.emplace(symbol.name, symbol.value);
  symbols["batch"] = batch;
  symbols["wave_size"] = wave_size;
  return symbols;
}

LaunchGeometry launch_geometry(const PortManifest& manifest, const SymbolTable& symbols) {
  LaunchGeometry geometry;
  constexpr std::int64_t kGridLimits[] = {2147483647, 65535, 65535};
  for (std::size_t i = 0; i < manifest.grid.size(); ++i) {
    geometry.grid[i] = manifest.grid[i].evaluate(symbols);
    if (geometry.grid[i] <= 0 || geometry.grid[i] > kGridLimits[i])
      launch_error(manifest.grid[i], "grid dimension", geometry.grid[i], kGridLimits[i]);
  }
  std::int64_t threads = 1;
  for (std::size_t i = 0; i < manifest.block.size(); ++i) {
    geometry.block[i] = manifest.block[i].evaluate(symbols);
    if (geometry.block[i] <= 0 || geometry.block[i] > 1024)
      launch_error(manifest.block[i], "block dimension", geometry.block[i], 1024);
    threads *= geometry.block[i];
    if (threads > 1024)
      launch_error(manifest.block[i], "block (threads in all, up to this dimension)", threads,
                   1024);
  }
  geometry.shared_bytes = manifest.shared_bytes.evaluate(symbols);
  if (geometry.shared_bytes < 0 || geometry.shared_bytes > (1 << 30))
    throw InputError(Diagnostic{manifest.shared_bytes.where(), Severity::error, "launch",
                                "shared_bytes '" + manifest.shared_bytes.text() +
                                    "' evaluates to " + std::to_string(geometry.shared_bytes),
                                "0 to 2^30 bytes"});
  return geometry;
}

}  // namespace layoutcheck
