"""Tower's penalty cards: the deck, drawing, each card's effect, and the decisions
cards ask for (see the package docstring, "Penalty cards")."""
from __future__ import annotations

from typing import Any

from balance3d.games.base import Action, Choose
from balance3d.games.tower.judge import top_piece
from balance3d.games.tower.rules import (CHOSEN_CARDS, EXTRA, LOSE_TURN, REMOVE_TOP, SHAPES,
                                         SWAP, U_DECIDE, VERTICAL, piece_key, piece_part)
from balance3d.games.tower.verdicts import TowerChoiceVerdict


class CardsMixin:
    """The card steps of :class:`~balance3d.games.tower.state.TowerState`."""

    def _draw(self, task: dict[str, Any]) -> None:
        """``task["seat"]`` draws the top card, which goes to the bottom of the pile,
        and resolves it (a U-DECIDE card or an extra piece's shape is chosen by
        ``task["chooser"]``)."""
        seat = task["seat"]
        card = self._deck.pop(0)
        self._deck.append(card)
        self.log(seat, "card", f"{self.players[seat].name} draws {card!r}", card=card)
        self._resolve(card, seat, task["chooser"])

    def _resolve(self, card: str, seat: int, chooser: int) -> None:
        """Carry out ``card`` for ``seat``; a card that needs a decision puts it
        first among the tasks."""
        name = self.players[seat].name
        if card == LOSE_TURN:
            self._skips[seat] += 1
            self.log(seat, "lose_turn", f"{name} loses their next turn")
        elif card == REMOVE_TOP:
            self._remove_top(seat)
        elif card == VERTICAL:
            self._vertical[seat] = True
            self.log(seat, "vertical", f"{name}'s next piece must stand vertically (on edge)")
        elif card == EXTRA:
            self._tasks.insert(0, {"kind": "shape", "seat": chooser, "target": seat})
        elif card == SWAP:
            left = self._next_in_game(seat)
            if left is None:
                self.log(seat, "no_effect", f"{name} has no opponent to swap with")
            else:
                self._tasks.insert(0, {"kind": "swap", "seat": seat, "target": left})
        elif card == U_DECIDE:
            self._tasks.insert(0, {"kind": "penalty", "seat": chooser, "target": seat})

    def _remove_top(self, seat: int) -> None:
        """Take ``seat``'s top piece (:func:`~balance3d.games.tower.judge.top_piece`:
        no piece of theirs rests on it) out of the game."""
        name = self.players[seat].name
        tower = self._towers[seat]
        if not tower:
            self.log(seat, "no_effect", f"{name} has no piece on their tower to remove")
            return
        world = self.fresh_world()
        top = top_piece(world, tower)
        world.remove(top)
        self.commit_world()
        tower.remove(top)
        self._levels.pop(top)
        self._removed.append(top)
        self.log(seat, "remove_top", f"{top}, the top of {name}'s tower, leaves the game",
                 piece=top)

    def _card_decisions(self) -> list[Action]:
        """The Choose actions the head task asks for (empty for a drop)."""
        task = self._tasks[0]
        kind = task["kind"]
        if kind == "target":
            return [Choose("target", s) for s in self._opponents(task["seat"])]
        if kind == "penalty":
            return [Choose("penalty", card) for card in CHOSEN_CARDS]
        if kind == "shape":
            return [Choose("shape", shape) for shape in SHAPES
                    if self._pieces_of(task["target"], shape)]
        if kind == "swap":
            return [Choose("swap", piece) for piece in self._swap_offer(task["seat"])]
        return []

    def _swap_offer(self, seat: int) -> list[str]:
        """The pieces ``seat`` may give: the first unplayed piece of each part."""
        offer: dict[str, str] = {}
        for piece in sorted(self._hands[seat], key=piece_key):
            offer.setdefault(piece_part(piece), piece)
        return list(offer.values())

    def _apply_choice(self, choice: Choose) -> TowerChoiceVerdict:
        """Carry out a legal decision, then go on to the next one or drop."""
        task = self._tasks.pop(0)
        seat, value = task["seat"], choice.value
        name = self.players[seat].name
        start = len(self.events)
        if choice.what == "target":
            self.log(seat, "give", f"{name} gives a penalty to {self.players[value].name}",
                     target=value)
            self._tasks.insert(0, {"kind": "draw", "seat": value, "chooser": seat})
        elif choice.what == "penalty":
            target = task["target"]
            self.log(seat, "u_decide", f"{name} chooses {value!r} for "
                                       f"{self.players[target].name}'s U-DECIDE card",
                     card=value, target=target)
            self._resolve(value, target, seat)
        elif choice.what == "shape":
            target = task["target"]
            self.log(seat, "extra", f"{name} chooses a {value} piece for "
                                    f"{self.players[target].name} to play", shape=value,
                     target=target)
            self._tasks.insert(0, {"kind": "drop", "seat": target, "shape": value, "left": 1,
                                   "why": "extra"})
        else:
            target = task["target"]
            self._hands[seat].remove(value)
            self._hands[target].append(value)
            self._hands[target].sort(key=piece_key)
            self.log(seat, "swap", f"{name} gives {value} to {self.players[target].name}",
                     piece=value, target=target)
        self._advance()
        effects = [{"kind": e.kind, "player": e.player, "text": e.text}
                   for e in self.events[start:]]
        return TowerChoiceVerdict(player=seat, summary="; ".join(e["text"] for e in effects),
                                  what=choice.what, value=value, effects=effects)
