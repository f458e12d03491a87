"""The exceptions the module raises (the C++ half raises these same classes)."""


class InputError(ValueError):
    """A contract, file or argument layoutcheck cannot go on with (the CLI's exit code 2).

    Its text is the CLI's: one "file:line:column: error[rule]: message (fix: ...)" line per
    diagnostic. ``diagnostics`` holds every problem found, each a dict with file, line, column,
    severity, rule, message and fix; ``file``, ``line``, ``column``, ``rule``, ``message`` and
    ``fix`` are the first one's.
    """

    def __init__(self, diagnostics, text):
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else {}
        self.file = first.get("file", "")
        self.line = first.get("line", 0)
        self.column = first.get("column", 0)
        self.severity = first.get("severity", "error")
        self.rule = first.get("rule", "")
        self.message = first.get("message", "")
        self.fix = first.get("fix", "")
        super().__init__(text)


class ProbeCallError(RuntimeError):
    """The probed callable failed: it raised (that exception is ``__cause__``), returned or wrote
    something its buffers cannot hold, or left NaN where its inputs held none. The message names
    the call ("call 3 of gdn_step (test_gdn.py:40) ...")."""
