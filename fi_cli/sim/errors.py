"""Errors in what a user gives: a study or layout file (naming the file, the key, the value and what is allowed)
and files or directories that cannot be read or written (naming the path and what to do)."""

from __future__ import annotations

import errno
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from ..common.choices import yaml_text

_UNSET: Any = object()
MOST_SHOWN = 25  # problems listed at once; a matrix can repeat one mistake in every scenario


class ConfigError(ValueError):
    """A problem in a user's YAML file; str() reads `file:line: key: message (got value); allowed: ...`.

    One error may carry the other problems found in the same file (`also`): str() then lists them all, one a
    line, in file order, so that a user fixes them in one pass."""

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        key: str | None = None,
        value: Any = _UNSET,
        allowed: str | None = None,
        line: int | None = None,
        also: Sequence[ConfigError] = (),
    ) -> None:
        self.message, self.file, self.key, self.value, self.allowed, self.line = (
            message, file, key, value, allowed, line,
        )
        self.also = list(also)
        super().__init__(str(self))

    @property
    def problems(self) -> list[ConfigError]:
        """This problem and the others found with it, in file order."""
        return [self, *self.also]

    def line_text(self) -> str:
        """This problem alone, on one line."""
        where = ""
        if self.file is not None:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        text = f"{where}{self.key}: {self.message}" if self.key else f"{where}{self.message}"
        if self.value is not _UNSET:
            text += f" (got {yaml_text(self.value)})"
        if self.allowed:
            text += f"; allowed: {self.allowed}"
        return text

    def __str__(self) -> str:
        lines = [p.line_text() for p in self.problems[:MOST_SHOWN]]
        if len(self.problems) > MOST_SHOWN:
            lines.append(f"... and {len(self.problems) - MOST_SHOWN} more problems of the same file")
        return "\n".join(lines)


class Problems:
    """The problems found in one file, kept to be raised together in file order (`check`).

    `add(message, at, value, allowed)` records one at the key path `at` (its line is looked up)."""

    def __init__(self, error: type[ConfigError], file: Path, lines: dict[tuple, int]) -> None:
        self.error, self.file, self.lines = error, file, lines
        self.found: list[tuple[tuple, ConfigError]] = []

    def add(self, message: str, at: tuple = (), value: Any = _UNSET, allowed: str | None = None,
            line: int | None = None) -> None:
        problem = self.error(message, file=self.file, key=key_text(at) or None, value=value, allowed=allowed,
                             line=line or line_of(self.lines, at))
        if all(str(p) != str(problem) for _, p in self.found):
            self.found.append((at, problem))

    def under(self, *keys: str) -> bool:
        """Whether a problem was found under one of these top-level keys."""
        return any(at[:1] in [(k,) for k in keys] for at, _ in self.found)

    def top_keys(self) -> set[Any]:
        """The top-level keys with a problem."""
        return {at[0] for at, _ in self.found if at}

    def check(self) -> None:
        """Raise every problem found, in file order (those of no line first), as one error."""
        if self.found:
            first, *rest = sorted((p for _, p in self.found), key=lambda p: p.line or 0)
            first.also = rest
            raise first


class StudyError(ConfigError):
    """A study config that cannot be run."""


class LayoutFileError(ConfigError):
    """A layout file that is not a valid island."""


def read_yaml(path: Path, error: type[ConfigError]) -> tuple[Any, dict[tuple, int]]:
    """Parse a YAML file; return the data and the line number of every key path (for error messages)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error("file not found", file=path) from None
    except OSError as e:
        raise error(f"cannot read file: {e.strerror}", file=path) from None
    try:
        data = yaml.safe_load(text)
        node = yaml.compose(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e)
        raise error(f"not valid YAML: {problem}", file=path, line=mark.line + 1 if mark else None) from None
    lines: dict[tuple, int] = {}
    twice = Problems(error, path, lines)

    def walk(n: yaml.Node | None, at: tuple) -> None:
        if isinstance(n, yaml.MappingNode):
            seen: dict[tuple, int] = {}
            for k, v in n.value:
                line = k.start_mark.line + 1
                # PyYAML keeps the last of two equal keys without a word: a silent typo. Equal tag and text
                # make equal keys ('1' and 1 differ); merge keys ('<<') may repeat.
                if isinstance(k, yaml.ScalarNode) and k.tag != "tag:yaml.org,2002:merge":
                    if (k.tag, k.value) in seen:
                        twice.add(f"given twice (first on line {seen[k.tag, k.value]}); give each key once",
                                  at + (k.value,), line=line)
                    seen.setdefault((k.tag, k.value), line)
                lines[at + (k.value,)] = line
                walk(v, at + (k.value,))
        elif isinstance(n, yaml.SequenceNode):
            for i, v in enumerate(n.value):
                lines[at + (i,)] = v.start_mark.line + 1
                walk(v, at + (i,))

    walk(node, ())
    twice.check()
    return data, lines


def line_of(lines: dict[tuple, int], path: tuple) -> int | None:
    """The line of the longest prefix of `path` that is in the file."""
    for n in range(len(path), 0, -1):
        if path[:n] in lines:
            return lines[path[:n]]
    return None


def key_text(path: tuple) -> str:
    """('matrix', 'layout', 2) -> 'matrix.layout[2]'."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


_FULL = "the disk is full: free some space"
_DENIED = "permission denied: change the permissions or use another directory"
_OS_REASONS = {
    errno.ENOSPC: _FULL,
    errno.EDQUOT: _FULL,
    errno.EROFS: "the file system is read-only: use a directory on a writable disk",
    errno.EACCES: _DENIED,
    errno.EPERM: _DENIED,
    errno.ENOTDIR: "a part of this path is a file, not a directory: move that file away or use another path",
    errno.EEXIST: "a file is in the way where a directory is needed: move it away or use another path",
    errno.EISDIR: "this is a directory, not a file",
    errno.ENOENT: "no such file or directory",
}


def os_error_text(e: OSError, path: str | Path | None = None) -> str:
    """An I/O error in words, naming the path (the error's own, else `path`) and what to do about it."""
    where = e.filename if e.filename is not None else path
    reason = _OS_REASONS.get(e.errno) or e.strerror or str(e)  # type: ignore[arg-type]
    return f"{where}: {reason}" if where is not None else reason
