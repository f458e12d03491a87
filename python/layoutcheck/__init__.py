"""layoutcheck from Python: layout contracts and probes of kernels written in Python.

Contracts (what `layoutcheck lint/diff/explain/render --json` print, as plain Python objects):

    import layoutcheck
    report = layoutcheck.diff("contracts/gdn/qwen3_5.qkvz.yaml",
                              "contracts/gdn/qwen3_next.qkvz.yaml", H=2, HV=4, K=8, V=8)
    report["misread"]                      # 72 of 96 elements

Probes: any callable taking the case's buffers as keyword arguments (NumPy arrays on the CPU,
device tensors with device="cuda"), treated as a kernel built for the consumer's layout:

    verdict = layoutcheck.probe(my_step, case="gdn", producer=..., consumer=..., H=2, HV=4)
    verdict["clean"], verdict["conclusion"]   # as `layoutcheck probe --case gdn --json` prints

Errors raise layoutcheck.InputError (file, line, column, rule, fix) and, for a callable that
fails, layoutcheck.ProbeCallError naming the call. layoutcheck.testing holds pytest assertions.
"""

import os

from . import _paths
from ._layoutcheck import (
    DEFAULT_MAX_ELEMENTS,
    Contract,
    bf16_to_float32,
    case_buffers,
    case_names,
    diff,
    explain,
    float32_to_bf16,
    gather_map,
    lint,
    load_contract,
    render,
)
from ._layoutcheck import _probe
from .errors import InputError, ProbeCallError

__all__ = [
    "Contract",
    "DEFAULT_MAX_ELEMENTS",
    "InputError",
    "ProbeCallError",
    "bf16_to_float32",
    "case_buffers",
    "case_names",
    "contracts_folder",
    "diff",
    "explain",
    "float32_to_bf16",
    "gather_map",
    "lint",
    "load_contract",
    "probe",
    "render",
]


def contracts_folder():
    """Where the contracts a case names by default live: $LAYOUTCHECK_CONTRACTS, else the shipped
    ones (the source tree's from a build tree, the installed ones after `cmake --install`)."""
    folder = os.environ.get("LAYOUTCHECK_CONTRACTS")
    if folder:
        return folder
    return os.path.normpath(os.path.join(os.path.dirname(__file__), _paths.CONTRACTS))


def _paths_list(paths):
    """One path (str or os.PathLike) or several, as a list: a lone str is not its characters."""
    if isinstance(paths, (str, os.PathLike)):
        return [paths]
    return list(paths)


def probe(fn, *, case, producer, consumer, with_contracts=(), producer_with=(), buffer=None,
          decoder=None, device="cpu", rows=2, seed=1, max_probes=1 << 14, tolerance=None,
          max_runs=None, name=None, max_elements=DEFAULT_MAX_ELEMENTS, **symbols):
    """Probes ``fn`` as a kernel of ``case`` built for ``consumer``'s layout, fed the probed
    buffer laid out as ``producer`` says, and returns the verdict `layoutcheck probe --case CASE
    --producer P --consumer C --json` prints for the same arguments.

    ``fn(**buffers)`` gets every buffer of the case by name (layoutcheck.case_buffers(case)):
    on device="cpu" NumPy views of the probe's own memory (a contract's buffer as (rows,
    row_size), rows row_stride apart; bf16 as uint16 bits; inputs read-only); on a GPU device
    ("cuda", "cuda:1") PyTorch tensors on that device. It writes its output and in-place
    buffers, or returns the output (one array, a tuple in the case's order, or a dict by name;
    on a GPU any DLPack tensor).

    with_contracts: contracts of the other buffers as the kernel reads or writes them (the CLI's
    --with); producer_with: as the model lays them out (--producer-with; both default to the
    case's own contracts, so a contract given on one side only is a claim that differs); buffer:
    the probed buffer (default: the producer's); decoder: "dependence" or "data-movement"
    (default: the first of them the case lists); rows, seed, max_probes, tolerance, max_runs: as
    the CLI's options; name: what the verdict calls the kernel (default:
    "python <fn's qualified name>"); symbols: --set overrides (H=2, HV=4).
    """
    callable_ = fn
    if str(device) != "cpu":
        from ._device import on_device

        callable_ = on_device(fn, device, case_buffers(case))
    return _probe(callable_, case=case, producer=producer, consumer=consumer,
                  with_contracts=_paths_list(with_contracts),
                  producer_with=_paths_list(producer_with),
                  buffer=buffer, decoder=decoder, rows=rows,
                  seed=seed, max_probes=max_probes, tolerance=tolerance, max_runs=max_runs,
                  name=name or "", contracts_folder=contracts_folder(),
                  max_elements=max_elements, symbols=symbols)
