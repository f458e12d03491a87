"""layoutcheck.testing: each assertion passes on what it promises and fails with the reviewer's
summary: the conclusion, the fields and their counts, the first runs."""

import pytest

import layoutcheck
from cli_comparison import contract
from kernels.numpy_gdn import gdn_step
from kernels.numpy_pangu import layer_norm_rows
from layoutcheck.testing import (assert_gates_pass, assert_no_misread, assert_reads_as,
                                 summary)

SIZES = {"H": 2, "HV": 4, "K": 8, "V": 8}
FLAT, INTERLEAVED = contract("gdn/qwen3_5.qkvz.yaml"), contract("gdn/qwen3_next.qkvz.yaml")


@pytest.fixture(scope="module")
def misreading():
    step = gdn_step(**SIZES, qkvz_layout="interleaved", ba_layout="interleaved")
    return layoutcheck.probe(step, case="gdn", producer=FLAT, consumer=INTERLEAVED,
                             with_contracts=[contract("gdn/qwen3_next.ba.yaml")], **SIZES)


def test_assert_no_misread_fails_with_fields_counts_and_first_runs(misreading):
    with pytest.raises(AssertionError) as raised:
        assert_no_misread(misreading)
    message = str(raised.value)
    assert message.splitlines()[0] == "the kernel misreads its input"
    assert ("probe (gdn, dependence) of python gdn_step[interleaved qkvz, interleaved ba], "
            "buffer qkvz: layout misread: 72 of 96 elements, exactly the static diff's set; "
            "input-layout: 'ba' is read as qwen3_next.ba, the model lays it out as qwen3_5.ba: "
            "4 of 8 elements are read where the model put another; "
            "values differ from the reference") in message
    assert "  K               16        16           0" in message
    assert "the kernel reads Q[1,0:8] from offsets 48-55, which hold V[2,0:8]" in message
    assert "static diff of the contracts: 72 elements misread; the probes agree exactly" in message


def test_assert_reads_as_passes_on_the_static_diff_and_names_what_differs(misreading):
    assert_reads_as(misreading, layoutcheck.diff(FLAT, INTERLEAVED, **SIZES))
    with pytest.raises(AssertionError) as raised:
        assert_reads_as(misreading, layoutcheck.diff(FLAT, FLAT, **SIZES))
    message = str(raised.value)
    assert "72 elements misread, the diff says 0" in message
    assert "probed, not in the diff: offsets 48-55 hold V[2,0:8], read as Q[1,0:8]" in message


def test_assert_gates_pass_fails_on_values_and_passes_on_a_clean_kernel(misreading):
    with pytest.raises(AssertionError, match="values against the reference: DIFFER"):
        assert_gates_pass(misreading)
    tokens = contract("pangu/tokens.yaml")
    clean = layoutcheck.probe(layer_norm_rows(), case="pangu-layernorm", producer=tokens,
                              consumer=tokens, C=8)
    assert_gates_pass(clean)
    assert_no_misread(clean)


def test_summary_of_a_diff_report_lists_its_runs():
    text = summary(layoutcheck.diff(FLAT, INTERLEAVED, **SIZES))
    assert text.splitlines()[0] == ("qwen3_5.qkvz (producer) -> qwen3_next.qkvz (consumer): "
                                    "72 of 96 elements misread")
    assert "offsets 48-55 hold V[2,0:8] in the producer, read as Q[1,0:8] by the consumer" in text
