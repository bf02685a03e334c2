"""The rules engine: one mutable state object, its legal actions and how an action changes it.

Everything in the state is public information. Chance lives only in ``rng``: a draw pile is kept as
segments of unknown order (the cards a Waters Rise! put back on top form the top segment), and a card is
picked at random from the top segment when it is drawn. A copy never carries the game's generator, so a
player that copies the state to look ahead cannot see the real future.
"""

from __future__ import annotations

import random
from itertools import repeat
from typing import Final

from ..common.play import LegalActions  # noqa: F401  (re-exported: the island's policies use it)
from ..common.state import IllegalActionError, StateBase  # noqa: F401  (IllegalActionError: re-exported)
from .actions import (
    CAPTURE,
    DISCARD,
    DRAW_FLOOD,
    END_ACTIONS,
    FLY,
    GIVE,
    HELI_PLAY,
    LIFT_OFF,
    MOVE,
    NAVIGATE,
    NO_TILE,
    SANDBAGS_PLAY,
    SHORE_UP,
    SWIM,
    Action,
    action_text,
)
from .board import Board
from .components import Components
from .rules import Rules
from .tiles import (
    DIVER,
    DRY,
    ENGINEER,
    EXPLORER,
    FLOODED,
    FOOLS_LANDING,
    HELICOPTER_LIFT,
    LOSS_CAUSES,
    MESSENGER,
    NAVIGATOR,
    PILOT,
    SANDBAGS,
    SUNK,
    TILE_TREASURE,
    TREASURE_TILES,
    WATERS_RISE,
)

# Phases. ACTIONS, DISCARD, FLOOD and SWIM are decisions; DRAW is automatic; OVER ends the game.
ACTIONS: Final = 0
DISCARD_PHASE: Final = 1
FLOOD: Final = 2
SWIM_PHASE: Final = 3
DRAW: Final = 4
OVER: Final = 5
PHASES: Final = ("actions", "discard", "flood", "swim", "draw", "over")
ALL_TREASURES: Final = 0b1111
_SUNK_ONLY: Final = bytes(SUNK if i == SUNK else 0 for i in range(256))  # tile states -> which tiles have sunk
_N_TILES: Final = 24


class Recorder:
    """Collects what the log needs from the automatic steps (flood draws, Waters Rise!, sinkings, and what
    a loss took: the treasure whose tiles sank, the tile a pawn drowned on)."""

    __slots__ = ("flood_draws", "waters_rise", "times_flooded", "sunk_turn", "lost_treasure", "drowned_tile")

    def __init__(self) -> None:
        self.flood_draws: list[int] = []
        self.waters_rise = 0
        self.times_flooded = [0] * _N_TILES
        self.sunk_turn: list[int | None] = [None] * _N_TILES
        self.lost_treasure: int | None = None
        self.drowned_tile: int | None = None


