"""The GPU probes (gpu_probes.py) under pytest: a Triton GDN step built for the interleaved
layout fed flat buffers misreads exactly the static diff's set, the flat build is clean, and
torch.nn.functional.layer_norm reads each row. Skipped without PyTorch, Triton or a GPU."""

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA (or ROCm) device visible to PyTorch", allow_module_level=True)

import gpu_probes  # noqa: E402


@pytest.fixture(scope="module")
def triton():
    return pytest.importorskip("triton")


@pytest.mark.parametrize("producer", [gpu_probes.FLAT_QKVZ, gpu_probes.FLAT_BA])
def test_triton_gdn_built_for_the_flat_layout_is_clean(triton, producer):
    gpu_probes.triton_gdn_flat_is_clean(producer)


@pytest.mark.parametrize("producer, consumer, other", gpu_probes.INTERLEAVED_PROBES)
def test_triton_gdn_built_for_the_interleaved_layout_misreads_exactly_the_static_diff(
        triton, producer, consumer, other):
    gpu_probes.triton_gdn_interleaved_misreads_the_static_diff(producer, consumer, other)


@pytest.mark.parametrize("width", gpu_probes.LAYER_NORM_WIDTHS)
def test_torch_layer_norm_reads_each_row_with_the_dependence_decoder(width):
    gpu_probes.torch_layer_norm_reads_each_row(width)
