"""Tower's turns: the order of play, the dice, what a turn asks for, the end, and a
drop played out (see the package docstring, "Turns" to "End")."""
from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from balance3d.games.base import Drop
from balance3d.games.tower import physics
from balance3d.games.tower.judge import (Landing, base_outline, is_vertical, landing,
                                         read_tower)
from balance3d.games.tower.rules import EITHER, GIVE, TABLE, play_count
from balance3d.games.tower.verdicts import TowerDropVerdict
from balance3d.physics.world import World, WorldError


class TurnsMixin:
    """The turn steps of :class:`~balance3d.games.tower.state.TowerState`."""

    # ------------------------------------------------------------------ the flow
    def _advance(self) -> None:
        """Carry out what needs no decision (turns lost, rolls, card draws, tasks
        nobody can do) until a player is asked for a decision or a drop, or the game
        ends."""
        while True:
            if not any(self._hands):
                self._end("all_played", "every piece has been played or removed")
                return
            if not self._tasks:
                self._next_turn()
                continue
            task = self._tasks[0]
            kind, seat = task["kind"], task["seat"]
            if seat in self._out or task.get("target") in self._out:
                self._tasks.pop(0)
                continue
            if kind == "draw":
                self._tasks.pop(0)
                self._draw(task)
            elif kind == "drop":
                if self._asks_drop(task):
                    return
                self._tasks.pop(0)
            elif self._card_decisions():
                return
            else:
                self._tasks.pop(0)
                self.log(seat, "no_effect", f"{self.players[seat].name} has nothing to "
                                            f"choose for the {kind} decision")

    def _asks_drop(self, task: dict[str, Any]) -> bool:
        """Whether the drop ``task`` is asked for now: its player holds a piece of the
        shape and the game finds a legal drop (else the pieces they hold leave the
        game: they cannot build)."""
        seat, shape = task["seat"], task["shape"]
        name = self.players[seat].name
        if not self._pieces_of(seat, shape):
            self.log(seat, "no_piece", f"{name} has no {shape} piece left to play")
            return False
        if self._find_drop(seat, shape) is not None:
            return True
        gone = list(self._hands[seat])
        self._hands[seat].clear()
        self._removed.extend(gone)
        self.log(seat, "cannot_build", f"{name} can drop no piece legally: their "
                                       f"{len(gone)} unplayed piece(s) leave the game",
                 pieces=gone)
        return False

    def _next_turn(self) -> None:
        """The next seat in the game rolls both dice (or loses this turn).  Some seat
        is in the game: a seat that is out holds no piece, and the game is over once
        nobody holds one."""
        nxt = self._next_in_game(self._roller)
        seat = self._roller if nxt is None else nxt
        self._roller = seat
        self.turn += 1
        name = self.players[seat].name
        if self._skips[seat]:
            self._skips[seat] -= 1
            self.log(seat, "skip", f"{name} loses this turn")
            return
        if self._loaded:
            self._dice = self._loaded.pop(0)
        else:
            faces = self.rules.die_1, self.rules.die_2
            self._dice = [str(die[int(self.rng.integers(len(die)))]) for die in faces]
        self.roll(seat, *self._dice)

    def roll(self, seat: int, die_1: str, die_2: str) -> None:
        """``seat`` rolled ``die_1`` and ``die_2``: log it and set the tasks (a
        penalty face overrides die 2)."""
        self._dice = [die_1, die_2]
        count = play_count(die_1)
        name = self.players[seat].name
        if count is None:
            self.log(seat, "roll", f"{name} rolls {die_1!r} (die 2, {die_2!r}, is ignored)",
                     dice=[die_1, die_2])
            if die_1 == GIVE:
                self._tasks.append({"kind": "target", "seat": seat})
            else:
                self._tasks.append({"kind": "draw", "seat": seat,
                                    "chooser": self._chooser(seat)})
        else:
            self.log(seat, "roll", f"{name} rolls {die_1!r} and {die_2!r}", dice=[die_1, die_2])
            self._tasks.append({"kind": "drop", "seat": seat, "shape": die_2, "left": count,
                                "why": "roll"})

    def _chooser(self, seat: int) -> int:
        """Who chooses for ``seat``'s own card (U-DECIDE, an extra piece's shape): the
        next player in the game, or ``seat`` when nobody else is."""
        nxt = self._next_in_game(seat)
        return seat if nxt is None else nxt

    def _end(self, termination: str, text: str) -> None:
        self._termination = termination
        self._tasks = []
        self.log(None, "end", f"the game ends: {text}", termination=termination,
                 heights=list(self.heights))

    # ------------------------------------------------------------------ a drop
    def _settle(self, world: World) -> Generator[None, None, physics.Settled]:
        floor = float(world.vertices(TABLE)[:, 2].max()) - self.rules.off_table_depth
        return (yield from physics.settling_on_table(world, floor))

    def _landing(self, drop: Drop) -> Landing:
        """Where ``drop`` lands (:func:`~balance3d.games.tower.judge.landing`) on the
        World of the between-turns snapshot (:meth:`_on_snapshot`), its rays cast
        among the bodies that can hold their top hit (that snapshot given)."""
        return self._on_snapshot(("landing", repr(drop)), lambda: landing(
            self.world, self.piece_part(drop.piece), drop, self._snapshot))

    def _release_hits(self, drop: Drop, land: Landing) -> list[str]:
        """The bodies ``drop``'s piece would overlap at its release pose ``land``
        (:meth:`World.overlaps`) on the World of the between-turns snapshot
        (:meth:`_on_snapshot`)."""
        return self._on_snapshot(("hits", repr(drop)), lambda: self.world.overlaps(
            self.piece_part(drop.piece), land.position, land.orientation))

    def _base_outline(self, seat: int):
        """``seat``'s base seen from above (:func:`~balance3d.games.tower.judge.base_outline`),
        read once per snapshot (:meth:`_on_snapshot`)."""
        return self._on_snapshot(("outline", seat), lambda: base_outline(
            self.world, self.base(seat)))

    def _on_snapshot(self, key: tuple, compute: Callable[[], Any]) -> Any:
        """``compute()``, a reading of the World of the between-turns snapshot, kept
        under ``key`` for as long as that snapshot stands.  The legality check reads
        :attr:`world` and the run :meth:`fresh_world`, both restored from that
        snapshot, so each reading (a drop's landing rays, its overlaps, a base's
        outline) is made once per snapshot, and shared with the trial copies,
        whose legality check then reads no World."""
        snapshot, found = self._landed or (None, None)
        if found is None or snapshot is not self._snapshot:
            found = {}
            self._landed = (self._snapshot, found)
        if key not in found:
            found[key] = compute()
        return found[key]

    def _run_drop(self, drop: Drop) -> Generator[None, None, TowerDropVerdict]:
        """The drop, step by step (see :meth:`State._run`)."""
        task = self._tasks[0]
        seat = task["seat"]
        base = self.base(seat)
        part = self.piece_part(drop.piece)
        world = self.fresh_world()
        try:
            before = world.snapshot()
            others = {str(s): list(t) for s, t in enumerate(self._towers) if s != seat and t}
            start = physics.poses(world, [p for t in others.values() for p in t])
            land = self._landing(drop)
            level = self._level_of(seat, land.below)
            world.drop(drop.piece, part, land.position, land.orientation)
            yield
            settled = yield from self._settle(world)
            time, capped = settled.time, settled.timed_out
            mine = [*self._towers[seat], drop.piece]
            reading = read_tower(world, base, mine)
            removed: list[str] = []
            gone = list(reading.fallen)
            fallen = list(gone)
            if gone and drop.piece not in gone:
                gone.append(drop.piece)
            while gone:
                for piece in gone:
                    if piece in world.names:
                        world.remove(piece)
                removed += gone
                settled = yield from self._settle(world)
                time, capped = time + settled.time, capped or settled.timed_out
                reading = read_tower(world, base, [p for p in mine if p not in removed])
                gone = list(reading.fallen)
                fallen += gone
            knocked = self._knocked(world, start, others)
            if knocked:
                harmed = [p for s in knocked for p in others[s]]
                blocking = self._in_the_way(world, before, harmed, mine)
                for piece in blocking:
                    world.remove(piece)
                fallen += blocking
                removed += blocking
                physics.restore_pieces(world, before, harmed, bring_back=True)
                settled = yield from self._settle(world)
                time, capped = time + settled.time, capped or settled.timed_out
                reading = read_tower(world, base, [p for p in mine if p not in removed])
        except WorldError:
            self.fresh_world()
            raise
        self.commit_world()
        return self._after_drop(task, drop, land.position, level, reading, fallen, removed,
                                knocked, time, capped)

    def _after_drop(self, task, drop, release, level, reading, fallen, removed, knocked,
                    time, capped) -> TowerDropVerdict:
        """Update the game after a drop (all physics done) and build its verdict."""
        seat = task["seat"]
        name = self.players[seat].name
        self._hands[seat].remove(drop.piece)
        stood = bool(self._towers[seat])
        self._towers[seat] = [p for p in [*self._towers[seat], drop.piece] if p not in removed]
        for piece in removed:
            self._levels.pop(piece, None)
        self._levels.update({p: reading.levels[p] for p in self._towers[seat]
                             if p in reading.levels})
        self._removed.extend(removed)
        rests = self._levels.get(drop.piece)
        self.log(seat, "drop", f"{name} drops {drop.piece} ({drop.pose}) onto level {level}"
                 + (f"; it rests on level {rests}" if rests is not None else ""),
                 piece=drop.piece, level=level, rests_on_level=rests, settle_time=time,
                 settle_timed_out=capped)
        if removed:
            self.log(seat, "fall", f"part of {name}'s tower fell: {', '.join(removed)} leave "
                                   f"the game", fallen=fallen, removed=removed)
        unmet = self._vertical[seat] and not self._stands_vertically(seat, drop.piece)
        out = stood and bool(removed) and not self._towers[seat]
        if unmet and not out:
            self.log(seat, "vertical_unmet", f"{drop.piece} does not stand vertically at rest: "
                                             f"{name}'s next piece must still stand vertically",
                     piece=drop.piece)
        else:
            self._vertical[seat] = False
        if out:
            self._put_out(seat, f"{name}'s whole tower fell: {name} is out")
        elif removed and not self._towers[seat]:
            self.log(seat, "no_tower", f"{name}'s base was empty before the drop: only "
                                       f"the fallen piece leaves the game; {name} plays on")
        task["left"] -= 1
        if task["left"] <= 0 or out:
            self._tasks.remove(task)
        if knocked:
            for owner, pieces in knocked.items():
                self.log(int(owner), "knocked", f"{name} knocked {self.players[int(owner)].name}"
                                                f"'s tower ({', '.join(pieces)} fell): it is "
                                                f"restored", pieces=pieces, culprit=seat)
            if not out:
                self._skips[seat] += 1
                self.log(seat, "knock_penalty", f"{name} loses their next turn and draws a "
                                                f"penalty card")
                self._tasks.append({"kind": "draw", "seat": seat,
                                    "chooser": self._chooser(seat)})
        summary = (f"{drop.piece} onto level {level}"
                   + (f", rests on level {rests}" if rests is not None else "")
                   + (f"; fell: {', '.join(fallen)}" if fallen else "")
                   + (f"; knocked: {', '.join(sorted(knocked))}" if knocked else "")
                   + ("; not vertical at rest: the card still stands" if unmet and not out
                      else "")
                   + ("; out" if out else "") + (" (settle hit its time cap)" if capped else ""))
        self._advance()
        return TowerDropVerdict(
            player=seat, summary=summary, piece=drop.piece,
            release=[float(v) for v in release], level=level, rests_on_level=rests,
            fallen=fallen, removed=removed, knocked=knocked, out=out,
            heights=list(self.heights), settle_time=time, settle_timed_out=capped,
            vertical_unmet=unmet and not out)

    def _stands_vertically(self, seat: int, piece: str) -> bool:
        """Whether ``piece``, just played by ``seat``, meets a "next piece vertical"
        card: it stayed on their tower and stands vertically at rest
        (:func:`~balance3d.games.tower.judge.is_vertical` on the settled World)."""
        return piece in self._towers[seat] and is_vertical(self.world, piece)

    def _knocked(self, world: World, start: dict[str, physics.Pose],
                 others: dict[str, list[str]]) -> dict[str, list[str]]:
        """Owner seat (as a string) -> the pieces of that tower this drop toppled:
        pieces that fell by the reading of a player's own falls
        (:func:`~balance3d.games.tower.judge.read_tower`, on the World settled after
        the player's fallen pieces are gone) and moved more than ``knock_tolerance``
        m since ``start`` (name -> pose before the drop), so the drop moved them.
        ``others`` maps each other seat with a tower to its pieces; towers nothing
        of which fell are left out."""
        moved = physics.moved_pieces(world, start, others, self.rules.knock_tolerance)
        found = {}
        for owner, pieces in moved.items():
            fell = read_tower(world, self.base(int(owner)), others[owner]).fallen
            toppled = [piece for piece in fell if piece in pieces]
            if toppled:
                found[owner] = toppled
        return found

    @staticmethod
    def _in_the_way(world: World, before, harmed: list[str], mine: list[str]) -> list[str]:
        """The pieces of ``mine`` still in the world that lie where a piece of
        ``harmed`` stood in the snapshot ``before``: they leave the game as fallen
        pieces, so the harmed towers can be restored."""
        old = {b.name: b for b in before.bodies}
        present = set(world.names)
        found: set[str] = set()
        for name in harmed:
            b = old[name]
            found.update(n for n in world.overlaps(b.part, b.position, b.orientation)
                         if n in mine and n in present)
        return [p for p in mine if p in found]

    def _put_out(self, seat: int, text: str) -> None:
        """``seat`` is out: their unplayed pieces leave the game."""
        self._out.append(seat)
        self._removed.extend(self._hands[seat])
        self._hands[seat] = []
        self.log(seat, "out", text)

    def _level_of(self, seat: int, below: str | None) -> int:
        """The level a piece landing on ``below`` takes on ``seat``'s tower
        (1 + its level, the base being 0); -1 when it is not part of that tower."""
        if below == self.base(seat):
            return 1
        if below in self._towers[seat]:
            return 1 + self._levels[below]
        return -1

    def _top_level(self, seat: int) -> int:
        """The highest level of ``seat``'s tower (0: no piece on it)."""
        return max((self._levels[p] for p in self._towers[seat]), default=0)

    @staticmethod
    def _shape_fits(shape: str, wanted: str) -> bool:
        return wanted == EITHER or shape == wanted