class GameState(StateBase):
    """A Forbidden Island position. Decisions: ``legal_actions()``; change: ``apply(action)``."""

    PHASES = PHASES
    OVER = OVER
    action_text = staticmethod(action_text)

    __slots__ = (
        "board", "rules", "comp", "roles", "n", "pos", "hands", "tiles", "tdeck", "tdiscard", "fdeck", "fdiscard",
        "water", "captured", "current", "turn", "phase", "actions_left", "flight_used", "discarder",
        "resume", "draws_left", "flood_left", "swimmers", "sinking", "outcome", "loss_causes", "rng", "stats",
    )  # fmt: skip

    board: Board
    rules: Rules
    comp: Components  # the components in force, read at set-up (shared by every copy)
    roles: tuple[int, ...]
    pos: list[int]
    hands: list[list[int]]  # per player, count of each card kind 0..5 (treasures, helicopter lift, sandbags)
    tiles: list[int]  # DRY / FLOODED / SUNK per tile index
    tdeck: list[int]  # treasure draw pile: count of each card kind 0..6 (one segment of unknown order)
    tdiscard: list[int]
    fdeck: list[list[int]]  # flood draw pile: segments of unknown order, the top segment last
    fdiscard: list[int]
    n: int
    water: int
    captured: int  # bit mask of the captured treasures
    current: int
    turn: int
    phase: int
    actions_left: int
    flight_used: bool
    discarder: int
    resume: int
    draws_left: int
    flood_left: int
    swimmers: list[int]
    sinking: int
    outcome: str | None
    loss_causes: tuple[str, ...]
    rng: random.Random | None
    stats: Recorder | None

    # ----------------------------------------------------------------- copying and queries
    def copy(self, rng: random.Random | None = None) -> GameState:
        """A deep copy without the game's generator; pass ``rng`` to let the copy draw cards."""
        s = GameState.__new__(GameState)
        s.board = self.board
        s.rules = self.rules
        s.comp = self.comp
        s.roles = self.roles
        s.n = self.n
        s.pos = self.pos[:]
        s.hands = [h[:] for h in self.hands]
        s.tiles = self.tiles[:]
        s.tdeck = self.tdeck[:]
        s.tdiscard = self.tdiscard[:]
        s.fdeck = [seg[:] for seg in self.fdeck]
        s.fdiscard = self.fdiscard[:]
        s.water = self.water
        s.captured = self.captured
        s.current = self.current
        s.turn = self.turn
        s.phase = self.phase
        s.actions_left = self.actions_left
        s.flight_used = self.flight_used
        s.discarder = self.discarder
        s.resume = self.resume
        s.draws_left = self.draws_left
        s.flood_left = self.flood_left
        s.swimmers = self.swimmers[:]
        s.sinking = self.sinking
        s.outcome = self.outcome
        s.loss_causes = self.loss_causes
        s.rng = rng
        s.stats = None
        return s

    @property
    def decider(self) -> int:
        """The seat whose decision it is (for team-wide special-card decisions: the current player)."""
        if self.phase == DISCARD_PHASE:
            return self.discarder
        if self.phase == SWIM_PHASE:
            return self.swimmers[0]
        return self.current

    def treasures_captured(self) -> int:
        return bin(self.captured).count("1")

    # ----------------------------------------------------------------- legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action of the pending decision, in a fixed order."""
        ph = self.phase
        acts: list[Action]
        if ph == ACTIONS:
            acts = self.own_actions()
            acts += self.special_actions()
            acts.append((END_ACTIONS, self.current))
        elif ph == FLOOD:
            acts = [(DRAW_FLOOD,)]
            acts += self.special_actions()
        elif ph == DISCARD_PHASE:
            acts = self.discards()
            acts += self.special_actions()
        elif ph == SWIM_PHASE:
            p = self.swimmers[0]
            acts = [(SWIM, p, t) for t in self.swim_targets(p)]
            acts += self.special_actions()
        else:
            acts = []
        return acts

    def special_actions(self) -> list[Action]:
        """The Sandbags, Helicopter Lift and lift-off plays open in the pending decision (in the order of
        the legal list): see ``special_players``; in the swim phase, Helicopter rescues of the pawns on a
        sinking tile."""
        acts: list[Action] = []
        if self.phase == SWIM_PHASE:
            if self.rules.helicopter_rescue:
                self._heli_from(acts, self.sinking)
        else:
            self._special_plays(acts, self.special_players())
        return acts

    def special_players(self) -> range | tuple[int, ...]:
        """Who may play a special card now (outside the swim phase): anyone in the actions and flood
        phases, the discarder over the hand limit."""
        ph = self.phase
        if ph == ACTIONS or ph == FLOOD:
            return range(self.n)
        return (self.discarder,) if ph == DISCARD_PHASE else ()

    def discards(self) -> list[Action]:
        """The discarder's discards: in the discard phase, the legal list starts with exactly these."""
        if self.phase != DISCARD_PHASE:
            return []
        p = self.discarder
        hand = self.hands[p]
        return [(DISCARD, p, c) for c in range(6) if hand[c]]

    def _may_play(self, holder: int, card: int) -> bool:
        """Whether ``holder`` may play a special card of kind ``card`` now (the swim phase's lifts are rescues)."""
        return (
            0 <= holder < self.n and self.hands[holder][card] > 0 and self.phase != SWIM_PHASE
            and holder in self.special_players()
        )  # fmt: skip

    def sandbags_actions(self, holder: int) -> list[Action]:
        """The Sandbags plays ``holder`` may make now (part of ``special_actions``, in its order)."""
        acts: list[Action] = []
        if self._may_play(holder, SANDBAGS):
            self._sandbags_plays(acts, holder)
        return acts

    def is_sandbags_action(self, a: Action) -> bool:
        """Whether ``a`` is in ``sandbags_actions(a[1])``, without listing them."""
        if a[0] != SANDBAGS_PLAY or not self._may_play(a[1], SANDBAGS):
            return False
        t = a[2]
        return 0 <= t < _N_TILES and self.tiles[t] == FLOODED

    def heli_actions(self, holder: int) -> list[Action]:
        """The Helicopter Lift moves ``holder`` may play now (part of ``special_actions``; no lift-off)."""
        acts: list[Action] = []
        if self._may_play(holder, HELICOPTER_LIFT):
            self._heli_moves(acts, holder)
        return acts

    def is_heli_action(self, a: Action) -> bool:
        """Whether ``a`` is in ``heli_actions(a[1])``, without listing them."""
        if a[0] != HELI_PLAY or not self._may_play(a[1], HELICOPTER_LIFT):
            return False
        mask, t = a[2], a[3]
        if mask <= 0 or mask >> self.n or not 0 <= t < _N_TILES or self.tiles[t] == SUNK:
            return False
        src = self.pos[(mask & -mask).bit_length() - 1]
        group = 0
        for q, x in enumerate(self.pos):
            if x == src:
                group |= 1 << q
        if t == src or mask & ~group:
            return False
        return self.rules.helicopter_lift_group == "subset" or mask == group

    def sunk_tiles(self) -> bytes:
        """Which tiles have sunk, as bytes (non-zero where sunk): a cheap, hashable cache key."""
        return bytes(self.tiles).translate(_SUNK_ONLY)

    def own_actions(self) -> list[Action]:
        """The current player's own actions (move, shore up, give, capture, role abilities): in the
        actions phase, the legal list starts with exactly these, special plays come after."""
        acts: list[Action] = []
        if self.phase == ACTIONS and self.actions_left:
            self._own_actions(acts)
        return acts

    def is_own_action(self, a: Action) -> bool:
        """Whether ``a`` is in ``own_actions()``, without listing them (a player following its plan asks
        this at every action)."""
        if self.phase != ACTIONS or not self.actions_left or a[1] != self.current:
            return False
        k = a[0]
        p = a[1]
        role = self.roles[p]
        x = self.pos[p]
        tiles = self.tiles
        if k == MOVE:
            t = a[2]
            if role == DIVER:
                return t in self.dive_targets(x)
            return tiles[t] != SUNK and t in (self.board.around[x] if role == EXPLORER else self.board.orth[x])
        if k == SHORE_UP:
            near = self.board.around[x] if role == EXPLORER else self.board.orth[x]
            b = a[3]
            if b != NO_TILE and (role != ENGINEER or not a[2] < b):
                return False
            return all(tiles[t] == FLOODED and (t == x or t in near) for t in ((a[2],) if b == NO_TILE else a[2:]))
        if k == GIVE:
            q, c = a[2], a[3]
            return (
                0 <= c < 4 and self.hands[p][c] > 0 and 0 <= q < self.n and q != p
                and (role == MESSENGER or self.pos[q] == x)
            )  # fmt: skip
        if k == CAPTURE:
            tr = a[2]
            return (
                TILE_TREASURE[x] == tr and tr >= 0 and not self.captured >> tr & 1
                and self.hands[p][tr] >= self.comp.capture_cards
            )  # fmt: skip
        if k == FLY:
            t = a[2]
            return role == PILOT and not self.flight_used and t != x and tiles[t] != SUNK
        if k == NAVIGATE:
            q = a[2]
            return role == NAVIGATOR and q != p and 0 <= q < self.n and a[3] in self.navigator_targets(q)
        return False

    def capture_now(self) -> Action | None:
        """The capture the current player could make where it stands (the only one in ``own_actions()``)."""
        p = self.current
        tr = TILE_TREASURE[self.pos[p]]
        if self.phase == ACTIONS and self.actions_left and tr >= 0 and not self.captured >> tr & 1:
            if self.hands[p][tr] >= self.comp.capture_cards:
                return (CAPTURE, p, tr)
        return None

    def _own_actions(self, acts: list[Action]) -> None:
        p = self.current
        role = self.roles[p]
        x = self.pos[p]
        tiles = self.tiles
        board = self.board
        near = board.around[x] if role == EXPLORER else board.orth[x]
        # Move (the Diver's swim-move reaches every tile a plain move does)
        dest = self.dive_targets(x) if role == DIVER else [t for t in near if tiles[t] != SUNK]
        acts.extend((MOVE, p, t) for t in dest)
        if role == PILOT and not self.flight_used:
            acts.extend((FLY, p, t) for t in range(_N_TILES) if tiles[t] != SUNK and t != x)
        if role == NAVIGATOR:
            # the targets depend only on the pawn, its tile and the sunk tiles: kept on the board
            sunk = self.sunk_tiles()
            cache = board.moves_cache
            for q in range(self.n):
                if q != p:
                    key = (NAVIGATE, p, q, self.pos[q], sunk)
                    moves = cache.get(key)
                    if moves is None:
                        moves = cache[key] = [(NAVIGATE, p, q, t) for t in self.navigator_targets(q)]
                    acts.extend(moves)
        # Shore up
        shore = [t for t in near if tiles[t] == FLOODED]
        if tiles[x] == FLOODED:
            shore.append(x)
            shore.sort()
        acts.extend((SHORE_UP, p, t, NO_TILE) for t in shore)
        if role == ENGINEER:
            # a pair in its canonical form (lower tile index first), the one its text parses back to
            acts.extend((SHORE_UP, p, min(a, b), max(a, b)) for i, a in enumerate(shore) for b in shore[i + 1 :])
        # Give treasure cards
        hand = self.hands[p]
        for c in range(4):
            if hand[c]:
                for q in range(self.n):
                    if q != p and (role == MESSENGER or self.pos[q] == x):
                        acts.append((GIVE, p, q, c))
        # Capture
        tr = TILE_TREASURE[x]
        if tr >= 0 and not self.captured >> tr & 1 and hand[tr] >= self.comp.capture_cards:
            acts.append((CAPTURE, p, tr))

    def _special_plays(self, acts: list[Action], players) -> None:
        hands = self.hands
        for p in players:
            h = hands[p]
            if h[SANDBAGS]:
                self._sandbags_plays(acts, p)
            if h[HELICOPTER_LIFT]:
                if self.captured == ALL_TREASURES and all(x == FOOLS_LANDING for x in self.pos):
                    acts.append((LIFT_OFF, p))
                self._heli_moves(acts, p)

    def _sandbags_plays(self, acts: list[Action], holder: int) -> None:
        tiles = self.tiles
        acts.extend((SANDBAGS_PLAY, holder, t) for t in range(_N_TILES) if tiles[t] == FLOODED)

    def _heli_moves(self, acts: list[Action], holder: int) -> None:
        # The lifts depend only on the holder, the pawns and the sunk tiles, which rarely change between
        # decisions (each flood draw asks one while anyone holds a Helicopter Lift): the board, shared by
        # every copy of the game, keeps the built (immutable) action tuples, for the whole list and, as a
        # move changes only one group of pawns, for each group.
        sunk = self.sunk_tiles()
        key = (holder, tuple(self.pos), sunk)
        cache = self.board.moves_cache
        moves = cache.get(key)
        if moves is None:
            groups: dict[int, int] = {}
            for q, x in enumerate(self.pos):
                groups[x] = groups.get(x, 0) | 1 << q
            moves = []
            for src, mask in sorted(groups.items()):
                gkey = (holder, src, mask, sunk)
                some = cache.get(gkey)
                if some is None:
                    some = cache[gkey] = self._heli_group(holder, src, mask)
                moves += some
            if len(cache) > 4096:
                cache.clear()
            cache[key] = moves
        acts.extend(moves)

    def _heli_group(self, holder: int, src: int, mask: int) -> list[Action]:
        """The lifts by ``holder`` of the pawns ``mask`` (all on ``src``, or any part of them)."""
        tiles = self.tiles
        to = [t for t in range(_N_TILES) if tiles[t] != SUNK and t != src]
        kind, who = repeat(HELI_PLAY), repeat(holder)  # zip over repeats builds the tuples at C speed
        moves: list[Action] = []
        for sub in _submasks(mask) if self.rules.helicopter_lift_group == "subset" else (mask,):
            moves.extend(zip(kind, who, repeat(sub), to))
        return moves

    def _heli_from(self, acts: list[Action], src: int) -> None:
        """Helicopter rescues of the pawns on a sinking tile, by any holder."""
        mask = 0
        for q, x in enumerate(self.pos):
            if x == src:
                mask |= 1 << q
        for p in range(self.n):
            if self.hands[p][HELICOPTER_LIFT]:
                acts.extend(self._heli_group(p, src, mask))  # the sinking tile has sunk: never a target

    # ----------------------------------------------------------------- movement geometry
    def dive_targets(self, x: int) -> list[int]:
        """Tiles the Diver reaches from x in one swim-move (chains of flooded/sunk spaces)."""
        dive = self.board.dive
        tiles = self.tiles
        seen = {x}
        stack = [x]
        out = []
        while stack:
            u = stack.pop()
            for v in dive[u]:
                if v in seen:
                    continue
                seen.add(v)
                if v >= _N_TILES or tiles[v] == SUNK:
                    stack.append(v)
                else:
                    out.append(v)
                    if tiles[v] == FLOODED:
                        stack.append(v)
        out.sort()
        return out

    def _nearest_dive(self, x: int) -> list[int]:
        """Tiles at the smallest number of steps from x through flooded/sunk spaces."""
        dive = self.board.dive
        tiles = self.tiles
        seen = {x}
        frontier = [x]
        while frontier:
            found = []
            nxt = []
            for u in frontier:
                for v in dive[u]:
                    if v in seen:
                        continue
                    seen.add(v)
                    if v < _N_TILES and tiles[v] != SUNK:
                        found.append(v)
                    if v >= _N_TILES or tiles[v] != DRY:
                        nxt.append(v)
            if found:
                found.sort()
                return found
            frontier = nxt
        return []

    def _steps(self, role: int, x: int, first: bool) -> list[int]:
        """One step of a pawn moved by the Navigator, by the pawn's own stepping rule."""
        tiles = self.tiles
        board = self.board
        if self.rules.navigator_moves == "orthogonal":
            return [t for t in board.orth[x] if tiles[t] != SUNK]
        if role == EXPLORER:
            return [t for t in board.around[x] if tiles[t] != SUNK]
        out = [t for t in board.orth[x] if tiles[t] != SUNK]
        if role == DIVER and first:
            dive = board.dive
            for v in dive[x]:
                if v >= _N_TILES or tiles[v] == SUNK:
                    out.extend(w for w in dive[v] if w < _N_TILES and w != x and tiles[w] != SUNK)
        return out

    def navigator_targets(self, q: int) -> list[int]:
        """Tiles the Navigator can move pawn q to (up to 2 steps)."""
        role = self.roles[q]
        y = self.pos[q]
        dest = set()
        for a in self._steps(role, y, True):
            dest.add(a)
            dest.update(self._steps(role, a, False))
        dest.discard(y)
        return sorted(dest)

    def swim_targets(self, p: int) -> list[int]:
        """Tiles pawn p may swim to from its sinking tile."""
        role = self.roles[p]
        x = self.pos[p]
        tiles = self.tiles
        if role == PILOT and not self._flight_spent_on_swim(p):
            return [t for t in range(_N_TILES) if tiles[t] != SUNK and t != x]
        if role == EXPLORER:
            return [t for t in self.board.around[x] if tiles[t] != SUNK]
        if role == DIVER:
            return self._nearest_dive(x) if self.rules.diver_swim == "nearest" else self.dive_targets(x)
        return [t for t in self.board.orth[x] if tiles[t] != SUNK]

    def _flight_spent_on_swim(self, p: int) -> bool:
        """Under variant ``pilot_swim_uses_flight``: the Pilot escaping on its own turn after its flight was
        used swims like any pawn."""
        return self.rules.pilot_swim_uses_flight and p == self.current and self.flight_used

    # ----------------------------------------------------------------- applying actions
    def apply(self, a: Action) -> None:
        """Apply a legal action (taken from ``legal_actions()``) and run the game on to the next decision."""
        k = a[0]
        if k == MOVE:
            self.pos[a[1]] = a[2]
            self.actions_left -= 1
        elif k == SHORE_UP:
            self.tiles[a[2]] = DRY
            if a[3] != NO_TILE:
                self.tiles[a[3]] = DRY
            self.actions_left -= 1
        elif k == DRAW_FLOOD:
            self._draw_flood()
        elif k == SWIM:
            p = a[1]
            if self.rules.pilot_swim_uses_flight and self.roles[p] == PILOT and p == self.current:
                # an escape to a tile beyond the orthogonal neighbours is that turn's flight
                self.flight_used = self.flight_used or a[2] not in self.board.orth[self.pos[p]]
            self.pos[p] = a[2]
            self.swimmers.remove(p)
        elif k == DISCARD:
            self.hands[a[1]][a[2]] -= 1
            self.tdiscard[a[2]] += 1
        elif k == END_ACTIONS:
            self.actions_left = 0
            self._start_draws()
        elif k == GIVE:
            self.hands[a[1]][a[3]] -= 1
            self.hands[a[2]][a[3]] += 1
            self.actions_left -= 1
            if sum(self.hands[a[2]]) > self.comp.hand_limit:
                self._ask_discard(a[2], ACTIONS)
        elif k == FLY:
            self.pos[a[1]] = a[2]
            self.flight_used = True
            self.actions_left -= 1
        elif k == NAVIGATE:
            self.pos[a[2]] = a[3]
            self.actions_left -= 1
        elif k == CAPTURE:
            need = self.comp.capture_cards
            self.hands[a[1]][a[2]] -= need
            self.tdiscard[a[2]] += need
            self.captured |= 1 << a[2]
            self.actions_left -= 1
        elif k == SANDBAGS_PLAY:
            self._spend(a[1], SANDBAGS)
            self.tiles[a[2]] = DRY
        elif k == HELI_PLAY:
            self._spend(a[1], HELICOPTER_LIFT)
            mask = a[2]
            pos = self.pos
            for q in range(self.n):
                if mask >> q & 1:
                    pos[q] = a[3]
            if self.phase == SWIM_PHASE:
                self.swimmers = [q for q in self.swimmers if not mask >> q & 1]
        elif k == LIFT_OFF:
            self._spend(a[1], HELICOPTER_LIFT)
            self.outcome = "win"
            self.phase = OVER
            return
        else:
            raise IllegalActionError(f"unknown action {a!r}")
        self._advance()

    def _spend(self, p: int, card: int) -> None:
        self.hands[p][card] -= 1
        self.tdiscard[card] += 1

    def _ask_discard(self, p: int, resume: int) -> None:
        self.discarder = p
        self.resume = resume
        self.phase = DISCARD_PHASE

    def _specials_available(self) -> bool:
        for h in self.hands:
            if h[HELICOPTER_LIFT] or (h[SANDBAGS] and FLOODED in self.tiles):
                return True
        return False

    def _advance(self) -> None:
        """Run the automatic steps until a decision is pending or the game is over."""
        while True:
            ph = self.phase
            if ph == ACTIONS:
                if self.actions_left > 0 or self._specials_available():
                    return
                self._start_draws()
            elif ph == DISCARD_PHASE:
                if sum(self.hands[self.discarder]) > self.comp.hand_limit:
                    return
                self.phase = self.resume
            elif ph == DRAW:
                self._draw_treasure()
            elif ph == FLOOD:
                if self.flood_left == 0:
                    self._next_turn()
                elif self._specials_available():
                    return
                else:
                    self._draw_flood()
            elif ph == SWIM_PHASE:
                if not self.swimmers:
                    self.phase = FLOOD
                elif self.swim_targets(self.swimmers[0]) or self._rescue_possible():
                    return
                else:
                    if self.stats is not None:
                        self.stats.drowned_tile = self.sinking
                    self._lose(["player_drowned"])
            else:
                return

    def _start_draws(self) -> None:
        self.phase = DRAW
        self.draws_left = self.comp.treasure_draws

    def _draw_treasure(self) -> None:
        """Draw one treasure card (or move on to the flood step when both are drawn)."""
        if self.draws_left == 0:
            self.phase = FLOOD
            self.flood_left = self.comp.flood_draws[self.water]
            return
        self.draws_left -= 1
        deck = self.tdeck
        r = int(self.rng.random() * sum(deck))  # type: ignore[union-attr]  # drawn only with it
        card = 0
        while r >= deck[card]:
            r -= deck[card]
            card += 1
        deck[card] -= 1
        if card == WATERS_RISE:
            self.tdiscard[WATERS_RISE] += 1
            self.water += 1
            if self.stats is not None:
                self.stats.waters_rise += 1
        else:
            self.hands[self.current][card] += 1
        if not any(deck):
            # the last card is drawn (a Waters Rise! already discarded): the discard pile becomes the new draw
            # pile at once, so cards discarded from now on start the new discard pile. The draw pile is
            # therefore never empty: every pile holds every Waters Rise! (1 or more), discarded before it runs out.
            self.tdeck, self.tdiscard = self.tdiscard, deck
        if card == WATERS_RISE:
            if self.water >= self.comp.skull:
                self._lose(["water_level"])
            elif self.fdiscard:  # put the shuffled discard on top: a new segment of unknown order
                self.fdeck.append(self.fdiscard)
                self.fdiscard = []
        elif sum(self.hands[self.current]) > self.comp.hand_limit:
            self._ask_discard(self.current, DRAW)

    def _draw_flood(self) -> None:
        """Draw one flood card and resolve it."""
        self.flood_left -= 1
        fdeck = self.fdeck
        if not fdeck:  # reshuffle the discard pile into a new draw pile
            fdeck.append(self.fdiscard)
            self.fdiscard = []
        seg = fdeck[-1]
        i = int(self.rng.random() * len(seg))  # type: ignore[union-attr]  # drawn only with it
        t = seg[i]
        seg[i] = seg[-1]
        seg.pop()
        if not seg:
            fdeck.pop()
        stats = self.stats
        if stats is not None:
            stats.flood_draws.append(t)
        if self.tiles[t] == DRY:
            self.tiles[t] = FLOODED
            self.fdiscard.append(t)
            if stats is not None:
                stats.times_flooded[t] += 1
        else:
            if stats is not None:
                stats.sunk_turn[t] = self.turn
            self._sink(t)

    def _sink(self, t: int) -> None:
        self.tiles[t] = SUNK  # the tile and its flood card leave the game
        causes = []
        tr = TILE_TREASURE[t]
        if tr >= 0 and not self.captured >> tr & 1:
            a, b = TREASURE_TILES[tr]
            if self.tiles[a] == SUNK and self.tiles[b] == SUNK:
                causes.append("treasure_lost")
        if t == FOOLS_LANDING:
            causes.append("fools_landing_sunk")
        swimmers = [q for q in range(self.n) if self.pos[q] == t]
        if swimmers and not self._rescue_possible():
            if any(not self.swim_targets(q) for q in swimmers):
                causes.append("player_drowned")
        if causes:
            stats = self.stats  # only on the last draw of a lost game: the hot path is untouched
            if stats is not None:
                if "treasure_lost" in causes:
                    stats.lost_treasure = tr
                if "player_drowned" in causes:
                    stats.drowned_tile = t
            self._lose(causes)
        elif swimmers:
            self.swimmers = swimmers
            self.sinking = t
            self.phase = SWIM_PHASE

    def _rescue_possible(self) -> bool:
        return self.rules.helicopter_rescue and any(h[HELICOPTER_LIFT] for h in self.hands)

    def _next_turn(self) -> None:
        if self.turn >= self.rules.turn_limit:
            self._lose(["turn_limit"])
            return
        self.turn += 1
        self.current = (self.current + 1) % self.n
        self.actions_left = self.comp.actions_per_turn
        self.flight_used = False
        self.phase = ACTIONS

    def _lose(self, causes: list[str]) -> None:
        order = {c: i for i, c in enumerate(LOSS_CAUSES)}
        self.loss_causes = tuple(sorted(causes, key=lambda c: order.get(c, len(order))))
        self.outcome = "loss"
        self.phase = OVER


def _submasks(mask: int) -> list[int]:
    """Non-empty subsets of a bit mask, largest first."""
    out = []
    s = mask
    while s:
        out.append(s)
        s = (s - 1) & mask
    return out
