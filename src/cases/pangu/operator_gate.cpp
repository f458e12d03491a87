#include "cases/pangu/operator_gate.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <mutex>
#include <tuple>
#include <optional>
#include <cstdio>
#include <random>
#include <set>
#include <span>

#include "cases/pangu/block_stack.h"
#include "cases/pangu/block_stack_cpu.h"
#include "cases/pangu/layer_norm.h"
#include "cases/pangu/model_gate.h"
#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck::pangu {
namespace {

using Values = std::vector<fp16_bits>;

TensorSpec fp16(std::int64_t batch, std::int64_t rows, std::int64_t width) {
  return {DType::fp16, {batch, rows, width}, true};
}

OperatorGateInput rows_call(PanguOperator op, std::string kind, std::string description,
                            std::int64_t batch, std::int64_t rows, std::int64_t width,
                            GateValues values = GateValues::random) {
  PanguCall call;
  call.op = op;
  call.tensors.assign(operator_tensors(op).size(), fp16(batch, rows, width));
  return {std::move(kind), std::move(description), std::move(call), values, ""};
}

struct Grid {
  std::int64_t z, lat, lon, width;
  bool shifted;
  std::string text() const {
    return "grid (" + std::to_string(z) + ", " + std::to_string(lat) + ", " + std::to_string(lon) +
           ")" + (shifted ? " shifted" : "");
  }
};

// The windows map of a grid, per token and not per channel: read from the contract at 8 channels,
// so checking it costs a fraction of the real width's, and kept for the grid's next call.
struct GridMap {
  GatherMap forward;
  std::vector<std::int32_t> reverse;
  std::int64_t window_volume = 0;
};

const GridMap& grid_map(const std::string& folder, const Grid& grid) {
  static std::map<std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t, bool>, GridMap>
      maps;
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  const auto key = std::make_tuple(folder, grid.z, grid.lat, grid.lon, grid.shifted);
  if (const auto found = maps.find(key); found != maps.end()) return found->second;
  LoadOptions options;
  options.overrides = {{"Z", grid.z}, {"LAT", grid.lat}, {"LON", grid.lon}, {"C", 8}};
  const Contract windows = load_contract(
      folder + (grid.shifted ? "/pangu/windows.shifted.yaml" : "/pangu/windows.yaml"), options);
  GridMap map{make_gather_map(windows), {}, 0};
  map.reverse = reverse_map(map.forward);
  for (const Symbol& symbol : windows.symbols)
    if (symbol.name == "WV") map.window_volume = symbol.value;
  return maps.emplace(key, std::move(map)).first->second;
}

// A gather, its reverse or LayerNorm + gather over the windows contract of `grid`.
OperatorGateInput map_call(const std::string& folder, PanguOperator op, std::string kind,
                           const Grid& grid, std::int64_t batch,
                           GateValues values = GateValues::random) {
  const GridMap& map = grid_map(folder, grid);
  const auto slots = static_cast<std::int64_t>(map.forward.slots.size());
  PanguCall call;
  call.op = op;
  const TensorSpec tokens = fp16(batch, map.forward.tokens, grid.width);
  const TensorSpec gathered = fp16(batch, slots, grid.width);
  const bool reverse = op == PanguOperator::window_reverse;
  call.tensors = reverse ? std::vector{gathered, tokens} : std::vector{tokens, gathered};
  const std::vector<std::int32_t>& entries = reverse ? map.reverse : map.forward.slots;
  call.map.assign(entries.begin(), entries.end());
  call.window_volume = map.window_volume;
  return {std::move(kind), grid.text(), std::move(call), values, ""};
}

std::string rows_text(std::int64_t rows) {
  return std::to_string(rows) + (rows == 1 ? " row" : " rows");
}

OperatorGateInput illegal(OperatorGateInput input, std::string description, std::string refusal) {
  input.kind = "illegal";
  input.description = std::move(description);
  input.refusal = std::move(refusal);
  return input;
}

std::string values_text(GateValues values) {
  switch (values) {
    case GateValues::random: return "";
    case GateValues::constant: return "constant rows";
    case GateValues::large_mean:
      return "mean 1000, spread 0.01 (a constant row in fp16)";
    case GateValues::large_mean_finest:
      return "mean 1000, spread 0.5 (fp16's finest there)";
    case GateValues::small_spread:
      return "mean 12, spread 0.01";
    case GateValues::extremes: return "±65504";
    case GateValues::subnormal: return "subnormals";
    case GateValues::non_finite: return "inf and NaN";
  }
  return "";
}

// Each element by the pattern; `salt` separates the tensors of one call.
Values fill(GateValues values, std::size_t count, std::int64_t width, std::uint64_t salt) {
  std::mt19937_64 rng(0x9a7e + salt);
  const auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  Values out(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto row = static_cast<std::int64_t>(i) / width;
    double v = 0;
    switch (values) {
      case GateValues::random: v = 4.0 * unit() - 2.0; break;
      case GateValues::constant: v = 0.25 * static_cast<double>(row % 7) - 0.75; break;
      case GateValues::large_mean: v = 1000.0 + 0.01 * (2.0 * unit() - 1.0) * 1.7320508; break;
      case GateValues::large_mean_finest:
        v = 1000.0 + 0.5 * static_cast<double>(rng() % 3) - 0.5;
        break;
      case GateValues::small_spread:
        v = 12.0 + 0.01 * (2.0 * unit() - 1.0) * 1.7320508;
        break;
      case GateValues::extremes: v = unit() < 0.5 ? 65504.0 : -65504.0; break;
      case GateValues::subnormal: v = (unit() - 0.5) * 0x1.0p-15; break;
      case GateValues::non_finite: {
        // Each row's first element inf, -inf or NaN in turn; the rest random.
        const bool first = static_cast<std::int64_t>(i) % width == 0;
        v = !first          ? 4.0 * unit() - 2.0
            : row % 3 == 0  ? INFINITY
            : row % 3 == 1  ? -INFINITY
                            : NAN;
        break;
      }
    }
    out[i] = float_to_fp16(static_cast<float>(v));
  }
  return out;
}

std::int64_t elements(const TensorSpec& t) { return t.shape[0] * t.shape[1] * t.shape[2]; }

// Rows map[s] of `from` (rows of `width`) into slot s of `to`, zeros for -1, per batch row.
Values move_rows(const Values& from, const TensorSpec& source, const TensorSpec& target,
                 const std::vector<std::int64_t>& map) {
  const std::int64_t width = source.shape[2];
  Values to(static_cast<std::size_t>(elements(target)), 0);
  for (std::int64_t b = 0; b < source.shape[0]; ++b)
    for (std::size_t s = 0; s < map.size(); ++s) {
      if (map[s] < 0) continue;
      const auto in = from.begin() + (b * source.shape[1] + map[s]) * width;
      std::copy(in, in + width, to.begin() + (b * target.shape[1] + static_cast<std::int64_t>(s)) * width);
    }
  return to;
}

std::string fraction_text(std::int64_t bad, std::size_t total, const std::string& what) {
  return std::to_string(bad) + " of " + std::to_string(total) + " " + what;
}

}  // namespace

