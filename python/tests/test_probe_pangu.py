"""NumPy Pangu-Weather operators probed through the module: a window gather (data movement), one
with the wrong shift, and a row-wise LayerNorm (dependence), each verdict the CLI's."""

from cli_comparison import assert_same_verdict, contract, probe_both
from kernels.numpy_pangu import layer_norm_rows, window_gather
from layoutcheck.testing import assert_gates_pass, assert_no_misread

GRID = {"Z": 4, "LAT": 13, "LON": 26, "C": 4}
WINDOW = (2, 6, 12)
HALF_WINDOW = tuple(w // 2 for w in WINDOW)


def test_a_window_gather_is_clean_as_the_cli_finds():
    verdict, cli = probe_both(window_gather(**GRID), "pangu-window-gather",
                              contract("pangu/grid.yaml"), contract("pangu/grid.yaml"), GRID)
    assert_same_verdict(verdict, cli)
    assert_gates_pass(verdict)
    assert verdict["decoder"] == "data-movement"


def test_a_gather_shifted_where_the_block_is_not_is_caught_as_the_cli_finds():
    """The odd blocks' shifted gather used for an even block: the tokens land in other windows."""
    shifted = window_gather(**GRID, shift=HALF_WINDOW)
    verdict, cli = probe_both(shifted, "pangu-window-gather", contract("pangu/grid.yaml"),
                              contract("pangu/grid.yaml"), GRID,
                              [contract("pangu/windows.shifted.yaml")])
    assert_same_verdict(verdict, cli)
    assert verdict["misread"] > 0 and verdict["outputs_misplaced"] == verdict["elements"]
    assert not verdict["values"]["agree"]


def test_a_shifted_gather_of_a_shifted_block_is_clean_as_the_cli_finds():
    """The model's windows are shifted too (producer_with), so nothing is misplaced."""
    shifted = [contract("pangu/windows.shifted.yaml")]
    verdict, cli = probe_both(window_gather(**GRID, shift=HALF_WINDOW), "pangu-window-gather",
                              contract("pangu/grid.yaml"), contract("pangu/grid.yaml"), GRID,
                              shifted, producer_with=shifted)
    assert_same_verdict(verdict, cli)
    assert_no_misread(verdict)
    assert_gates_pass(verdict)


def test_a_gather_rolling_the_wrong_axes_is_the_clis_mutant():
    """Against a shifted block, so the roll on the wrong axes is what is misread."""
    shifted = [contract("pangu/windows.shifted.yaml")]
    wrong_axes = window_gather(**GRID, shift=(HALF_WINDOW[0], HALF_WINDOW[2], HALF_WINDOW[1]))
    verdict, cli = probe_both(wrong_axes, "pangu-window-gather", contract("pangu/grid.yaml"),
                              contract("pangu/grid.yaml"), GRID, shifted,
                              cli_backend="cpu:mutant:shift_on_wrong_axes", producer_with=shifted)
    assert_same_verdict(verdict, cli)
    assert verdict["misread"] > 0 and not verdict["clean"]
    assert verdict["outputs_misplaced"] == 0


def test_a_row_wise_layer_norm_reads_each_row_as_the_cli_finds():
    verdict, cli = probe_both(layer_norm_rows(), "pangu-layernorm", contract("pangu/tokens.yaml"),
                              contract("pangu/tokens.yaml"), {"C": 8})
    assert_same_verdict(verdict, cli)
    assert_no_misread(verdict)
    assert_gates_pass(verdict)


def test_a_layer_norm_built_for_twice_the_width_is_the_clis_mutant():
    verdict, cli = probe_both(layer_norm_rows(group=2), "pangu-layernorm",
                              contract("pangu/tokens.yaml"), contract("pangu/tokens.yaml"),
                              {"C": 8}, cli_backend="cpu:mutant:rows_as_pairs")
    assert_same_verdict(verdict, cli)
    assert verdict["dependence_mismatches"] > 0 and not verdict["clean"]
