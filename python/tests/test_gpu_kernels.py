"""Kernels that run on a GPU, probed through the module (device="cuda"): the Triton GDN decode
step built for the interleaved layout and fed flat buffers, which must misread exactly the static
diff's set, the same source built for the flat layout, which must be clean, and PyTorch's
layer_norm probed with the dependence decoder. Skipped without PyTorch, Triton or a CUDA device.
LAYOUTCHECK_RESULTS_DIR, when set, receives each verdict as JSON."""

import json
import os

import pytest

import layoutcheck
from conftest import assert_same_verdict, contract, run_cli, symbol_options
from layoutcheck.testing import assert_gates_pass, assert_no_misread, assert_reads_as

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA (or ROCm) device visible to PyTorch", allow_module_level=True)

SIZES = {"H": 2, "HV": 4, "K": 16, "V": 16}  # K, V powers of two: the kernel's tl.arange
FLAT_QKVZ, INTERLEAVED_QKVZ = contract("gdn/qwen3_5.qkvz.yaml"), contract("gdn/qwen3_next.qkvz.yaml")
FLAT_BA, INTERLEAVED_BA = contract("gdn/qwen3_5.ba.yaml"), contract("gdn/qwen3_next.ba.yaml")
TOKENS = contract("pangu/tokens.yaml")


def record(name, verdict):
    folder = os.environ.get("LAYOUTCHECK_RESULTS_DIR")
    if folder:
        with open(os.path.join(folder, f"{name}.json"), "w") as file:
            json.dump(verdict, file, indent=2)


@pytest.fixture(scope="module")
def triton_gdn():
    pytest.importorskip("triton")
    from kernels import triton_gdn

    return triton_gdn


def test_triton_gdn_built_for_the_flat_layout_is_clean(triton_gdn):
    step = triton_gdn.gdn_step(**SIZES, interleaved=False)
    for producer in (FLAT_QKVZ, FLAT_BA):
        verdict = layoutcheck.probe(step, case="gdn", producer=producer, consumer=producer,
                                    device="cuda", **SIZES)
        record(f"triton-gdn-flat-{verdict['buffer']}", verdict)
        assert_gates_pass(verdict)


@pytest.mark.parametrize("producer, consumer, other", [
    (FLAT_QKVZ, INTERLEAVED_QKVZ, INTERLEAVED_BA),
    (FLAT_BA, INTERLEAVED_BA, INTERLEAVED_QKVZ),
])
def test_triton_gdn_built_for_the_interleaved_layout_misreads_exactly_the_static_diff(
        triton_gdn, producer, consumer, other):
    step = triton_gdn.gdn_step(**SIZES, interleaved=True)
    verdict = layoutcheck.probe(step, case="gdn", producer=producer, consumer=consumer,
                                with_contracts=[other], device="cuda", **SIZES)
    record(f"triton-gdn-interleaved-{verdict['buffer']}", verdict)
    assert_reads_as(verdict, layoutcheck.diff(producer, consumer, **SIZES))
    assert verdict["agrees_with_diff"] and verdict["misread"] > 0
    _, cli = run_cli("probe", "--case", "gdn", "--decoder", "dependence", "--producer", producer,
                     "--consumer", consumer, "--with", other, *symbol_options(SIZES))
    assert_same_verdict(verdict, cli)


@pytest.mark.parametrize("width", [192, 384])
def test_torch_layer_norm_reads_each_row_with_the_dependence_decoder(width):
    def layer_norm(x, out):
        return torch.nn.functional.layer_norm(x, (x.shape[-1],), eps=1e-5)

    verdict = layoutcheck.probe(layer_norm, case="pangu-layernorm", producer=TOKENS,
                                consumer=TOKENS, decoder="dependence", device="cuda", C=width)
    record(f"torch-layer-norm-{width}", verdict)
    assert_no_misread(verdict)
    assert_gates_pass(verdict)
    _, cli = run_cli("probe", "--case", "pangu-layernorm", "--producer", TOKENS, "--consumer",
                     TOKENS, "--set", f"C={width}")
    assert_same_verdict(verdict, cli)
