"""load_contract, lint, diff, explain and render: each answer is what the CLI's --json prints."""

import glob
import os
import subprocess

import pytest

import layoutcheck
from cli_comparison import SOURCE_DIR, contract, run_cli, symbol_options

QWEN3_5_QKVZ = contract("gdn/qwen3_5.qkvz.yaml")
QWEN3_NEXT_QKVZ = contract("gdn/qwen3_next.qkvz.yaml")
BAD = os.path.join(SOURCE_DIR, "tests", "bad_contracts")


def test_load_contract_resolves_symbols_given_as_keywords():
    loaded = layoutcheck.load_contract(QWEN3_NEXT_QKVZ, H=2, HV=4, K=8, V=8)
    assert (loaded.name, loaded.buffer, loaded.dtype) == ("qwen3_next.qkvz", "qkvz", "bf16")
    assert loaded.symbols == {"H": 2, "HV": 4, "K": 8, "V": 8, "G": 2}
    assert loaded.row_size == loaded.elements == 2 * (2 * 8 + 2 * 2 * 8)
    assert [f["name"] for f in loaded.fields] == ["Q", "K", "V", "Z"]
    assert (loaded.fields[2]["layout"], loaded.fields[2]["offset"]) == ("((2,2),8):((8,48),1)", 16)
    assert loaded.offset_of("V[3,1]") == 16 + 1 * 8 + 1 * 48 + 1


def test_a_bad_contract_raises_input_error_with_its_location_and_fix():
    with pytest.raises(layoutcheck.InputError) as raised:
        layoutcheck.load_contract(os.path.join(BAD, "unknown_key.yaml"))
    error = raised.value
    assert (error.line, error.column, error.rule) == (12, 28, "unknown-key")
    assert error.file.endswith("unknown_key.yaml")
    assert "did you mean 'stride'" in error.fix
    assert str(error).startswith(f"{error.file}:12:28: error[unknown-key]: unknown key 'strdie'")


@pytest.mark.parametrize("symbols, rule", [({"X": 3}, "unknown-symbol"),
                                           ({"G": 3}, "derived-symbol"),
                                           ({"HV": 5}, "divisibility")])
def test_a_bad_symbol_raises_input_error(symbols, rule):
    with pytest.raises(layoutcheck.InputError) as raised:
        layoutcheck.load_contract(QWEN3_NEXT_QKVZ, **symbols)
    assert raised.value.rule == rule


@pytest.mark.parametrize("value", [True, 2.0, "8", 1 << 70])
def test_a_symbol_that_is_not_a_64_bit_integer_is_refused(value):
    with pytest.raises(layoutcheck.InputError) as raised:
        layoutcheck.load_contract(QWEN3_NEXT_QKVZ, H=value)
    assert raised.value.rule == "usage"


def test_lint_is_the_clis_json_for_shipped_and_bad_contracts():
    files = sorted(glob.glob(contract("gdn/*.yaml"))) + [os.path.join(BAD, "overlap.yaml"),
                                                         os.path.join(BAD, "gap.yaml")]
    code, cli = run_cli("lint", *files)
    assert code == 1
    assert layoutcheck.lint(*files) == cli
    assert [entry["ok"] for entry in cli["files"]][-2:] == [False, False]


def test_lint_with_symbols_is_the_clis():
    _, cli = run_cli("lint", QWEN3_NEXT_QKVZ, *symbol_options({"HV": 32}))
    assert layoutcheck.lint(QWEN3_NEXT_QKVZ, HV=32) == cli


def test_lint_of_a_missing_file_raises():
    with pytest.raises(layoutcheck.InputError) as raised:
        layoutcheck.lint(os.path.join(BAD, "no_such_file.yaml"))
    assert raised.value.file.endswith("no_such_file.yaml")


@pytest.mark.parametrize("producer, consumer, symbols", [
    (QWEN3_5_QKVZ, QWEN3_NEXT_QKVZ, {}),
    (QWEN3_5_QKVZ, QWEN3_NEXT_QKVZ, {"HV": 32}),
    (QWEN3_5_QKVZ, QWEN3_5_QKVZ, {}),
    (contract("gdn/qwen3_5.ba.yaml"), contract("gdn/qwen3_next.ba.yaml"), {"H": 4, "HV": 12}),
])
def test_diff_is_the_clis_json(producer, consumer, symbols):
    code, cli = run_cli("diff", producer, consumer, *symbol_options(symbols))
    report = layoutcheck.diff(producer, consumer, **symbols)
    assert report == cli
    assert (report["misread"] > 0) == (code == 1)


def test_diff_takes_loaded_contracts_and_keeps_max_runs():
    producer = layoutcheck.load_contract(QWEN3_5_QKVZ)
    consumer = layoutcheck.load_contract(QWEN3_NEXT_QKVZ)
    _, cli = run_cli("diff", QWEN3_5_QKVZ, QWEN3_NEXT_QKVZ, "--max-runs", "3")
    report = layoutcheck.diff(producer, consumer, max_runs=3)
    assert report == cli and len(report["runs"]) == 3 and report["runs_total"] == 61


