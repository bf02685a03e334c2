"""Setting up a game: a layout, a start level, the players and their roles, the rule variants, the components,
a seed."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..common.seats import check_seats
from .board import Board
from .components import DEFAULT_COMPONENTS, Components
from .engine import ACTIONS, GameState
from .layouts import Layout
from .rules import Rules
from .tiles import FLOODED, ROLE_INDEX, ROLE_START, ROLES, TILE_INDEX, TILES, WATERS_RISE


@dataclass(frozen=True)
class GameSetup:
    """What a game is played with; ``roles=None`` draws distinct roles at random from the game's seed;
    ``components`` are the rulebook's unless given (see fi_cli.island.components)."""

    layout: Layout
    start_level: int = 2
    players: int = 4
    roles: tuple[str, ...] | None = None
    rules: Rules = field(default_factory=Rules)
    first_player: int | None = None
    components: Components = DEFAULT_COMPONENTS

    def __post_init__(self) -> None:
        if type(self.players) is not int or not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {self.players!r}")
        if type(self.start_level) is not int or not 1 <= self.start_level <= 9:
            raise ValueError(f"start level must be 1-9, got {self.start_level!r}")
        check_seats(self, ROLES)
        if not isinstance(self.components, Components):
            raise ValueError(f"components must be island Components, got {type(self.components).__name__}")
        self.components.check_setup(self.players, self.start_level)


def new_game(setup: GameSetup, seed: int) -> GameState:
    """Set up a game (section 3 of the rules); every chance outcome comes from ``seed``."""
    rng = random.Random(seed)
    layout = setup.layout
    # 1. tiles on cells: pinned tiles first, the rest shuffled over the free cells
    cell_tile = {layout.cells.index(cell): TILE_INDEX[tile] for tile, cell in layout.pins.items()}
    free_tiles = [t for t in range(len(TILES)) if t not in cell_tile.values()]
    rng.shuffle(free_tiles)
    it = iter(free_tiles)
    placement = tuple(cell_tile[i] if i in cell_tile else next(it) for i in range(len(layout.cells)))
    s = GameState.__new__(GameState)
    s.board = Board(layout, placement, setup.rules)
    s.rules = setup.rules
    s.comp = comp = setup.components
    s.rng = rng
    s.stats = None
    s.tiles = [0] * len(TILES)
    # 2. flood six tiles (the rulebook's; the components say how many)
    s.fdeck = [list(range(len(TILES)))]
    s.fdiscard = []
    for _ in range(comp.tiles_flooded):
        seg = s.fdeck[-1]
        t = seg.pop(int(rng.random() * len(seg)))
        s.tiles[t] = FLOODED
        s.fdiscard.append(t)
    if not s.fdeck[-1]:  # every tile flooded: the draw pile is empty, the discard pile is reshuffled when drawn
        s.fdeck.pop()
    # 3. roles and pawns
    n = setup.players
    if setup.roles is None:
        s.roles = tuple(rng.sample(range(len(ROLES)), n))
    else:
        s.roles = tuple(ROLE_INDEX[r] for r in setup.roles)
    s.n = n
    s.pos = [ROLE_START[r] for r in s.roles]
    # 4. deal two cards each (the rulebook's), never a Waters Rise! (dealing from the other cards is the same as
    #    replacing a dealt Waters Rise! and shuffling it back afterwards)
    s.tdeck = list(comp.deck_counts)
    s.tdiscard = [0] * 7
    s.hands = []
    for _ in range(n):
        hand = [0] * 6
        for _ in range(comp.cards_dealt):
            r = int(rng.random() * (sum(s.tdeck) - s.tdeck[WATERS_RISE]))
            card = 0
            while r >= s.tdeck[card]:
                r -= s.tdeck[card]
                card += 1
            s.tdeck[card] -= 1
            hand[card] += 1
        s.hands.append(hand)
    # 5.-6. water, first player
    s.water = setup.start_level
    s.current = rng.randrange(n) if setup.first_player is None else setup.first_player
    s.captured = 0
    s.turn = 1
    s.phase = ACTIONS
    s.actions_left = comp.actions_per_turn
    s.flight_used = False
    s.discarder = -1
    s.resume = ACTIONS
    s.draws_left = 0
    s.flood_left = 0
    s.swimmers = []
    s.sinking = -1
    s.outcome = None
    s.loss_causes = ()
    return s
