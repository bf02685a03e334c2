"""fi: play Forbidden Island thousands of times and show how and why games are won and lost."""

__version__ = "0.1.0"

# First of all: decide whether the compiled modules may run (a stale one never does); see native.py.
from . import native  # noqa: E402, F401
