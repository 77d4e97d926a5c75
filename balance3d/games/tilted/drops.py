"""Tilted's drops: legality before any physics, the physics of a drop, and its
judging (see the package docstring, "Drop legality" to "Coins for the drop")."""
from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass

import numpy as np

from balance3d import numerics, planar
from balance3d.games.base import Drop, GameError, Refusal, run_to_end
from balance3d.games.placement import drop_fields_refusal, release_pose
from balance3d.games.tilted import judge
from balance3d.games.tilted.judge import BEAM, FULCRUM, BeamFrame
from balance3d.games.tilted.rules import (BEAM_STILL_ANGLE, FIND_DROP_GRID, FIND_DROP_HEIGHT,
                                          FOOTPRINT_OVERLAP_AREA, piece_key, piece_length)
from balance3d.games.tilted.verdicts import TiltedVerdict
from balance3d.physics.world import World, WorldError


@dataclass(frozen=True)
class _Judged:
    """The state a drop settled into, before any block is returned: the beam ``end``
    resting on the table (0: neither), the blocks' ``facts`` and the blocks
    ``returned`` from it (name -> reason)."""

    end: int
    facts: dict[str, judge.BlockFacts]
    returned: dict[str, str]


class DropsMixin:
    """The drop steps of :class:`~balance3d.games.tilted.state.TiltedState`."""

    def _tip_beam(self, world: World, end: int) -> None:
        """Tip the beam from its scene pose onto its ``end``: set it turning about the
        fulcrum's apex line at ``start_tip_speed`` towards that end, then settle."""
        frame = BeamFrame.of(world)
        fulcrum = world.vertices(FULCRUM)
        apex_z = fulcrum[:, 2].max()
        apex = fulcrum[np.isclose(fulcrum[:, 2], apex_z, atol=1e-9), 0].tolist()
        apex_x = math.fsum(apex) / len(apex)
        pivot = np.array([apex_x, frame.position[1], apex_z])
        spin = frame.rotation[:, 1] * end * self.rules.start_tip_speed
        world.set_velocity(BEAM, tuple(numerics.cross(spin, frame.position - pivot).tolist()),
                           tuple(spin))
        time, timed_out, _ = run_to_end(self._settling(world))
        if judge.resting_end(world, self.rules.end_rest_gap) != end:
            raise GameError(f"scene {self.scene.name!r}: the beam did not come to rest on its "
                            f"{'+' if end > 0 else '-'}x end")
        self._low_end = end
        self.log(None, "beam", f"the beam rests on its {'+' if end > 0 else '-'}x end "
                               f"(settled in {time:.2f} s)", low_end=end, settle_time=time,
                 settle_timed_out=timed_out)

    def _drop_reason(self, drop: Drop, seat: int | None = None) -> str | None:
        """Why ``seat`` (default: the current player) may not make ``drop`` now, or
        None when it is legal."""
        seat = self._current if seat is None else seat
        piece = drop.piece
        if piece not in self._hands[seat]:
            return Refusal(f"block {piece!r} is not yours ({self._where(piece)})", "not_yours",
                           piece=piece, seat=seat, **self._whereabouts(piece))
        malformed = drop_fields_refusal(drop, self.rules.max_drop_height)
        if malformed is not None:
            return malformed
        world = self.world
        frame = BeamFrame.of(world)
        s, t = frame.top_point_below(drop.x, drop.y)
        L, W, _ = frame.half
        if not (abs(s) <= L and abs(t) <= W):
            return Refusal(f"the release point ({drop.x:.4f}, {drop.y:.4f}) m is off the beam",
                           "off_beam", piece=piece, high_end=-self._low_end)
        if not -self._low_end * s > 0.0:
            return Refusal(f"the release point ({drop.x:.4f}, {drop.y:.4f}) m is over the low "
                           f"side's half of the beam, not the high side's", "low_side",
                           piece=piece, high_end=-self._low_end)
        part = self._part(piece)
        pos, quat = release_pose(world, part, drop)
        if self._frozen:
            verts = numerics.rotate(quat, part.mesh.vertices) + np.asarray(pos)
            mine = judge.footprint(verts)
            for name in self._frozen:
                if planar.overlap_area(mine, judge.footprint(world.vertices(name))) \
                        > FOOTPRINT_OVERLAP_AREA:
                    return Refusal(f"the block would be released above frozen block {name}",
                                   "over_frozen", piece=piece, frozen=name)
        hits = world.overlaps(part, pos, quat)
        if hits:
            return Refusal(f"the block would overlap {', '.join(hits)} at release", "overlap",
                           piece=piece, hits=list(hits))
        return None

    def _find_drop(self, seat: int) -> Drop | None:
        """A legal drop for ``seat`` with the beam as it is now, or None when there is
        none: the smallest block ``seat`` holds, standing upright (the smallest
        footprint a block has), yaw along the beam, ``FIND_DROP_HEIGHT`` up, its
        centre on a grid ``FIND_DROP_GRID`` blocks apart over the high half (from the
        high end inwards); spots whose footprint overlaps a frozen block's are
        skipped before the full check."""
        if not self._hands[seat]:
            return None
        piece = min(self._hands[seat], key=piece_key)
        world = self.world
        frame = BeamFrame.of(world)
        side = float(min(self._part(piece).extents))
        yaw = math.atan2(frame.rotation[1, 0], frame.rotation[0, 0])
        turn = np.array([[math.cos(yaw), -math.sin(yaw)], [math.sin(yaw), math.cos(yaw)]])
        square = numerics.matmul(np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
                                 * (side / 2), turn.T)      # (4, 2) anticlockwise
        frozen = [judge.footprint(world.vertices(name)) for name in self._frozen]
        L, W, T = frame.half
        spacing = FIND_DROP_GRID * side
        high = -self._low_end
        for s in np.arange(L, 0.0, -spacing):
            for t in np.arange(-W + side / 2, W - side / 2 + 1e-12, spacing):
                x, y, _ = frame.to_world([(high * s, t, T)])[0]
                spot = square + (x, y)
                if any(planar.overlap_area(spot, f) > FOOTPRINT_OVERLAP_AREA for f in frozen):
                    continue
                drop = Drop(piece, float(x), float(y), FIND_DROP_HEIGHT, yaw, "upright")
                if self._drop_reason(drop, seat) is None:
                    return drop
        return None

    def _where(self, piece: str) -> str:
        where = self._whereabouts(piece)
        if where["place"] == "hand":
            return f"{self.players[where['holder']].name} holds it"
        return {"supply": "it is in the supply", "beam": "it is on the beam"}.get(
            where["place"], "no such block")

    def _whereabouts(self, piece: str) -> dict:
        """Where ``piece`` is, as data: ``{"place": "hand", "holder": seat}``, or
        ``{"place": "supply" | "beam" | "nowhere"}``."""
        for seat, hand in enumerate(self._hands):
            if piece in hand:
                return {"place": "hand", "holder": seat}
        if piece in self._supply:
            return {"place": "supply"}
        if piece in self.world.names:
            return {"place": "beam"}
        return {"place": "nowhere"}

    def _part(self, piece: str):
        return self.scene.parts[self.rules.block_parts[piece_length(piece) - 1]]

    def _settling(self, world: World) -> Generator[None, None, tuple[float, bool, int]]:
        """Settle until every body is at rest and the beam either rests on an end or
        has stopped turning (less than ``BEAM_STILL_ANGLE`` between two settles: it
        is propped up or balanced), or until ``settle_max_time``; yields after every
        time step.  Returns (time s, whether the time cap was hit, settle calls)."""
        cap = world.settings.settle_max_time
        spent, calls, tilt = 0.0, 0, None
        while True:
            report = yield from world.settling(cap - spent)
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

    def _run_drop(self, drop: Drop) -> Generator[None, None, TiltedVerdict]:
        """The drop, step by step (see :meth:`State._run`)."""
        seat, r = self._current, self.rules
        part = self._part(drop.piece)
        world = self.fresh_world()
        try:
            pos, quat = release_pose(world, part, drop)
            world.drop(drop.piece, part, pos, quat)
            yield
            settle_time, timed_out, settles = 0.0, False, 0
            returned: list[dict[str, str]] = []
            judged = None
            while True:
                t, out, calls = yield from self._settling(world)
                settle_time, timed_out, settles = settle_time + t, timed_out or out, settles + 1
                facts = self._read(world)
                gone = judge.returns(facts)
                if judged is None:
                    judged = _Judged(judge.resting_end(world, r.end_rest_gap), facts, gone)
                if not gone:
                    break
                for name in facts:
                    if name in gone:
                        world.remove(name)
                        returned.append({"piece": name, "reason": gone[name]})
            frame = BeamFrame.of(world)
            end_after = judge.resting_end(world, r.end_rest_gap, frame)
            low_after = end_after if end_after != 0 else judge.lower_end(world, frame)
        except WorldError:
            self.fresh_world()
            raise
        self.commit_world()
        values = judge.block_values(facts)
        frozen = judge.frozen_blocks(facts)
        low_before = self._low_end
        end = judged.end
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
        stayed = drop.piece in judged.facts and drop.piece not in judged.returned
        value = judge.block_values(judged.facts)[drop.piece] if stayed else None
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
            self.log(None, "frozen", "frozen: " + ", ".join(self._frozen),
                     frozen=list(self._frozen))
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