std::string OperatorGateInput::subject() const {
  std::string text = operator_name(call.op) + " " +
                     (call.tensors.empty() ? std::string("(no tensors)") : call.tensors[0].text());
  const std::string pattern = values_text(values);
  return text + ": " + description + (pattern.empty() ? "" : ", " + pattern);
}

std::string StackGrid::text() const {
  return "Pangu-lite, " + std::to_string(kGateStackBlocks) + " blocks, [1," +
         std::to_string(z * lat * lon) + "," + std::to_string(channels) + "]";
}

std::vector<StackGrid> real_stack_grids() {
  return {{8, 91, 180, 192, 6}, {8, 46, 90, 384, 12}};
}

std::vector<OperatorGateInput> operator_gate_inputs(const std::string& folder) {
  using Op = PanguOperator;
  std::vector<OperatorGateInput> inputs;
  const auto add = [&](OperatorGateInput input) { inputs.push_back(std::move(input)); };
  // Valid: the real shapes.
  for (const Op op : {Op::layer_norm, Op::add_layer_norm}) {
    add(rows_call(op, "valid", "level 0", 1, 131040, 192));
    add(rows_call(op, "valid", "level 1", 1, 33120, 384));
    add(rows_call(op, "valid", "the article's shape", 1, 32760, 384));
    add(rows_call(op, "valid", "width 768", 1, 33120, 768));
  }
  for (const Op op : {Op::window_gather, Op::window_reverse, Op::layer_norm_gather})
    for (const bool shifted : {false, true}) {
      add(map_call(folder, op, "valid", {8, 91, 180, 192, shifted}, 1));
      add(map_call(folder, op, "valid", {8, 46, 90, 384, shifted}, 1));
    }
  // Boundary: row counts, batch 2, grids, values.
  for (const Op op : {Op::layer_norm, Op::add_layer_norm}) {
    for (const std::int64_t rows : {1, 3, 5, 131041})
      add(rows_call(op, "boundary", rows_text(rows), 1, rows, 192));
    // Rows that leave a group, a wave or a block partly empty at the wider rows too.
    for (const std::int64_t width : {384, 768})
      for (const std::int64_t rows : {1, 3, 5, 33121})
        add(rows_call(op, "boundary", rows_text(rows), 1, rows, width));
    add(rows_call(op, "boundary", "batch 2", 2, 33120, 384));
    for (const GateValues values : {GateValues::constant, GateValues::large_mean,
                                    GateValues::extremes, GateValues::subnormal,
                                    GateValues::non_finite})
      add(rows_call(op, "boundary", "values", 1, 4096, 192, values));
    for (const std::int64_t width : {192, 384, 768})
      for (const GateValues values : {GateValues::large_mean_finest, GateValues::small_spread})
        add(rows_call(op, "boundary", "values", 1, 4096, width, values));
  }
  for (const Op op : {Op::window_gather, Op::window_reverse, Op::layer_norm_gather}) {
    add(map_call(folder, op, "boundary", {8, 46, 90, 384, true}, 2));
    for (const bool shifted : {false, true}) {
      add(map_call(folder, op, "boundary", {8, 96, 180, 192, shifted}, 1));  // no padding
      add(map_call(folder, op, "boundary", {2, 6, 12, 192, shifted}, 1));    // a single window
    }
    add(map_call(folder, op, "boundary", {3, 7, 13, 192, true}, 1));  // the shift wraps the padding
    add(map_call(folder, op, "boundary", {3, 7, 13, 768, true}, 1));
  }
  for (const GateValues values :
       {GateValues::large_mean, GateValues::large_mean_finest, GateValues::small_spread,
        GateValues::extremes, GateValues::subnormal, GateValues::non_finite}) {
    add(map_call(folder, Op::layer_norm_gather, "boundary", {3, 7, 13, 192, true}, 1, values));
    add(map_call(folder, Op::window_gather, "boundary", {3, 7, 13, 192, true}, 1, values));
  }
  // The gathers move any whole number of 16-byte pieces (the probes run them at 8 channels): two
  // tokens a wave up to 32 pieces, one beyond, in rounds of two pieces a lane past a wave's worth.
  for (const std::int64_t width : {96, 520})
    add(map_call(folder, Op::window_gather, "boundary", {3, 7, 13, width, true}, 1));
  for (const std::int64_t width : {384, 768})
    for (const GateValues values : {GateValues::large_mean_finest, GateValues::small_spread})
      add(map_call(folder, Op::layer_norm_gather, "boundary", {3, 7, 13, width, true}, 1, values));
  // Illegal: each refused before anything is launched.
  for (const std::int64_t width : {191, 256, 96})
    add(illegal(rows_call(Op::layer_norm, "", "", 1, 1024, width), "width " + std::to_string(width),
                "192, 384 and 768"));
  add(illegal(rows_call(Op::add_layer_norm, "", "", 1, 1024, 256), "width 256", "192, 384 and 768"));
  {
    OperatorGateInput input = rows_call(Op::layer_norm, "", "", 1, 1024, 192);
    input.call.tensors[0].dtype = DType::fp32;
    add(illegal(input, "x in fp32", "not fp16"));
    input = rows_call(Op::add_layer_norm, "", "", 1, 1024, 192);
    input.call.tensors[1].dtype = DType::bf16;
    add(illegal(input, "branch in bf16", "not fp16"));
    input = rows_call(Op::layer_norm, "", "", 1, 1024, 192);
    input.call.tensors[0].contiguous = false;
    add(illegal(input, "rows not contiguous", "not contiguous"));
    input = rows_call(Op::add_layer_norm, "", "", 1, 131040, 192);
    input.call.tensors[1].shape = {1, 131039, 192};
    add(illegal(input, "branch one row short", "differ in shape"));
    input = rows_call(Op::add_layer_norm, "", "", 1, 33120, 384);
    input.call.tensors[2].shape = {1, 33120, 192};
    add(illegal(input, "residual_out of another width", "differ in shape"));
  }
  const Grid level0{8, 91, 180, 192, true};
  {
    OperatorGateInput input = map_call(folder, Op::window_gather, "", level0, 1);
    input.call.map_dtype = DType::i64;
    add(illegal(input, "an int64 map", "not i32"));
    input = map_call(folder, Op::window_gather, "", level0, 1);
    input.call.map[5] = 131040;
    add(illegal(input, "map entry 5 = 131040, one past the tokens", "outside [-1, 131040)"));
    input = map_call(folder, Op::layer_norm_gather, "", level0, 1);
    input.call.map[7] = -2;
    add(illegal(input, "map entry 7 = -2", "outside [-1, 131040)"));
    input = map_call(folder, Op::window_reverse, "", level0, 1);
    input.call.map[0] = 138240;
    add(illegal(input, "reverse map entry 0 past the slots", "outside [0, 138240)"));
    // In range, but not a windows contract's map: a padding slot reading a token that another
    // slot reads, a token of the reverse written zero.
    input = map_call(folder, Op::window_gather, "", level0, 1);
    {
      std::vector<std::int64_t>& map = input.call.map;
      const auto padding = std::find(map.begin(), map.end(), -1);
      const auto token = std::find_if(map.begin(), map.end(), [](auto e) { return e >= 0; });
      *padding = *token;
    }
    add(illegal(input, "a padding slot reading a token another slot reads", "is read by slots"));
    input = map_call(folder, Op::window_reverse, "", level0, 1);
    input.call.map[0] = -1;
    add(illegal(input, "reverse map entry 0 = -1", "reverse map entry 0 is -1"));
    input = map_call(folder, Op::window_gather, "", level0, 1);
    input.call.map.resize(input.call.map.size() - 1);
    input.call.tensors[1].shape[1] -= 1;
    add(illegal(input, "138239 slots: not whole windows", "not whole windows"));
    input = map_call(folder, Op::window_gather, "", level0, 1);
    input.call.tensors[1].shape[1] += 144;
    add(illegal(input, "a map shorter than the windows", "entries for"));
    input = map_call(folder, Op::window_gather, "", level0, 1);
    for (TensorSpec& t : input.call.tensors) t.shape[2] = 191;
    add(illegal(input, "tokens of 191 channels", "multiple of 8"));
    input = map_call(folder, Op::layer_norm_gather, "", {8, 91, 180, 256, true}, 1);
    add(illegal(input, "LayerNorm + gather of width 256", "192, 384 and 768"));
  }
  return inputs;
}

