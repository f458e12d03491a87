"""The GPU probes of the module, as plain functions so they run with pytest
(test_gpu_kernels.py) or, where pytest is not installed, as a script:

    python3 python/tests/gpu_probes.py [RESULTS_DIR]

Each probes one kernel through layoutcheck.probe(device="cuda"), checks the verdict, compares it
with the CLI's on the same arguments when LAYOUTCHECK_CLI names the CLI, and records it as JSON
in RESULTS_DIR (or $LAYOUTCHECK_RESULTS_DIR) when one is given:
  - the Triton GDN decode step built for the flat layout: clean, on qkvz and on ba;
  - the same source built for the interleaved (Qwen3-Next) layout, fed flat buffers: its misread
    set equals the static diff's exactly, on qkvz and on ba;
  - torch.nn.functional.layer_norm at widths 192 and 384: each row read exactly, values agree.
"""

import json
import os
import sys

# The helpers and kernels beside this file, also when it runs as a script.
sys.path.insert(0, os.path.dirname(__file__))

import layoutcheck  # noqa: E402
from cli_comparison import (assert_same_verdict, contract, run_cli,  # noqa: E402
                            symbol_options)
from layoutcheck.testing import (assert_gates_pass, assert_no_misread,  # noqa: E402
                                 assert_reads_as)

SIZES = {"H": 2, "HV": 4, "K": 16, "V": 16}  # K, V powers of two: the kernel's tl.arange
FLAT_QKVZ = contract("gdn/qwen3_5.qkvz.yaml")
INTERLEAVED_QKVZ = contract("gdn/qwen3_next.qkvz.yaml")
FLAT_BA, INTERLEAVED_BA = contract("gdn/qwen3_5.ba.yaml"), contract("gdn/qwen3_next.ba.yaml")
TOKENS = contract("pangu/tokens.yaml")
LAYER_NORM_WIDTHS = (192, 384)
INTERLEAVED_PROBES = ((FLAT_QKVZ, INTERLEAVED_QKVZ, INTERLEAVED_BA),
                      (FLAT_BA, INTERLEAVED_BA, INTERLEAVED_QKVZ))


def record(name, verdict):
    folder = os.environ.get("LAYOUTCHECK_RESULTS_DIR")
    if folder:
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"{name}.json"), "w") as file:
            json.dump(verdict, file, indent=2)


def compare_with_cli(verdict, *arguments):
    if os.environ.get("LAYOUTCHECK_CLI"):
        _, cli = run_cli(*arguments)
        assert_same_verdict(verdict, cli)


def triton_gdn_flat_is_clean(producer):
    from kernels import triton_gdn

    step = triton_gdn.gdn_step(**SIZES, interleaved=False)
    verdict = layoutcheck.probe(step, case="gdn", producer=producer, consumer=producer,
                                decoder="dependence", device="cuda", **SIZES)
    record(f"triton-gdn-flat-{verdict['buffer']}", verdict)
    assert_gates_pass(verdict)
    compare_with_cli(verdict, "probe", "--case", "gdn", "--decoder", "dependence", "--producer",
                     producer, "--consumer", producer, *symbol_options(SIZES))
    return verdict


def triton_gdn_interleaved_misreads_the_static_diff(producer, consumer, other):
    from kernels import triton_gdn

    step = triton_gdn.gdn_step(**SIZES, interleaved=True)
    verdict = layoutcheck.probe(step, case="gdn", producer=producer, consumer=consumer,
                                with_contracts=[other], decoder="dependence", device="cuda",
                                **SIZES)
    record(f"triton-gdn-interleaved-{verdict['buffer']}", verdict)
    assert_reads_as(verdict, layoutcheck.diff(producer, consumer, **SIZES))
    assert verdict["agrees_with_diff"] and verdict["misread"] > 0, verdict["conclusion"]
    compare_with_cli(verdict, "probe", "--case", "gdn", "--decoder", "dependence", "--producer",
                     producer, "--consumer", consumer, "--with", other, *symbol_options(SIZES))
    return verdict


def torch_layer_norm_reads_each_row(width):
    import torch

    def layer_norm(x, out):
        return torch.nn.functional.layer_norm(x, (x.shape[-1],), eps=1e-5)

    verdict = layoutcheck.probe(layer_norm, case="pangu-layernorm", producer=TOKENS,
                                consumer=TOKENS, decoder="dependence", device="cuda", C=width)
    record(f"torch-layer-norm-{width}", verdict)
    assert_no_misread(verdict)
    assert_gates_pass(verdict)
    compare_with_cli(verdict, "probe", "--case", "pangu-layernorm", "--producer", TOKENS,
                     "--consumer", TOKENS, "--set", f"C={width}")
    return verdict


def main():
    if len(sys.argv) > 1:
        os.environ["LAYOUTCHECK_RESULTS_DIR"] = sys.argv[1]
    checks = [(f"triton gdn flat, {os.path.basename(p)}", triton_gdn_flat_is_clean, (p,))
              for p in (FLAT_QKVZ, FLAT_BA)]
    checks += [(f"triton gdn interleaved fed {os.path.basename(p)}",
                triton_gdn_interleaved_misreads_the_static_diff, (p, c, o))
               for p, c, o in INTERLEAVED_PROBES]
    checks += [(f"torch layer_norm C={w}", torch_layer_norm_reads_each_row, (w,))
               for w in LAYER_NORM_WIDTHS]
    failed = 0
    for title, check, arguments in checks:
        try:
            verdict = check(*arguments)
            print(f"PASS  {title}: {verdict['conclusion']}")
        except Exception as error:  # report every check, then fail
            failed += 1
            print(f"FAIL  {title}: {type(error).__name__}: {error}")
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
