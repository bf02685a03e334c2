"""Forbidden Island: the rules engine (pure, no I/O) and its players."""