namespace {

[[noreturn]] void bad_call(const std::string& message) {
  throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                              "--call: " + message,
                              "--call operator=layernorm --call shape=1,131040,192; gathers: "
                              "--call operator=gather --call grid=8,91,180 --call width=192"});
}

// Decimal digits with an optional '-', as --set takes them: no sign '+', no spaces, no "0x".
std::int64_t call_integer(const std::string& key, const std::string& text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc() && end == text.data() + text.size() && !text.empty()) return value;
  bad_call(key + ": '" + text + "' is not an integer");
}

std::vector<std::int64_t> call_integers(const std::string& key, const std::string& text,
                                        std::size_t count) {
  std::vector<std::int64_t> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    values.push_back(call_integer(key, text.substr(start, comma - start)));
    start = comma + 1;
  }
  if (values.size() != count)
    bad_call(key + "=" + text + ": " + std::to_string(count) + " comma-separated integers wanted");
  return values;
}

// The call's tensors are filled on the host: at most 2^31 elements each.
void check_elements(const TensorSpec& tensor, const std::string& given) {
  std::int64_t elements = 1;
  for (const std::int64_t size : tensor.shape)
    if (__builtin_mul_overflow(elements, size, &elements) || elements > (std::int64_t{1} << 31))
      bad_call(given + ": more than 2^31 elements in a tensor");
}

