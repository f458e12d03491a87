"""NumPy GDN decode steps probed through the module: the verdict is the one `layoutcheck probe
--case gdn --decoder dependence` prints for the same contracts, and the Qwen3-Next-layout step
fed Qwen3.5's flat buffers misreads exactly what the static diff says."""

import pytest

import layoutcheck
from cli_comparison import assert_same_verdict, contract, probe_both
from kernels.numpy_gdn import gdn_step
from layoutcheck.testing import assert_gates_pass, assert_no_misread, assert_reads_as

SIZES = {"H": 2, "HV": 4, "K": 8, "V": 8}
FLAT_QKVZ = contract("gdn/qwen3_5.qkvz.yaml")
INTERLEAVED_QKVZ = contract("gdn/qwen3_next.qkvz.yaml")
FLAT_BA, INTERLEAVED_BA = contract("gdn/qwen3_5.ba.yaml"), contract("gdn/qwen3_next.ba.yaml")


def probe_gdn(fn, producer, consumer, with_contracts=()):
    return probe_both(fn, "gdn", producer, consumer, SIZES, with_contracts, decoder="dependence")


def test_a_correct_flat_step_is_clean_as_the_cli_finds():
    verdict, cli = probe_gdn(gdn_step(**SIZES), FLAT_QKVZ, FLAT_QKVZ)
    assert_same_verdict(verdict, cli)
    assert_gates_pass(verdict)
    assert verdict["runner"] == "python gdn_step[flat qkvz, flat ba]"


def test_a_correct_flat_step_reads_ba_as_the_cli_finds():
    verdict, cli = probe_gdn(gdn_step(**SIZES), FLAT_BA, FLAT_BA)
    assert_same_verdict(verdict, cli)
    assert_gates_pass(verdict)


def test_a_qwen3_next_step_fed_flat_qkvz_misreads_exactly_the_static_diff():
    step = gdn_step(**SIZES, qkvz_layout="interleaved", ba_layout="interleaved")
    verdict, cli = probe_gdn(step, FLAT_QKVZ, INTERLEAVED_QKVZ, [INTERLEAVED_BA])
    assert_same_verdict(verdict, cli)
    assert_reads_as(verdict, layoutcheck.diff(FLAT_QKVZ, INTERLEAVED_QKVZ, **SIZES))
    assert verdict["misread"] == 72 and verdict["agrees_with_diff"]
    with pytest.raises(AssertionError, match="misreads"):
        assert_no_misread(verdict)


def test_a_qwen3_next_step_fed_flat_ba_misreads_exactly_the_static_diff():
    step = gdn_step(**SIZES, qkvz_layout="interleaved", ba_layout="interleaved")
    verdict, cli = probe_gdn(step, FLAT_BA, INTERLEAVED_BA, [INTERLEAVED_QKVZ])
    assert_same_verdict(verdict, cli)
    assert_reads_as(verdict, layoutcheck.diff(FLAT_BA, INTERLEAVED_BA, **SIZES))


def test_a_step_that_claims_flat_but_reads_interleaved_disagrees_with_its_claim():
    """The claim is what the static diff sees; the probes see the kernel."""
    step = gdn_step(**SIZES, qkvz_layout="interleaved")
    verdict = layoutcheck.probe(step, case="gdn", producer=FLAT_QKVZ, consumer=FLAT_QKVZ,
                                **SIZES)
    assert verdict["decoder"] == "dependence"  # gdn's own decoder cannot drive a callable
    assert verdict["misread"] == 72 and verdict["static_misread"] == 0
    assert not verdict["agrees_with_diff"]
    assert_reads_as(verdict, layoutcheck.diff(FLAT_QKVZ, INTERLEAVED_QKVZ, **SIZES))
