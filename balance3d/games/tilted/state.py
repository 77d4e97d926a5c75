"""Tilted's state machine: set-up, queries, legality, the dispatch of actions and
saving (the steps themselves are in :mod:`~balance3d.games.tilted.drops`,
:mod:`~balance3d.games.tilted.turns` and :mod:`~balance3d.games.tilted.auction`)."""
from __future__ import annotations

from collections.abc import Generator
from typing import Any

from balance3d.games.base import Action, Choose, Drop, GameError, Outcome, Pass, Player, \
    RecordError, Refusal, State, Verdict, run_to_end
from balance3d.games.placement import release_pose
from balance3d.games.phases import PhasedMixin
from balance3d.games.tilted import judge
from balance3d.games.tilted.auction import Auction, AuctionsMixin
from balance3d.games.tilted.drops import DropsMixin
from balance3d.games.tilted.judge import BEAM, BeamFrame
from balance3d.games.tilted.rules import (DIE_FACES, Phase, piece_key, piece_length, piece_name,
                                          roll_d6)
from balance3d.games.tilted.turns import SizeChoice, TurnsMixin
from balance3d.meshes.part import Part
from balance3d.scene import Scene, load_scene


class TiltedState(DropsMixin, TurnsMixin, AuctionsMixin, PhasedMixin, State):
    """A game of Tilted in progress (see the package docstring for the rules)."""

    def __init__(self, scene: Scene, players: list[Player], seed: int, variant: str) -> None:
        super().__init__(scene, players, seed, variant)
        n = len(players)
        self._phase = Phase.DROP
        self._current: int | None = None
        self._hands: list[list[str]] = [[] for _ in range(n)]
        self._supply: list[str] = []
        self._coins = [0] * n
        self._bank = 0
        self._eliminated: list[int] = []
        self._low_end = +1
        self._frozen: list[str] = []
        self._pending_size: SizeChoice | None = None
        self._auction: Auction | None = None
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
        state.log(None, "arranged", "situation arranged by hand",
                  hands=[list(h) for h in state._hands], coins=list(state._coins),
                  bank=state._bank, low_end=state._low_end, current=state._current)
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
            run_to_end(self._settling(world))
        self._low_end = judge.lower_end(world)
        self.commit_world()
        self.log(None, "arranged", "blocks staged: " + ", ".join(d.piece for d in drops),
                 pieces=[d.piece for d in drops], low_end=self._low_end)

    # ------------------------------------------------------------------ queries
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

    def piece_part(self, piece: str) -> Part:
        """The part of the block ``piece`` (by its length)."""
        return self._part(piece)

    @property
    def auction(self) -> Auction | None:
        """A copy of the open auction (advanced), or None."""
        return None if self._auction is None else Auction.from_dict(self._auction.to_dict())

    @property
    def size_choice(self) -> SizeChoice | None:
        """The die roll on offer while the player decides whether to buy (phases
        "buy" and "size") or picks the auction's fallback size (phase "size"), or
        None."""
        return self._pending_size

    def legal_pieces(self, player: int | None = None) -> list[str]:
        seat = self._current if player is None else player
        if self._phase != Phase.DROP or seat != self._current:
            return []
        return list(self._hands[seat])

    def legal_decisions(self) -> list[Action]:
        phase = self._phase
        if phase == Phase.BUY:
            return [Choose("buy", True), Choose("buy", False)]
        if phase == Phase.SIZE:
            return [Choose("size", n) for n in self._pending_size.options]
        if phase == Phase.AUCTION_ORDER:
            return [Choose("auction_order", p) for p in self._returned_queue]
        if phase == Phase.BID:
            need = self._min_raise()
            have = self._coins[self._current]
            return [Pass()] + [Choose("bid", v) for v in range(need, have + 1)]
        return []

    def legal_release(self) -> Drop | None:
        """A legal drop for the current player (see :meth:`_find_drop`), or None when
        the phase is not "drop" or a turn is running."""
        if self._phase != Phase.DROP or self.running is not None:
            return None
        return self._find_drop(self._current)

    def release_area(self) -> dict[str, Any] | None:
        """The high half of the beam's top face, seen from above (see
        :meth:`State.release_area`): one region, kind "beam_half", its polygon the
        four corners of that half (m, world x, y) and ``top_z`` the height of its
        highest corner (m).  Frozen blocks and overlaps are not cut out.  None
        unless the phase is "drop"."""
        if self._phase != Phase.DROP:
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
        if self._phase != Phase.OVER:
            return None
        n = len(self.players)
        if self.variant == "solo":
            # a solo game ends only when its player is out at the start of a turn
            ending = "no_blocks" if not self._hands[0] else "no_legal_drop"
            return Outcome(ending, tuple(float(c) for c in self._coins), (1,))
        ranks = [1] * n
        for i, seat in enumerate(self._eliminated):
            ranks[seat] = n - i
        return Outcome("last_player", tuple(float(c) for c in self._coins), tuple(ranks))

    # ------------------------------------------------------------------ legality
    def _illegal_reason(self, action: Action) -> str | None:
        phase = self._phase
        if isinstance(action, Drop):
            if phase != Phase.DROP:
                return Refusal(f"the game asks for a {phase.value!r} decision, not a drop",
                               "decision_asked", phase=phase.value, piece=action.piece)
            return self._drop_reason(action)
        if phase == Phase.DROP:
            return Refusal("the turn starts with a drop of one of your blocks", "drop_asked")
        if isinstance(action, Pass):
            return None if phase == Phase.BID else Refusal(
                f"no passing in the {phase.value!r} step", "no_pass", phase=phase.value)
        if not isinstance(action, Choose):
            return Refusal(f"Tilted has no {type(action).__name__} action", "no_such_action")
        if action.what != phase.value:
            return Refusal(f"the game asks for Choose({phase.value!r}, ...), not "
                           f"Choose({action.what!r}, ...)", "decision_asked", phase=phase.value)
        value = action.value
        if phase == Phase.BUY:
            return None if isinstance(value, bool) else Refusal("buy takes true or false",
                                                                "decision_value")
        if phase == Phase.SIZE:
            options = self._pending_size.options
            if not isinstance(value, int) or isinstance(value, bool) or value not in options:
                return Refusal(f"choose one of the lengths {options}", "decision_value",
                               options=list(options))
            return None
        if phase == Phase.AUCTION_ORDER:
            if value not in self._returned_queue:
                return Refusal(f"choose one of the returned blocks {self._returned_queue}",
                               "decision_value", options=list(self._returned_queue))
            return None
        need, have = self._min_raise(), self._coins[self._current]
        if not isinstance(value, int) or isinstance(value, bool):
            return Refusal("a bid is a whole number of coins", "bid_whole")
        if value < need:
            return Refusal(f"a bid must be at least {need} coins", "bid_low", need=need)
        if value > have:
            return Refusal(f"you have only {have} coins", "bid_high", have=have)
        return None

    # ------------------------------------------------------------------ actions
    def _run(self, action: Action) -> Generator[None, None, Verdict]:
        if isinstance(action, Drop):
            return (yield from self._run_drop(action))
        if self._phase == Phase.BUY:
            return self._apply_buy(action.value)
        if self._phase == Phase.SIZE:
            return self._apply_size(action.value)
        if self._phase == Phase.AUCTION_ORDER:
            return self._apply_order(action.value)
        return self._apply_bid(action)

    # ------------------------------------------------------------------ saving
    def _state_dict(self) -> dict[str, Any]:
        return {
            "phase": self._phase.value, "current": self._current,
            "hands": [list(h) for h in self._hands], "supply": list(self._supply),
            "coins": list(self._coins), "bank": self._bank,
            "eliminated": list(self._eliminated), "low_end": self._low_end,
            "frozen": list(self._frozen),
            "pending_size": None if self._pending_size is None else self._pending_size.to_dict(),
            "auction": None if self._auction is None else self._auction.to_dict(),
            "returned_queue": list(self._returned_queue),
            "offender": self._offender, "round_left": list(self._round_left),
            "last_dropper": self._last_dropper,
        }

    def _load_state_dict(self, data: dict[str, Any]) -> None:
        n = len(self.players)
        if len(data["hands"]) != n or len(data["coins"]) != n:
            raise RecordError(f"saved tilted state has hands/coins for "
                              f"{len(data['hands'])}/{len(data['coins'])} seats, not {n}")
        if data["phase"] not in {p.value for p in Phase}:
            raise RecordError(f"saved tilted state has unknown phase {data['phase']!r}")
        self._phase = Phase(data["phase"])
        self._current = data["current"]
        self._hands = [list(h) for h in data["hands"]]
        self._supply = list(data["supply"])
        self._coins = [int(c) for c in data["coins"]]
        self._bank = int(data["bank"])
        self._eliminated = [int(s) for s in data["eliminated"]]
        self._low_end = int(data["low_end"])
        self._frozen = list(data["frozen"])
        self._pending_size = None if data["pending_size"] is None \
            else SizeChoice.from_dict(data["pending_size"])
        if self._phase == Phase.BUY and (self._pending_size is None
                                         or self._pending_size.purpose != "buy"):
            raise RecordError("saved tilted state in the 'buy' step has no die roll on offer "
                              "(pending_size with 'for': 'buy')")
        self._auction = None if data["auction"] is None else Auction.from_dict(data["auction"])
        self._returned_queue = list(data["returned_queue"])
        self._offender = data["offender"]
        self._round_left = [int(s) for s in data["round_left"]]
        self._last_dropper = data["last_dropper"]