// An edited map the kernels refuse is the call's answer (check_pangu_call gives it). One they
// take, yet not the windows contract's, would have the kernels checked against that map itself:
// a misplaced token would pass. So it is refused, its first difference named.
void refuse_foreign_map(const PanguCall& call, const std::vector<std::int64_t>& contract_map) {
  try {
    check_pangu_call(call);
  } catch (const InputError&) {
    return;
  }
  const bool reverse = call.op == PanguOperator::window_reverse;
  const std::string at = reverse ? "token " : "slot ";
  const auto entry_text = [&](std::int64_t entry) {
    if (entry < 0) return std::string("writes zero");
    return (reverse ? "comes from slot " : "reads token ") + std::to_string(entry);
  };
  const std::vector<std::int64_t>& map = call.map;
  std::size_t i = 0;
  while (i < map.size() && i < contract_map.size() && map[i] == contract_map[i]) ++i;
  const std::string difference =
      i < map.size() && i < contract_map.size()
          ? at + std::to_string(i) + " " + entry_text(map[i]) + "; in the contract's map it " +
                entry_text(contract_map[i])
          : "the map has " + std::to_string(map.size()) + " entries where the contract's has " +
                std::to_string(contract_map.size());
  bad_call("the map_entry/map_length edits leave a map the kernels take but not the windows "
           "contract's (" + difference + "); the gate checks the kernels against the "
           "contract's map, so give edits the kernels must refuse");
}

}  // namespace

