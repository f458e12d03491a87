#include "cases/pangu/gpu/layer_norm_abi_binding.h"

#include "kernels/pangu/pangu_abi.h"

namespace layoutcheck::gpu {

AbiBinding pangu_layer_norm_abi_binding() {
  AbiBinding binding;
  binding.abi = LAYOUTCHECK_PANGU_LAYER_NORM_ABI;
  binding.pack = [](const DeviceBufferSet& device, const BufferSet& host,
                    const SymbolTable& symbols) {
    PanguLayerNormArgs args{};
    args.x = static_cast<const std::uint16_t*>(device.data("x"));
    args.out = static_cast<std::uint16_t*>(device.data("out"));
    args.x_row_stride = host.at("x").row_stride;
    args.out_row_stride = host.at("out").row_stride;
    args.rows = host.at("x").rows;
    // The kernel's own view of the width: its claimed contracts' C.
    args.width = required_symbol(symbols, "C", LAYOUTCHECK_PANGU_LAYER_NORM_ABI);
    return argument_bytes(args);
  };
  return binding;
}

AbiBinding pangu_add_layer_norm_abi_binding() {
  AbiBinding binding;
  binding.abi = LAYOUTCHECK_PANGU_ADD_LAYER_NORM_ABI;
  binding.pack = [](const DeviceBufferSet& device, const BufferSet& host,
                    const SymbolTable& symbols) {
    PanguAddLayerNormArgs args{};
    args.residual = static_cast<const std::uint16_t*>(device.data("residual"));
    args.branch = static_cast<const std::uint16_t*>(device.data("branch"));
    args.residual_out = static_cast<std::uint16_t*>(device.data("residual_out"));
    args.out = static_cast<std::uint16_t*>(device.data("out"));
    args.residual_row_stride = host.at("residual").row_stride;
    args.branch_row_stride = host.at("branch").row_stride;
    args.residual_out_row_stride = host.at("residual_out").row_stride;
    args.out_row_stride = host.at("out").row_stride;
    args.rows = host.at("residual").rows;
    args.width = required_symbol(symbols, "C", LAYOUTCHECK_PANGU_ADD_LAYER_NORM_ABI);
    return argument_bytes(args);
  };
  return binding;
}

}  // namespace layoutcheck::gpu
