#include "cases/pangu/framework_figures.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "cases/pangu/framework_window.h"
#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/read_file.h"
#include "layoutcheck/json/json.h"

namespace layoutcheck::pangu {
namespace {

constexpr std::size_t kMaxFileBytes = std::size_t{1} << 22;

[[noreturn]] void fail(const std::string& file, std::string message, std::string fix = "") {
  Diagnostic diagnostic;
  diagnostic.where.file = file;
  diagnostic.rule = "framework-figures";
  diagnostic.message = std::move(message);
  diagnostic.fix = std::move(fix);
  throw InputError(std::move(diagnostic));
}

std::string shape_text(const Json& shape) {
  std::string text;
  for (const Json& size : shape.items()) {
    if (size.as_int() <= 0) throw std::logic_error("a shape's sizes are positive");
    text += (text.empty() ? "[" : ",") + std::to_string(size.as_int());
  }
  if (text.empty()) throw std::logic_error("a shape has at least one size");
  return text + "]";
}

std::array<std::int64_t, 3> three_integers(const Json& list) {
  if (list.size() != 3) throw std::logic_error("a window or shift has three sizes");
  return {list[std::size_t{0}].as_int(), list[std::size_t{1}].as_int(),
          list[std::size_t{2}].as_int()};
}

std::string triple_text(const std::array<std::int64_t, 3>& values) {
  return "(" + std::to_string(values[0]) + ", " + std::to_string(values[1]) + ", " +
         std::to_string(values[2]) + ")";
}

}  // namespace

FrameworkFigures load_framework_figures(const std::string& file) {
  FrameworkFigures figures;
  figures.file = file;
  Json document;
  try {
    document = Json::parse(read_file_capped(file, kMaxFileBytes, "framework figures"));
  } catch (const InputError&) {
    throw;
  } catch (const std::runtime_error& error) {  // JSON line:column: what
    fail(file, error.what());
  }
  const char* fix =
      "write it with scripts/pangu-framework-bench.py --json on the GPU the bench runs on";
  try {
    const Json* device = document.find("device");
    if (device == nullptr || device->as_string().empty())
      fail(file, "names no device the figures were measured on", fix);
    figures.device = device->as_string();
    const Json* method = document.find("method");
    if (method == nullptr)
      fail(file, "records no timing method (calls per graph, rotation bytes)", fix);
    figures.calls_per_graph = (*method)["calls_per_graph"].as_int();
    figures.rotation_bytes = (*method)["rotation_bytes"].as_int();
    figures.window = three_integers(document["window"]);
    figures.roll = three_integers(document["shift"]);
    for (const Json& entry : document["operators"].items()) {
      FrameworkFigures::Operator op;
      op.name = entry["operator"].as_string();
      op.shape = shape_text(entry["shape"]);
      const bool compiled_checked = entry["check"]["passed"].as_bool();
      for (const auto& [key, mode] :
           {std::pair{"compile", kTorchCompile}, std::pair{"eager_graph", kEagerGraph}}) {
        const Json* timing = entry.find(key);
        const Json* median = timing != nullptr ? timing->find("median_us") : nullptr;
        if (median == nullptr) continue;  // a compile that failed records its error instead
        if (key == std::string("compile") && !compiled_checked) continue;
        const double us = median->as_double();
        if (!std::isfinite(us) || us <= 0)
          fail(file, op.name + " " + op.shape + ": " + key + " median_us is not a positive time",
               fix);
        op.figures.push_back({mode, us});
      }
      figures.operators.push_back(std::move(op));
    }
  } catch (const std::logic_error& error) {  // a member missing or of the wrong kind
    fail(file, std::string("not a framework figures file: ") + error.what(), fix);
  }
  return figures;
}

void require_comparable(const FrameworkFigures& figures, const std::string& device,
                        std::int64_t calls_per_graph, std::int64_t rotation_bytes) {
  const char* fix = "measure them here: scripts/pangu-framework-bench.py --json FILE";
  if (figures.device != device)
    fail(figures.file,
         "framework figures measured on " + printable(figures.device) + ", not on this " +
             printable(device) + ": a comparison across GPUs says nothing about the kernels",
         fix);
  if (figures.calls_per_graph != calls_per_graph || figures.rotation_bytes != rotation_bytes)
    fail(figures.file,
         "framework figures timed as " + std::to_string(figures.calls_per_graph) +
             " calls a graph over " + std::to_string(figures.rotation_bytes) +
             " bytes of inputs, the bench times " + std::to_string(calls_per_graph) + " over " +
             std::to_string(rotation_bytes) + ": a comparison across methods says nothing",
         fix);
}

void require_same_windows(const FrameworkFigures& figures, const Contract& shifted_windows) {
  std::array<std::int64_t, 3> window{}, roll{};
  const char* names[3] = {"WZ", "WH", "WW"};
  for (std::size_t axis = 0; axis < 3; ++axis)
    for (const Symbol& symbol : shifted_windows.symbols)
      if (symbol.name == names[axis]) window[axis] = symbol.value;
  const FrameworkWindowPlan plan = framework_window_plan(shifted_windows);
  for (std::size_t axis = 0; axis < 3; ++axis) roll[axis] = -plan.shift[axis];
  if (figures.window != window || figures.roll != roll)
    fail(figures.file,
         "framework figures of windows " + triple_text(figures.window) + " rolled by " +
             triple_text(figures.roll) + ", the bench's contract (" + shifted_windows.name +
             ") has windows " + triple_text(window) + " rolled by " + triple_text(roll),
         "measure them with the script that matches the contract");
}

void attach_framework_figures(const FrameworkFigures& figures,
                              std::vector<OperatorMeasurement>& operators) {
  for (const FrameworkFigures::Operator& entry : figures.operators)
    for (OperatorMeasurement& op : operators)
      if (op.name == entry.name && op.shape.rfind(entry.shape, 0) == 0)
        op.framework.insert(op.framework.end(), entry.figures.begin(), entry.figures.end());
}

}  // namespace layoutcheck::pangu