OperatorGateInput pangu_call_input(const std::vector<std::string>& call,
                                   const std::string& folder) {
  std::map<std::string, std::string> single;
  std::vector<std::pair<std::int64_t, std::int64_t>> entries;
  for (const std::string& assignment : call) {
    const std::size_t equals = assignment.find('=');
    if (equals == std::string::npos) bad_call("'" + assignment + "' is not KEY=VALUE");
    const std::string key = assignment.substr(0, equals), value = assignment.substr(equals + 1);
    static const std::vector<std::string> kKeys = {"operator", "shape",     "grid",
                                                   "width",    "shifted",   "batch",
                                                   "dtype",    "map_dtype", "map_length"};
    if (key == "map_entry") {
      const std::size_t colon = value.find(':');
      if (colon == std::string::npos) bad_call("map_entry=" + value + ": I:V wanted");
      entries.emplace_back(call_integer(key, value.substr(0, colon)),
                           call_integer(key, value.substr(colon + 1)));
    } else if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
      bad_call("unknown key '" + key + "'");
    } else if (!single.emplace(key, value).second) {
      bad_call(key + "= is given twice (" + single[key] + " and " + value + ")");
    }
  }
  if (!single.contains("operator")) bad_call("operator= is required");
  const std::optional<PanguOperator> op = operator_from_name(single["operator"]);
  if (!op) bad_call("operator=" + single["operator"] + ": not a Pangu operator");
  const bool gathers = *op == PanguOperator::window_gather ||
                       *op == PanguOperator::window_reverse ||
                       *op == PanguOperator::layer_norm_gather;
  // A key that does not apply is refused, not ignored: the call checked must be the one meant.
  const std::vector<std::string> foreign =
      gathers ? std::vector<std::string>{"shape"}
              : std::vector<std::string>{"grid", "width", "shifted", "batch", "map_dtype",
                                         "map_length"};
  for (const std::string& key : foreign)
    if (single.contains(key))
      bad_call(single["operator"] + " takes no " + key + "= (" +
               (gathers ? "the gathers take grid=Z,LAT,LON and width=C"
                        : "the LayerNorms take shape=B,N,C and no map") +
               ")");
  if (!gathers && !entries.empty())
    bad_call(single["operator"] + " takes no map_entry= (the LayerNorms read no map)");
  if (single.contains("shifted") && single["shifted"] != "0" && single["shifted"] != "1")
    bad_call("shifted=" + single["shifted"] + ": 0 (a plain block's windows) or 1 (shifted)");
  OperatorGateInput input;
  if (gathers) {
    if (!single.contains("grid") || !single.contains("width"))
      bad_call(single["operator"] + " takes grid=Z,LAT,LON and width=C");
    const auto grid = call_integers("grid", single["grid"], 3);
    for (const std::int64_t size : grid)
      if (size <= 0 || size > 4096) bad_call("grid=" + single["grid"] + ": sizes 1 to 4096");
    const std::int64_t width = call_integer("width", single["width"]);
    if (width <= 0 || width > 65536) bad_call("width=" + single["width"] + ": 1 to 65536");
    const std::int64_t batch = single.contains("batch") ? call_integer("batch", single["batch"]) : 1;
    if (batch <= 0 || batch > 64) bad_call("batch: 1 to 64");
    try {
      input = map_call(folder, *op, "call",
                       {grid[0], grid[1], grid[2], width,
                        single.contains("shifted") && single["shifted"] == "1"},
                       batch);
    } catch (const InputError& refused) {  // the contract's own words, the gate's way out
      bad_call("grid=" + single["grid"] + ": the windows contract refuses it: " +
               refused.diagnostics().front().message);
    }
    for (const TensorSpec& tensor : input.call.tensors)
      check_elements(tensor, "grid=" + single["grid"] + " width=" + single["width"]);
  } else {
    if (!single.contains("shape")) bad_call(single["operator"] + " takes shape=B,N,C");
    const auto shape = call_integers("shape", single["shape"], 3);
    for (const std::int64_t size : shape)
      if (size <= 0 || size > (std::int64_t{1} << 31)) bad_call("shape: sizes 1 to 2^31");
    input = rows_call(*op, "call", "", shape[0], shape[1], shape[2]);
    for (const TensorSpec& tensor : input.call.tensors)
      check_elements(tensor, "shape=" + single["shape"]);
  }
  input.kind = "call";
  input.description = "the call given";
  if (single.contains("dtype")) {
    const std::optional<DType> dtype = dtype_from_name(single["dtype"]);
    if (!dtype) bad_call("dtype=" + single["dtype"] + ": not a dtype");
    for (TensorSpec& t : input.call.tensors) t.dtype = *dtype;
  }
  if (single.contains("map_dtype")) {
    const std::optional<DType> dtype = dtype_from_name(single["map_dtype"]);
    if (!dtype) bad_call("map_dtype=" + single["map_dtype"] + ": not a dtype");
    input.call.map_dtype = *dtype;
  }
  const std::vector<std::int64_t> contract_map = input.call.map;
  if (single.contains("map_length")) {
    if (!gathers) bad_call("map_length applies to the gathers");
    const std::int64_t length = call_integer("map_length", single["map_length"]);
    // The maps come from windows contracts of 8 channels a token under the element cap: at most
    // 2^23 slots. Twice that leaves room to grow any of them.
    if (length <= 0 || length > (std::int64_t{1} << 24)) bad_call("map_length: 1 to 2^24");
    input.call.tensors[1].shape[1] = length;
    check_elements(input.call.tensors[1], "map_length=" + single["map_length"]);
    input.call.map.resize(static_cast<std::size_t>(length), -1);
  }
  std::set<std::int64_t> indices;
  for (const auto& [index, value] : entries) {
    if (index < 0 || index >= static_cast<std::int64_t>(input.call.map.size()))
      bad_call("map_entry " + std::to_string(index) + ": the map has " +
               std::to_string(input.call.map.size()) + " entries");
    if (!indices.insert(index).second)
      bad_call("map_entry " + std::to_string(index) + " is given twice");
    input.call.map[static_cast<std::size_t>(index)] = value;
  }
  if (input.call.map != contract_map) refuse_foreign_map(input.call, contract_map);
  return input;
}