def test_symbols_with_a_loaded_contract_are_refused():
    with pytest.raises(layoutcheck.InputError, match="already loaded"):
        layoutcheck.diff(layoutcheck.load_contract(QWEN3_5_QKVZ), QWEN3_NEXT_QKVZ, H=8)


def test_diff_of_contracts_of_different_buffers_raises():
    with pytest.raises(layoutcheck.InputError):
        layoutcheck.diff(QWEN3_5_QKVZ, contract("gdn/qwen3_5.ba.yaml"))


@pytest.mark.parametrize("question", [{"offset": 256}, {"element": "V[7,8]"}, {"offset": 16383}])
def test_explain_is_the_clis_json(question):
    (kind, value), = question.items()
    _, cli = run_cli("explain", QWEN3_NEXT_QKVZ, f"--{kind}", str(value))
    assert layoutcheck.explain(QWEN3_NEXT_QKVZ, **question) == cli


def test_explain_refuses_an_offset_outside_the_row_and_a_missing_question():
    with pytest.raises(layoutcheck.InputError) as raised:
        layoutcheck.explain(QWEN3_NEXT_QKVZ, offset=16384)
    assert raised.value.rule == "offset"
    with pytest.raises(layoutcheck.InputError):
        layoutcheck.explain(QWEN3_NEXT_QKVZ)


def test_render_gives_the_clis_svg_as_text_or_file(tmp_path):
    cli = os.environ.get("LAYOUTCHECK_CLI") or pytest.skip("LAYOUTCHECK_CLI is not set")
    expected = subprocess.run([cli, "render", QWEN3_5_QKVZ, QWEN3_NEXT_QKVZ, "-o", "-"],
                              capture_output=True, text=True, check=True).stdout
    assert layoutcheck.render(QWEN3_5_QKVZ, QWEN3_NEXT_QKVZ) == expected
    path = tmp_path / "diff.svg"
    assert layoutcheck.render(QWEN3_5_QKVZ, QWEN3_NEXT_QKVZ, output=path) == path
    assert path.read_text() == expected
    grid = layoutcheck.render(contract("pangu/windows.shifted.yaml"), level=1)
    assert grid.startswith("<svg") or grid.startswith("<?xml")


def test_render_refuses_a_bad_width_and_an_unwritable_file(tmp_path):
    with pytest.raises(layoutcheck.InputError):
        layoutcheck.render(QWEN3_5_QKVZ, width=float("nan"))
    with pytest.raises(layoutcheck.InputError) as raised:
        layoutcheck.render(QWEN3_5_QKVZ, output=tmp_path / "no" / "such" / "dir.svg")
    assert raised.value.rule == "output"


def test_gather_map_is_the_clis_map(tmp_path):
    import numpy as np
    cli = os.environ.get("LAYOUTCHECK_CLI") or pytest.skip("LAYOUTCHECK_CLI is not set")
    windows = contract("pangu/windows.shifted.yaml")
    path = tmp_path / "map.npy"
    subprocess.run([cli, "map", windows, "-o", str(path), "--set", "C=8"], check=True,
                   capture_output=True)
    forward = layoutcheck.gather_map(windows, C=8)
    assert forward.dtype == np.int32 and forward.shape == (138240,)
    assert np.array_equal(np.load(path), forward)
    assert (forward == -1).sum() == 138240 - 131040
    reverse = layoutcheck.gather_map(windows, reverse=True, C=8)
    assert reverse.shape == (131040,)
    assert np.array_equal(forward[reverse], np.arange(131040, dtype=np.int32))


def test_gather_map_refuses_a_contract_without_a_gather():
    with pytest.raises(layoutcheck.InputError) as raised:
        layoutcheck.gather_map(contract("pangu/tokens.yaml"))
    assert "declares no gather" in str(raised.value)


def test_bf16_conversions_round_to_nearest_even():
    import numpy as np

    bits = layoutcheck.float32_to_bf16(np.array([1.0, -2.5, 1.00390625, 1.01171875], np.float32))
    assert bits.dtype == np.uint16
    # 1 + 2^-8 is a tie and rounds to the even 1.0; 1 + 3*2^-8 ties up to 1 + 2^-6
    assert list(bits) == [0x3F80, 0xC020, 0x3F80, 0x3F82]
    assert list(layoutcheck.bf16_to_float32(bits)) == [1.0, -2.5, 1.0, 1.015625]


def test_lint_of_several_files_refuses_a_symbol_none_declares_as_the_cli():
    files = [contract("gdn/qwen3_5.ba.yaml"), contract("pangu/tokens.yaml")]
    assert layoutcheck.lint(*files, C=8)["files"][1]["elements"] == 8  # only tokens has C
    with pytest.raises(layoutcheck.InputError) as raised:
        layoutcheck.lint(*files, NOPE=3)
    assert raised.value.rule == "unknown-symbol" and raised.value.file == "<command line>"
