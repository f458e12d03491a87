#include "cases/pangu/pangu_buffers.h"

#include <random>

namespace layoutcheck::pangu {

BufferSet uniform_tokens(const CaseLayouts& layouts, const std::string& input,
                         const std::string& output, std::int64_t batch, std::uint64_t seed,
                         double range) {
  // mt19937_64's raw output is specified bit for bit; the distributions are not.
  std::mt19937_64 rng(seed);
  BufferSet buffers;
  HostBuffer& x = buffers.add(make_host_buffer(input, layouts.at(input), batch));
  for (std::int64_t i = 0; i < x.elements(); ++i)
    x.set_value(i, (static_cast<double>(rng() >> 11) * 0x1.0p-53 * 2 - 1) * range);
  buffers.add(make_host_buffer(output, layouts.at(output), batch));
  return buffers;
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

}  // namespace layoutcheck::pangu
