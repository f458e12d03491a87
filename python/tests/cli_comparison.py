"""What the module's tests share: the repository's contracts, and the CLI run on the same
arguments, so a test compares the module's answer with `layoutcheck ... --json`. Plain Python
(no pytest), so the GPU probes also run as a script where pytest is not installed."""

import json
import math
import os
import re
import subprocess

import layoutcheck

SOURCE_DIR = os.environ.get("LAYOUTCHECK_SOURCE_DIR",
                            os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..")))
CONTRACTS = os.path.join(SOURCE_DIR, "contracts")


def contract(relative):
    """contracts/<relative>, as the CLI is given it."""
    return os.path.join(CONTRACTS, relative)


def symbol_options(symbols):
    options = []
    for name, value in symbols.items():
        options += ["--set", f"{name}={value}"]
    return options


def run_cli(*arguments):
    """`layoutcheck ARGUMENTS --json`: (exit code, the parsed JSON)."""
    cli = os.environ.get("LAYOUTCHECK_CLI")
    if not cli:
        raise RuntimeError("LAYOUTCHECK_CLI is not set: the path of the layoutcheck CLI to "
                           "compare with (ctest sets it)")
    done = subprocess.run([cli, *arguments, "--json"], capture_output=True, text=True,
                          check=False)
    if done.returncode not in (0, 1):
        raise AssertionError(f"layoutcheck {' '.join(arguments)} exited {done.returncode}:\n"
                             f"{done.stderr}")
    return done.returncode, json.loads(done.stdout)


def probe_both(fn, case, producer, consumer, symbols, with_contracts=(), decoder=None,
               cli_backend="cpu", producer_with=()):
    """The module's verdict on fn and the CLI's on its CPU model of the same claim (cli_backend
    names another model, a mutant holding a wrong Python kernel to the CLI's model of the same
    bug); the exit code agrees with the verdict."""
    options = {"decoder": decoder} if decoder else {}
    verdict = layoutcheck.probe(fn, case=case, producer=producer, consumer=consumer,
                                with_contracts=with_contracts, producer_with=producer_with,
                                **options, **symbols)
    arguments = ["probe", "--case", case, "--producer", producer, "--consumer", consumer,
                 "--backend", cli_backend, *symbol_options(symbols)]
    if decoder:
        arguments += ["--decoder", decoder]
    for file in with_contracts:
        arguments += ["--with", file]
    for file in producer_with:
        arguments += ["--producer-with", file]
    code, cli = run_cli(*arguments)
    assert code == (0 if verdict["clean"] else 1)
    return verdict, cli


# Figures the two sides compute each with their own arithmetic: "out rel L2 2.61e-01".
_FIGURE = re.compile(r"[0-9]\.[0-9]+e[+-][0-9]+")
# What names the runner rather than what it read: the Python callable and the CLI's CPU model.
_RUNNER_KEYS = ("runner", "consumer_contract")


def _close(a, b):
    return math.isclose(a, b, rel_tol=0.05, abs_tol=1e-2)


def _differences(python, cli, where):
    if isinstance(cli, dict):
        if not isinstance(python, dict) or python.keys() != cli.keys():
            return [f"{where}: keys {sorted(python) if isinstance(python, dict) else python} "
                    f"!= {sorted(cli)}"]
        found = []
        for key in cli:
            if key not in _RUNNER_KEYS:
                found += _differences(python[key], cli[key], f"{where}.{key}")
        return found
    if isinstance(cli, list):
        if not isinstance(python, list) or len(python) != len(cli):
            return [f"{where}: {python!r} != {cli!r}"]
        found = []
        for index, (a, b) in enumerate(zip(python, cli)):
            found += _differences(a, b, f"{where}[{index}]")
        return found
    if isinstance(cli, str) and isinstance(python, str):
        same_words = _FIGURE.split(python) == _FIGURE.split(cli)
        figures_a, figures_b = _FIGURE.findall(python), _FIGURE.findall(cli)
        same_figures = len(figures_a) == len(figures_b) and all(
            _close(float(a), float(b)) for a, b in zip(figures_a, figures_b))
        return [] if same_words and same_figures else [f"{where}: {python!r} != {cli!r}"]
    same = python == cli and type(python) is type(cli)
    return [] if same else [f"{where}: {python!r} != {cli!r}"]


def assert_same_verdict(python, cli):
    """The module's verdict is the CLI's: every key and value, but the runner's name, and the
    relative errors each side computes with its own arithmetic within 5 %, or 0.01 apart (the
    values' own tolerance: bf16 roundings of fp32 and fp64 arithmetic differ by about that; whether
    the values agree with the reference is compared exactly)."""
    differences = _differences(python, cli, "verdict")
    assert not differences, "the module's verdict differs from the CLI's:\n  " + "\n  ".join(
        differences[:20])
