"""A callable that fails, and bad arguments: a clear Python exception naming the call, never a
crash of the interpreter."""

import gc

import numpy as np
import pytest

import layoutcheck
from cli_comparison import contract
from kernels.numpy_pangu import layer_norm_rows

TOKENS = contract("pangu/tokens.yaml")


def probe_norm(fn, **options):
    return layoutcheck.probe(fn, case="pangu-layernorm", producer=TOKENS, consumer=TOKENS, C=8,
                             **options)


def test_a_callable_that_raises_names_the_call_and_chains_the_exception():
    def broken(x, out):
        raise ZeroDivisionError("no rows today")

    with pytest.raises(layoutcheck.ProbeCallError) as raised:
        probe_norm(broken)
    message = str(raised.value)
    assert message.startswith("call 1 of test_a_callable_that_raises_names_the_call_and_chains_"
                              "the_exception.<locals>.broken (test_probe_errors.py:")
    assert "raised ZeroDivisionError: no rows today" in message
    assert isinstance(raised.value.__cause__, ZeroDivisionError)


def test_a_callable_that_fails_on_a_later_call_says_which():
    calls = []

    def fails_third(x, out):
        calls.append(1)
        if len(calls) == 3:
            raise ValueError("third")
        out[...] = layer_norm_rows()(x, out)

    with pytest.raises(layoutcheck.ProbeCallError, match=r"^call 3 of .*raised ValueError: third"):
        probe_norm(fails_third)


@pytest.mark.parametrize("returned, expected", [
    (lambda x: np.zeros((2, 9), np.float16), r"returned 'out' as float16 \(2, 9\); the buffer is "
                                             r"float16 \(2, 8\)"),
    (lambda x: np.zeros((2, 8), np.float32), r"returned 'out' as float32 \(2, 8\); the buffer is "
                                             r"float16 \(2, 8\)"),
    (lambda x: (np.zeros((2, 8), np.float16),) * 2, r"returned 2 values; the case has 1 output"),
    (lambda x: {"x": x}, r"returned 'x', which is not a buffer it writes \(out\)"),
    (lambda x: object(), r"returned for 'out' a object NumPy cannot read|returned 'out' as object"),
])
def test_a_wrong_return_is_refused(returned, expected):
    with pytest.raises(layoutcheck.ProbeCallError, match=expected):
        probe_norm(lambda x, out: returned(x))


def test_nan_written_where_the_inputs_hold_none_is_refused():
    def writes_nan(x, out):
        out[...] = layer_norm_rows()(x, out)
        out[1, 3] = np.nan

    with pytest.raises(layoutcheck.ProbeCallError,
                       match=r"left NaN in 'out': 1 of 16 elements, the first at index 11"):
        probe_norm(writes_nan)


def test_an_output_never_written_shows_as_nan():
    def writes_first_row(x, out):
        out[0] = layer_norm_rows()(x, out)[0]

    with pytest.raises(layoutcheck.ProbeCallError, match=r"8 of 16 elements.*never written"):
        probe_norm(writes_first_row)


def test_writing_an_input_fails_where_it_writes():
    def scribbles(x, out):
        x[0, 0] = 0

    with pytest.raises(layoutcheck.ProbeCallError, match="read-only"):
        probe_norm(scribbles)


def test_views_kept_after_the_call_stay_valid():
    kept = []

    def keeps(x, out):
        kept.append((x, x[1:], out.reshape(-1)))
        out[...] = layer_norm_rows()(x, out)

    verdict = probe_norm(keeps)
    assert verdict["clean"]
    gc.collect()
    # Every kept array still reads (and writes) memory of its own: the probe's buffers went on
    # with copies. Under ASan a dangling view would be a use after free here.
    for x, tail, out in kept:
        assert np.isfinite(x.astype(np.float32)).all() and (tail == x[1:]).all()
        out[:] = 0
    assert len(kept) >= verdict["runner_calls"] > 1  # the value probes call it too


def test_a_keyboard_interrupt_is_not_turned_into_a_probe_error():
    def interrupted(x, out):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        probe_norm(interrupted)


def test_bad_arguments_raise_before_any_call():
    def never(**buffers):
        raise AssertionError("called")

    with pytest.raises(TypeError, match="must be callable"):
        probe_norm(42)
    with pytest.raises(layoutcheck.InputError, match="no-such-case|unknown case|case"):
        layoutcheck.probe(never, case="no-such-case", producer=TOKENS, consumer=TOKENS)
    with pytest.raises(layoutcheck.InputError, match="decoder 'gdn' cannot decode"):
        layoutcheck.probe(never, case="gdn", producer=contract("gdn/qwen3_5.qkvz.yaml"),
                          consumer=contract("gdn/qwen3_5.qkvz.yaml"), decoder="gdn")
    with pytest.raises(layoutcheck.InputError, match="must describe buffer"):
        layoutcheck.probe(never, case="gdn", producer=contract("gdn/qwen3_5.qkvz.yaml"),
                          consumer=contract("gdn/qwen3_5.ba.yaml"))
    with pytest.raises(layoutcheck.InputError) as raised:
        probe_norm(never, rows=0)
    assert raised.value.rule == "usage"
    with pytest.raises(layoutcheck.InputError):
        probe_norm(never, tolerance=float("nan"))
    with pytest.raises(layoutcheck.InputError) as raised:
        layoutcheck.probe(never, case="pangu-layernorm", producer=TOKENS, consumer=TOKENS, Q=3)
    assert raised.value.rule == "unknown-symbol"


def test_a_data_movement_probe_of_a_computing_operator_is_refused():
    with pytest.raises(layoutcheck.InputError, match="data-movement"):
        probe_norm(layer_norm_rows(), decoder="data-movement")
