#include "cases/pangu/operator_call.h"

#include <array>
#include <vector>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/join.h"

namespace layoutcheck::pangu {
namespace {

constexpr std::array<std::pair<PanguOperator, std::string_view>, 5> kNames = {{
    {PanguOperator::layer_norm, "layernorm"},
    {PanguOperator::add_layer_norm, "add-layernorm"},
    {PanguOperator::window_gather, "gather"},
    {PanguOperator::window_reverse, "reverse"},
    {PanguOperator::layer_norm_gather, "layernorm-gather"},
}};

bool layer_norm_width(std::int64_t width) { return width == 192 || width == 384 || width == 768; }

class CallChecker {
 public:
  explicit CallChecker(const PanguCall& call) : call_(call), names_(operator_tensors(call.op)) {}

  [[noreturn]] void refuse(const std::string& what, const std::string& fix) const {
    throw InputError(Diagnostic{SourceLocation{"<call>"}, Severity::error, "operator-input",
                                "pangu " + operator_name(call_.op) + ": " + what, fix});
  }

  const TensorSpec& tensor(std::size_t i) const { return call_.tensors[i]; }
  const std::string& name(std::size_t i) const { return names_[i]; }

  void check_tensors() const {
    if (call_.tensors.size() != names_.size())
      refuse(std::to_string(call_.tensors.size()) + " tensors passed, " +
                 std::to_string(names_.size()) + " expected",
             "pass " + join(names_));
    for (std::size_t i = 0; i < names_.size(); ++i) {
      const TensorSpec& t = tensor(i);
      if (t.dtype != DType::fp16)
        refuse(name(i) + " is " + std::string(dtype_name(t.dtype)) + ", not fp16",
               "the Pangu kernels take fp16 tensors; convert at the model's boundary, not here");
      if (t.shape.size() != 3 || t.shape[0] <= 0 || t.shape[1] <= 0 || t.shape[2] <= 0)
        refuse(name(i) + " has shape " + t.text() + ", not [batch, rows, channels]",
               "pass a 3-dimensional tensor with every size positive");
      if (!t.contiguous)
        refuse(name(i) + " " + t.text() + " is not contiguous",
               "the kernels read rows one after another: call .contiguous() first");
    }
  }

  void same_shape(std::size_t a, std::size_t b) const {
    if (tensor(a).shape != tensor(b).shape)
      refuse(name(a) + " " + tensor(a).text() + " and " + name(b) + " " + tensor(b).text() +
                 " differ in shape",
             "pass " + name(b) + " of " + name(a) + "'s shape");
  }

  void layer_norm_rows(std::size_t i) const {
    const std::int64_t width = tensor(i).shape[2];
    if (!layer_norm_width(width))
      refuse(name(i) + " has rows of " + std::to_string(width) + " channels",
             "the LayerNorm kernels are built for 192, 384 and 768 channels only; other widths "
             "take the framework's own LayerNorm");
  }

  // A gather from tensor `from` (its rows the map's sources) to tensor `to` (one row per entry).
  void check_map(std::size_t from, std::size_t to) const {
    const TensorSpec& source = tensor(from);
    const TensorSpec& target = tensor(to);
    if (source.shape[0] != target.shape[0] || source.shape[2] != target.shape[2])
      refuse(name(from) + " " + source.text() + " and " + name(to) + " " + target.text() +
                 " differ in batch or channels",
             "the gather moves whole tokens within each batch row");
    if (source.shape[2] % 8 != 0)
      refuse("tokens of " + std::to_string(source.shape[2]) + " channels",
             "the gather moves 16-byte pieces: channels a multiple of 8");
    if (call_.map_dtype != DType::i32)
      refuse("the index map is " + std::string(dtype_name(call_.map_dtype)) + ", not i32",
             "generate the int32 map from the windows contract (layoutcheck lint proves it); a "
             "framework's int64 index_select indices go to the framework's path");
    const auto length = static_cast<std::int64_t>(call_.map.size());
    const bool forward = call_.op != PanguOperator::window_reverse;
    if (length != target.shape[1])
      refuse("the index map has " + std::to_string(length) + " entries for " + name(to) + "'s " +
                 std::to_string(target.shape[1]) + " rows",
             "one entry per row written");
    const std::int64_t slots = forward ? length : source.shape[1];
    if (call_.window_volume <= 0 || slots % call_.window_volume != 0)
      refuse(std::to_string(slots) + " slots are not whole windows of " +
                 std::to_string(call_.window_volume) + " tokens",
             "the map of a windows contract has a multiple of the window volume of slots");
    // The reverse's -1 is in range here so that check_each_read_once names what it would do.
    const std::string last = std::to_string(source.shape[1] - 1);
    for (std::int64_t i = 0; i < length; ++i) {
      const std::int64_t entry = call_.map[static_cast<std::size_t>(i)];
      if (entry < -1 || entry >= source.shape[1])
        refuse("index map entry " + std::to_string(i) + " is " + std::to_string(entry) +
                   ", outside [" + (forward ? "-1" : "0") + ", " +
                   std::to_string(source.shape[1]) + ")",
               forward ? "an entry reads a row of " + name(from) + " (0 to " + last +
                             ") or is -1 (write zero)"
                       : "an entry names the slot of " + name(from) + " (0 to " + last +
                             ") its token is written from");
    }
    check_each_read_once(length, source.shape[1], forward);
  }

