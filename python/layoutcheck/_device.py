"""Probes of kernels that run on a GPU (Triton, PyTorch CUDA/ROCm operators).

The probe engine keeps every buffer in host memory. For each call the callable's buffers are
PyTorch tensors over that memory (torch.from_numpy: no copy), moved to the device once; after the
call the buffers the kernel writes are copied back into the same host memory. What the kernel
returns may be any DLPack tensor (torch.from_dlpack takes it without a copy) and goes back to the
engine as NumPy arrays, where its shape and dtype are checked.
"""

import functools
import warnings

import numpy as np


def _torch():
    try:
        import torch
    except ImportError as missing:
        raise ImportError("probing on a GPU device needs PyTorch") from missing
    return torch


def _host_tensor(torch, array, dtype):
    # bf16 arrives as uint16 bits: reinterpret, never convert.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # read-only inputs: the kernel must not write them
        if dtype == "bf16":
            return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
        return torch.from_numpy(array)


def _to_numpy(torch, value):
    if value is None:
        return None
    if isinstance(value, dict):
        return {name: _to_numpy(torch, item) for name, item in value.items()}
    if isinstance(value, (tuple, list)):
        return tuple(_to_numpy(torch, item) for item in value)
    tensor = value if isinstance(value, torch.Tensor) else torch.from_dlpack(value)
    tensor = tensor.detach().to("cpu")
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(np.uint16)
    return tensor.numpy()


def on_device(fn, device, buffers):
    """``fn`` taking device tensors, as a callable taking the probe's NumPy views."""
    torch = _torch()
    device = torch.device(device)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise RuntimeError(f"probe on {device}: torch.cuda.is_available() is False")
    dtypes = {spec["name"]: spec["dtype"] for spec in buffers}
    written = [spec["name"] for spec in buffers if spec["role"] != "input"]

    @functools.wraps(fn)
    def staged(**arrays):
        host = {name: _host_tensor(torch, array, dtypes[name]) for name, array in arrays.items()}
        on_gpu = {name: tensor.to(device) for name, tensor in host.items()}
        returned = fn(**on_gpu)
        for name in written:
            host[name].copy_(on_gpu[name])  # synchronises with the device
        return _to_numpy(torch, returned)

    return staged
