"""The welded structure: the stored contacts of welded pairs, and what rests on what.

A :class:`WeldGraph` keeps, for every pair of bodies welded together (or a welded
body and a static one), the contacts of their patch with the forces of the latest
statics solution (:class:`~balance3d.physics.weld_state.WeldContact`).  From them it
answers which welded bodies rest on which: the closures upwards and downwards, the
welded group of a body, and the connected groups of the World's bodies.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from balance3d.physics.weld_state import WeldContact


def _where(ct: WeldContact) -> tuple:
    """A stored contact's bodies, point and normal: what its force leaves alone."""
    return ct.body_a, ct.body_b, ct.position, ct.normal


class WeldGraph:
    """Stored contacts of welded pairs (``pairs``: frozenset of two names -> the
    pair's contacts), read against the World's live set of welded bodies.
    ``geometry`` counts the changes of the stored contacts' bodies, points and
    normals (not of their forces alone): what is computed from those alone may be
    kept while it stays.  ``edits`` counts every change of the stored contacts,
    forces included, and :meth:`stamp` says at which a body's last came: what is
    computed from one body's stored contacts may be kept while its stamp stays."""

    def __init__(self, world) -> None:
        self.world = world
        self.pairs: dict[frozenset, list[WeldContact]] = {}
        self.geometry = 0
        self.edits = 0
        self._edited: dict[str, int] = {}
        self._reset = 0
        # per body, the bodies it shares a stored pair with (None: to be made again)
        self._adjacent: dict[str, set[str]] | None = None

    def stamp(self, name: str) -> int:
        """The count of :attr:`edits` at the last change of a stored contact of
        ``name``'s (the latest clear or restore for one never changed since)."""
        return max(self._reset, self._edited.get(name, 0))

    def _edit(self, pairs: Iterable[frozenset]) -> None:
        """The stored contacts of ``pairs`` have changed."""
        self._adjacent = None
        self.edits += 1
        for pair in pairs:
            for name in pair:
                self._edited[name] = self.edits

    def _reset_all(self) -> None:
        """Every stored contact has changed."""
        self._adjacent = None
        self.edits += 1
        self._reset = self.edits
        self._edited.clear()

    @property
    def welded(self) -> set[str]:
        """Names of the welded bodies (the World's live set; read only)."""
        return self.world.welded_set

    def order(self) -> dict[str, int]:
        """Body name -> creation index."""
        return {b.name: b.index for b in self.world.bodies()}

    def clear(self) -> None:
        """Forget every stored contact."""
        self.pairs.clear()
        self.geometry += 1
        self._reset_all()

    def contacts(self) -> tuple[WeldContact, ...]:
        """Every stored contact, each pair's together, pairs in the order stored."""
        return tuple(ct for contacts in self.pairs.values() for ct in contacts)

    def add(self, contacts: Iterable[WeldContact]) -> None:
        """Store ``contacts`` (a restored snapshot's), appended to their pairs."""
        for ct in contacts:
            self.pairs.setdefault(frozenset((ct.body_a, ct.body_b)), []).append(ct)
        self.geometry += 1
        self._reset_all()

    def update(self, pairs: dict[frozenset, list[WeldContact]]) -> None:
        """Replace the stored contacts of the pairs of ``pairs`` with theirs."""
        for pair, contacts in pairs.items():
            old = self.pairs.get(pair)
            if old is None or [_where(ct) for ct in old] != [_where(ct) for ct in contacts]:
                self.geometry += 1
                break
        self.pairs.update(pairs)
        self._edit(pairs)

    def drop(self, names: set[str]) -> None:
        """Forget the stored contacts of every pair with a body of ``names``."""
        dropped = [p for p in self.pairs if p & names]
        for pair in dropped:
            del self.pairs[pair]
            self.geometry += 1
        # each of ``names`` changes (it may go or be welded again elsewhere), and
        # every body that shared a pair with one
        self._edit(dropped + [frozenset((n,)) for n in names])

    def stored(self, a: str | None, b: str | None) -> Iterator[tuple]:
        """Stored contacts of welded pairs involving ``a`` and ``b`` (None: any), as
        (body_a, body_b, position, normal from b to a, force on a, distance), with
        the given ``a`` (else the given ``b``) on the side it was asked for."""
        for pair, contacts in self.pairs.items():
            if (a is not None and a not in pair) or (b is not None and b not in pair):
                continue
            for ct in contacts:
                flip = (a is not None and ct.body_a != a) or (a is None and b is not None
                                                             and ct.body_b != b)
                if flip:
                    yield (ct.body_b, ct.body_a, ct.position, tuple(-v for v in ct.normal),
                           tuple(-v for v in ct.force), ct.distance)
                else:
                    yield ct.body_a, ct.body_b, ct.position, ct.normal, ct.force, ct.distance

    def rests_on(self, upper: str, lower: str) -> bool:
        """True when stored contacts say that ``upper`` rests on ``lower``."""
        limit = self.world.settings.support_min_normal_z
        for ct in self.pairs.get(frozenset((upper, lower)), ()):
            if (ct.normal[2] if ct.body_a == upper else -ct.normal[2]) >= limit:
                return True
        return False

    def neighbours(self, name: str) -> set[str]:
        """Welded bodies sharing a stored pair with ``name``."""
        if self._adjacent is None:
            adjacent: dict[str, set[str]] = {}
            for pair in self.pairs:
                for one in pair:
                    adjacent.setdefault(one, set()).update(pair - {one})
            self._adjacent = adjacent
        return self._adjacent.get(name, set()) & self.welded

    def closure_up(self, names) -> set[str]:
        """``names`` and every welded body resting on them, transitively."""
        return self._closure(names, up=True)

    def below(self, names) -> set[str]:
        """``names`` and every welded body they rest on, transitively."""
        return self._closure(names, up=False)

    def _closure(self, names, up: bool) -> set[str]:
        """``names`` and the welded bodies reached by following "rests on" upwards
        (``up``: who rests on them) or downwards (what they rest on), transitively."""
        found = set(names)
        todo = list(found)
        while todo:
            name = todo.pop()
            for other in self.neighbours(name):
                upper, lower = (other, name) if up else (name, other)
                if other not in found and self.rests_on(upper, lower):
                    found.add(other)
                    todo.append(other)
        return found

    def group(self, name: str) -> set[str]:
        """The welded bodies connected to welded ``name`` through stored pairs."""
        found, todo = {name}, [name]
        while todo:
            for other in self.neighbours(todo.pop()):
                if other not in found:
                    found.add(other)
                    todo.append(other)
        return found

    def groups(self, live_pairs) -> list[set[str]]:
        """Connected groups of non-static bodies through ``live_pairs`` and stored
        pairs, in creation order."""
        parent = {b.name: b.name for b in self.world.bodies() if not b.static}

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for pair in list(live_pairs) + list(self.pairs):
            members = [n for n in pair if n in parent]
            if len(members) == 2:
                ra, rb = find(members[0]), find(members[1])
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
        groups: dict[str, set[str]] = {}
        for n in parent:
            groups.setdefault(find(n), set()).add(n)
        return list(groups.values())
