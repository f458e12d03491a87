"""Pangu-Weather operators in NumPy, as kernels of the pangu cases: the window gather (pad each
axis, roll by the shift, gather window by window, torch-style) and LayerNorm without affine."""

import numpy as np

LAYER_NORM_EPSILON = 1e-5


def window_gather(Z, LAT, LON, C, window=(2, 6, 12), shift=(0, 0, 0)):
    """fn(x, map, windows) of pangu-window-gather: x a [Z, LAT, LON] grid of C channels per row,
    windows its tokens window by window (lon-block, level-block, lat-block, then iz, ih, iw),
    padding slots zero. ``shift`` rolls each padded axis (torch.roll(x, -shift)). The case's
    int32 map is passed too; this kernel computes the partition itself, as a framework does."""
    sizes = (Z, LAT, LON)
    blocks = [-(-size // w) for size, w in zip(sizes, window)]
    pads = [(p // 2, p - p // 2) for p in (n * w - s for n, w, s in zip(blocks, window, sizes))]

    def gather(x, windows, map=None):  # noqa: A002 (the case's buffer name)
        for row in range(x.shape[0]):
            grid = x[row].reshape(Z, LAT, LON, C)
            padded = np.pad(grid, pads + [(0, 0)])
            rolled = np.roll(padded, [-s for s in shift], axis=(0, 1, 2))
            (NZ, NH, NW), (WZ, WH, WW) = blocks, window
            parts = rolled.reshape(NZ, WZ, NH, WH, NW, WW, C)
            windows[row] = parts.transpose(4, 0, 2, 1, 3, 5, 6).ravel()

    gather.__qualname__ = f"window_gather[shift {shift}]"
    return gather


def layer_norm_rows(group=1):
    """fn(x, out) of pangu-layernorm: each row of fp16 channels normalised with fp64 statistics
    (no affine). ``group`` > 1 normalises that many rows as one, the bug of a kernel built for a
    wider row."""

    def layer_norm(x, out):
        rows, width = x.shape
        values = x.astype(np.float64).reshape(rows // group, group * width)
        mean = values.mean(axis=1, keepdims=True)
        variance = ((values - mean) ** 2).mean(axis=1, keepdims=True)
        normalised = (values - mean) / np.sqrt(variance + LAYER_NORM_EPSILON)
        return normalised.astype(np.float32).astype(np.float16).reshape(rows, width)

    layer_norm.__qualname__ = f"layer_norm_rows[group {group}]"
    return layer_norm
