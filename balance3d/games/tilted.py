"""Tilted: drop wooden blocks on the high side of a beam on a fulcrum to tip it.

The rules are ``RULES.md`` section 1 (read with the rulebook ``seeds/tilted.txt``;
where they differ RULES.md wins).  Every quantity is SI: metres, kilograms,
seconds; coins are whole numbers.  The judge reads the settled World
(:mod:`balance3d.games.tilted_judge`); it never guesses from the release point.

Decisions a player is asked for (``State.phase``)
    ``"drop"``           a :class:`~balance3d.games.base.Drop` of one of their blocks.
    ``"buy"``            ``Choose("buy", True)`` or ``Choose("buy", False)``.
    ``"size"``           ``Choose("size", n)``: the larger or the smaller fallback length.
    ``"bid"``            ``Choose("bid", amount)`` (advanced) or ``Pass()`` to decline.
    ``"auction_order"``  ``Choose("auction_order", piece)``: the returned block to
                         auction next (advanced).
    ``"over"``           nothing: the game has ended.

Blocks are named ``"{length}u-{set}"`` (``"3u-2"`` is the 3-unit block of set 2);
the same name is the block's body in the World while it is on the beam.

Readings of the rules (where RULES.md and the rulebook leave a choice)
----------------------------------------------------------------------
Setup
    Seat ``i`` takes set ``i + 1``; the other sets are the supply.  The first player
    is found by D6 rolls (highest starts, the tied re-roll among themselves; no roll
    in solo).  Play then goes clockwise, i.e. by increasing seat number.  The beam's
    low side is the scene's ``rules.start_low_side`` ("random" draws it from the
    game's generator after the first-player rolls).  The beam is tipped physically:
    from the scene's level pose it is set turning about the fulcrum's apex line at
    ``start_tip_speed`` towards its low side, and physics brings it down onto the
    table and settles it.
Drop legality (checked before any physics)
    The release point (x, y) must lie above the top face of the high side's half of
    the beam (vertically; strictly on the high side of the centre line).  "Above a
    frozen block" is read as: the block's horizontal footprint at release overlaps
    the footprint of a frozen block (stricter than the release point alone, because
    nothing may be *placed on* a frozen block).  The release height must be positive
    and at most ``max_drop_height`` (a simulator limit: a block falling from there
    moves about 7 mm per 1/240 s step, less than the beam's 12 mm thickness, so the
    engine finds its contacts before it can pass through; players drop blocks from a
    few centimetres).  A block that would overlap anything at release is refused.
Settle
    Physics runs until every body is at rest *and* the beam rests on one of its ends
    (a beam still tipping slowly can look at rest), or until the scene's
    ``settle_max_time``; the verdict says when the cap was hit.
Tilted
    The end that was high before the drop now rests on the table (its lowest point
    within ``end_rest_gap`` of the table top) and the other end does not.
Returned blocks
    A block goes back to the supply when it touches the table, when it no longer
    rests on the beam (directly or through a chain of blocks), or when it lies across
    the fulcrum centre line (covers the painted line on both sides) **unless another
    block that stays rests on it**: such a block cannot be lifted out without
    disturbing the pile, so it stays and is *frozen* ("becomes frozen if it stays").
    Crossing blocks are lifted off top-down, so a pile of crossing blocks goes back
    whole.  The returned blocks are taken away and physics settles again (blocks
    resting on them may now fall, and are judged the same way) until nothing more
    goes back.  The player pays ``penalty`` per returned block, as far as their coins
    go, *before* receiving coins for the drop (RULES.md's order).
Frozen blocks
    Recomputed after every drop from the World: the crossing blocks that stayed and
    every block resting on them, recursively.
Coins for the drop
    Only when tilted and the dropped block stayed.  Its value is the lowest section
    value among the beam sections its top-face contacts touch (a section line is a
    painted band ``line_width`` wide: touching it touches both sections; the fulcrum
    section is worth 0) and, for a block resting on blocks, the lowest value among
    its supporters, recursively.  Overhanging a section without touching it does not
    count, and the markings end at the beam's edges.  A block touching no section
    and resting on no block is worth 0.  The bank pays even when it is empty (it may
    go negative; the verdicts record it).
Buying (basic and solo)
    Optional in every variant (both texts say "may").  With at least ``buy_cost``
    coins and a non-empty supply the player first decides (``Choose("buy", ...)``),
    then the D6 is rolled; the block of that length is bought, else the nearest
    larger or smaller length left in the supply; when both exist the player picks
    (``Choose("size", n)``).
End
    A player with no block at the start of their turn is eliminated.  The game ends
    when one player is left (they win, even without blocks); ranks follow the
    elimination order.  Solo: the game ends when the player has no block at the
    start of a turn; score = coins.
Advanced
    A round: every player still in plays steps 1-2 once, from the round's starter
    clockwise.  Then the round's last player rolls and offers a block of that length
    from the supply (the fallback rule above; the roller picks when both exist) and
    bids first.  Bids are whole coins, at least ``auction_min_bid`` and above the
    current bid, and never more than the bidder's coins; a player who cannot raise
    is passed automatically.  The winner pays the bank, takes the block and starts
    the next round, so the player on the winner's right plays last and rolls next
    ("the die passes to the player on their right").  No bid (or an empty supply):
    nobody buys, and the next round starts with the player after the roller.
    Blocks returned by a drop are auctioned one at a time right after the penalty,
    bidding from the player after the offender; with several, the offender picks
    the next one to auction each time (``Choose("auction_order", piece)``), which is
    the same as choosing the order, one pick at a time.  Then the round goes on as
    if nothing happened.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.spatial.transform import Rotation

from balance3d.games import tilted_judge as judge
from balance3d.games.game import Game
from balance3d.games.base import (POSES, Action, Choose, Drop, GameError, Outcome, Pass, Player,
                                  RecordError, State, Verdict)
from balance3d.games.placement import release_pose
from balance3d.games.tilted_judge import BEAM, FULCRUM, TABLE, BeamFrame, Section
from balance3d.physics.world import OverlapError, World, WorldError
from balance3d.scene import Scene, load_scene

#: Faces of the die.
DIE_FACES = 6

# Defaults of the scene's [rules] thresholds (each overridable there by name).
#: rad/s, the push that tips the level beam onto its low side at setup.
START_TIP_SPEED = 0.2
#: m, a beam end rests on the table when its lowest point is this close to it.
END_REST_GAP = 0.002
#: m, a block-beam contact within this distance of the top face's plane is on it.
TOP_FACE_TOLERANCE = 0.001
#: m, width of a painted section line (and of the fulcrum centre line).
LINE_WIDTH = 0.002
#: m, highest allowed release height (clearance above the surface beneath).
MAX_DROP_HEIGHT = 0.15
#: coins, lowest opening bid of an auction (advanced).
AUCTION_MIN_BID = 1
#: rad, a beam on neither end that turns less than this during one more settle has
#: stopped (propped up or balanced) rather than tipping too slowly to look moving.
BEAM_STILL_ANGLE = 1e-4
#: m^2, footprints overlapping by less than this do not count as "above".
FOOTPRINT_OVERLAP_AREA = 1e-8

#: Allowed player counts per variant.
VARIANT_PLAYER_COUNTS = {"basic": (2, 3, 4), "solo": (1,), "advanced": (2, 3, 4)}


def roll_d6(rng: np.random.Generator) -> int:
    """One roll of the die, 1..6, from ``rng``."""
    return int(rng.integers(1, DIE_FACES + 1))


def piece_name(length: int, set_number: int) -> str:
    """Name of the ``length``-unit block of set ``set_number`` (1-based)."""
    return f"{length}u-{set_number}"


def piece_length(name: str) -> int:
    """Length in units of the block ``name``."""
    return int(name.split("u-", 1)[0])


def piece_key(name: str) -> tuple[int, int]:
    """Sort key: by length, then set."""
    length, _, set_number = name.partition("u-")
    return int(length), int(set_number)


# ---------------------------------------------------------------------- rules
@dataclass(frozen=True)
class TiltedRules:
    """The scene's ``[rules]`` table, validated.

    block_parts : part names of the 1u..6u blocks.  sets : sets of blocks.
    coins : coins in the game.  start_coins : coins per player at setup.
    sections : the beam's sections (m from the centre line, value).
    buy_cost, penalty : coins.  start_low_side : "random", "+x" or "-x" (the beam
    end, in its own frame, resting on the table at the start).
    start_tip_speed : rad/s.  end_rest_gap, top_face_tolerance, line_width,
    max_drop_height : m (see the module constants).  auction_min_bid : coins.
    """

    block_parts: tuple[str, ...]
    sets: int
    coins: int
    start_coins: int
    sections: tuple[Section, ...]
    buy_cost: int
    penalty: int
    start_low_side: str = "random"
    start_tip_speed: float = START_TIP_SPEED
    end_rest_gap: float = END_REST_GAP
    top_face_tolerance: float = TOP_FACE_TOLERANCE
    line_width: float = LINE_WIDTH
    max_drop_height: float = MAX_DROP_HEIGHT
    auction_min_bid: int = AUCTION_MIN_BID

    @classmethod
    def from_scene(cls, scene: Scene) -> "TiltedRules":
        """Read and check ``scene.rules``; errors name the file and key."""
        rules = scene.rules
        known = {"unit", "block_parts", "sets", "coins", "start_coins", "sections", "buy_cost",
                 "penalty", "start_low_side", "start_tip_speed", "end_rest_gap",
                 "top_face_tolerance", "line_width", "max_drop_height", "auction_min_bid"}
        for key in rules:
            if key not in known:
                raise scene.error(f"rules.{key}",
                                  f"unknown key (known: {', '.join(sorted(known))})")
        for name in (TABLE, FULCRUM, BEAM):
            if name not in {b.name for b in scene.bodies}:
                raise scene.error("bodies", f"a Tilted scene needs a body named {name!r}")

        def get(key: str, kind: type, default: Any = ..., positive: bool = False) -> Any:
            if key not in rules:
                if default is ...:
                    raise scene.error(f"rules.{key}", "missing")
                return default
            value = rules[key]
            ok = isinstance(value, kind) and not isinstance(value, bool)
            if kind is float:
                ok = isinstance(value, (int, float)) and not isinstance(value, bool) \
                    and math.isfinite(value)
            if not ok or (positive and not value > 0) or (not positive and value < 0):
                sign = "positive" if positive else "non-negative"
                what = "number" if kind is float else "whole number"
                raise scene.error(f"rules.{key}", f"must be a {sign} {what}, got {value!r}")
            return float(value) if kind is float else value

        unit = get("unit", float, positive=True)
        parts = rules.get("block_parts")
        if not (isinstance(parts, list) and len(parts) == DIE_FACES
                and all(isinstance(p, str) for p in parts)):
            raise scene.error("rules.block_parts", f"must list {DIE_FACES} part names (1u..6u)")
        for k, name in enumerate(parts, start=1):
            if name not in scene.parts:
                raise scene.error("rules.block_parts", f"unknown part {name!r}")
            dims = sorted(float(v) for v in scene.parts[name].extents)
            want = sorted([unit, unit, k * unit])
            if not np.allclose(dims, want, rtol=1e-6, atol=1e-9):
                raise scene.error("rules.block_parts",
                                  f"part {name!r} measures {dims} m, not {want} m ({k}u blocks)")
        beam = scene.parts[_body_part(scene, BEAM)].extents
        if not beam[0] > max(beam[1], beam[2]):
            raise scene.error("parts", "the beam's part must be longest along its x axis")
        half_length = float(beam[0]) / 2.0
        raw = rules.get("sections")
        if not (isinstance(raw, list) and raw):
            raise scene.error("rules.sections", "must be a list of [from, to, value]")
        sections = []
        for i, row in enumerate(raw):
            if not (isinstance(row, list) and len(row) == 3
                    and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in row)
                    and isinstance(row[2], int) and row[2] >= 0 and row[1] > row[0]):
                raise scene.error(f"rules.sections[{i}]",
                                  f"must be [from m, to m, whole value >= 0], got {row!r}")
            start = 0.0 if i == 0 else sections[-1].stop
            if not math.isclose(row[0], start, abs_tol=1e-9):
                raise scene.error(f"rules.sections[{i}]", f"must start at {start} m, where the "
                                                          f"previous section ends")
            sections.append(Section(float(row[0]), float(row[1]), int(row[2])))
        if sections[-1].stop < half_length - 1e-9:
            raise scene.error("rules.sections", f"must reach the beam's end ({half_length} m)")
        side = rules.get("start_low_side", "random")
        if side not in ("random", "+x", "-x"):
            raise scene.error("rules.start_low_side",
                              f"must be 'random', '+x' or '-x', got {side!r}")
        return cls(
            block_parts=tuple(parts), sets=get("sets", int, positive=True),
            coins=get("coins", int), start_coins=get("start_coins", int),
            sections=tuple(sections), buy_cost=get("buy_cost", int), penalty=get("penalty", int),
            start_low_side=side,
            start_tip_speed=get("start_tip_speed", float, START_TIP_SPEED, positive=True),
            end_rest_gap=get("end_rest_gap", float, END_REST_GAP, positive=True),
            top_face_tolerance=get("top_face_tolerance", float, TOP_FACE_TOLERANCE, positive=True),
            line_width=get("line_width", float, LINE_WIDTH, positive=True),
            max_drop_height=get("max_drop_height", float, MAX_DROP_HEIGHT, positive=True),
            auction_min_bid=get("auction_min_bid", int, AUCTION_MIN_BID, positive=True),
        )


def _body_part(scene: Scene, body: str) -> str:
    return next(b.part for b in scene.bodies if b.name == body)


# ---------------------------------------------------------------------- verdicts
@dataclass(frozen=True)
class TiltedVerdict(Verdict):
    """What a drop did.

    piece : the block dropped.  release : (3,) m, its body position at release.
    tilted : the beam now rests on its other end.
    low_end_before, low_end_after : the beam end (+1 / -1, beam frame x) on the
    table before and after (after: the lower end when neither rests).
    beam_resting : an end of the beam rests on the table after the drop.
    blocks : every block left on the beam: ``piece``, ``sections`` (values touched
    on the top face), ``supports`` (blocks it rests on), ``value`` (coins it is
    worth), ``across`` (lies across the fulcrum line), ``frozen``.
    value : the dropped block's value (None when it was returned).
    coins_won : coins paid by the bank for the drop.
    returned : blocks sent back to the supply, ``{"piece", "reason"}`` each.
    penalty_due, penalty_paid : coins.  coins : per seat after the drop.
    bank : coins in the bank (may be negative).  frozen : frozen blocks.
    settle_time : s simulated.  settle_timed_out : a settle hit its time cap.
    settles : settle rounds (one more after each removal of returned blocks).
    auction : the auction this drop opened in the advanced game (kind, piece, roll),
    else None.
    """

    piece: str
    release: list[float]
    tilted: bool
    low_end_before: int
    low_end_after: int
    beam_resting: bool
    blocks: list[dict[str, Any]]
    value: int | None
    coins_won: int
    returned: list[dict[str, str]]
    penalty_due: int
    penalty_paid: int
    coins: list[int]
    bank: int
    frozen: list[str]
    settle_time: float
    settle_timed_out: bool
    settles: int
    auction: dict[str, Any] | None


@dataclass(frozen=True)
class TiltedBuyVerdict(Verdict):
    """What a buy decision did: ``buy`` (the decision, None for a size choice),
    ``roll`` (the die, None when none was rolled), ``options`` (fallback lengths
    offered, when the player must choose), ``piece`` bought (None if none),
    ``paid`` coins, ``coins`` per seat and ``bank`` after."""

    buy: bool | None
    roll: int | None
    options: list[int]
    piece: str | None
    paid: int
    coins: list[int]
    bank: int


@dataclass(frozen=True)
class TiltedAuctionVerdict(Verdict):
    """What an auction decision did (advanced): ``auction`` ("round" or
    "returned"), ``piece`` on offer, ``bid`` made (None for a pass or a choice),
    ``high_bid`` and ``high_bidder`` after it, ``passed`` (seats that declined with
    this action, including those passed automatically), and when the auction
    closed: ``closed``, ``winner`` (None: no sale) and ``price``; ``coins`` per
    seat and ``bank`` after."""

    auction: str
    piece: str
    bid: int | None
    high_bid: int
    high_bidder: int | None
    passed: list[int]
    closed: bool
    winner: int | None
    price: int | None
    coins: list[int]
    bank: int


# ---------------------------------------------------------------------- the state
class TiltedState(State):
    """A game of Tilted in progress (see the module docstring for the rules)."""

    def __init__(self, scene: Scene, players: list[Player], seed: int, variant: str) -> None:
        super().__init__(scene, players, seed, variant)
        n = len(players)
        self._phase = "drop"
        self._current: int | None = None
        self._hands: list[list[str]] = [[] for _ in range(n)]
        self._supply: list[str] = []
        self._coins = [0] * n
        self._bank = 0
        self._eliminated: list[int] = []
        self._low_end = +1
        self._frozen: list[str] = []
        self._pending_size: dict[str, Any] | None = None
        self._auction: dict[str, Any] | None = None
        self._returned_queue: list[str] = []
        self._offender: int | None = None
        self._round_left: list[int] = []
        self._last_dropper: int | None = None

    # ------------------------------------------------------------------ set-up
    def _setup(self) -> None:
        r, n = self.rules, len(self.players)
        if r.sets < n:
            raise GameError(f"{r.sets} sets of blocks cannot serve {n} players")
        if r.coins < n * r.start_coins:
            raise GameError(f"{r.coins} coins cannot give {n} players {r.start_coins} each")
        for s in range(1, r.sets + 1):
            pieces = [piece_name(k, s) for k in range(1, DIE_FACES + 1)]
            if s <= n:
                self._hands[s - 1] = pieces
            else:
                self._supply.extend(pieces)
        self._supply.sort(key=piece_key)
        self._coins = [r.start_coins] * n
        self._bank = r.coins - n * r.start_coins
        self.log(None, "setup", f"{n} player(s), {r.start_coins} coins and one set each; "
                                f"{len(self._supply)} blocks in the supply, {self._bank} coins "
                                f"in the bank", coins=list(self._coins), bank=self._bank)
        first = self._roll_first_player()
        if r.start_low_side == "random":
            end = +1 if int(self.rng.integers(2)) == 0 else -1
        else:
            end = +1 if r.start_low_side == "+x" else -1
        self._tip_beam(self._world, end)
        if self.variant == "advanced":
            self._begin_round(first)
        else:
            self._begin_turn(first)

    def _roll_first_player(self) -> int:
        """D6 rolls for the first seat: highest starts, the tied re-roll."""
        seats = list(range(len(self.players)))
        while len(seats) > 1:
            rolls = {s: roll_d6(self.rng) for s in seats}
            self.log(None, "roll", "first player rolls: " + ", ".join(
                f"{self.players[s].name} {v}" for s, v in rolls.items()),
                rolls={str(s): v for s, v in rolls.items()})
            best = max(rolls.values())
            seats = [s for s in seats if rolls[s] == best]
        self.log(seats[0], "first", f"{self.players[seats[0]].name} starts")
        return seats[0]

    def _tip_beam(self, world: World, end: int) -> None:
        """Tip the beam from its scene pose onto its ``end``: set it turning about the
        fulcrum's apex line at ``start_tip_speed`` towards that end, then settle."""
        frame = BeamFrame.of(world)
        fulcrum = world.vertices(FULCRUM)
        apex_z = fulcrum[:, 2].max()
        apex_x = float(fulcrum[np.isclose(fulcrum[:, 2], apex_z, atol=1e-9), 0].mean())
        pivot = np.array([apex_x, frame.position[1], apex_z])
        spin = frame.rotation[:, 1] * end * self.rules.start_tip_speed
        world.set_velocity(BEAM, tuple(np.cross(spin, frame.position - pivot)), tuple(spin))
        time, timed_out, _ = self._settle(world)
        if judge.resting_end(world, self.rules.end_rest_gap) != end:
            raise GameError(f"scene {self.scene.name!r}: the beam did not come to rest on its "
                            f"{'+' if end > 0 else '-'}x end")
        self._low_end = end
        self.log(None, "beam", f"the beam rests on its {'+' if end > 0 else '-'}x end "
                               f"(settled in {time:.2f} s)", low_end=end, settle_time=time,
                 settle_timed_out=timed_out)

    # ------------------------------------------------------------------ test set-up
    @classmethod
    def arranged(cls, players: int = 2, *, seed: int = 0, variant: str = "basic",
                 scene: Scene | str | None = None, low_end: int | None = None,
                 first: int | None = None, hands: list[list[int]] | None = None,
                 coins: list[int] | None = None, bank: int | None = None) -> "TiltedState":
        """A game set up normally, then changed as asked: for hand-built situations
        (tests, tutorials).  Each argument left None keeps the normal set-up.

        low_end : +1 / -1, the beam end resting on the table (the beam is set up
        again from the scene's level pose).  first : the seat to play first.
        hands : per seat, the block lengths held (blocks are taken from the player's
        own set first, then from the lowest set; the rest is the supply).
        coins : per seat.  bank : coins in the bank.
        """
        if scene is None:
            scene = cls.game.scene_name(variant)
        loaded = load_scene(scene) if isinstance(scene, str) else scene
        seats = [Player(i, f"Player {i + 1}") for i in range(players)]
        state = cls.new(loaded, seats, seed, variant)
        if low_end is not None and low_end != state._low_end:
            state._world = loaded.build_world()
            state._tip_beam(state._world, low_end)
            state.commit_world()
        if hands is not None:
            everything = sorted([p for h in state._hands for p in h] + state._supply, key=piece_key)
            state._hands = [[] for _ in seats]
            for seat, lengths in enumerate(hands):
                for length in lengths:
                    own = piece_name(length, seat + 1)
                    pick = own if own in everything else next(
                        (p for p in everything if piece_length(p) == length), None)
                    if pick is None:
                        raise GameError(f"no {length}u block left to deal to seat {seat}")
                    everything.remove(pick)
                    state._hands[seat].append(pick)
                state._hands[seat].sort(key=piece_key)
            state._supply = everything
        if coins is not None:
            state._coins = [int(c) for c in coins]
        if bank is not None:
            state._bank = int(bank)
        elif coins is not None:
            state._bank = state.rules.coins - sum(state._coins)
        if first is not None:
            state.turn = 0
            if variant == "advanced":
                state._begin_round(first)
            else:
                state._begin_turn(first)
        state.log(None, "arranged", "situation arranged by hand", hands=state._hands,
                  coins=state._coins, bank=state._bank, low_end=state._low_end,
                  current=state._current)
        return state

    def stage(self, drops: list[Drop]) -> None:
        """Put blocks on the beam without playing a turn (for hand-built situations):
        each ``Drop`` takes its block from whoever holds it (a hand or the supply),
        releases it as a drop would and lets physics settle.  Nothing is judged, no
        coin moves; afterwards the beam's low end is read from the World."""
        world = self.fresh_world()
        for drop in drops:
            for hand in self._hands:
                if drop.piece in hand:
                    hand.remove(drop.piece)
            if drop.piece in self._supply:
                self._supply.remove(drop.piece)
            part = self._part(drop.piece)
            pos, quat = release_pose(world, part, drop)
            world.drop(drop.piece, part, pos, quat)
            self._settle(world)
        self._low_end = judge.lower_end(world)
        self.commit_world()
        self.log(None, "arranged", "blocks staged: " + ", ".join(d.piece for d in drops),
                 pieces=[d.piece for d in drops], low_end=self._low_end)

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int | None:
        return None if self._phase == "over" else self._current

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def scores(self) -> tuple[int, ...]:
        """Coins per seat now."""
        return tuple(self._coins)

    @property
    def bank(self) -> int:
        """Coins in the bank (negative when the bank has paid more than it had)."""
        return self._bank

    @property
    def supply(self) -> list[str]:
        """Blocks in the supply, by length then set."""
        return list(self._supply)

    @property
    def low_end(self) -> int:
        """The beam end (+1 / -1, beam-frame x) resting on the table."""
        return self._low_end

    @property
    def frozen(self) -> list[str]:
        """Frozen blocks: nothing may be dropped above them."""
        return list(self._frozen)

    @property
    def eliminated(self) -> list[int]:
        """Seats out of the game, in elimination order."""
        return list(self._eliminated)

    @property
    def on_beam(self) -> list[str]:
        """Blocks on the beam, in the order they were dropped."""
        return [n for n in self.world.dynamic_names if n != BEAM]

    def hand(self, seat: int) -> list[str]:
        """The blocks ``seat`` holds, by length then set."""
        return list(self._hands[seat])

    def legal_pieces(self, player: int | None = None) -> list[str]:
        seat = self._current if player is None else player
        if self._phase != "drop" or seat != self._current:
            return []
        return list(self._hands[seat])

    def legal_decisions(self) -> list[Action]:
        phase = self._phase
        if phase == "buy":
            return [Choose("buy", True), Choose("buy", False)]
        if phase == "size":
            return [Choose("size", n) for n in self._pending_size["options"]]
        if phase == "auction_order":
            return [Choose("auction_order", p) for p in self._returned_queue]
        if phase == "bid":
            need = self._min_raise()
            have = self._coins[self._current]
            return [Pass()] + [Choose("bid", v) for v in range(need, have + 1)]
        return []

    def release_area(self) -> dict[str, Any] | None:
        """The high half of the beam's top face, seen from above (see
        :meth:`State.release_area`): one region, kind "beam_half", its polygon the
        four corners of that half (m, world x, y) and ``top_z`` the height of its
        highest corner (m).  Frozen blocks and overlaps are not cut out.  None
        unless the phase is "drop"."""
        if self._phase != "drop":
            return None
        frame = BeamFrame.of(self.world)
        L, W, T = frame.half
        end = -self._low_end
        corners = frame.to_world([(0.0, -W, T), (end * L, -W, T), (end * L, W, T), (0.0, W, T)])
        return {"kind": "beam_half",
                "regions": [{"polygon": [[float(x), float(y)] for x, y in corners[:, :2]],
                             "top_z": float(corners[:, 2].max())}]}

    @property
    def outcome(self) -> Outcome | None:
        if self._phase != "over":
            return None
        n = len(self.players)
        if self.variant == "solo":
            return Outcome("no_blocks", tuple(float(c) for c in self._coins), (1,))
        ranks = [1] * n
        for i, seat in enumerate(self._eliminated):
            ranks[seat] = n - i
        return Outcome("last_player", tuple(float(c) for c in self._coins), tuple(ranks))

    # ------------------------------------------------------------------ legality
    def _illegal_reason(self, action: Action) -> str | None:
        phase = self._phase
        if isinstance(action, Drop):
            if phase != "drop":
                return f"the game asks for a {phase!r} decision, not a drop"
            return self._drop_reason(action)
        if phase == "drop":
            return "the turn starts with a drop of one of your blocks"
        if isinstance(action, Pass):
            return None if phase == "bid" else f"no passing in the {phase!r} step"
        if not isinstance(action, Choose):
            return f"Tilted has no {type(action).__name__} action"
        wanted = {"buy": "buy", "size": "size", "bid": "bid", "auction_order": "auction_order"}
        if action.what != wanted[phase]:
            return f"the game asks for Choose({phase!r}, ...), not Choose({action.what!r}, ...)"
        value = action.value
        if phase == "buy":
            return None if isinstance(value, bool) else "buy takes true or false"
        if phase == "size":
            options = self._pending_size["options"]
            if not isinstance(value, int) or isinstance(value, bool) or value not in options:
                return f"choose one of the lengths {options}"
            return None
        if phase == "auction_order":
            if value not in self._returned_queue:
                return f"choose one of the returned blocks {self._returned_queue}"
            return None
        need, have = self._min_raise(), self._coins[self._current]
        if not isinstance(value, int) or isinstance(value, bool):
            return "a bid is a whole number of coins"
        if value < need:
            return f"a bid must be at least {need} coins"
        if value > have:
            return f"you have only {have} coins"
        return None

    def _drop_reason(self, drop: Drop) -> str | None:
        seat = self._current
        if drop.piece not in self._hands[seat]:
            return f"block {drop.piece!r} is not yours ({self._where(drop.piece)})"
        if drop.pose not in POSES:
            return f"pose must be one of {', '.join(POSES)}"
        for key in ("x", "y", "height", "yaw"):
            value = getattr(drop, key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value):
                return f"{key} must be a finite number"
        if not 0.0 < drop.height <= self.rules.max_drop_height:
            return f"the release height must be in (0, {self.rules.max_drop_height}] m"
        world = self.world
        frame = BeamFrame.of(world)
        s, t = frame.top_point_below(drop.x, drop.y)
        L, W, _ = frame.half
        if not (-self._low_end * s > 0.0 and abs(s) <= L and abs(t) <= W):
            return (f"the release point ({drop.x:.4f}, {drop.y:.4f}) m is not above the high "
                    f"side's half of the beam")
        part = self._part(drop.piece)
        pos, quat = release_pose(world, part, drop)
        if self._frozen:
            verts = Rotation.from_quat(quat).apply(part.mesh.vertices) + np.asarray(pos)
            mine = judge.footprint(verts)
            for name in self._frozen:
                if mine.intersection(judge.footprint(world.vertices(name))).area \
                        > FOOTPRINT_OVERLAP_AREA:
                    return f"the block would be released above frozen block {name}"
        try:
            world.drop(drop.piece, part, pos, quat)
        except OverlapError as exc:
            return f"the block would overlap something at release ({exc})"
        world.remove(drop.piece)
        return None

    def _where(self, piece: str) -> str:
        for seat, hand in enumerate(self._hands):
            if piece in hand:
                return f"{self.players[seat].name} holds it"
        if piece in self._supply:
            return "it is in the supply"
        if piece in self.world.names:
            return "it is on the beam"
        return "no such block"

    def _min_raise(self) -> int:
        return max(self._auction["high"] + 1, self.rules.auction_min_bid)

    # ------------------------------------------------------------------ actions
    def _apply(self, action: Action) -> Verdict:
        if isinstance(action, Drop):
            return self._apply_drop(action)
        if self._phase == "buy":
            return self._apply_buy(action.value)
        if self._phase == "size":
            return self._apply_size(action.value)
        if self._phase == "auction_order":
            return self._apply_order(action.value)
        return self._apply_bid(action)

    def _part(self, piece: str):
        return self.scene.parts[self.rules.block_parts[piece_length(piece) - 1]]

    def _settle(self, world: World) -> tuple[float, bool, int]:
        """Settle until every body is at rest and the beam either rests on an end or
        has stopped turning (less than ``BEAM_STILL_ANGLE`` between two settles: it
        is propped up or balanced), or until ``settle_max_time``.  Returns (time s,
        whether the time cap was hit, settle calls)."""
        cap = world.settings.settle_max_time
        spent, calls, tilt = 0.0, 0, None
        while True:
            report = world.settle(cap - spent)
            spent += report.time
            calls += 1
            if report.timed_out or spent >= cap:
                return spent, True, calls
            if judge.resting_end(world, self.rules.end_rest_gap) != 0:
                return spent, False, calls
            now = judge.beam_tilt(world)
            if tilt is not None and abs(now - tilt) <= BEAM_STILL_ANGLE:
                return spent, False, calls
            tilt = now

    def _apply_drop(self, drop: Drop) -> TiltedVerdict:
        seat, r = self._current, self.rules
        part = self._part(drop.piece)
        world = self.fresh_world()
        try:
            pos, quat = release_pose(world, part, drop)
            world.drop(drop.piece, part, pos, quat)
            settle_time, timed_out, settles = 0.0, False, 0
            returned: list[dict[str, str]] = []
            while True:
                t, out, calls = self._settle(world)
                settle_time, timed_out, settles = settle_time + t, timed_out or out, settles + 1
                facts = self._read(world)
                gone = judge.returns(facts)
                if not gone:
                    break
                for name in facts:
                    if name in gone:
                        world.remove(name)
                        returned.append({"piece": name, "reason": gone[name]})
            frame = BeamFrame.of(world)
            end = judge.resting_end(world, r.end_rest_gap, frame)
            low_after = end if end != 0 else judge.lower_end(world, frame)
        except WorldError:
            self.fresh_world()
            raise
        self.commit_world()
        values = judge.block_values(facts)
        frozen = judge.frozen_blocks(facts)
        low_before = self._low_end
        tilted = end == -low_before

        self._hands[seat].remove(drop.piece)
        self._last_dropper = seat
        self._low_end = low_after
        self._frozen = [n for n in facts if n in frozen]
        names = self.players[seat].name
        self.log(seat, "drop", f"{names} drops {drop.piece} at ({drop.x:.3f}, {drop.y:.3f}) m, "
                               f"{drop.height * 1000:.0f} mm up, {drop.pose}",
                 piece=drop.piece, settle_time=settle_time, settle_timed_out=timed_out)
        due = len(returned) * r.penalty
        paid = min(due, max(self._coins[seat], 0))
        for item in returned:
            self._supply.append(item["piece"])
            self.log(seat, "returned", f"{item['piece']} goes back to the supply: {item['reason']}",
                     **item)
        self._supply.sort(key=piece_key)
        if due:
            self._coins[seat] -= paid
            self._bank += paid
            self.log(seat, "penalty", f"{names} pays {paid} of {due} penalty coin(s)",
                     due=due, paid=paid)
        stayed = drop.piece in facts
        value = values[drop.piece] if stayed else None
        won = value if (tilted and stayed) else 0
        if won:
            self._coins[seat] += won
            self._bank -= won
        if tilted:
            self.log(seat, "tilt", f"the beam tilts; {drop.piece} is worth {value if stayed else 0}"
                                   f" coin(s)", value=value, coins_won=won)
        else:
            self.log(seat, "no_tilt", "the beam does not tilt" if end else
                     "the beam rests on neither end", beam_resting=bool(end))
        if self._bank < 0 and won:
            self.log(None, "bank", f"the bank is at {self._bank} coins", bank=self._bank)
        if self._frozen:
            self.log(None, "frozen", "frozen: " + ", ".join(self._frozen), frozen=self._frozen)
        blocks = [{"piece": n, "sections": list(f.sections), "supports": list(f.supports),
                   "value": values[n], "across": f.across, "frozen": n in frozen}
                  for n, f in facts.items()]
        summary = (f"{drop.piece}: {'tilted' if tilted else 'not tilted'}, +{won} coin(s)"
                   + (f"; returned {', '.join(i['piece'] for i in returned)}, paid {paid}"
                      if returned else "")
                   + (" (settle hit its time cap)" if timed_out else ""))
        auction = self._after_drop(seat, [i["piece"] for i in returned])
        return TiltedVerdict(
            player=seat, summary=summary, piece=drop.piece, release=[float(v) for v in pos],
            tilted=tilted, low_end_before=low_before, low_end_after=low_after,
            beam_resting=bool(end), blocks=blocks, value=value, coins_won=won,
            returned=returned, penalty_due=due, penalty_paid=paid, coins=list(self._coins),
            bank=self._bank, frozen=list(self._frozen), settle_time=settle_time,
            settle_timed_out=timed_out, settles=settles, auction=auction)

    def _read(self, world: World) -> dict[str, judge.BlockFacts]:
        r = self.rules
        blocks = [n for n in world.dynamic_names if n != BEAM]
        return judge.read_blocks(world, blocks, r.sections, line_width=r.line_width,
                                 top_face_tolerance=r.top_face_tolerance)

    def _after_drop(self, seat: int, returned: list[str]) -> dict[str, Any] | None:
        """Step 3 and the hand-over; returns the auction opened (advanced), if any."""
        if self.variant == "advanced":
            if returned:
                self._returned_queue = list(returned)
                self._offender = seat
                return self._next_returned_auction()
            return self._continue_round()
        if self._coins[seat] >= self.rules.buy_cost and self._supply:
            self._phase = "buy"
        else:
            self._begin_turn(self._next_seat(seat))
        return None

    # -- buying (basic, solo)
    def _fallbacks(self, roll: int) -> list[int]:
        """Lengths on offer for a die ``roll``: that length if the supply has it,
        else the nearest smaller and larger lengths it has (one or both)."""
        have = {piece_length(p) for p in self._supply}
        if roll in have:
            return [roll]
        smaller = max((n for n in have if n < roll), default=None)
        larger = min((n for n in have if n > roll), default=None)
        return [n for n in (smaller, larger) if n is not None]

    def _take_from_supply(self, length: int) -> str:
        piece = next(p for p in self._supply if piece_length(p) == length)
        self._supply.remove(piece)
        return piece

    def _apply_buy(self, buy: bool) -> TiltedBuyVerdict:
        seat = self._current
        name = self.players[seat].name
        if not buy:
            self.log(seat, "buy", f"{name} does not buy")
            self._begin_turn(self._next_seat(seat))
            return TiltedBuyVerdict(seat, f"{name} does not buy", False, None, [], None, 0,
                                    list(self._coins), self._bank)
        roll = roll_d6(self.rng)
        options = self._fallbacks(roll)
        self.log(seat, "roll", f"{name} rolls {roll}", roll=roll, options=options)
        if len(options) == 2:
            self._pending_size = {"roll": roll, "options": options, "for": "buy"}
            self._phase = "size"
            return TiltedBuyVerdict(seat, f"rolled {roll}: choose {options[0]}u or {options[1]}u",
                                    True, roll, options, None, 0, list(self._coins), self._bank)
        piece = self._buy(seat, options[0])
        return TiltedBuyVerdict(seat, f"rolled {roll}: bought {piece}", True, roll, [], piece,
                                self.rules.buy_cost, list(self._coins), self._bank)

    def _buy(self, seat: int, length: int) -> str:
        cost = self.rules.buy_cost
        piece = self._take_from_supply(length)
        self._hands[seat].append(piece)
        self._hands[seat].sort(key=piece_key)
        self._coins[seat] -= cost
        self._bank += cost
        self.log(seat, "buy", f"{self.players[seat].name} buys {piece} for {cost} coins",
                 piece=piece, paid=cost)
        self._begin_turn(self._next_seat(seat))
        return piece

    def _apply_size(self, length: int) -> Verdict:
        seat, pending = self._current, self._pending_size
        self._pending_size = None
        if pending["for"] == "buy":
            piece = self._buy(seat, length)
            return TiltedBuyVerdict(seat, f"chose {length}u: bought {piece}", None, None,
                                    pending["options"], piece, self.rules.buy_cost,
                                    list(self._coins), self._bank)
        piece = next(p for p in self._supply if piece_length(p) == length)
        self.log(seat, "size", f"{self.players[seat].name} offers {piece}", piece=piece)
        return self._auction_verdict(seat, f"offers {piece}", None,
                                     self._open_auction("round", piece, seat))

    # -- turns and rounds
    def _next_seat(self, seat: int) -> int:
        """The next seat still in the game after ``seat``, clockwise (``seat`` itself
        when it is the only one)."""
        n = len(self.players)
        for k in range(1, n + 1):
            other = (seat + k) % n
            if other not in self._eliminated:
                return other
        return seat

    def _eliminate(self, seat: int) -> bool:
        """Put ``seat`` out of the game; True when the game is now over."""
        self._eliminated.append(seat)
        self.log(seat, "eliminated", f"{self.players[seat].name} has no block and is out",
                 order=len(self._eliminated))
        left = [s for s in range(len(self.players)) if s not in self._eliminated]
        if self.variant == "solo" or len(left) <= 1:
            self._phase, self._current = "over", None
            self._auction = self._pending_size = None
            if self.variant == "solo":
                text = f"game over: {self._coins[0]} coin(s) left"
            else:
                text = f"game over: {self.players[left[0]].name} wins"
            self.log(None, "over", text, coins=list(self._coins))
            return True
        return False

    def _begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn (basic, solo), eliminating players with no block."""
        while not self._hands[seat]:
            if self._eliminate(seat):
                return
            seat = self._next_seat(seat)
        self.turn += 1
        self._current, self._phase = seat, "drop"

    def _begin_round(self, starter: int) -> None:
        """Start an advanced round with ``starter``."""
        n = len(self.players)
        self._round_left = [s for k in range(n) if (s := (starter + k) % n) not in self._eliminated]
        self.log(starter, "round", f"a round starts with {self.players[starter].name}")
        self._continue_round()

    def _continue_round(self) -> dict[str, Any] | None:
        """Next turn of the advanced round, or its auction when every player has
        played; returns the auction opened, if any."""
        while self._round_left:
            seat = self._round_left.pop(0)
            if self._hands[seat]:
                self.turn += 1
                self._current, self._phase = seat, "drop"
                return None
            if self._eliminate(seat):
                return None
        roller = self._last_dropper
        if not self._supply:
            self.log(roller, "auction", "the supply is empty: no auction")
            self._begin_round(self._next_seat(roller))
            return None
        roll = roll_d6(self.rng)
        options = self._fallbacks(roll)
        self.log(roller, "roll", f"{self.players[roller].name} rolls {roll} for the auction",
                 roll=roll, options=options)
        if len(options) == 2:
            self._pending_size = {"roll": roll, "options": options, "for": "auction"}
            self._current, self._phase = roller, "size"
            return {"kind": "round", "roll": roll, "piece": None, "options": options}
        piece = next(p for p in self._supply if piece_length(p) == options[0])
        self._open_auction("round", piece, roller)
        return {"kind": "round", "roll": roll, "piece": piece, "options": []}

    # -- auctions (advanced)
    def _next_returned_auction(self) -> dict[str, Any] | None:
        queue = self._returned_queue
        if not queue:
            self._offender = None
            return self._continue_round()
        if len(queue) > 1:
            self._current, self._phase = self._offender, "auction_order"
            return {"kind": "returned", "roll": None, "piece": None, "options": list(queue)}
        piece = queue.pop(0)
        self._open_auction("returned", piece, self._next_seat(self._offender))
        return {"kind": "returned", "roll": None, "piece": piece, "options": []}

    def _apply_order(self, piece: str) -> TiltedAuctionVerdict:
        seat = self._current
        self._returned_queue.remove(piece)
        self.log(seat, "auction_order", f"{self.players[seat].name} puts {piece} up next",
                 piece=piece)
        return self._auction_verdict(seat, f"puts {piece} up for auction", None,
                                     self._open_auction("returned", piece,
                                                        self._next_seat(self._offender)))

    def _open_auction(self, kind: str, piece: str, first: int) -> dict[str, Any]:
        """Open the auction of ``piece`` (in the supply) with ``first`` to bid; see
        :meth:`_advance_auction` for the result."""
        n = len(self.players)
        order = [s for k in range(n) if (s := (first + k) % n) not in self._eliminated]
        self._auction = {"kind": kind, "piece": piece, "order": order, "in": list(order),
                         "high": 0, "high_bidder": None, "last": None}
        self.log(first, "auction", f"{piece} is up for auction; {self.players[first].name} "
                                   f"bids first", auction=kind, piece=piece)
        return self._advance_auction(first_turn=True)

    def _advance_auction(self, first_turn: bool = False) -> dict[str, Any]:
        """Give the turn to the next bidder who can raise (passing the others
        automatically), or close the auction.  Returns ``{"passed": seats passed
        automatically, "closed": the auction's final record if it closed, else None}``."""
        a, passed = self._auction, []
        order = a["order"]
        index = 0 if first_turn else order.index(a["last"]) + 1
        while True:
            if not a["in"]:
                return {"passed": passed, "closed": self._close_auction(None)}
            seat = order[index % len(order)]
            index += 1
            if seat not in a["in"]:
                continue
            if seat == a["high_bidder"]:
                return {"passed": passed, "closed": self._close_auction(seat)}
            if self._coins[seat] < self._min_raise():
                a["in"].remove(seat)
                a["last"] = seat
                passed.append(seat)
                self.log(seat, "pass", f"{self.players[seat].name} cannot raise and is out of "
                                       f"the auction", automatic=True)
                continue
            self._current, self._phase = seat, "bid"
            return {"passed": passed, "closed": None}

    def _apply_bid(self, action: Action) -> TiltedAuctionVerdict:
        seat, a = self._current, self._auction
        name = self.players[seat].name
        a["last"] = seat
        if isinstance(action, Pass):
            a["in"].remove(seat)
            self.log(seat, "pass", f"{name} declines", automatic=False)
            result = self._advance_auction()
            result["passed"].insert(0, seat)
            return self._auction_verdict(seat, f"{name} declines", None, result)
        bid = int(action.value)
        a["high"], a["high_bidder"] = bid, seat
        self.log(seat, "bid", f"{name} bids {bid}", bid=bid)
        return self._auction_verdict(seat, f"{name} bids {bid}", bid, self._advance_auction())

    def _close_auction(self, winner: int | None) -> dict[str, Any]:
        """Sell the block to ``winner`` (None: no sale), then go on with the game;
        returns the auction's final record."""
        a = dict(self._auction, winner=winner)
        self._auction = None
        piece, price = a["piece"], a["high"]
        if winner is None:
            self.log(None, "auction", f"no bid for {piece}; it stays in the supply", piece=piece)
        else:
            self._supply.remove(piece)
            self._hands[winner].append(piece)
            self._hands[winner].sort(key=piece_key)
            self._coins[winner] -= price
            self._bank += price
            self.log(winner, "auction", f"{self.players[winner].name} buys {piece} for {price}",
                     piece=piece, price=price)
        if a["kind"] == "returned":
            self._next_returned_auction()
        else:
            self._begin_round(winner if winner is not None else self._next_seat(self._last_dropper))
        return a

    def _auction_verdict(self, seat: int, text: str, bid: int | None,
                         result: dict[str, Any]) -> TiltedAuctionVerdict:
        closed = result["closed"]
        info = closed if closed is not None else self._auction
        winner = closed["winner"] if closed is not None else None
        if closed is not None:
            text += (f"; {self.players[winner].name} buys {info['piece']} for {info['high']}"
                     if winner is not None else f"; no sale of {info['piece']}")
        return TiltedAuctionVerdict(
            player=seat, summary=text, auction=info["kind"], piece=info["piece"], bid=bid,
            high_bid=info["high"], high_bidder=info["high_bidder"], passed=result["passed"],
            closed=closed is not None, winner=winner,
            price=info["high"] if winner is not None else None,
            coins=list(self._coins), bank=self._bank)

    # ------------------------------------------------------------------ saving
    def _state_dict(self) -> dict[str, Any]:
        return {
            "phase": self._phase, "current": self._current,
            "hands": [list(h) for h in self._hands], "supply": list(self._supply),
            "coins": list(self._coins), "bank": self._bank,
            "eliminated": list(self._eliminated), "low_end": self._low_end,
            "frozen": list(self._frozen), "pending_size": copy.deepcopy(self._pending_size),
            "auction": copy.deepcopy(self._auction),
            "returned_queue": list(self._returned_queue),
            "offender": self._offender, "round_left": list(self._round_left),
            "last_dropper": self._last_dropper,
        }

    def _load_state_dict(self, data: dict[str, Any]) -> None:
        n = len(self.players)
        if len(data["hands"]) != n or len(data["coins"]) != n:
            raise RecordError(f"saved tilted state has hands/coins for "
                              f"{len(data['hands'])}/{len(data['coins'])} seats, not {n}")
        if data["phase"] not in ("drop", "buy", "size", "bid", "auction_order", "over"):
            raise RecordError(f"saved tilted state has unknown phase {data['phase']!r}")
        self._phase = data["phase"]
        self._current = data["current"]
        self._hands = [list(h) for h in data["hands"]]
        self._supply = list(data["supply"])
        self._coins = [int(c) for c in data["coins"]]
        self._bank = int(data["bank"])
        self._eliminated = [int(s) for s in data["eliminated"]]
        self._low_end = int(data["low_end"])
        self._frozen = list(data["frozen"])
        self._pending_size = copy.deepcopy(data["pending_size"])
        self._auction = copy.deepcopy(data["auction"])
        self._returned_queue = list(data["returned_queue"])
        self._offender = data["offender"]
        self._round_left = [int(s) for s in data["round_left"]]
        self._last_dropper = data["last_dropper"]


GAME = Game(
    name="tilted", variants=("basic", "solo", "advanced"), counts=VARIANT_PLAYER_COUNTS,
    state_class=TiltedState, parse_rules=TiltedRules.from_scene, score_name="coins",
    action_types=("drop", "choose", "pass"), bots=("planner", "random"), default_bot="planner",
    release_kind="beam_half")
