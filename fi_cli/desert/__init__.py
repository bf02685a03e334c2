"""Forbidden Desert: the rules engine (pure, no I/O), positions, actions, text drawing and players."""
