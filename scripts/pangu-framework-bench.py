#!/usr/bin/env python3
"""The framework figures: how PyTorch runs Pangu-Weather's LayerNorm family and window gather,
the baseline the HIP kernels in kernels/pangu/ are compared against.

Five operators, fp16, at the two token grids of Pangu-lite ([1,131040,192] on (Z,LAT,LON) =
(8,91,180) and [1,33120,384] on (8,46,90)), window (2,6,12):
  layernorm        F.layer_norm(x, (C,), eps=1e-5), no weight or bias
  add+layernorm    r = residual + branch; out = F.layer_norm(r); both written
  gather           pad each axis to a multiple of the window (pad // 2 before), torch.roll by
                   (-1,-3,-6), permute to window order (lon-block, level-block, lat-block, iz,
                   ih, iw), contiguous [B, slots, C] (contracts/pangu/windows.shifted.yaml)
  layernorm+gather layernorm, then the gather
  reverse          the windows back onto the grid: un-permute, torch.roll back, crop the padding

Each runs in two modes, torch.compile'd (max-autotune-no-cudagraphs, else default; the compiled
function is captured here, not by Inductor) and eager, timed as `layoutcheck bench --case pangu`
times its paths: 24 calls captured in one torch.cuda.CUDAGraph, call k on input set k mod S, with
S sets of inputs (and 24 outputs) adding up to at least 1 GiB so no call finds its inputs in L2
from the call before; each replay between its own CUDA events and waited on; µs per call = the
replay ÷ 24, median and p10/p90 of the timed replays after warm-up ones. The JSON records that
method, the window and the shift, and the bench refuses figures timed another way or of another
partition than its contract's. Compiled outputs are checked against
eager once per operator: the gather bitwise, the others within fp16 tolerance; a figure whose
check failed is no figure to beat, and the bench leaves it out. The floor of an operator is its minimum traffic (each
input read once, each output written once; a gather reads the real tokens and writes every slot,
the reverse reads the real tokens' slots and writes the tokens)
over the bandwidth of a 1 GiB device-to-device copy_ measured in the same run (bytes read +
written). That copy_ reads slower than the driver's device-to-device copy that `layoutcheck bench`
measures (2.4 against 3.0 TB/s on an H100), so a fused operator can show over 100 % of it here;
the bench's floor is the one the targets use. A Markdown table is printed last.

    python3 scripts/pangu-framework-bench.py --json $OUT/framework.json [--replays 200] [--warmup 20]

Exit status: 0 when every check passed, 1 when a check failed, 2 when CUDA (or torch) is missing.
"""

import argparse
import importlib.metadata
import json
import statistics
import sys

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    sys.exit("pangu-framework-bench: torch is not installed; run this on the GPU machine")

