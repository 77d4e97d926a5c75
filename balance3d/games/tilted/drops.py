"""Tilted's drops: legality before any physics, the physics of a drop, and its
judging (see the package docstring, "Drop legality" to "Coins for the drop")."""
from __future__ import annotations

import math
from collections.abc import Generator

import numpy as np
from scipy.spatial.transform import Rotation

from balance3d.games.base import POSES, Drop, GameError, run_to_end
from balance3d.games.placement import release_pose
from balance3d.games.tilted import judge
from balance3d.games.tilted.judge import BEAM, FULCRUM, BeamFrame
from balance3d.games.tilted.rules import BEAM_STILL_ANGLE, FOOTPRINT_OVERLAP_AREA, piece_key, \
    piece_length
from balance3d.games.tilted.verdicts import TiltedVerdict
from balance3d.physics.world import OverlapError, World, WorldError


class DropsMixin:
    """The drop steps of :class:`~balance3d.games.tilted.state.TiltedState`."""

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
        time, timed_out, _ = run_to_end(self._settling(world))
        if judge.resting_end(world, self.rules.end_rest_gap) != end:
            raise GameError(f"scene {self.scene.name!r}: the beam did not come to rest on its "
                            f"{'+' if end > 0 else '-'}x end")
        self._low_end = end
        self.log(None, "beam", f"the beam rests on its {'+' if end > 0 else '-'}x end "
                               f"(settled in {time:.2f} s)", low_end=end, settle_time=time,
                 settle_timed_out=timed_out)

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
            while True:
                t, out, calls = yield from self._settling(world)
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
