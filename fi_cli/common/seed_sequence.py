"""numpy's ``SeedSequence`` in plain integer arithmetic, for the one number fi asks of it: the first 64-bit word of
``SeedSequence(entropy, spawn_key=key).generate_state(1, np.uint64)``.

Every game asks it for its seed and its players' seed (and a run's worker again for the game's row: no frame may
keep the seed while the players decide). numpy builds arrays and objects for each; compiled, this takes a tenth
of the time. The algorithm is numpy's (``numpy/random/bit_generator.pyx``): the entropy and the spawn key as 32-bit
words, hashed into a pool of four words, two of which make the output. tests/test_seeds.py checks it against numpy.
"""

from __future__ import annotations

from typing import Final

_M32: Final = 0xFFFFFFFF
_INIT_A: Final = 0x43B0D7E5
_MULT_A: Final = 0x931E8875
_INIT_B: Final = 0x8B51F9DD
_MULT_B: Final = 0x58F38DED
_MIX_MULT_L: Final = 0xCA01F9DD
_MIX_MULT_R: Final = 0x4973F715
_POOL: Final = 4  # numpy's default pool size, in words


def first_word(entropy: int, spawn_key: tuple[int, ...]) -> int:
    """``int(np.random.SeedSequence(entropy, spawn_key=spawn_key).generate_state(1, np.uint64)[0])``."""
    words = _words(entropy)
    spawn: list[int] = []
    for k in spawn_key:
        spawn.extend(_words(k))
    if spawn and len(words) < _POOL:  # numpy pads the entropy to the pool's size when a spawn key follows
        words.extend([0] * (_POOL - len(words)))
    words.extend(spawn)
    # the pool: the first words hashed in, all mixed together, then the rest of the words mixed into each
    pool = [0] * _POOL
    h = _INIT_A
    for i in range(_POOL):
        pool[i], h = _hashmix(words[i] if i < len(words) else 0, h)
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                v, h = _hashmix(pool[src], h)
                pool[dst] = _mix(pool[dst], v)
    for src in range(_POOL, len(words)):
        for dst in range(_POOL):
            v, h = _hashmix(words[src], h)
            pool[dst] = _mix(pool[dst], v)
    # generate_state: two 32-bit words, the first the low half
    low, h = _hashmix(pool[0], _INIT_B, _MULT_B)
    high, h = _hashmix(pool[1], h, _MULT_B)
    return low | high << 32


def _words(n: int) -> list[int]:
    """``n`` as 32-bit words, the lowest first (0 is one word)."""
    if n < 0:
        raise ValueError(f"expected non-negative integer, got {n}")
    words = [n & _M32]
    n >>= 32
    while n:
        words.append(n & _M32)
        n >>= 32
    return words


def _mul32(a: int, b: int) -> int:
    """``a * b`` modulo 2**32 for 32-bit ``a`` and ``b``, by 16-bit halves: compiled, a product of two small factors
    (under 2**30) stays a machine multiplication; one of 32-bit factors would make Python ints."""
    al, bl = a & 0xFFFF, b & 0xFFFF
    return (al * bl + (((a >> 16) * bl + al * (b >> 16)) << 16)) & _M32


def _hashmix(value: int, h: int, mult: int = _MULT_A) -> tuple[int, int]:
    """numpy's hashmix (with ``_MULT_B``, a step of generate_state): the hashed value and the next hash constant."""
    value ^= h
    h = _mul32(h, mult)
    value = _mul32(value, h)
    return value ^ value >> 16, h


def _mix(x: int, y: int) -> int:
    v = (_mul32(_MIX_MULT_L, x) - _mul32(_MIX_MULT_R, y)) & _M32
    return v ^ v >> 16
