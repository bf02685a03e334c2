"""The Forbidden Desert rules engine: one mutable state, its legal actions and how an action changes it.

The board is kept by cell (0..24, ``tiles.CELLS``): what lies on a cell (its tile, sand, excavation, pawns,
parts) moves with the tile when the wind slides it into the storm cell. Tiles have no identity of their own
beyond what the team can see.

**Everything in the state is public.** Chance lives only in ``rng``, the game's generator, and what the
players cannot know is not stored anywhere, so it cannot be read:

- an unexcavated tile whose underside nobody has seen is ``HIDDEN_WATER`` (one of the 3 water-drop tiles)
  or ``HIDDEN`` (one of the 20 tiles that look alike). Its underside is drawn from the tiles of its kind not
  yet seen (2 wells + 1 mirage; the rest of the 24) at the moment it is excavated or looked at with a
  Terrascope, and is then known to the team. When only one kind is left for the hidden tiles of a pool,
  they are all known (the team can tell by elimination).
- the gear deck is a multiset (card counts); a gear card is picked at random when it is drawn.
- the storm deck is a known top (``stop``, the cards a Meteorologist has looked at and left on top, the top
  card last), a multiset of unknown order (``sdeck``) and a known bottom (``sbottom``, the cards put under
  the deck, the next one to come first). A card is taken from the first non-empty part, at random from
  the multiset.

This is the same, in distribution, as a shuffled board and shuffled decks; but a policy, which gets a state
without the generator (``copy()`` drops it; ``common.play.choose`` takes it away while a policy decides),
can copy the state and sample futures fairly and never read the real one.

Decisions (phases): the current player's actions (``actions``); before each storm card, whenever someone
could give water, give gear or play gear (``storm``); a Meteorologist who has looked at the storm deck puts
a card at the bottom or not (``peek``) and, under ``top_any_order``, stacks the rest (``order``). Gear is
played by any holder at any of the ``actions`` and ``storm`` decisions, and water and gear are given there
too (free actions, at any time, one water at a time; also by and to buried pawns: they are not actions).
A Meteorologist's look is one action: nothing is played between the look and her choice. Plays that would
change nothing are not listed: a Dune Blaster on a tile without sand, a Solar Shield while its user's is still up, a
Secret Water Reserve with every canteen on the tile full, a Terrascope on a tile already known.

Choices where the rules document is silent (each listed in the README):

- a Climber may also use the tunnels when they are blocked (her ability covers every move), and pawns on her
  blocked tile may leave it by a tunnel too;
- the Navigator cannot move a buried pawn; a Climber moved by the Navigator carries a pawn from her first
  tile to the last;
- a blocked tunnel still gives shade (the document asks only "an excavated tunnel");
- a Meteorologist's look takes the top cards there are (fewer if the deck is shorter, a new deck if it is
  empty), as many as the storm meter's cards per turn;
- the Launch Pad must be known to take off (excavated, seen with a Terrascope or known by elimination);
- with ``thirst_at_zero`` a pawn cannot give away its last water (0 is the skull there);
- a Water Carrier protected by a Climber may take water from a blocked well.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from ..common.state import IllegalActionError, StateBase  # noqa: F401  (IllegalActionError: re-exported)
from .actions import (
    BLAST,
    DRAW_STORM,
    END_ACTIONS,
    EXCAVATE,
    GIVE_GEAR,
    GIVE_WATER,
    JET,
    KEEP_TOP,
    MOVE,
    NAVIGATE,
    NOBODY,
    PEEK_STORM,
    PICK_UP,
    REDUCE_STORM,
    REMOVE_SAND,
    RESERVE,
    SCOPE,
    SHIELD,
    STACK,
    TAKE_WATER,
    THROTTLE,
    TO_BOTTOM,
    Action,
    action_text,
)
from .components import Components
from .rules import Rules
from .tiles import (
    ARCHEOLOGIST,
    AROUND,
    CLIMBER,
    DUNE_BLASTER,
    EXPLORER,
    GIVES_GEAR,
    HIDDEN_WATER,
    JET_PACK,
    LAUNCH_PAD,
    METEOROLOGIST,
    N_CELLS,
    NAVIGATOR,
    NO_TILE,
    ORTH,
    POOL_OF,
    SECRET_WATER_RESERVE,
    SIZE,
    SOLAR_SHIELD,
    STORM_PICKS_UP,
    TERRASCOPE,
    TILE_COUNTS,
    TIME_THROTTLE,
    TUNNEL,
    UPWIND,
    WATER_CARRIER,
    WELL,
    clue_part,
    column_clue,
    row_clue,
)

# Phases: ACTIONS, STORM, PEEK and ORDER are decisions; OVER ends the game.
ACTIONS: Final = 0
STORM: Final = 1
PEEK: Final = 2
ORDER: Final = 3
OVER: Final = 4
PHASES = ("actions", "storm", "peek", "order", "over")
# where a part is when it is not on a cell
NOT_FOUND: Final = -1
COLLECTED: Final = -2
_N_STORM_KINDS = 14
# a cell and its neighbours, sorted: where sand is removed or blasted from
ORTH_SELF: Final = tuple(tuple(sorted((c, *ORTH[c]))) for c in range(N_CELLS))
AROUND_SELF: Final = tuple(tuple(sorted((c, *AROUND[c]))) for c in range(N_CELLS))
ORTH_BITS: Final = tuple(sum(1 << d for d in ORTH[c]) for c in range(N_CELLS))  # the neighbours as bit masks
AROUND_BITS: Final = tuple(sum(1 << d for d in AROUND[c]) for c in range(N_CELLS))


class Recorder:
    """Collects what the log needs from the automatic steps: the storm cards drawn since the last reset, the
    pawns that ran dry, and each tile's travels. A tile is named by the cell it started on (tiles have no
    other identity the team could see): ``tile_at`` is the tile on each cell (-1: the storm), ``moves`` and
    ``peak_sand`` count per tile, ``excavated`` is the turn it was excavated (filled in by the play loop)."""

    __slots__ = ("storm_cards", "ran_dry", "tile_at", "moves", "peak_sand", "excavated")

    def __init__(self, s: GameState) -> None:
        self.storm_cards: list[int] = []
        self.ran_dry: tuple[int, ...] = ()
        self.tile_at = [-1 if k == NO_TILE else c for c, k in enumerate(s.kind)]
        self.moves = [0] * N_CELLS
        self.peak_sand = s.sand[:]
        self.excavated: list[int | None] = [None] * N_CELLS

    def slid(self, src: int, dst: int, sand: int) -> None:
        """The tile on ``src`` slid into the storm cell ``dst`` and now holds ``sand``."""
        t = self.tile_at[src]
        self.tile_at[dst], self.tile_at[src] = t, -1
        self.moves[t] += 1
        if sand > self.peak_sand[t]:
            self.peak_sand[t] = sand


def holds_gear(hand: list[int]) -> bool:
    """Whether a hand holds any gear card (a loop: compiled, ``any`` is a generic Python call)."""
    for count in hand:
        if count:
            return True
    return False


class GameState(StateBase):
    """A Forbidden Desert position. Decisions: ``legal_actions()``; change: ``apply(action)``."""

    PHASES = PHASES
    OVER = OVER
    action_text = staticmethod(action_text)

    __slots__ = (
        "rules", "comp", "roles", "n", "climber", "carrier", "track", "storm", "kind", "dug", "sand", "supply", "pos",
        "water", "hands", "gdeck", "gused", "parts", "level", "stop", "sdeck", "sbottom", "sdiscard", "sdrawn",
        "current", "turn", "phase", "actions_left", "skips", "storm_left", "shields", "window", "placed", "outcome",
        "loss_causes", "rng", "stats",
    )  # fmt: skip

    rules: Rules
    comp: Components  # the components in force, read at set-up (shared by every copy)
    roles: tuple[int, ...]
    climber: int  # the Climber's seat, -1 without one
    carrier: int  # the Water Carrier's seat, -1 without one
    track: tuple[int, ...]  # storm cards per turn at each mark of the meter (the components', for this player count)
    kind: list[int]  # per cell: the tile's underside (tiles.KINDS), HIDDEN_WATER/HIDDEN, NO_TILE on the storm
    dug: list[int]  # per cell: 1 once excavated
    sand: list[int]  # per cell
    pos: list[int]  # per player: the cell of the pawn
    water: list[int]
    hands: list[list[int]]  # per player: count of each gear card
    gdeck: list[int]  # gear draw pile (counts); gused: the gear played (it has left the game)
    parts: list[int]  # per part: its cell (waiting on the storm cell if that is where it lies), NOT_FOUND, COLLECTED
    stop: list[int]  # storm deck: known top cards, the top card last
    sdeck: list[int]  # ... then a multiset of unknown order (counts per storm card)
    sbottom: list[int]  # ... then known cards put at the bottom, the next to be drawn first
    window: list[int]  # a Meteorologist's looked-at cards awaiting a decision (top first; sorted in ORDER)
    placed: list[int]  # ORDER: the looked-at cards already stacked, top first
    n: int
    storm: int  # the storm's cell
    supply: int  # sand markers not on the board
    gused: list[int]
    level: int  # the storm meter's mark
    sdiscard: list[int]
    sdrawn: list[int]
    current: int
    turn: int
    phase: int
    actions_left: int
    skips: int
    storm_left: int
    shields: int  # bit mask of the seats whose Solar Shield is up
    outcome: str | None
    loss_causes: tuple[str, ...]
    rng: random.Random | None
    stats: Recorder | None

    # ----------------------------------------------------------------- copying and queries
    def seat(self, roles: tuple[int, ...]) -> None:
        """Give the players their roles (and note who the Climber and the Water Carrier are)."""
        self.roles = roles
        self.climber = roles.index(CLIMBER) if CLIMBER in roles else -1
        self.carrier = roles.index(WATER_CARRIER) if WATER_CARRIER in roles else -1

    def copy(self, rng: random.Random | None = None) -> GameState:
        """A deep copy without the game's generator; pass ``rng`` to let the copy draw cards and tiles."""
        s = GameState.__new__(GameState)
        s.rules = self.rules
        s.comp = self.comp
        s.roles = self.roles
        s.n = self.n
        s.climber = self.climber
        s.carrier = self.carrier
        s.track = self.track
        s.storm = self.storm
        s.kind = self.kind[:]
        s.dug = self.dug[:]
        s.sand = self.sand[:]
        s.supply = self.supply
        s.pos = self.pos[:]
        s.water = self.water[:]
        s.hands = [h[:] for h in self.hands]
        s.gdeck = self.gdeck[:]
        s.gused = self.gused[:]
        s.parts = self.parts[:]
        s.level = self.level
        s.stop = self.stop[:]
        s.sdeck = self.sdeck[:]
        s.sbottom = self.sbottom[:]
        s.sdiscard = self.sdiscard[:]
        s.sdrawn = self.sdrawn[:]
        s.current = self.current
        s.turn = self.turn
        s.phase = self.phase
        s.actions_left = self.actions_left
        s.skips = self.skips
        s.storm_left = self.storm_left
        s.shields = self.shields
        s.window = self.window[:]
        s.placed = self.placed[:]
        s.outcome = self.outcome
        s.loss_causes = self.loss_causes
        s.rng = rng
        s.stats = None
        return s

    @property
    def decider(self) -> int:
        """The seat whose decision it is (the team decides together; it is the current player's turn)."""
        return self.current

    def storm_cards(self) -> int:
        """Storm cards drawn per turn at the meter's current mark."""
        return self.track[self.level - 1]

    def skull(self) -> int:
        """The mark of the skull: the storm meter reaching it loses the game."""
        return len(self.track) + 1

    def deck_size(self) -> int:
        return len(self.stop) + sum(self.sdeck) + len(self.sbottom)

    def buried(self, q: int) -> bool:
        """A pawn on a blocked tile (2+ sand) without the Climber."""
        x = self.pos[q]
        return self.sand[x] >= 2 and not (self.climber >= 0 and self.pos[self.climber] == x)

    def parts_collected(self) -> int:
        return self.parts.count(COLLECTED)

    def launch_pad(self) -> int:
        """The cell of the Launch Pad if the team knows it, else -1."""
        kind = self.kind
        for c in range(N_CELLS):
            if kind[c] == LAUNCH_PAD:
                return c
        return -1

    # ----------------------------------------------------------------- legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action of the pending decision, in a fixed order."""
        ph = self.phase
        if ph == ACTIONS:
            acts = self.own_actions()
            acts.extend(self.free_actions())
            acts.extend(self.gear_actions())
            acts.append((END_ACTIONS, self.current))
            return acts
        if ph == STORM:
            acts = [(DRAW_STORM,)]
            acts.extend(self.free_actions())
            acts.extend(self.gear_actions())
            return acts
        if ph == PEEK:
            return self._bottom_choices()
        if ph == ORDER:
            p = self.current
            return [(STACK, p, c) for i, c in enumerate(self.window) if i == 0 or c != self.window[i - 1]]
        return []

    def own_actions(self) -> list[Action]:
        """The current player's own actions (they cost an action): the legal list starts with exactly these."""
        acts: list[Action] = []
        if self.phase != ACTIONS or not self.actions_left:
            return acts
        p = self.current
        x = self.pos[p]
        role = self.roles[p]
        sand = self.sand
        if self.buried(p):  # a buried pawn may only dig itself out
            acts.append((REMOVE_SAND, p, x))
            return acts
        # move (the Climber may carry one pawn of her tile along)
        riders = self._others_on(x, p) if role == CLIMBER else []
        # (loops, not generators: this runs at every decision of the heuristic, which checks its plan)
        for c in self.steps(role, x):
            acts.append((MOVE, p, c, NOBODY))
            for q in riders:
                acts.append((MOVE, p, c, q))
        # remove sand
        for c in AROUND_SELF[x] if role == EXPLORER else ORTH_SELF[x]:
            if sand[c]:
                acts.append((REMOVE_SAND, p, c))
        # excavate, pick up a part
        if not self.dug[x] and not sand[x]:
            acts.append((EXCAVATE, p))
        if self.dug[x] and sand[x] < 2:
            for i, at in enumerate(self.parts):
                if at == x:
                    acts.append((PICK_UP, p, i))
        # role abilities
        if role == NAVIGATOR:
            unblocked, tiles, tunnels = self._masks()
            for q in range(self.n):
                if q != p and not self.buried(q):
                    y = self.pos[q]
                    carry = self._others_on(y, q) if self.roles[q] == CLIMBER else []
                    for c in self._nav_reach(self.roles[q], y, unblocked, tiles, tunnels):
                        acts.append((NAVIGATE, p, q, c, NOBODY))
                        for r in carry:
                            acts.append((NAVIGATE, p, q, c, r))
        elif role == METEOROLOGIST:
            if self.skips < self.storm_cards():
                acts.append((REDUCE_STORM, p))
            acts.append((PEEK_STORM, p))
        elif role == WATER_CARRIER and self.kind[x] == WELL and self.dug[x]:
            if self.water[p] < self.comp.canteens[role]:
                acts.append((TAKE_WATER, p))
        return acts

    def is_own_action(self, a: Action) -> bool:
        """Whether ``a`` is in ``own_actions()``, without listing them (the heuristic following its plan asks
        this at every action)."""
        if self.phase != ACTIONS or not self.actions_left or len(a) < 2 or a[1] != self.current:
            return False
        k, p, n = a[0], a[1], len(a)
        x = self.pos[p]
        role = self.roles[p]
        sand = self.sand
        if self.buried(p):
            return k == REMOVE_SAND and n == 3 and a[2] == x
        if k == MOVE:
            return n == 4 and a[2] in self.steps(role, x) and (
                a[3] == NOBODY or role == CLIMBER and a[3] in self._others_on(x, p)
            )
        if k == REMOVE_SAND:
            return n == 3 and a[2] in (AROUND_SELF[x] if role == EXPLORER else ORTH_SELF[x]) and sand[a[2]] > 0
        if k == EXCAVATE:
            return n == 2 and not self.dug[x] and not sand[x]
        if k == PICK_UP:
            i = a[2] if n == 3 else -1
            return self.dug[x] != 0 and sand[x] < 2 and 0 <= i < len(self.parts) and self.parts[i] == x
        if k == NAVIGATE:
            if role != NAVIGATOR or n != 5:
                return False
            q, r = a[2], a[4]
            if not 0 <= q < self.n or q == p or self.buried(q) or a[3] not in self.navigator_targets(q):
                return False
            return r == NOBODY or self.roles[q] == CLIMBER and r in self._others_on(self.pos[q], q)
        if k == REDUCE_STORM:
            return role == METEOROLOGIST and n == 2 and self.skips < self.storm_cards()
        if k == PEEK_STORM:
            return role == METEOROLOGIST and n == 2
        if k == TAKE_WATER:
            return (n == 2 and role == WATER_CARRIER and self.kind[x] == WELL and self.dug[x] != 0
                    and self.water[p] < self.comp.canteens[role])  # fmt: skip
        return False

    def _others_on(self, x: int, p: int) -> list[int]:
        return [q for q in range(self.n) if q != p and self.pos[q] == x]

    def free_actions(self) -> list[Action]:
        """Water and gear given (free, at any time, by anyone): part of the actions and storm decisions."""
        acts: list[Action] = []
        if self.phase == ACTIONS or self.phase == STORM:
            self._free(acts, False)
        return acts

    def _free(self, acts: list[Action], first: bool) -> None:
        """List the free actions into ``acts`` (with ``first``, stop at the first one found)."""
        n, pos, water, roles, hands = self.n, self.pos, self.water, self.roles, self.hands
        wc = self.carrier
        shared = seen = 0  # bit masks of the tiles with two pawns or more, with one or more
        for x in pos:
            if seen >> x & 1:
                shared |= 1 << x
            seen |= 1 << x
        if wc >= 0 and not seen & ORTH_BITS[pos[wc]]:
            wc = -1  # nobody next to the Water Carrier: she gives like anybody
        if not shared and wc < 0:
            return  # every pawn alone: nothing to give
        keep = 1 if self.rules.thirst_at_zero else 0
        canteens = self.comp.canteens
        for a in range(n):
            x = pos[a]
            if a != wc and not shared >> x & 1:
                continue  # nobody within reach
            mates = [b for b in range(n) if b != a and pos[b] == x]
            reach = sorted(mates + [b for b in range(n) if pos[b] in ORTH[x]]) if a == wc else mates
            if reach and water[a] > keep:
                acts.extend((GIVE_WATER, a, b) for b in reach if water[b] < canteens[roles[b]])
            hand = hands[a]
            if mates and holds_gear(hand):
                for b in mates:
                    acts.extend((GIVE_GEAR, a, b, g) for g in range(6) if hand[g])
            if first and acts:
                return

    def gear_actions(self, holders: Sequence[int] | None = None, first: bool = False) -> list[Action]:
        """The gear plays open now (by any holder at the actions and storm decisions; or by ``holders``); with
        ``first``, those of the first holder who has any."""
        acts: list[Action] = []
        if self.phase != ACTIONS and self.phase != STORM:
            return acts
        kind, sand, pos = self.kind, self.sand, self.pos
        for h in range(self.n) if holders is None else holders:
            hand = self.hands[h]
            if not holds_gear(hand):
                continue
            x = pos[h]
            if hand[DUNE_BLASTER]:
                for c in AROUND_SELF[x] if self.roles[h] == EXPLORER else ORTH_SELF[x]:
                    if sand[c]:
                        acts.append((BLAST, h, c))
            if hand[JET_PACK] and (self.rules.jet_pack_when_buried or not self.buried(h)):
                riders = self._others_on(x, h)
                for c in range(N_CELLS):
                    if c != x and kind[c] != NO_TILE and sand[c] < 2:
                        acts.append((JET, h, c, NOBODY))
                        for q in riders:
                            acts.append((JET, h, c, q))
            if hand[SOLAR_SHIELD] and not self.shields >> h & 1:
                acts.append((SHIELD, h))
            if hand[TERRASCOPE]:
                acts.extend((SCOPE, h, c) for c in range(N_CELLS) if kind[c] >= HIDDEN_WATER)
            if hand[SECRET_WATER_RESERVE] and any(
                pos[q] == x and self.water[q] < self.comp.canteens[self.roles[q]] for q in range(self.n)
            ):
                acts.append((RESERVE, h))
            if hand[TIME_THROTTLE] and h == self.current and self.phase == ACTIONS:
                acts.append((THROTTLE, h))
            if first and acts:
                break
        return acts

    def _bottom_choices(self) -> list[Action]:
        """PEEK: put one looked-at card at the bottom (one choice per distinct outcome), or none."""
        p, w = self.current, self.window
        acts: list[Action]
        if self.rules.meteorologist_peek_return == "top_same_order":
            acts = [(TO_BOTTOM, p, i) for i in range(len(w)) if i == 0 or w[i] != w[i - 1]]
        else:  # the rest is stacked afterwards: only which card goes matters
            acts = [(TO_BOTTOM, p, i) for i in range(len(w)) if w[i] not in w[:i]]
        acts.append((KEEP_TOP, p))
        return acts

    def _choice_open(self) -> bool:
        """Whether anyone may give water, give gear or play gear now (else the game runs on by itself)."""
        acts: list[Action] = []
        self._free(acts, True)
        if acts:
            return True
        holders = [h for h in range(self.n) if holds_gear(self.hands[h])]
        return bool(holders) and bool(self.gear_actions(holders, first=True))

    # ----------------------------------------------------------------- movement geometry
    def steps(self, role: int, x: int) -> list[int]:
        """Cells a pawn of ``role`` on cell x reaches in one move: a neighbour (diagonals too for the
        Explorer) or, from an excavated tunnel, another excavated tunnel; never the storm; unblocked tiles
        only, except for the Climber."""
        kind, sand = self.kind, self.sand
        climb = role == CLIMBER
        out = [c for c in (AROUND[x] if role == EXPLORER else ORTH[x]) if kind[c] != NO_TILE and (climb or sand[c] < 2)]
        if kind[x] == TUNNEL and self.dug[x]:
            jumps = [c for c in self._tunnels() if c != x and c not in out and (climb or sand[c] < 2)]
            if jumps:
                out = sorted(out + jumps)
        return out

    def _tunnels(self) -> list[int]:
        """The cells of the excavated tunnels."""
        kind, dug = self.kind, self.dug
        return [c for c in range(N_CELLS) if kind[c] == TUNNEL and dug[c]] if TUNNEL in kind else []

    def navigator_targets(self, q: int) -> list[int]:
        """Cells the Navigator can move pawn q to: 1 to 3 steps by q's own way of moving."""
        unblocked, tiles, tunnels = self._masks()
        return self._nav_reach(self.roles[q], self.pos[q], unblocked, tiles, tunnels)

    def _masks(self) -> tuple[int, int, int]:
        """Bit masks of cells: those a pawn may step onto (the Climber: any tile), the excavated tunnels."""
        kind, sand = self.kind, self.sand
        tiles = unblocked = tunnels = 0
        for c in range(N_CELLS):
            if kind[c] != NO_TILE:
                tiles |= 1 << c
                if sand[c] < 2:
                    unblocked |= 1 << c
        for c in self._tunnels():
            tunnels |= 1 << c
        return unblocked, tiles, tunnels

    @staticmethod
    def _nav_reach(role: int, y: int, unblocked: int, tiles: int, tunnels: int) -> list[int]:
        near = AROUND_BITS if role == EXPLORER else ORTH_BITS
        enter = tiles if role == CLIMBER else unblocked
        seen = frontier = 1 << y
        for _ in range(3):  # (cells by a scan of the bits: int.bit_length() is a slow method call compiled)
            step = tunnels if frontier & tunnels else 0
            for c in range(N_CELLS):
                if frontier >> c & 1:
                    step |= near[c]
            frontier = step & enter & ~seen
            seen |= frontier
        seen ^= 1 << y
        return [c for c in range(N_CELLS) if seen >> c & 1]

    # ----------------------------------------------------------------- applying actions
    def apply(self, a: Action) -> None:
        """Apply a legal action (taken from ``legal_actions()``) and run the game on to the next decision."""
        k: int = a[0]  # (typed: compiled, the comparisons below are native)
        if k == MOVE:
            self.pos[a[1]] = a[2]
            if a[3] != NOBODY:
                self.pos[a[3]] = a[2]
            self.actions_left -= 1
        elif k == REMOVE_SAND:
            c = a[2]
            take = min(self.sand[c], 2 if self.roles[a[1]] == ARCHEOLOGIST else 1)
            self.sand[c] -= take
            self.supply += take
            self.actions_left -= 1
        elif k == GIVE_WATER:
            self.water[a[1]] -= 1
            self.water[a[2]] += 1
        elif k == GIVE_GEAR:
            self.hands[a[1]][a[3]] -= 1
            self.hands[a[2]][a[3]] += 1
        elif k == DRAW_STORM:
            self._draw_storm()
        elif k == END_ACTIONS:
            self.actions_left = 0
            self._start_storm()
        elif k == EXCAVATE:
            self._excavate(a[1])
            self.actions_left -= 1
        elif k == PICK_UP:
            self.parts[a[2]] = COLLECTED
            self.actions_left -= 1
        elif k == NAVIGATE:
            self.pos[a[2]] = a[3]
            if a[4] != NOBODY:
                self.pos[a[4]] = a[3]
            self.actions_left -= 1
        elif k == REDUCE_STORM:
            self.skips += 1
            self.actions_left -= 1
        elif k == PEEK_STORM:
            self.actions_left -= 1
            self._peek()
        elif k == TO_BOTTOM:
            self.sbottom.append(self.window.pop(a[2]))
            self._return_window()
        elif k == KEEP_TOP:
            self._return_window()
        elif k == STACK:
            self.window.remove(a[2])
            self.placed.append(a[2])
            self._return_window()
        elif k == TAKE_WATER:
            p = a[1]
            self.water[p] = min(self.comp.canteens[self.roles[p]], self.water[p] + 2)
            self.actions_left -= 1
        elif k == BLAST:
            self._spend(a[1], DUNE_BLASTER)
            self.supply += self.sand[a[2]]
            self.sand[a[2]] = 0
        elif k == JET:
            self._spend(a[1], JET_PACK)
            self.pos[a[1]] = a[2]
            if a[3] != NOBODY:
                self.pos[a[3]] = a[2]
        elif k == SHIELD:
            self._spend(a[1], SOLAR_SHIELD)
            self.shields |= 1 << a[1]
        elif k == SCOPE:
            self._spend(a[1], TERRASCOPE)
            self._reveal(a[2])
        elif k == RESERVE:
            self._spend(a[1], SECRET_WATER_RESERVE)
            self._give_all(self.pos[a[1]], 2)
        elif k == THROTTLE:
            self._spend(a[1], TIME_THROTTLE)
            self.actions_left += 2
        else:
            raise IllegalActionError(f"unknown action {a!r}")
        if self.phase != OVER:
            self._check_win()
        self._advance()

    def _spend(self, p: int, card: int) -> None:
        self.hands[p][card] -= 1
        self.gused[card] += 1

    def _give_all(self, x: int, amount: int) -> None:
        """Every pawn on cell x gains water, up to its canteen."""
        for q in range(self.n):
            if self.pos[q] == x:
                self.water[q] = min(self.comp.canteens[self.roles[q]], self.water[q] + amount)

    def _check_win(self) -> None:
        """Take off: all parts collected, every pawn on the known, unblocked Launch Pad."""
        if self.parts.count(COLLECTED) < 4:
            return
        x = self.pos[0]
        if self.kind[x] != LAUNCH_PAD or self.sand[x] >= 2 or (self.rules.launch_pad_needs_excavation
                                                                and not self.dug[x]):  # fmt: skip
            return
        if all(y == x for y in self.pos):
            self.outcome = "win"
            self.phase = OVER

    def _advance(self) -> None:
        """Run the automatic steps until a decision is pending or the game is over."""
        while True:
            ph = self.phase
            if ph == ACTIONS:
                if self.actions_left > 0 or self._choice_open():
                    return
                self._start_storm()
            elif ph == STORM:
                if self.storm_left == 0:
                    self._end_storm()
                elif self._choice_open():
                    return
                else:
                    self._draw_storm()
            else:
                return

    # ----------------------------------------------------------------- excavation and the hidden tiles
    def _excavate(self, p: int) -> None:
        x = self.pos[p]
        k = self.kind[x]
        if k >= HIDDEN_WATER:
            k = self._reveal(x)
        self.dug[x] = 1
        if GIVES_GEAR[k]:
            self._draw_gear(p)
        elif k == WELL:
            self._give_all(x, 2)
        else:
            part = clue_part(k)
            if part >= 0:
                self._place_part(part)

    def _reveal(self, x: int) -> int:
        """Draw the underside of the hidden tile on cell x from the tiles of its pool not yet seen."""
        kind = self.kind
        hidden = kind[x]
        pool = POOL_OF[hidden]
        seen = self._kind_counts()
        left = [TILE_COUNTS[k] - seen[k] for k in pool]
        r = int(self.rng.random() * sum(left))  # type: ignore[union-attr]  # drawn only with it
        i = 0
        while r >= left[i]:
            r -= left[i]
            i += 1
        kind[x] = pool[i]
        self.settle(hidden)
        return pool[i]

    def _kind_counts(self) -> list[int]:
        """The tiles of each kind on the board (hidden ones by their look), in one pass over the cells."""
        seen = [0] * 16
        for k in self.kind:
            if k >= 0:
                seen[k] = seen[k] + 1  # (not +=: compiled, that is a generic Python addition on a list item)
        return seen

    def settle(self, hidden: int) -> None:
        """When one kind is left for the hidden tiles of a pool, they are all known by elimination."""
        kind = self.kind
        seen = self._kind_counts()
        rest = [k for k in POOL_OF[hidden] if TILE_COUNTS[k] > seen[k]]
        if len(rest) == 1:
            for c in range(N_CELLS):
                if kind[c] == hidden:
                    kind[c] = rest[0]

    def _draw_gear(self, p: int) -> None:
        deck = self.gdeck
        total = sum(deck)
        if not total:
            return
        r = int(self.rng.random() * total)  # type: ignore[union-attr]  # drawn only with it
        g = 0
        while r >= deck[g]:
            r -= deck[g]
            g += 1
        deck[g] -= 1
        self.hands[p][g] += 1

    def _place_part(self, part: int) -> None:
        """When both of a part's clues are excavated, it appears where the clue row and column cross."""
        kind, dug = self.kind, self.dug
        rc, cc = row_clue(part), column_clue(part)
        at_row = next((c for c in range(N_CELLS) if kind[c] == rc and dug[c]), -1)
        at_col = next((c for c in range(N_CELLS) if kind[c] == cc and dug[c]), -1)
        if at_row >= 0 and at_col >= 0 and self.parts[part] == NOT_FOUND:
            self.parts[part] = at_row // SIZE * SIZE + at_col % SIZE

    # ----------------------------------------------------------------- the storm deck
    def _start_storm(self) -> None:
        self.phase = STORM
        self.storm_left = max(0, self.storm_cards() - self.skips)

    def _end_storm(self) -> None:
        if any(self.sdrawn):
            self.sdiscard = [a + b for a, b in zip(self.sdiscard, self.sdrawn, strict=True)]
            self.sdrawn = [0] * _N_STORM_KINDS
        self._next_turn()

    def _next_card(self) -> int:
        """Take the top storm card (a new deck from the discard pile if the deck is empty)."""
        if self.stop:
            return self.stop.pop()
        deck = self.sdeck
        total = sum(deck)
        if not total:
            if self.sbottom:
                return self.sbottom.pop(0)
            self.sdeck, self.sdiscard = self.sdiscard, [0] * _N_STORM_KINDS
            deck = self.sdeck
            total = sum(deck)
        r = int(self.rng.random() * total)  # type: ignore[union-attr]  # drawn only with it
        card = 0
        while r >= deck[card]:
            r -= deck[card]
            card += 1
        deck[card] -= 1
        return card

    def _peek(self) -> None:
        """The Meteorologist looks at the top cards: as many as the storm meter's cards per turn."""
        if not self.deck_size():
            self.sdeck, self.sdiscard = self.sdiscard, [0] * _N_STORM_KINDS
        self.window = [self._next_card() for _ in range(min(self.storm_cards(), self.deck_size()))]
        self.phase = PEEK

    def _return_window(self) -> None:
        """The looked-at cards go back on top: as they were, or stacked by the team (``top_any_order``)."""
        w = self.window
        if len(set(w)) > 1:
            if self.phase == PEEK and self.rules.meteorologist_peek_return == "top_any_order":
                w.sort()
                self.phase = ORDER
                return
            if self.phase == ORDER:
                return  # more cards to stack
        self.stop.extend(reversed(self.placed + w))  # placed and w are top first; the top card goes last
        self.window = []
        self.placed = []
        self.phase = ACTIONS

    def _draw_storm(self) -> None:
        """Draw one storm card and resolve it."""
        self.storm_left -= 1
        card = self._next_card()
        if self.rules.reshuffle_includes_this_draw:
            self.sdiscard[card] += 1
        else:
            self.sdrawn[card] += 1
        if self.stats is not None:
            self.stats.storm_cards.append(card)
        if card < STORM_PICKS_UP:
            self._wind(card // 3, card % 3 + 1)
        elif card == STORM_PICKS_UP:
            self.level += 1
            if self.level >= self.skull():
                self._lose("storm")
        else:
            self._sun()
        if self.phase != OVER:
            self._check_win()

    def _wind(self, d: int, strength: int) -> None:
        """Slide up to ``strength`` tiles into the storm, towards d; each gains a sand marker."""
        upwind = UPWIND[d]
        kind, dug, sand, pos, parts = self.kind, self.dug, self.sand, self.pos, self.parts
        for _ in range(strength):
            x = self.storm
            src = upwind[x]
            if src < 0:
                return
            kind[x], dug[x], sand[x] = kind[src], dug[src], sand[src]
            kind[src], dug[src], sand[src] = NO_TILE, 0, 0
            for q in range(self.n):
                if pos[q] == src:
                    pos[q] = x
            for i in range(4):  # a part waiting on the storm cell stays: it is now on the tile that slid in
                if parts[i] == src:
                    parts[i] = x
            self.storm = src
            buried = not self.supply
            if not buried:
                self.supply -= 1
                sand[x] += 1
            if self.stats is not None:
                self.stats.slid(src, x, sand[x])
            if buried:
                self._lose("buried")
                return

    def _sun(self) -> None:
        """Every pawn not in the shade of an excavated tunnel or a Solar Shield loses 1 water."""
        dry = []
        pos, water = self.pos, self.water
        shade = [x for u, x in enumerate(pos) if self.shields >> u & 1]
        for q in range(self.n):
            x = pos[q]
            if (self.kind[x] == TUNNEL and self.dug[x]) or x in shade:
                continue
            if water[q] == 0:
                dry.append(q)
            else:
                water[q] -= 1
                if water[q] == 0 and self.rules.thirst_at_zero:
                    dry.append(q)
        if dry:
            if self.stats is not None:
                self.stats.ran_dry = tuple(dry)
            self._lose("thirst")

    def _next_turn(self) -> None:
        self.turn += 1
        self.current = (self.current + 1) % self.n
        self.actions_left = self.comp.actions_per_turn
        self.skips = 0
        self.shields &= ~(1 << self.current)  # a Solar Shield lasts until the start of its user's next turn
        self.phase = ACTIONS

    def _lose(self, cause: str) -> None:
        self.loss_causes = (cause,)
        self.outcome = "loss"
        self.phase = OVER
