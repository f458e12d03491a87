"""pytest-friendly assertions over probe verdicts (layoutcheck.probe) and diff reports
(layoutcheck.diff). Each failure message is the reviewer's summary: the conclusion, the fields and
their counts, the first misread runs, the findings, the values.

    from layoutcheck.testing import assert_no_misread, assert_reads_as, assert_gates_pass

    verdict = layoutcheck.probe(my_kernel, case="pangu-layernorm", producer=..., consumer=...)
    assert_no_misread(verdict)       # every element read from where the producer put it
    assert_gates_pass(verdict)       # ... and the values agree, nothing unverified: clean
    assert_reads_as(verdict, layoutcheck.diff(producer, other))   # misreads exactly so
"""

# Findings that say the kernel reads or writes a layout other than the producer's.
_LAYOUT_FINDINGS = ("dependence", "row-stride", "output-layout", "input-layout", "routing",
                    "unresolved", "ambiguous", "not-a-copy", "row-pitch")

_RUNS_SHOWN = 8
_FINDINGS_SHOWN = 5


def _run_text(run, verdict):
    begin, end = run["offset_begin"], run["offset_end"]
    offsets = f"offset {begin}" if end - begin == 1 else f"offsets {begin}-{end - 1}"
    if "decoder" in verdict:
        return f"the kernel reads {run['consumer']} from {offsets}, which hold {run['producer']}"
    return (f"{offsets} hold {run['producer']} in the producer, read as {run['consumer']} by "
            "the consumer")


def summary(report):
    """The reviewer's summary of a probe verdict or a diff report, several lines."""
    lines = []
    if "conclusion" in report:
        lines.append(f"probe ({report['case']}, {report['decoder']}) of {report['runner']}, "
                     f"buffer {report['buffer']}: {report['conclusion']}")
    else:
        lines.append(f"{report['producer_contract']} (producer) -> {report['consumer_contract']} "
                     f"(consumer): {report['misread']} of {report['elements']} elements misread")
    lines.append(f"  {'field':<8}{'elements':>10}{'misread':>10}{'unresolved':>12}")
    for field in report["fields"]:
        lines.append(f"  {field['name']:<8}{field['elements']:>10}{field['misread']:>10}"
                     f"{field.get('unresolved', 0):>12}")
    for run in report["runs"][:_RUNS_SHOWN]:
        lines.append("  " + _run_text(run, report))
    if report["runs_total"] > min(len(report["runs"]), _RUNS_SHOWN):
        lines.append(f"  ... {report['runs_total']} runs in all")
    for kind, count in report.get("finding_counts", {}).items():
        shown = [f for f in report["findings"] if f["kind"] == kind][:_FINDINGS_SHOWN]
        for finding in shown:
            lines.append(f"  {kind}: {finding['message']}")
        if count > len(shown):
            lines.append(f"  ... {count} {kind} findings in all")
    if "values" in report and report["values"]["checked"]:
        agree = "agree" if report["values"]["agree"] else "DIFFER"
        lines.append(f"  values against the reference: {agree} ({report['values']['detail']})")
    for reason in report.get("not_verified", []):
        lines.append(f"  not verified: {reason}")
    if "static_misread" in report:
        agrees = "agree exactly" if report["agrees_with_diff"] else "DISAGREE with it"
        lines.append(f"  static diff of the contracts: {report['static_misread']} elements "
                     f"misread; the probes {agrees}")
    return "\n".join(lines)


def _fail(what, report):
    raise AssertionError(f"{what}\n{summary(report)}")


def assert_no_misread(verdict):
    """Every element the kernel reads comes from where the producer put it: nothing misread or
    unresolved, every row alike, the output written where the model reads it, and the probes
    agreeing with the static diff. The values are assert_gates_pass's business."""
    layout_findings = {kind: count for kind, count in verdict["finding_counts"].items()
                       if kind in _LAYOUT_FINDINGS and count}
    if (verdict["misread"] or verdict["unresolved"] or verdict["unresolved_probes"]
            or verdict["row_stride_findings"] or verdict["outputs_misplaced"]
            or verdict["dependence_mismatches"] or layout_findings
            or not verdict["agrees_with_diff"]):
        _fail("the kernel misreads its input", verdict)


def assert_reads_as(verdict, expected):
    """The probed read map misreads exactly what ``expected`` (a layoutcheck.diff report of the
    producer against the layout the kernel really reads) says: the same count, per field, and
    the same runs when both list them all."""
    problems = []
    if verdict["misread"] != expected["misread"]:
        problems.append(f"{verdict['misread']} elements misread, the diff says "
                        f"{expected['misread']}")
    probed = {f["name"]: f["misread"] for f in verdict["fields"]}
    static = {f["name"]: f["misread"] for f in expected["fields"]}
    if probed != static:
        problems.append(f"misread per field {probed}, the diff says {static}")
    if verdict["unresolved"]:
        problems.append(f"{verdict['unresolved']} elements unresolved")
    complete = (len(verdict["runs"]) == verdict["runs_total"]
                and len(expected["runs"]) == expected["runs_total"])
    if complete:
        key = lambda run: (run["offset_begin"], run["offset_end"], run["producer"],
                           run["consumer"])
        only_probed = sorted(set(map(key, verdict["runs"])) - set(map(key, expected["runs"])))
        only_static = sorted(set(map(key, expected["runs"])) - set(map(key, verdict["runs"])))
        for run in only_probed[:_RUNS_SHOWN]:
            problems.append(f"probed, not in the diff: offsets {run[0]}-{run[1] - 1} hold "
                            f"{run[2]}, read as {run[3]}")
        for run in only_static[:_RUNS_SHOWN]:
            problems.append(f"in the diff, not probed: offsets {run[0]}-{run[1] - 1} hold "
                            f"{run[2]}, read as {run[3]}")
    if problems:
        _fail("the kernel does not read as expected:\n  " + "\n  ".join(problems) +
              f"\nexpected:\n{summary(expected)}\nprobed:", verdict)


def assert_gates_pass(verdict):
    """The verdict is clean: nothing misread, the values agree with the reference, no finding,
    nothing left unverified. A probe sampled under max_probes is clean when every offset it
    probed reads as the kernel's claim (verdict["sampled"] says so)."""
    if not verdict["clean"]:
        _fail("the kernel does not pass the probe's gates", verdict)
