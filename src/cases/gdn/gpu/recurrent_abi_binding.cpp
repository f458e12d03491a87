#include "cases/gdn/gpu/recurrent_abi_binding.h"

#include "kernels/gdn/gdn_recurrent_abi.h"

namespace layoutcheck::gpu {

AbiBinding gdn_recurrent_abi_binding() {
  AbiBinding binding;
  binding.abi = LAYOUTCHECK_GDN_RECURRENT_ABI;
  binding.pack = [](const DeviceBufferSet& device, const BufferSet& host,
                    const SymbolTable& symbols) {
    GdnRecurrentArgs args{};
    args.q = static_cast<const std::uint16_t*>(device.data("q"));
    args.k = static_cast<const std::uint16_t*>(device.data("k"));
    args.v = static_cast<const std::uint16_t*>(device.data("v"));
    args.g = static_cast<const float*>(device.data("g"));
    args.beta = static_cast<const float*>(device.data("beta"));
    args.state = static_cast<float*>(device.data("state"));
    args.out = static_cast<std::uint16_t*>(device.data("out"));
    args.q_row_stride = host.at("q").row_stride;
    args.k_row_stride = host.at("k").row_stride;
    args.v_row_stride = host.at("v").row_stride;
    args.g_row_stride = host.at("g").row_stride;
    args.beta_row_stride = host.at("beta").row_stride;
    args.state_row_stride = host.at("state").row_stride;
    args.out_row_stride = host.at("out").row_stride;
    args.tokens = host.at("q").rows;
    // The kernel's own view of the sizes: its claimed contracts' symbols.
    args.key_heads = required_symbol(symbols, "H", LAYOUTCHECK_GDN_RECURRENT_ABI);
    args.value_heads = required_symbol(symbols, "HV", LAYOUTCHECK_GDN_RECURRENT_ABI);
    args.key_dim = required_symbol(symbols, "K", LAYOUTCHECK_GDN_RECURRENT_ABI);
    args.value_dim = required_symbol(symbols, "V", LAYOUTCHECK_GDN_RECURRENT_ABI);
    return argument_bytes(args);
  };
  return binding;
}

}  // namespace layoutcheck::gpu
