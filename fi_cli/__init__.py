"""fi: play Forbidden Island thousands of times and show how and why games are won and lost."""

__version__ = "0.1.0"
