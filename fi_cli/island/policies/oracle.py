"""The island's clairvoyant ``oracle`` (an instrument that sees the hidden future; see ``fi_cli.common.oracle``)."""

from __future__ import annotations

from ...common.oracle import OracleBase
from .heuristic import HeuristicPolicy
from .planner import VARIANTS
from .value import win_chance


class OraclePolicy(OracleBase):
    __doc__ = OracleBase.__doc__
    make = HeuristicPolicy
    variants = VARIANTS
    value = staticmethod(win_chance)
