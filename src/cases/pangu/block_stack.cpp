#include "cases/pangu/block_stack.h"

#include <cmath>
#include <random>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck::pangu {
namespace {

[[noreturn]] void refuse(const Contract& contract, const std::string& message) {
  throw InputError(Diagnostic{contract.where, Severity::error, "case-layout",
                              contract.name + ": " + message,
                              "give every block a windows contract of the same grid and width"});
}

std::int64_t symbol_value(const Contract& contract, const std::string& name) {
  for (const Symbol& symbol : contract.symbols)
    if (symbol.name == name) return symbol.value;
  refuse(contract, "has no symbol " + name + " (the Pangu windows contracts declare it)");
}

std::vector<fp16_bits> uniform(std::size_t count, double range, std::mt19937_64& rng) {
  // Spelled out rather than std::uniform_real_distribution, whose values differ by library.
  std::vector<fp16_bits> values(count);
  for (fp16_bits& v : values) {
    const double unit = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    v = float_to_fp16(static_cast<float>(range * (2.0 * unit - 1.0)));
  }
  return values;
}

HalfLinear random_linear(std::int64_t in, std::int64_t out, std::mt19937_64& rng) {
  const double range = 1.0 / std::sqrt(static_cast<double>(in));  // torch.nn.Linear's init
  HalfLinear linear{in, out, {}, {}};
  linear.weight = uniform(static_cast<std::size_t>(in * out), range, rng);
  linear.bias = uniform(static_cast<std::size_t>(out), range, rng);
  return linear;
}

}  // namespace

std::string path_name(StackPath path) {
  return path == StackPath::native ? "native" : "generic";
}

bool needs_padding(const PanguBlock& block) { return block.plan.padded != block.plan.grid; }

bool is_shifted(const PanguBlock& block) {
  return block.plan.shift != std::array<std::int64_t, 3>{0, 0, 0};
}

std::vector<Contract> alternating_windows(const std::string& contracts_folder, std::int64_t z,
                                          std::int64_t lat, std::int64_t lon,
                                          std::int64_t channels, std::int64_t blocks) {
  LoadOptions options;
  options.overrides = {{"Z", z}, {"LAT", lat}, {"LON", lon}, {"C", channels}};
  std::vector<Contract> windows;
  for (std::int64_t b = 0; b < blocks; ++b)
    windows.push_back(load_contract(
        contracts_folder + (b % 2 ? "/pangu/windows.shifted.yaml" : "/pangu/windows.yaml"),
        options));
  return windows;
}

BlockStack make_block_stack(const std::vector<Contract>& windows, std::int64_t heads,
                            std::uint64_t seed) {
  BlockStack stack;
  std::mt19937_64 rng(seed);
  for (const Contract& contract : windows) {
    PanguBlock block;
    block.windows = contract;
    block.forward = make_gather_map(contract);
    block.reverse = reverse_map(block.forward);
    block.plan = framework_window_plan(contract);
    block.window_tokens = symbol_value(contract, "WV");
    const std::int64_t c = block.forward.token_width;
    if (stack.blocks.empty()) {
      stack.tokens = block.forward.tokens;
      stack.channels = c;
    } else if (block.forward.tokens != stack.tokens || c != stack.channels) {
      refuse(contract, "a grid of " + std::to_string(block.forward.tokens) + " tokens of " +
                           std::to_string(c) + " beside " + std::to_string(stack.tokens) +
                           " of " + std::to_string(stack.channels));
    }
    if (heads <= 0 || c % heads != 0)
      refuse(contract, std::to_string(heads) + " heads do not divide " + std::to_string(c) +
                           " channels");
    const auto slots = static_cast<std::int64_t>(block.forward.slots.size());
    if (slots % block.window_tokens != 0 ||
        slots != static_cast<std::int64_t>(block.plan.index.size()))
      refuse(contract, std::to_string(slots) + " slots are not whole windows of the padded grid");
    block.unindex.assign(block.plan.index.size(), -1);
    for (std::size_t s = 0; s < block.plan.index.size(); ++s)
      block.unindex[static_cast<std::size_t>(block.plan.index[s])] = static_cast<std::int64_t>(s);
    block.qkv = random_linear(c, 3 * c, rng);
    block.proj = random_linear(c, c, rng);
    block.mlp_in = random_linear(c, 4 * c, rng);
    block.mlp_out = random_linear(4 * c, c, rng);
    stack.blocks.push_back(std::move(block));
  }
  stack.heads = heads;
  return stack;
}

std::vector<fp16_bits> stack_input(const BlockStack& stack, std::uint64_t seed, double range) {
  std::mt19937_64 rng(seed);
  return uniform(static_cast<std::size_t>(stack.tokens * stack.channels), range, rng);
}

}  // namespace layoutcheck::pangu
