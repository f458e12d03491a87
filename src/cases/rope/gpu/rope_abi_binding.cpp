#include "cases/rope/gpu/rope_abi_binding.h"

#include "kernels/rope/rope_abi.h"

namespace layoutcheck::gpu {

AbiBinding rope_abi_binding() {
  AbiBinding binding;
  binding.abi = LAYOUTCHECK_ROPE_APPLY_ABI;
  binding.pack = [](const DeviceBufferSet& device, const BufferSet& host,
                    const SymbolTable& symbols) {
    RopeApplyArgs args{};
    args.x = static_cast<const std::uint16_t*>(device.data("x"));
    args.out = static_cast<std::uint16_t*>(device.data("out"));
    args.positions = static_cast<const int*>(device.data("positions"));
    args.cos_sin = static_cast<const float*>(device.data("cos_sin"));
    args.x_row_stride = host.at("x").row_stride;
    args.out_row_stride = host.at("out").row_stride;
    args.cos_sin_row_stride = host.at("cos_sin").row_stride;
    args.tokens = host.at("x").rows;
    // The kernel's own view of the sizes: its claimed contracts' symbols.
    args.heads = required_symbol(symbols, "H", LAYOUTCHECK_ROPE_APPLY_ABI);
    args.head_dim = required_symbol(symbols, "D", LAYOUTCHECK_ROPE_APPLY_ABI);
    return argument_bytes(args);
  };
  return binding;
}

}  // namespace layoutcheck::gpu