std::vector<Values> gate_input_values(const OperatorGateInput& input) {
  const PanguCall& call = input.call;
  const auto inputs = call.op == PanguOperator::add_layer_norm ? 2u : 1u;
  std::vector<Values> values;
  for (std::size_t i = 0; i < inputs; ++i) {
    const TensorSpec& t = call.tensors[i];
    // The branch of an add + LayerNorm small beside its residual, as a block's output is.
    const bool large_mean = input.values == GateValues::large_mean ||
                            input.values == GateValues::large_mean_finest ||
                            input.values == GateValues::small_spread;
    const GateValues pattern = i == 1 && large_mean ? GateValues::random : input.values;
    values.push_back(fill(pattern, static_cast<std::size_t>(elements(t)), t.shape[2], i));
  }
  return values;
}

std::vector<Values> gate_reference_outputs(const OperatorGateInput& input,
                                           const std::vector<Values>& values) {
  const PanguCall& call = input.call;
  const std::int64_t width = call.tensors[0].shape[2];
  switch (call.op) {
    case PanguOperator::layer_norm: return {layer_norm_rows(values[0], width)};
    case PanguOperator::add_layer_norm: {
      AddLayerNormRows rows = add_layer_norm_rows(values[0], values[1], width);
      return {std::move(rows.residual_out), std::move(rows.out)};
    }
    case PanguOperator::window_gather:
    case PanguOperator::window_reverse:
      return {move_rows(values[0], call.tensors[0], call.tensors[1], call.map)};
    case PanguOperator::layer_norm_gather:
      return {move_rows(layer_norm_rows(values[0], width), call.tensors[0], call.tensors[1], call.map)};
  }
  return {};
}

