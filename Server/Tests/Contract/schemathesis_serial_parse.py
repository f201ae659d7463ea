"""Runs Schemathesis's command line with Python's parser taken by one thread at a time.

CPython 3.11 keeps the depth counter of its syntax-tree conversion in state the threads share:
when two threads parse at once, one of them can fail with "AST constructor recursion depth
mismatch". Hypothesis parses the source of its filters to describe them, and Schemathesis's
workers are threads, so a run with two workers hits it now and then: an error of the
interpreter, not a finding about the server. `ast.parse` behind a lock removes the race.

    python3 schemathesis_serial_parse.py run … (the arguments of `schemathesis`)
"""
import ast
import threading

_parse = ast.parse
# Reentrant: a finaliser run inside a parse may parse again on the same thread.
_lock = threading.RLock()


def _serial_parse(*arguments, **options):
    with _lock:
        return _parse(*arguments, **options)


ast.parse = _serial_parse

if __name__ == "__main__":
    import schemathesis.cli

    schemathesis.cli.schemathesis()