  // The index protocol of a windows contract's maps, which the kernels are built for. A gather
  // reads every token of the grid exactly once (its other slots are -1); the reverse writes every
  // token from a slot of its own. A map that repeats or drops a row is another operation, and its
  // result would be checked against itself.
  void check_each_read_once(std::int64_t entries, std::int64_t rows, bool forward) const {
    const std::string entry = forward ? "slot" : "token", row = forward ? "token" : "slot";
    const std::string fix =
        forward ? "a windows contract's map reads every token once (layoutcheck lint proves it "
                  "of the map it generates)"
                : "the reverse map is a bijection onto the grid's tokens (layoutcheck lint "
                  "proves it of the map it generates)";
    std::vector<std::int64_t> read_by(static_cast<std::size_t>(rows), -1);
    for (std::int64_t at = 0; at < entries; ++at) {
      const std::int64_t read = call_.map[static_cast<std::size_t>(at)];
      if (read < 0 && forward) continue;
      if (read < 0)
        refuse("reverse map entry " + std::to_string(at) + " is -1: that token would be "
               "written zero",
               "the reverse writes every token of the grid from its slot; generate its map from "
               "the windows contract");
      std::int64_t& first = read_by[static_cast<std::size_t>(read)];
      if (first >= 0)
        refuse(row + " " + std::to_string(read) + " is read by " + entry + "s " +
                   std::to_string(first) + " and " + std::to_string(at),
               fix);
      first = at;
    }
    if (!forward) return;  // the padding slots are read by no token
    for (std::int64_t token = 0; token < rows; ++token)
      if (read_by[static_cast<std::size_t>(token)] < 0)
        refuse("token " + std::to_string(token) + " is read by no slot", fix);
  }

 private:
  const PanguCall& call_;
  std::vector<std::string> names_;
};

}  // namespace

std::string operator_name(PanguOperator op) {
  for (const auto& [known, name] : kNames)
    if (known == op) return std::string(name);
  return "?";
}

std::optional<PanguOperator> operator_from_name(std::string_view name) {
  for (const auto& [known, spelled] : kNames)
    if (spelled == name) return known;
  return std::nullopt;
}

std::vector<std::string> operator_tensors(PanguOperator op) {
  switch (op) {
    case PanguOperator::layer_norm: return {"x", "out"};
    case PanguOperator::add_layer_norm: return {"residual", "branch", "residual_out", "out"};
    case PanguOperator::window_gather:
    case PanguOperator::layer_norm_gather: return {"x", "windows"};
    case PanguOperator::window_reverse: return {"windows", "x"};
  }
  return {};
}

std::string TensorSpec::text() const {
  std::string sizes;
  for (const std::int64_t size : shape) sizes += (sizes.empty() ? "" : ",") + std::to_string(size);
  return std::string(dtype_name(dtype)) + " [" + sizes + "]";
}

void check_pangu_call(const PanguCall& call) {
  const CallChecker check(call);
  check.check_tensors();
  switch (call.op) {
    case PanguOperator::layer_norm:
      check.layer_norm_rows(0);
      check.same_shape(0, 1);
      return;
    case PanguOperator::add_layer_norm:
      check.layer_norm_rows(0);
      for (std::size_t i = 1; i < 4; ++i) check.same_shape(0, i);
      return;
    case PanguOperator::layer_norm_gather:
      check.layer_norm_rows(0);
      check.check_map(0, 1);
      return;
    case PanguOperator::window_gather:
      check.check_map(0, 1);
      return;
    case PanguOperator::window_reverse:
      check.check_map(0, 1);
      return;
  }
}

}  // namespace layoutcheck::pangu
