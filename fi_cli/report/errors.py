"""The one error type of the report layer: the CLI turns it into a clear message, never a traceback."""

from __future__ import annotations


class ReportError(Exception):
    """A run that cannot be reported: missing, empty, corrupted, or an unknown option value."""