GateCheck compare_gate_outputs(const OperatorGateInput& input, const std::vector<Values>& got,
                               const std::vector<Values>& want) {
  GateCheck check{"operator", input.kind, input.subject(), GateOutcome::passed, ""};
  const PanguCall& call = input.call;
  for (std::size_t o = 0; o < want.size(); ++o) {
    const bool bitwise = call.op == PanguOperator::window_gather ||
                         call.op == PanguOperator::window_reverse ||
                         (call.op == PanguOperator::add_layer_norm && o == 0);
    std::int64_t bad = 0;
    double worst = 0;
    if (o >= got.size() || got[o].size() != want[o].size()) {
      check.outcome = GateOutcome::failed;
      check.detail = "output " + std::to_string(o) + " of the wrong size";
      return check;
    }
    for (std::size_t i = 0; i < want[o].size(); ++i) {
      const float g = fp16_to_float(got[o][i]), w = fp16_to_float(want[o][i]);
      // A NaN matches any NaN: its payload is the arithmetic's, not the layout's (the hardware's
      // fp16 conversion and the project's differ there and nowhere else).
      if (std::isnan(w)) {
        bad += !std::isnan(g);
        continue;
      }
      if (bitwise || std::isinf(w)) {
        bad += bitwise ? got[o][i] != want[o][i] : g != w;
        continue;
      }
      const double allowed = std::max(2.0 * std::abs(w) / 1024.0, 0x1.0p-12);
      const double error = std::isnan(g) ? 1e30 : std::abs(g - w);
      worst = std::max(worst, error / allowed);
      bad += !(error <= allowed);
    }
    const std::string name = operator_tensors(call.op)[call.tensors.size() - want.size() + o];
    char text[200];
    if (bitwise)
      std::snprintf(text, sizeof text, "%s bitwise: %s", name.c_str(),
                    fraction_text(bad, want[o].size(), "differ").c_str());
    else
      std::snprintf(text, sizeof text, "%s: %s beyond 2 fp16 ulp (worst %.2f of the bound)",
                    name.c_str(), fraction_text(bad, want[o].size(), "elements").c_str(), worst);
    check.detail += (check.detail.empty() ? "" : "; ") + std::string(text);
    if (bad > 0) check.outcome = GateOutcome::failed;
  }
  return check;
}

