#include "cases/pangu/pangu_buffers.h"

#include <random>

namespace layoutcheck::pangu {

BufferSet uniform_tokens(const CaseLayouts& layouts, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs, std::int64_t batch,
                         std::uint64_t seed, double range) {
  // mt19937_64's raw output is specified bit for bit; the distributions are not.
  std::mt19937_64 rng(seed);
  BufferSet buffers;
  for (const std::string& input : inputs) {
    HostBuffer& x = buffers.add(make_host_buffer(input, layouts.at(input), batch));
    for (std::int64_t i = 0; i < x.elements(); ++i)
      x.set_value(i, (static_cast<double>(rng() >> 11) * 0x1.0p-53 * 2 - 1) * range);
  }
  for (const std::string& output : outputs)
    buffers.add(make_host_buffer(output, layouts.at(output), batch));
  return buffers;
}

std::string window_buffer_of(const Contract& contract) {
  return contract.gather ? "windows" : contract.buffer;
}

void reject_layout(std::string_view case_name, std::string_view buffer, const Contract& contract,
                   const std::string& message, const std::string& fix) {
  throw InputError(Diagnostic{contract.where, Severity::error, "case-layout",
                              std::string(case_name) + " buffer '" + std::string(buffer) + "' ('" +
                                  contract.name + "') " + message,
                              fix});
}

void require_fp16(std::string_view case_name, std::string_view buffer, const Contract& contract) {
  if (contract.dtype != DType::fp16)
    reject_layout(case_name, buffer, contract, "is " + std::string(dtype_name(contract.dtype)),
                  "the Pangu kernels take fp16 tokens");
}

void require_token_grid(std::string_view case_name, std::string_view buffer,
                        const Contract& contract, bool windows) {
  require_fp16(case_name, buffer, contract);
  if (contract.fields.size() != 1 || contract.fields[0].dims.size() != 4)
    reject_layout(case_name, buffer, contract, "is not one field of [z, lat, lon, c]",
                  "describe the tokens as one field with dims z, lat, lon and c");
  if (windows && !contract.gather)
    reject_layout(case_name, buffer, contract, "declares no gather",
                  "add gather: {field: x, token: c}, so the index map is generated and proven");
}

}  // namespace layoutcheck::pangu

namespace layoutcheck::pangu {

void require_contiguous_row(std::string_view case_name, std::string_view buffer,
                            const Contract& contract) {
  if (contract.fields.size() != 1 || contract.fields[0].dims.size() != 1 ||
      contract.fields[0].dims[0].modes.size() != 1 ||
      contract.fields[0].dims[0].modes[0].stride != 1)
    reject_layout(case_name, buffer, contract, "is not one contiguous row of channels",
                  "LayerNorm reads each token's C channels contiguously (stride 1)");
}

}  // namespace layoutcheck::pangu