EPS = 1e-5
WINDOW = (2, 6, 12)  # levels, latitude, longitude
SHIFT = tuple(-(w // 2) for w in WINDOW)  # the shifted (odd) blocks roll by half a window
SHAPES = [  # (Z, LAT, LON, C); tokens = Z * LAT * LON
    (8, 91, 180, 192),
    (8, 46, 90, 384),
]
COMPILE_MODES = ["max-autotune-no-cudagraphs", "default"]  # strongest first
COPY_BYTES = 1 << 30
CALLS_PER_GRAPH = 24  # as layoutcheck bench --case pangu (src/cases/pangu/gpu/pangu_bench.cpp)
ROTATION_BYTES = 1 << 30  # the input sets a graph's calls rotate over add up to this, past any L2
FP16_TOLERANCE = 1e-2  # rtol and atol: a couple of fp16 ulps at LayerNorm's output magnitudes


def layer_norm(x):
    return F.layer_norm(x, (x.shape[-1],), eps=EPS)


def add_layer_norm(residual, branch):
    r = residual + branch
    return r, F.layer_norm(r, (r.shape[-1],), eps=EPS)


def padded_grid(grid):
    return tuple(-(-size // w) * w for size, w in zip(grid, WINDOW))


def window_gather(x, grid):
    """@post out[b, window * WV + (iz*WH + ih)*WW + iw] is the padded, rolled grid's token there."""
    batch, _, channels = x.shape
    tokens = x.view(batch, *grid, channels)
    pads = []  # F.pad takes (before, after) pairs last dimension first
    for size, padded in zip(reversed(grid), reversed(padded_grid(grid))):
        extra = padded - size
        pads += [extra // 2, extra - extra // 2]
    tokens = F.pad(tokens, [0, 0] + pads)
    tokens = torch.roll(tokens, shifts=SHIFT, dims=(1, 2, 3))
    (wz, wh, ww), (pz, ph, pw) = WINDOW, padded_grid(grid)
    tokens = tokens.view(batch, pz // wz, wz, ph // wh, wh, pw // ww, ww, channels)
    # (b, bz, iz, bh, ih, bw, iw, c) -> (b, bw, bz, bh, iz, ih, iw, c)
    tokens = tokens.permute(0, 5, 1, 3, 2, 4, 6, 7)
    return tokens.reshape(batch, -1, channels)


def layer_norm_gather(x, grid):
    return window_gather(layer_norm(x), grid)


def window_reverse(windows, grid):
    """@post out[b, token] is the token window_gather put in its slot: the padding cropped."""
    batch, _, channels = windows.shape
    (wz, wh, ww), (pz, ph, pw) = WINDOW, padded_grid(grid)
    tokens = windows.view(batch, pw // ww, pz // wz, ph // wh, wz, wh, ww, channels)
    # (b, bw, bz, bh, iz, ih, iw, c) -> (b, bz, iz, bh, ih, bw, iw, c)
    tokens = tokens.permute(0, 2, 4, 3, 5, 1, 6, 7).reshape(batch, pz, ph, pw, channels)
    tokens = torch.roll(tokens, shifts=tuple(-s for s in SHIFT), dims=(1, 2, 3))
    (z, lat, lon), padded = grid, padded_grid(grid)
    bz, bh, bw = ((p - size) // 2 for size, p in zip(grid, padded))
    return tokens[:, bz:bz + z, bh:bh + lat, bw:bw + lon].reshape(batch, -1, channels)


# name, number of token-sized inputs, function(inputs, grid), outputs are bitwise comparable
OPERATORS = [
    ("LayerNorm", 1, lambda xs, grid: layer_norm(*xs), False),
    ("add + LayerNorm", 2, lambda xs, grid: add_layer_norm(*xs), False),
    ("window gather", 1, lambda xs, grid: window_gather(*xs, grid), True),
    ("LayerNorm + gather", 1, lambda xs, grid: layer_norm_gather(*xs, grid), False),
    ("window reverse", 1, lambda xs, grid: window_reverse(*xs, grid), True),
]


def minimum_bytes(name, tokens, slots, channels):
    token_bytes = tokens * channels * 2
    if name == "add + LayerNorm":
        return 4 * token_bytes  # read residual and branch, write r and out
    if name in ("window gather", "LayerNorm + gather"):
        return token_bytes + slots * channels * 2  # real tokens once, every slot written
    return 2 * token_bytes


def as_tuple(outputs):
    return outputs if isinstance(outputs, tuple) else (outputs,)


def sets_for(bytes_per_call):
    """Input sets a graph's calls rotate over, as the bench counts them: 1 GiB's worth, 2 to 24."""
    return min(max(-(-ROTATION_BYTES // bytes_per_call), 2), CALLS_PER_GRAPH)


def capture(fn, input_sets, calls=CALLS_PER_GRAPH, calls_before=3):
    """Runs fn outside capture first (compiles, autotunes, warms allocators), then captures `calls`
    calls, call k on input_sets[k % len(input_sets)], each into outputs of its own.

    @post graph.replay() rewrites the first call's returned tensors in place.
    """
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(calls_before):
            fn(input_sets[0])
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        outputs = [as_tuple(fn(input_sets[k % len(input_sets)])) for k in range(calls)]
    torch.cuda.synchronize()
    return graph, outputs[0]


def time_replays(graph, warmup, replays, calls=CALLS_PER_GRAPH):
    """Median, p10 and p90 of one replay's GPU time ÷ calls in µs, each replay between its own
    events and waited on before the next, as the bench times its graphs."""
    for _ in range(warmup):
        graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / calls)
    times.sort()

    def nearest_rank(q):
        return times[round(q * (len(times) - 1))]

    return {"median_us": statistics.median(times), "p10_us": nearest_rank(0.1),
            "p90_us": nearest_rank(0.9)}


def copy_bandwidth(warmup, replays):
    """Bytes per second of a graph-captured device-to-device copy_, counting read + written."""
    source = torch.empty(COPY_BYTES, dtype=torch.uint8, device="cuda").random_(0, 256)
    target = torch.empty_like(source)
    graph, _ = capture(lambda _: target.copy_(source), [()], calls=1, calls_before=1)
    time = time_replays(graph, warmup, replays, calls=1)
    del graph, source, target
    torch.cuda.empty_cache()
    return {"bytes": 2 * COPY_BYTES, "time": time,
            "bandwidth_gb_s": 2 * COPY_BYTES / time["median_us"] / 1e3}


def compiled_graph(op, input_sets, grid):
    """The strongest compile mode whose compiled function captures; (mode, graph, outputs, None)
    or (None, None, None, the last error)."""
    error = None
    for mode in COMPILE_MODES:
        torch._dynamo.reset()
        compiled = torch.compile(lambda inputs: op(inputs, grid), mode=mode, dynamic=False)
        try:
            return (mode, *capture(compiled, input_sets), None)
        except Exception as caught:  # a compile or capture failure falls back to the next mode
            error = f"{mode}: {type(caught).__name__}: {str(caught).splitlines()[0][:200]}"
            print(f"  torch.compile {error}; trying the next mode", file=sys.stderr, flush=True)
            torch.cuda.synchronize()
    return None, None, None, error


def compare(eager_outputs, compiled_outputs, bitwise):
    max_abs_diff = max((e.float() - c.float()).abs().max().item()
                       for e, c in zip(eager_outputs, compiled_outputs))
    if bitwise:
        passed = all(torch.equal(e, c) for e, c in zip(eager_outputs, compiled_outputs))
    else:
        passed = all(torch.allclose(e.float(), c.float(), rtol=FP16_TOLERANCE, atol=FP16_TOLERANCE)
                     for e, c in zip(eager_outputs, compiled_outputs))
    return {"passed": passed, "bitwise": bitwise, "max_abs_diff": max_abs_diff}


def measure(name, input_count, op, bitwise, shape, copy, args):
    *grid, channels = shape
    grid = tuple(grid)
    tokens = grid[0] * grid[1] * grid[2]
    slots = padded_grid(grid)[0] * padded_grid(grid)[1] * padded_grid(grid)[2]
    generator = torch.Generator(device="cuda").manual_seed(21)
    rows = slots if name == "window reverse" else tokens  # the reverse reads the windows
    inputs = [torch.randn(1, rows, channels, device="cuda", dtype=torch.float16,
                          generator=generator) for _ in range(input_count)]
    row_bytes = minimum_bytes(name, tokens, slots, channels)
    input_sets = [inputs] + [[x.clone() for x in inputs] for _ in range(sets_for(row_bytes) - 1)]
    floor_us = row_bytes / copy["bandwidth_gb_s"] / 1e3
    row = {"operator": name, "shape": [1, tokens, channels], "grid": list(grid),
           "slots": slots if "gather" in name or name == "window reverse" else None,
           "bytes": row_bytes, "floor_us": floor_us, "buffer_sets": len(input_sets)}

    eager_graph, eager_outputs = capture(lambda xs: op(xs, grid), input_sets)
    row["eager_graph"] = time_replays(eager_graph, args.warmup, args.replays)
    mode, graph, compiled_outputs, error = compiled_graph(op, input_sets, grid)
    if graph is None:
        row["compile"] = {"mode": None, "error": error}
        row["check"] = {"passed": False, "bitwise": bitwise, "max_abs_diff": None}
    else:
        row["compile"] = {"mode": mode, **time_replays(graph, args.warmup, args.replays)}
        eager_graph.replay()
        graph.replay()
        torch.cuda.synchronize()
        row["check"] = compare(eager_outputs, compiled_outputs, bitwise)
    for timing in (row["eager_graph"], row["compile"]):
        if "median_us" in timing:
            timing["copy_bw_percent"] = 100 * floor_us / timing["median_us"]
    del eager_graph, graph, eager_outputs, compiled_outputs, input_sets, inputs
    torch._dynamo.reset()
    torch.cuda.empty_cache()
    return row


def timing_cell(timing):
    if "median_us" not in timing:
        return "failed", "–"
    cell = f"{timing['median_us']:.1f} [{timing['p10_us']:.1f}–{timing['p90_us']:.1f}]"
    return cell, f"{timing['copy_bw_percent']:.0f}%"


def markdown_table(rows, compile_mode):
    lines = ["| operator | shape | bytes | floor µs (copy_) | compile µs (median [p10–p90]) "
             "| compile % of copy_ | eager-in-graph µs (median [p10–p90]) | eager % of copy_ |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        compiled, compiled_share = timing_cell(row["compile"])
        if row["compile"].get("mode") not in (None, compile_mode):
            compiled += f" ({row['compile']['mode']})"
        eager, eager_share = timing_cell(row["eager_graph"])
        shape = "[" + ",".join(str(size) for size in row["shape"]) + "]"
        lines.append(f"| {row['operator']} | {shape} | {row['bytes'] / 1e6:.1f} MB "
                     f"| {row['floor_us']:.1f} | {compiled} | {compiled_share} | {eager} "
                     f"| {eager_share} |")
    return "\n".join(lines)


def package_version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    parser.add_argument("--replays", type=int, default=200, help="timed graph replays (200)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed replays first (20)")
    args = parser.parse_args()
    if args.replays < 1 or args.warmup < 0:
        parser.error("--replays must be at least 1 and --warmup at least 0")
    if not torch.cuda.is_available():
        sys.exit("pangu-framework-bench: CUDA is not available to torch "
                 f"{torch.__version__}; run this on the GPU machine")

    torch.backends.cuda.matmul.allow_tf32 = False  # no matmul here; keeps the run's settings plain
    device = torch.cuda.get_device_name()
    print(f"device {device}, torch {torch.__version__}, triton {package_version('triton')}, "
          f"CUDA {torch.version.cuda}", flush=True)
    copy = copy_bandwidth(args.warmup, args.replays)
    print(f"copy_ of {COPY_BYTES >> 20} MiB: {copy['time']['median_us']:.1f} µs, "
          f"{copy['bandwidth_gb_s']:.0f} GB/s (read + written)", flush=True)

    # The reverse is timed only if it undoes the gather, on a grid that pads every axis.
    probe = torch.randn(1, 3 * 7 * 13, 8, device="cuda", dtype=torch.float16)
    reverse_ok = torch.equal(window_reverse(window_gather(probe, (3, 7, 13)), (3, 7, 13)), probe)
    print(f"check window reverse undoes the gather on (3, 7, 13): "
          f"{'ok' if reverse_ok else 'MISMATCH'}", flush=True)
    if not reverse_ok:
        return 1

    rows = []
    for shape in SHAPES:
        for name, input_count, op, bitwise in OPERATORS:
            row = measure(name, input_count, op, bitwise, shape, copy, args)
            check = row["check"]
            verdict = "ok" if check["passed"] else "MISMATCH"
            kind = "bitwise" if check["bitwise"] else f"within {FP16_TOLERANCE}"
            print(f"check {name} {row['shape']}: compiled vs eager {kind}: {verdict} "
                  f"(max |diff| {check['max_abs_diff']}, compile mode {row['compile']['mode']})",
                  flush=True)
            rows.append(row)

    modes = [row["compile"]["mode"] for row in rows if row["compile"]["mode"]]
    compile_mode = max(set(modes), key=modes.count) if modes else None
    if args.json:
        report = {"measures": "pangu framework figures", "device": device,
                  "torch": torch.__version__, "triton": package_version("triton"),
                  "cuda": torch.version.cuda, "compile_mode": compile_mode,
                  "replays": args.replays, "warmup": args.warmup,
                  "method": {"calls_per_graph": CALLS_PER_GRAPH, "rotation_bytes": ROTATION_BYTES,
                             "per_call": "replay time / calls_per_graph, each replay waited on"},
                  "window": list(WINDOW),
                  "shift": list(SHIFT), "copy": copy, "operators": rows}
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
            out.write("\n")
    print(f"\ntorch.compile mode: {compile_mode}; {CALLS_PER_GRAPH} calls of each operator "
          f"captured in a CUDA graph over rotating inputs, µs per call; "
          f"{args.replays} timed replays after {args.warmup}; copy BW "
          f"{copy['bandwidth_gb_s']:.0f} GB/s\n")
    print(markdown_table(rows, compile_mode))
    return 0 if all(row["check"]["passed"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