std::vector<GateCheck> pangu_host_gates(const GateRequest& request) {
  std::vector<GateCheck> checks;
  if (!request.call.empty()) {
    // One call, refused as the entry refuses it: the InputError is the command's error.
    const OperatorGateInput input = pangu_call_input(request.call, request.contracts_folder);
    check_pangu_call(input.call);
    return {{"operator", "call", input.subject(), GateOutcome::not_run,
             "accepted; its run on the kernels needs a GPU"}};
  }
  const auto wanted = [&](const std::string& subject) {
    return request.only.empty() || subject.find(request.only) != std::string::npos;
  };
  for (const OperatorGateInput& input : operator_gate_inputs(request.contracts_folder)) {
    if (!wanted(input.subject())) continue;
    GateCheck check{"operator", input.kind, input.subject(), GateOutcome::not_run, ""};
    try {
      check_pangu_call(input.call);
      if (input.kind == "illegal") {
        check.outcome = GateOutcome::failed;
        check.detail = "accepted: the kernels would be launched on it";
      } else {
        check.detail = "accepted; its run on the kernels needs a GPU";
      }
    } catch (const InputError& error) {
      const std::string message = error.what();
      const bool expected =
          input.kind == "illegal" && message.find(input.refusal) != std::string::npos;
      // Refused as it must be; but the check is that nothing reaches the device (every output
      // buffer keeps its poison bytes), which only the device half can see.
      check.outcome = expected ? GateOutcome::not_run : GateOutcome::failed;
      check.detail = expected ? "refused on the host: " + message +
                                    "; that nothing reaches the device is checked on a GPU"
                              : "refused unexpectedly: " + message;
    }
    checks.push_back(std::move(check));
  }
  // Small grids that still pad (lat 9 -> 12, lon 14 -> 24; 7 -> 12, 13 -> 24) and shift across
  // the padding, at both widths of the real grids.
  for (const StackGrid& small : {StackGrid{3, 9, 14, 192, 6}, StackGrid{2, 7, 13, 384, 12}}) {
    if (!wanted(small.text())) continue;
    const BlockStack stack = make_block_stack(
        alternating_windows(request.contracts_folder, small.z, small.lat, small.lon,
                            small.channels, kGateStackBlocks),
        small.heads, 41);
    const Values input = stack_input(stack, 42);
    const ChannelComparison gate =
        compare_channels(run_cpu_block_stack(stack, StackPath::native, input),
                         run_cpu_block_stack(stack, StackPath::generic, input), stack.channels);
    checks.push_back({"model", "CPU model", small.text(),
                      gate.passed() ? GateOutcome::passed : GateOutcome::failed, gate.summary()});
  }
  for (const StackGrid& grid : real_stack_grids()) {
    if (!wanted(grid.text())) continue;
    checks.push_back({"model", "GPU", grid.text(), GateOutcome::not_run,
                      "the real grid runs on the GPU kernels"});
    checks.push_back({"end-to-end", "GPU", grid.text(), GateOutcome::not_run,
                      "time and device memory need a GPU"});
  }
  return checks;
}

void register_pangu_gates() {
  CaseGateRegistry::instance().add({"pangu", pangu_host_gates, nullptr});
}

}  // namespace layoutcheck::pangu
