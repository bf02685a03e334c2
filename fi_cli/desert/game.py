"""Setting up a Desert game: the players and their roles, the storm meter's start mark, the sand supply, the
board (tiles pinned to cells, if any), the variants, the components, a seed."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..common.seats import check_seats
from .components import DEFAULT_COMPONENTS, Components
from .engine import ACTIONS, NOT_FOUND, GameState
from .layouts import STANDARD, Layout
from .rules import Rules
from .tiles import (
    CENTRE,
    CRASH_SITE,
    DIAMOND,
    HIDDEN,
    HIDDEN_WATER,
    MIRAGE,
    N_CELLS,
    NO_TILE,
    ROLE_INDEX,
    ROLES,
    SAND_MARKERS,
    WELL,
)

SAND_SUPPLY = SAND_MARKERS - len(DIAMOND)  # the rules: 48 markers, 8 of them on the diamond, 40 in the supply


@dataclass(frozen=True)
class GameSetup:
    """What a game is played with; ``roles=None`` draws distinct roles at random from the game's seed.

    ``start_level`` is the storm meter's start mark: 1 = Novice ... 4 = Legendary by the rules, and any mark
    below the skull for a designer's variant. ``sand_supply`` is the sand markers left in the supply once
    the diamond of 8 is on the board (the rules: 40). ``layout`` may pin tiles to cells. ``components`` are the
    rulebook's unless given (see fi_cli.desert.components): with a storm meter of their own, ``start_level``
    is a mark of that meter."""

    players: int = 4
    start_level: int = 2
    roles: tuple[str, ...] | None = None
    rules: Rules = field(default_factory=Rules)
    first_player: int | None = None
    sand_supply: int = SAND_SUPPLY
    layout: Layout = STANDARD
    components: Components = DEFAULT_COMPONENTS

    def __post_init__(self) -> None:
        if type(self.players) is not int or not 2 <= self.players <= 5:
            raise ValueError(f"players must be 2 to 5, got {self.players!r}")
        if not isinstance(self.components, Components):
            raise ValueError(f"components must be desert Components, got {type(self.components).__name__}")
        top = len(self.components.track(self.players))
        if type(self.start_level) is not int or not 1 <= self.start_level <= top:
            raise ValueError(f"the storm meter's start mark must be 1-{top} with {self.players} players (mark "
                             f"{top + 1} is the skull), got {self.start_level!r}")
        if type(self.sand_supply) is not int or self.sand_supply < 0:
            raise ValueError(f"the sand supply must be a number of markers, 0 or more, got {self.sand_supply!r}")
        if not isinstance(self.layout, Layout):
            raise ValueError(f"the board must be a desert Layout, got {type(self.layout).__name__}")
        check_seats(self, ROLES)
        self.components.check_setup(self.players, self.start_level)


def new_game(setup: GameSetup, seed: int) -> GameState:
    """Set up a game (section 3 of the rules); every chance outcome comes from ``seed``."""
    rng = random.Random(seed)
    s = GameState.__new__(GameState)
    s.rules = setup.rules
    s.comp = comp = setup.components
    s.rng = rng
    s.stats = None
    # 1. the tiles desert side up around the storm: what shows is the Crash Site and the 3 water drops; a
    # pinned tile is known (the board is public), the others are shuffled over the free cells
    pinned = setup.layout.pinned_cells()
    kinds = list(pinned.values())
    water = 3 - kinds.count(WELL) - kinds.count(MIRAGE)
    looks = [CRASH_SITE] * (CRASH_SITE not in kinds) + [HIDDEN_WATER] * water
    looks += [HIDDEN] * (N_CELLS - 1 - len(pinned) - len(looks))
    rng.shuffle(looks)
    s.kind = [NO_TILE] * N_CELLS
    for cell, k in zip((c for c in range(N_CELLS) if c != CENTRE and c not in pinned), looks, strict=True):
        s.kind[cell] = k
    for cell, k in pinned.items():
        s.kind[cell] = k
    s.storm = CENTRE
    s.dug = [0] * N_CELLS
    # 2. the diamond of 8 sand markers (1 on each tile by the rulebook)
    s.sand = [0] * N_CELLS
    for c in DIAMOND:
        s.sand[c] = comp.diamond_sand
    s.supply = setup.sand_supply
    # 3. the storm meter and the decks (multisets: a card is picked when drawn)
    n = setup.players
    s.n = n
    s.track = comp.track(n)
    s.level = setup.start_level
    s.stop, s.sdeck, s.sbottom = [], list(comp.storm_counts), []
    s.sdiscard, s.sdrawn = [0] * len(comp.storm_counts), [0] * len(comp.storm_counts)
    s.gdeck, s.gused = list(comp.gear_counts), [0] * len(comp.gear_counts)
    # 4. roles, pawns on the Crash Site, canteens full
    roles = rng.sample(range(len(ROLES)), n) if setup.roles is None else [ROLE_INDEX[r] for r in setup.roles]
    s.seat(tuple(roles))
    s.pos = [s.kind.index(CRASH_SITE)] * n
    s.water = [comp.canteens[r] for r in s.roles]
    s.hands = [[0] * len(comp.gear_counts) for _ in range(n)]
    s.parts = [NOT_FOUND] * 4
    # 5. the first player
    s.current = rng.randrange(n) if setup.first_player is None else setup.first_player
    s.turn = 1
    s.phase = ACTIONS
    s.actions_left = comp.actions_per_turn
    s.skips = 0
    s.storm_left = 0
    s.shields = 0
    s.window, s.placed = [], []
    s.outcome = None
    s.loss_causes = ()
    for hidden in (HIDDEN_WATER, HIDDEN):  # pins may leave one kind for a pool's hidden tiles: known
        s.settle(hidden)
    return s
