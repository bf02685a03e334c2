"""Build step of the install: compiles the games' hot modules with mypyc when it can, else stays pure Python.

Everything else about the package is in pyproject.toml. The modules compiled are ``fi_cli.native.MODULES``
(each game's rules engine and its heuristic player's helpers: the hot path of every simulated game). The
compiled modules play exactly the same games as their sources (tests/test_native.py checks it), so
whatever happens here changes only the speed:

- ``FI_PURE_PYTHON=1`` at install time skips compiling;
- if mypyc is missing or fails, or the C compiler does (none installed, an unknown flag), the install goes on
  in pure Python with a note on stderr.

A compiled build records the sha256 of each compiled module's source in ``fi_cli/_native.json``; at run time
``fi_cli.native`` loads the whole group from the sources instead when a source no longer matches (an
edited file in an editable install), so a stale compiled module never runs.
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "fi_cli"
_METADATA_COMMANDS = {"egg_info", "dist_info", "sdist"}  # what pip runs before building: nothing to compile


def _native():
    """fi_cli/native.py on its own (it uses only the standard library): the module list and the hashing."""
    spec = importlib.util.spec_from_file_location("_fi_native_build", os.path.join(HERE, PACKAGE, "native.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NATIVE = _native()


def _note(text: str) -> None:
    print(f"fi-cli build: {text}", file=sys.stderr, flush=True)


def _pure_requested() -> bool:
    return NATIVE.pure_requested(os.environ)


_MADE: list[list[Extension]] = []  # mypyc's extensions, once made: setuptools may finalize build_ext again


def _mypyc_extensions() -> list[Extension]:
    """The compiled extensions (mypyc's C code is generated here, once), or [] when mypyc is missing or fails."""
    if not _MADE:
        _MADE.append(_make_mypyc_extensions())
    return _MADE[0]


def _make_mypyc_extensions() -> list[Extension]:
    if _pure_requested():
        _note("FI_PURE_PYTHON is set: not compiling, the package stays pure Python")
        return []
    try:
        from mypyc.build import mypycify

        paths = [os.path.relpath(NATIVE.source_path(m, HERE), os.getcwd()) for m in NATIVE.MODULES]
        exts = mypycify(["--follow-imports=silent", *paths], opt_level="3")
    except BaseException as e:  # mypyc reports its errors by SystemExit  # noqa: BLE001
        if isinstance(e, KeyboardInterrupt):
            raise
        _note(f"mypyc could not compile the modules ({type(e).__name__}: {e}); installing pure Python")
        return []
    for ext in exts:
        args = [a for a in ext.extra_compile_args if a != "-Werror"]  # a newer compiler's warning is no error
        if os.name != "nt":
            # no fused multiply-add: a*b+c must round twice, as in Python, or a float could differ on CPUs
            # with FMA (arm64) and with it a game
            args.append("-ffp-contract=off")
        ext.extra_compile_args = args
    return exts


class BuildExt(build_ext):
    """build_ext whose extensions are made by mypyc only when a build runs (not for metadata), and whose
    failure leaves a working pure-Python package."""

    def finalize_options(self) -> None:
        # mypyc generates its C code here, but not for commands that only write metadata (pip runs those first)
        exts = [] if set(self.distribution.commands) <= _METADATA_COMMANDS else _mypyc_extensions()
        if exts:
            self.distribution.ext_modules = exts
        super().finalize_options()
        if not exts:  # the placeholders stay in the distribution, so that run() comes and cleans up
            self.extensions = []

    def run(self) -> None:
        self._to_source = bool(self.inplace or getattr(self, "editable_mode", False))  # an editable install
        if not self.extensions:
            self._pure()
            return
        try:
            super().run()
        except Exception as e:  # noqa: BLE001  (no compiler, a compiler error: the sources still work)
            _note(f"the C compiler failed ({type(e).__name__}: {e}); installing pure Python")
            self._pure()
            return
        record = {
            "compiler": "mypyc",
            "modules": {m: NATIVE.source_hash(NATIVE.source_path(m, HERE)) for m in NATIVE.MODULES},
            "libraries": sorted(e.name for e in self.extensions if e.name not in NATIVE.MODULES),  # the group's
        }
        for root in self._roots():
            os.makedirs(os.path.join(root, PACKAGE), exist_ok=True)
            with open(os.path.join(root, PACKAGE, NATIVE.RECORD), "w") as f:
                json.dump(record, f, indent=1, sort_keys=True)
                f.write("\n")
        _note(f"compiled {len(NATIVE.MODULES)} modules with mypyc")

    def _roots(self) -> list[str]:
        """Where the package is built: the build directory and, for an editable install, the sources."""
        return [self.build_lib] + ([HERE] if self._to_source else [])

    def _pure(self) -> None:
        """No compiled module may be left to shadow a source: remove the record and the modules' extension
        files that an earlier build left in the build directory and (editable installs) beside the sources."""
        for root in self._roots():
            stale = [os.path.join(root, PACKAGE, NATIVE.RECORD)]
            for m in NATIVE.MODULES:
                stale += NATIVE.extension_files(m, root)
            for suffix in NATIVE.EXTENSION_SUFFIXES:  # the group's shared library, at the top
                stale += glob.glob(os.path.join(glob.escape(root), "*__mypyc" + suffix))
            for path in stale:
                if os.path.isfile(path):
                    os.remove(path)
        self.extensions = []


# Placeholders: they mark the distribution as having extensions (a platform wheel); BuildExt replaces them
# with mypyc's when a build runs.
setup(
    ext_modules=[Extension(m, sources=[]) for m in NATIVE.MODULES],
    cmdclass={"build_ext": BuildExt},
)
