"""Tri-Ba-Lance's turns: whose turn it is, being out, the end, and a placement or a
pass played out (see the package docstring, "Placing" to "End")."""
from __future__ import annotations

import math
from collections.abc import Generator

from balance3d.games.base import Place
from balance3d.games.tribalance.judge import PlateFrame
from balance3d.games.tribalance.placing import read, release_pose, settle_still
from balance3d.games.tribalance.rules import Phase, piece_key, piece_owner, piece_weight
from balance3d.games.tribalance.verdicts import TribalancePassVerdict, TribalanceVerdict
from balance3d.physics.world import World, WorldError


class TurnsMixin:
    """The turn steps of :class:`~balance3d.games.tribalance.state.TribalanceState`."""

    def _begin_turn(self, seat: int) -> None:
        """Give the turn to ``seat`` or, clockwise, the next seat still in the game
        that can place a piece (a seat that cannot is out); end the game when none
        is left or a full round passed without a valid turn."""
        n = len(self.players)
        playing = [s for s in range(n) if self._in_game(s)]
        if self._idle and playing and all(s in self._idle for s in playing):
            self._end("no_valid_round", "a full round passed without a valid turn")
            return
        for k in range(n):
            candidate = (seat + k) % n
            if not self._in_game(candidate):
                continue
            if not self.free_fields():
                self._end("plate_full", "every field is taken")
                return
            if self._find_place(candidate) is None:
                self._put_out(candidate, "no_free_field",
                              f"{self.players[candidate].name} can place no piece on a free "
                              f"field")
                continue
            self._current = candidate
            self._phase = Phase.PLACE
            return
        self._end("all_done", "every player has placed all their pieces or is out")

    def _end(self, termination: str, text: str) -> None:
        self._phase = Phase.OVER
        self._termination = termination
        self.log(None, "end", f"the game ends: {text}", termination=termination,
                 scores=list(self.scores))

    def _put_out(self, seat: int, reason: str, text: str) -> None:
        self._out.append(seat)
        self.log(seat, "out", text, reason=reason)

    def _after_turn(self, seat: int, valid: bool) -> None:
        if valid:
            self._idle = []
        elif seat not in self._idle:
            self._idle.append(seat)
        if not self._someone_done and any(not self._hands[s] for s in range(len(self.players))):
            self._someone_done = True
            self.log(None, "all_placed", "a player has placed all their pieces: from now on "
                                         "an invalid turn puts a player out")
        self.turn += 1
        self._begin_turn((seat + 1) % len(self.players))

    def _apply_pass(self) -> TribalancePassVerdict:
        seat = self._current
        name = self.players[seat].name
        self._put_out(seat, "pass", f"{name} passes and is out")
        self._after_turn(seat, valid=False)
        return TribalancePassVerdict(player=seat, summary=f"{name} passes and is out",
                                     scores=list(self.scores))

    def _release(self, world: World, place: Place) -> None:
        field = self.rules.fields[place.field]
        part = self._part(place.piece)
        pos, quat = release_pose(PlateFrame.of(world, self.side), part, field.x, field.y,
                                 self.rules.release_gap)
        world.drop(place.piece, part, pos, quat)

    def _run_place(self, place: Place) -> Generator[None, None, TribalanceVerdict]:
        """The placement, step by step (see :meth:`State._run`)."""
        seat, rules, side = self._current, self.rules, self.side
        world = self.fresh_world()
        try:
            self._release(world, place)
            yield
            settled = yield from settle_still(world, rules)
            time, capped = settled.time, settled.timed_out
            on_board = [*self._placed, place.piece]
            judged = read(world, rules, side, on_board)
            valid = not judged.frame
            gone = [p for p in on_board if p not in judged.on_plate]
            returned = list(gone)
            if not valid and place.piece not in returned:
                returned.append(place.piece)
            taken = set(returned)
            after = judged
            while taken:
                for piece in sorted(taken, key=on_board.index):
                    world.remove(piece)
                settled = yield from settle_still(world, rules)
                time, capped = time + settled.time, capped or settled.timed_out
                left = [p for p in on_board if p not in returned]
                after = read(world, rules, side, left)
                taken = {p for p in left if p not in after.on_plate}
                gone += sorted(taken, key=on_board.index)
                returned += sorted(taken, key=on_board.index)
        except WorldError:
            self.fresh_world()
            raise
        self.commit_world()

        name = self.players[seat].name
        self._hands[seat].remove(place.piece)
        if place.piece not in returned:
            self._placed[place.piece] = place.field
        for piece in returned:
            self._placed.pop(piece, None)
            owner = piece_owner(piece)
            self._hands[owner].append(piece)
            self._hands[owner].sort(key=piece_key)
        field = rules.fields[place.field]
        stayed = valid and place.piece not in returned
        points = piece_weight(place.piece) * field.number if stayed else 0
        where = ", ".join(f"{c['kind']} {c['index']}" for c in judged.frame)
        self.log(seat, "place", f"{name} places {place.piece} on field {place.field} "
                                f"(number {field.number})", piece=place.piece,
                 field=place.field, settle_time=time, settle_timed_out=capped)
        if valid:
            self.log(seat, "valid", f"valid: the plate tilts {math.degrees(judged.tilt):.2f} "
                                    f"degrees, clear of the frame", points=points)
        else:
            self.log(seat, "invalid", f"invalid: the plate rests on the frame ({where}); "
                                      f"{place.piece} goes back to {name}",
                     frame_contacts=judged.frame)
        slid = [{"piece": p, "owner": piece_owner(p)} for p in gone]
        for item in slid:
            self.log(item["owner"], "slid_off", f"{item['piece']} slid off the plate and goes "
                                                f"back to {self.players[item['owner']].name}",
                     **item)
        out = not valid and self._someone_done
        if out:
            self._put_out(seat, "invalid_turn", f"{name} is out: an invalid turn after a "
                                                f"player has placed all their pieces")
        summary = (f"{place.piece} on field {place.field}: "
                   + (f"valid, +{points} point(s)" if valid else f"invalid ({where})")
                   + (f"; slid off: {', '.join(i['piece'] for i in slid)}" if slid else "")
                   + ("; out" if out else "")
                   + (" (settle hit its time cap)" if capped else ""))
        self._after_turn(seat, valid)
        return TribalanceVerdict(
            player=seat, summary=summary, piece=place.piece, field=place.field,
            number=field.number, valid=valid, points=points,
            tilt_deg=math.degrees(judged.tilt),
            tilt_direction_deg=math.degrees(judged.direction),
            frame_contacts=judged.frame, slid_off=slid, returned=returned,
            tilt_after_deg=math.degrees(after.tilt), settle_time=time,
            settle_timed_out=capped, out=out, scores=list(self.scores))

