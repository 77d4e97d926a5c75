"""Tower's rules on hand-built situations, on real physics.

Expected values come from the rules (docs/rules/tower.md) and from mechanics: a
piece whose centre of mass lies beyond the edge of what carries it tips over that
edge.  Geometry used (scenes/tower.toml): bases 0.10 m square, 0.02 m tall; letters
0.04 x 0.06 x 0.015 m, the T's centre of mass 7.5 mm from its bounding box's centre
towards its bar; logos 0.05 x 0.03 x 0.015 m.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from balance3d.games import Choose, Drop, IllegalActionError
from balance3d.games.tower import TowerState
from balance3d.games.tower.judge import landing
from balance3d.games.tower.physics import displacement
from balance3d.games.tower.rules import (CARDS, EXTRA, LOSE_TURN, REMOVE_TOP, SWAP, U_DECIDE,
                                         VERTICAL, piece_part)
from balance3d.gui.games import game_text
from balance3d.scene import load_scene

SCENE = load_scene("tower")
#: m, half the side of a base's top face.
HALF_BASE = 0.05
#: m, a drop's release height above what lies under it.
GAP = 0.002
#: m, the T's centre of mass lies this far from its bounding box's centre, towards
#: its bar (design +y): a flat T turned by TOWARDS_X has its bar towards +x.
T_OFFSET = 0.0075
TOWARDS_X = -math.pi / 2
#: m, one flat piece's thickness.
THICK = 0.015


def base_xy(state: TowerState, seat: int) -> np.ndarray:
    return np.mean(state.world.vertices(state.base(seat))[:, :2], axis=0)


def drop(state: TowerState, piece: str, dx: float = 0.0, dy: float = 0.0, *,
         seat: int | None = None, yaw: float = 0.0, pose: str = "flat",
         height: float = GAP) -> Drop:
    """A drop of ``piece`` (dx, dy) m from the centre of ``seat``'s base (default:
    the current player's)."""
    seat = state.current_player if seat is None else seat
    x, y = base_xy(state, seat)
    return Drop(piece, float(x + dx), float(y + dy), height, yaw, pose)


def first(state: TowerState, seat: int, part: str) -> str:
    return next(p for p in state.hand(seat) if piece_part(p) == part)


#: The roll loaded for the turns after the one a test plays: it asks the next player
#: for a letter, so the game waits there.
NEXT = ("play 1", "letter")


def game(players: int = 2, scene=SCENE) -> TowerState:
    """A game whose next turns (after the one a test gives) roll NEXT."""
    state = TowerState.arranged(players, seed=1, scene=scene)
    state.load_dice(*[NEXT] * 8)
    return state


# ---------------------------------------------------------------- dice and deck
def test_the_deck_holds_the_sixteen_cards_of_the_rules_shuffled_by_the_seed():
    counts = {LOSE_TURN: 4, REMOVE_TOP: 3, VERTICAL: 3, EXTRA: 2, SWAP: 2, U_DECIDE: 2}
    decks = [TowerState.arranged(2, seed=seed).deck for seed in (1, 1, 2)]
    assert len(decks[0]) == 16
    assert {card: decks[0].count(card) for card in CARDS} == counts
    assert decks[0] == decks[1] and decks[0] != decks[2]


def test_a_used_card_goes_to_the_bottom_of_the_pile():
    state = game()
    state.stack_deck([LOSE_TURN])
    before = state.deck
    state.give_turn(0, "receive penalty", "letter")
    assert state.deck == before[1:] + [LOSE_TURN]
    assert state.skips[0] == 1


def test_a_play_face_asks_for_that_many_pieces_of_die_2s_shape():
    state = game()
    state.give_turn(0, "play 2", "logo")
    assert state.phase == "drop" and state.current_player == 0
    assert state.legal_pieces() and all(piece_part(p) == "logo" for p in state.legal_pieces())
    letter = first(state, 0, "letter_H")
    ok, reason = state.is_legal(drop(state, letter))
    assert not ok and "asks for a logo piece" in reason
    for _ in range(2):
        assert state.current_player == 0
        state.apply(drop(state, state.legal_pieces()[0], yaw=0.0))
    assert [len(state.tower(s)) for s in (0, 1)] == [2, 0]
    assert [e.player for e in state.events if e.kind == "roll"][-1] == 1


def test_either_face_takes_both_shapes():
    state = game()
    state.give_turn(0, "play 1", "letter or logo")
    parts = {piece_part(p) for p in state.legal_pieces()}
    assert parts == {"letter_T", "letter_L", "letter_H", "logo"}


def test_a_penalty_face_overrides_die_2():
    state = game()
    state.give_turn(0, "give penalty", "letter")
    assert state.phase == "target" and state.current_player == 0
    assert state.legal_decisions() == [Choose("target", 1)]
    assert state.legal_pieces() == [] and state.release_area() is None


def test_with_fewer_pieces_than_asked_the_player_plays_what_they_have():
    state = game()
    letter = first(state, 0, "letter_H")
    state.keep_only(0, [letter, first(state, 0, "logo")])
    state.give_turn(0, "play 3", "letter")
    assert state.legal_pieces() == [letter]
    state.apply(drop(state, letter))
    assert state.tower(0) == [letter] and state.hand(0) and state.hand(0) != [letter]
    assert [e.player for e in state.events if e.kind == "roll"][-1] == 1


# ---------------------------------------------------------------- cards
def test_give_lets_the_giver_choose_the_penalty_of_a_u_decide_card():
    state = game(3)
    state.stack_deck([U_DECIDE])
    state.give_turn(0, "give penalty", "logo")
    state.apply(Choose("target", 2))
    assert state.phase == "penalty" and state.current_player == 0
    assert {c.value for c in state.legal_decisions()} == set(CARDS) - {U_DECIDE}
    state.apply(Choose("penalty", LOSE_TURN))
    assert state.skips == [0, 0, 1]


def test_receive_lets_the_next_player_choose_the_penalty_of_a_u_decide_card():
    state = game(3)
    state.stack_deck([U_DECIDE])
    state.give_turn(1, "receive penalty", "logo")
    assert state.phase == "penalty" and state.current_player == 2
    state.apply(Choose("penalty", VERTICAL))
    assert state.must_stand_vertically == [False, True, False]


#: Actions one seat's roll can ask for at most (a double roll's drops and a card's
#: decisions), a cap on the loops below.
MOST_ACTIONS = 10


def test_a_lost_turn_is_skipped_without_a_roll():
    state = game()
    state.stack_deck([LOSE_TURN])
    state.give_turn(1, "receive penalty", "logo")
    # seat 1 drew the card and owes a skip; seat 0 rolled next
    assert state.skips[1] == 1 and state.current_player == 0
    assert [(e.player, e.kind) for e in state.events if e.kind == "roll"][-1] == (0, "roll")
    seen = len(state.events)
    for _ in range(MOST_ACTIONS):          # seat 0 plays what its roll asks
        if state.current_player != 0:
            break
        decisions = state.legal_decisions()
        state.apply(decisions[0] if decisions else state.legal_release())
    # seat 1's turn came and was skipped without a roll: seat 0 rolls again
    after = [(e.player, e.kind) for e in state.events[seen:] if e.kind in ("roll", "skip")]
    assert after[:2] == [(1, "skip"), (0, "roll")]
    assert state.skips[1] == 0


def test_the_vertical_card_refuses_a_flat_piece_with_its_reason_and_takes_one_on_edge():
    state = game()
    state.stack_deck([VERTICAL])
    state.give_turn(0, "receive penalty", "logo")
    state.give_turn(0, "play 1", "logo")
    piece = state.legal_pieces()[0]
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="stand vertically"):
        state.apply(drop(state, piece))
    assert state.to_json() == before
    verdict = state.apply(drop(state, piece, pose="edge"))
    assert not verdict.fallen and state.vertical_pieces(0) == 1
    assert state.must_stand_vertically[0] is False


#: m, the flat H's centre from the base's centre (-x) in the vertical-card test, and
#: how far beyond the H's +x edge the upright logo's centre (its centre of mass: the
#: plaque is symmetric) is released.
H_DX, BEYOND_EDGE = -0.025, 0.003


def test_a_piece_released_on_edge_that_falls_flat_does_not_meet_the_vertical_card():
    """docs/rules/tower.md, the vertical card: it is met by the pose at rest.  A logo
    released upright (50 mm tall) with its centre of mass BEYOND_EDGE past the +x
    edge of a flat H tips over that edge (mechanics: its weight acts outside its
    support) and comes to rest lying flat on the base, still on the player's tower.
    The card is not met: it stays pending, so the next piece must again be released
    vertically (a flat one is refused), and a piece that then stands on edge meets
    it."""
    state = game()
    h = first(state, 0, "letter_H")
    state.stage(0, [drop(state, h, H_DX, seat=0)])
    edge = state.world.vertices(h)[:, 0].max() - base_xy(state, 0)[0]
    state.stack_deck([VERTICAL])
    state.give_turn(0, "receive penalty", "logo")
    assert state.must_stand_vertically[0] is True
    state.give_turn(0, "play 2", "logo")
    logo = state.legal_pieces()[0]
    verdict = state.apply(drop(state, logo, edge + BEYOND_EDGE, pose="upright"))
    world = state.world
    top = world.vertices(state.base(0))[:, 2].max()
    assert not verdict.fallen and state.tower(0) == [h, logo]
    assert world.vertices(logo)[:, 2].max() - top == pytest.approx(THICK, abs=1e-3)
    assert state.must_stand_vertically[0] is True and verdict.vertical_unmet
    assert [e.data["piece"] for e in state.events if e.kind == "vertical_unmet"] == [logo]
    second = state.legal_pieces()[0]
    ok, reason = state.is_legal(drop(state, second, 0.02))
    assert not ok and "stand vertically" in reason
    assert not state.apply(drop(state, second, 0.02, pose="edge")).vertical_unmet
    assert state.must_stand_vertically[0] is False


def test_the_extra_piece_card_has_an_opponent_choose_its_shape_and_the_drawer_play_it():
    state = game()
    state.stack_deck([EXTRA])
    state.give_turn(0, "receive penalty", "logo")
    assert state.phase == "shape" and state.current_player == 1
    state.apply(Choose("shape", "letter"))
    assert state.phase == "drop" and state.current_player == 0
    assert all(state.rules.shape(piece_part(p)) == "letter" for p in state.legal_pieces())


def test_the_swap_card_gives_an_unplayed_piece_to_the_player_on_the_left():
    state = game(3)
    state.stack_deck([SWAP])
    state.give_turn(2, "receive penalty", "logo")
    assert state.phase == "swap" and state.current_player == 2
    piece = state.legal_decisions()[0].value
    state.apply(Choose("swap", piece))
    assert piece in state.hand(0) and piece not in state.hand(2)
    assert (len(state.hand(0)), len(state.hand(2))) == (25, 23)


def test_the_remove_card_takes_the_top_piece_out_of_the_game():
    state = game()
    low, high = first(state, 0, "letter_H"), first(state, 0, "logo")
    state.stage(0, [drop(state, low, seat=0), drop(state, high, seat=0)])
    state.stack_deck([REMOVE_TOP])
    state.give_turn(0, "receive penalty", "logo")
    assert state.tower(0) == [low] and high in state.removed
    assert high not in state.world.names
    assert state.heights[0] == pytest.approx(THICK, abs=1e-3)


# ---------------------------------------------------------------- the level rule
def test_a_drop_onto_a_closed_level_is_refused_with_its_reason_before_physics():
    """Two Hs stacked centred (levels 1, 2): a logo whose footprint lies beside
    them, over the bare base, would be on level 1, which is closed."""
    state = game()
    a, b = first(state, 0, "letter_H"), state.hand(0)[-1]
    b = [p for p in state.hand(0) if piece_part(p) == "letter_H"][1]
    state.stage(0, [drop(state, a, seat=0), drop(state, b, seat=0)])
    assert (state.level(a), state.level(b)) == (1, 2)
    state.give_turn(0, "play 1", "logo")
    logo = state.legal_pieces()[0]
    beside = drop(state, logo, 0.0, HALF_BASE - 0.003)   # its footprint clear of the Hs
    before = state.to_json()
    ok, reason = state.is_legal(beside)
    assert not ok and "level 1 is closed" in reason and "level 2" in reason
    # the same reason as data, and in the window's words
    assert reason.code == "level_closed"
    assert (reason.data["piece"], reason.data["level"], reason.data["top"]) == (logo, 1, 2)
    assert game_text("tower").refusal(state, reason) == (
        "Level 1 is closed (a piece lies on level 2): drop on the top of your tower, "
        "level 2 or 3.")
    with pytest.raises(IllegalActionError) as info:
        state.apply(beside)
    assert (info.value.code, info.value.data) == (reason.code, reason.data)
    assert state.to_json() == before
    verdict = state.apply(drop(state, logo))
    assert verdict.level == 3 and verdict.rests_on_level == 3 and not verdict.fallen


#: m, how far beyond the column's edge an H is released centred (its centre of mass:
#: the H is symmetric), in test_a_piece_coming_to_rest_on_a_closed_level_stays_there.
TIPPING_OFFSETS = (0.006, 0.008, 0.010)


def test_a_piece_coming_to_rest_on_a_closed_level_stays_there_with_that_level():
    """Two flat Hs stacked at the base's -x side (levels 1, 2; the column's +x edge
    10 mm left of the base's centre).  A third H released on the column with its
    centre of mass beyond that edge is read at release as level 3, tips over the
    edge and comes down beside the column.  Where it rests only on the base it
    lies on level 1, which is closed: by the rules page it stays on the tower with
    level 1 (not a fall), the top level stays 2, so the bare base is still closed
    and the piece itself, on level 1, carries level 2.  Wherever each release ends,
    the level kept is 1 + the highest level among what carries the piece in the
    World's support graph; at least one of them must rest on the closed level.
    (A logo on edge, 15 mm thick, fits over the bare strip of base beside the Hs.)"""
    closed = 0
    for offset in TIPPING_OFFSETS:
        state = game()
        low, high, played = [p for p in state.hand(0) if piece_part(p) == "letter_H"][:3]
        state.stage(0, [drop(state, p, -0.03, seat=0) for p in (low, high)])
        column_edge = float(state.world.vertices(high)[:, 0].max() - base_xy(state, 0)[0])
        state.give_turn(0, "play 1", "letter")
        verdict = state.apply(drop(state, played, column_edge + offset))
        assert verdict.level == 3 and not verdict.fallen, offset
        assert state.tower(0) == [low, high, played], offset
        levels = {state.base(0): 0, low: 1, high: 2}
        carriers = state.world.support_graph()[played]
        rests = 1 + max(levels[c] for c in carriers if c in levels)
        assert verdict.rests_on_level == state.level(played) == rests, offset
        if rests >= 2:
            continue
        closed += 1
        state.give_turn(0, "play 1", "logo")
        logo = state.legal_pieces()[0]
        beside = drop(state, logo, 0.0, HALF_BASE - 0.01, pose="edge")   # over bare base
        ok, reason = state.is_legal(beside)
        assert not ok and "level 1 is closed" in reason, offset
        x, y = np.mean(state.world.vertices(played)[:, :2], axis=0) - base_xy(state, 0)
        assert state.apply(drop(state, logo, float(x), float(y))).level == 2, offset
    assert closed >= 1


def test_a_release_outside_the_base_or_over_nothing_of_the_tower_is_refused():
    state = game()
    state.give_turn(0, "play 1", "logo")
    logo = state.legal_pieces()[0]
    ok, reason = state.is_legal(drop(state, logo, HALF_BASE + 0.001))
    assert not ok and "not over your base" in reason
    ok, reason = state.is_legal(drop(state, logo, height=0.0))
    assert not ok and "release height" in reason


# ---------------------------------------------------------------- falls
def test_a_piece_tipping_off_the_tower_leaves_the_game_and_the_tower_stays():
    """A T released with its centre of mass 6.5 mm beyond the edge of the H under it
    (the H flush with the base's edge) tips over that edge onto the table."""
    state = game()
    h = first(state, 0, "letter_H")
    state.stage(0, [drop(state, h, HALF_BASE - 0.03, seat=0, yaw=math.pi / 2)])
    state.give_turn(0, "play 1", "letter")
    t = first(state, 0, "letter_T")
    edge = HALF_BASE
    dx = edge - 0.001
    assert dx + T_OFFSET > edge
    verdict = state.apply(drop(state, t, dx, yaw=TOWARDS_X))
    assert verdict.fallen == [t] and verdict.removed == [t] and not verdict.out
    assert state.tower(0) == [h] and t in state.removed and t not in state.world.names
    assert 0 not in state.out


@pytest.mark.parametrize("empty", ["from the start", "emptied by a card"])
def test_a_piece_falling_off_an_empty_base_leaves_alone_and_its_player_plays_on(empty):
    """A T whose centre of mass lies beyond the edge of the bare base falls off it:
    no tower stood there, so only the T leaves the game; the player is not out and
    keeps their other pieces.  The base is bare from the start, or a `remove top
    piece` card took its only piece."""
    state = game()
    gone = []
    if empty == "emptied by a card":
        gone = [first(state, 0, "logo")]
        state.stage(0, [drop(state, gone[0], seat=0)])
        state.stack_deck([REMOVE_TOP])
        state.give_turn(0, "receive penalty", "logo")
        assert state.tower(0) == [] and state.removed == gone
    state.give_turn(0, "play 1", "letter")
    t = first(state, 0, "letter_T")
    dx = HALF_BASE - 0.001
    assert dx + T_OFFSET > HALF_BASE
    verdict = state.apply(drop(state, t, dx, yaw=TOWARDS_X))
    assert verdict.fallen == [t] and verdict.removed == [t] and not verdict.out
    assert state.out == [] and state.removed == [*gone, t]
    assert len(state.hand(0)) == 23 - len(gone)
    assert state.tower(0) == [] and state.heights[0] == 0.0
    assert state.current_player == 1


#: m, how far the H's centre (its centre of mass: the H is symmetric) lies inside the
#: base's edge when it overhangs it.
H_INSIDE = 0.0025


@pytest.mark.parametrize("built", ["before the turn", "earlier in the turn"])
def test_a_tower_that_stood_falling_whole_puts_its_player_out(built):
    """A flat H overhangs the base's edge with its centre of mass H_INSIDE inside
    it, and stands.  A T landing on the H's outer end brings the centre of mass of
    the two beyond the edge: the tower tips over it onto the table.  A tower stood
    on the base before the drop and nothing is left of it: the player is out and
    their unplayed pieces leave the game.  The H is staged before the turn, or
    dropped as the turn's first piece."""
    state = game()
    h, t = first(state, 0, "letter_H"), first(state, 0, "letter_T")
    h_drop = drop(state, h, HALF_BASE - H_INSIDE, seat=0, yaw=math.pi / 2)
    if built == "before the turn":
        state.stage(0, [h_drop])
        state.give_turn(0, "play 1", "letter")
    else:
        state.give_turn(0, "play 2", "letter")
        assert not state.apply(h_drop).fallen
    assert state.tower(0) == [h]
    dx = HALF_BASE - 0.0001
    mass_h, mass_t = (state.piece_part(p).mass for p in (h, t))
    centre = (mass_h * (HALF_BASE - H_INSIDE) + mass_t * (dx + T_OFFSET)) / (mass_h + mass_t)
    assert centre > HALF_BASE
    verdict = state.apply(drop(state, t, dx, yaw=TOWARDS_X))
    assert verdict.out and sorted(verdict.fallen) == sorted([h, t])
    assert state.out == [0] and state.hand(0) == [] and len(state.removed) == 24
    assert state.tower(0) == [] and state.current_player == 1


def scene_variant(tmp_path: Path, name: str, replace: dict[str, str], extra: str = ""):
    """The Tower scene, written to ``tmp_path`` as ``name``.toml with each key of
    ``replace`` replaced by its value and ``extra`` appended."""
    text = SCENE.path.read_text()
    text = text.replace('extends = "shared/common.toml"',
                        f'extends = "{SCENE.path.parent / "shared" / "common.toml"}"')
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / f"{name}.toml"
    path.write_text(text + extra)
    return load_scene(path)


#: m, height of the centre of a static slab hung over seat 0's base (a base-sized box).
SHELF_HEIGHT = 0.3


def test_a_player_who_cannot_build_loses_their_unplayed_pieces_and_plays_on(tmp_path):
    """A static slab hangs over seat 0's whole base: whatever seat 0 releases over
    their base lies under the slab, so it would not land on their tower (the slab
    is the highest thing under every footprint) and no legal drop exists.  Asked to
    play, seat 0 cannot build: their 24 unplayed pieces leave the game, they are not
    out, the turn passes, and they still roll on their next turn."""
    x, y, _ = next(b.position for b in SCENE.bodies if b.name == "base_0")
    shelf = (f'\n[[bodies]]\nname = "shelf"\npart = "base"\n'
             f"position = [{x}, {y}, {SHELF_HEIGHT}]\n")
    state = game(scene=scene_variant(tmp_path, "tower-shelf", {}, shelf))
    piece = first(state, 0, "letter_T")
    for dx, dy in ((0.0, 0.0), (0.04, -0.04)):
        over = drop(state, piece, dx, dy, seat=0)
        assert landing(state.world, state.piece_part(piece), over).below == "shelf"
    state.give_turn(0, "play 1", "letter")
    assert [(e.player, len(e.data["pieces"])) for e in state.events
            if e.kind == "cannot_build"] == [(0, 24)]
    assert state.hand(0) == [] and len(state.removed) == 24 and state.out == []
    assert state.current_player == 1 and state.phase == "drop"
    start = len(state.events)
    state.apply(drop(state, state.legal_pieces()[0]))
    assert [(e.player, e.kind) for e in state.events[start:]][1:3] == [(0, "roll"),
                                                                       (0, "no_piece")]


# ---------------------------------------------------------------- turns and the end
def test_a_player_without_pieces_still_rolls():
    state = game()
    state.keep_only(0, [])
    state.give_turn(1, "play 1", "logo")
    start = len(state.events)
    state.apply(drop(state, state.legal_pieces()[0]))
    after = [(e.player, e.kind) for e in state.events[start:] if e.kind != "drop"]
    assert after[:3] == [(0, "roll"), (0, "no_piece"), (1, "roll")]


def test_the_game_ends_when_every_piece_is_played_or_removed():
    state = game()
    last = first(state, 0, "logo")
    state.keep_only(0, [last])
    state.keep_only(1, [])
    state.give_turn(0, "play 2", "logo")
    assert not state.is_over
    state.apply(drop(state, last))
    assert state.is_over and state.outcome.termination == "all_played"
    assert state.outcome.ranks == (1, 2)
    assert state.outcome.scores[0] == pytest.approx(THICK, abs=1e-3)


def test_the_scores_are_the_tower_heights_in_metres_during_play():
    state = game()
    assert state.scores == (0.0, 0.0)
    state.give_turn(0, "play 1", "logo")
    state.apply(drop(state, first(state, 0, "logo")))
    assert not state.is_over
    assert state.scores[0] == pytest.approx(THICK, abs=1e-3)
    assert state.scores[1] == 0.0


def finished(state: TowerState) -> TowerState:
    for seat in range(len(state.players)):
        state.keep_only(seat, [])
    state.give_turn(0, "play 1", "logo")
    assert state.is_over
    return state


def test_the_tallest_tower_wins():
    state = game()
    hs = [p for p in state.hand(0) if piece_part(p) == "letter_H"][:3]
    state.stage(0, [drop(state, p, seat=0) for p in hs])
    logo = first(state, 1, "logo")
    state.stage(1, [drop(state, logo, seat=1, pose="edge")])
    outcome = finished(state).outcome
    assert outcome.scores[0] == pytest.approx(3 * THICK, abs=1e-3)
    assert outcome.scores[1] == pytest.approx(0.03, abs=1e-3)
    assert outcome.ranks == (1, 2)


def test_equal_heights_rank_by_vertical_pieces_then_share():
    """Two flat Hs (30 mm) against a logo on edge (its 30 mm width upright): the
    vertical piece wins the tie; two flat Hs against two flat logos share it."""
    state = game()
    hs = [p for p in state.hand(0) if piece_part(p) == "letter_H"][:2]
    state.stage(0, [drop(state, p, seat=0) for p in hs])
    state.stage(1, [drop(state, first(state, 1, "logo"), seat=1, pose="edge")])
    outcome = finished(state).outcome
    assert outcome.scores[0] == pytest.approx(outcome.scores[1], abs=state.rules.height_tie / 2)
    assert outcome.ranks == (2, 1)

    state = game()
    state.stage(0, [drop(state, p, seat=0) for p in hs])
    logos = [p for p in state.hand(1) if piece_part(p) == "logo"][:2]
    state.stage(1, [drop(state, p, seat=1) for p in logos])
    assert finished(state).outcome.ranks == (1, 1)


# ---------------------------------------------------------------- a knock
#: m, gaps between base_0's and base_1's facing edges in the knock test (the bundled
#: scene's bases are 0.20 m apart: too far for a short tower to reach).
KNOCK_GAPS = (0.005, 0.01)
#: m, the struck T's centre seen from above, from base_1's centre towards base_0's
#: far side (+x): its 40 mm width along x, 10 mm to 30 mm from the centre.
KNOCK_DX = 0.01
#: m, a restored piece lies this close to its pose before the turn: a twentieth of
#: knock_tolerance (the knock itself moves the struck T by centimetres).
RESTORE_TOLERANCE = 1e-4


def near_scene(tmp_path: Path, gap: float):
    """The Tower scene with base_1 moved to ``gap`` m beside base_0."""
    spec = {b.name: b for b in SCENE.bodies}
    x0, size = spec["base_0"].position[0], SCENE.parts["base"].extents[0]
    x1 = x0 + size + gap
    return scene_variant(tmp_path, f"tower-gap-{gap}", {
        f"position = {list(spec['base_1'].position)}": f"position = [{x1}, 0.0, 0.01]"})


@pytest.mark.parametrize("gap", KNOCK_GAPS)
def test_a_knock_on_another_tower_is_detected_restored_and_penalised(tmp_path, gap):
    """Seat 0 has a flat H and a T standing upright (60 mm tall) at its base's edge
    towards base_1, ``gap`` away.  A logo landing on the T's bar 15 mm beyond the
    stem's centre brings the centre of mass of T and logo beyond the stem's edge:
    the T topples towards base_1, turning about that edge.  Seat 1's tower is one T
    standing upright (60 mm tall, 40 mm wide along x) KNOCK_DX from its base's
    centre.  By geometry the falling T strikes it (it stands closer to the pivot
    than the T is tall), and overturned about its far edge it lies with its centre
    of mass beyond base_1's edge, so it falls off onto the table: a fall of seat 1's
    tower by the reading of a player's own falls, hence a knock.  Seat 1's tower is
    put back as it stood before the turn (every piece within RESTORE_TOLERANCE); the
    T and the logo of seat 0 leave the game, the flat H stays, and seat 0 loses
    their next turn and draws a card."""
    state = game(scene=near_scene(tmp_path, gap))
    t, flat = first(state, 0, "letter_T"), first(state, 0, "letter_H")
    state.stage(0, [drop(state, flat, -0.03, seat=0),
                    drop(state, t, 0.03, seat=0, pose="upright")])
    target = first(state, 1, "letter_T")
    state.stage(1, [drop(state, target, KNOCK_DX, seat=1, pose="upright")])
    world = state.world
    pivot = world.vertices(t)[:, 0].max()
    reach = world.vertices(t)[:, 2].max() - world.vertices(state.base(0))[:, 2].max()
    assert world.vertices(target)[:, 0].min() - pivot < reach
    far_edge = world.vertices(state.base(1))[:, 0].max()
    height = np.ptp(world.vertices(target)[:, 2])
    assert world.vertices(target)[:, 0].max() + height / 2 > far_edge
    before = {p: world.pose(p) for p in state.tower(1)}
    state.stack_deck([LOSE_TURN])
    state.give_turn(0, "play 1", "logo")
    logo = state.legal_pieces()[0]
    verdict = state.apply(drop(state, logo, 0.03 + 0.015))
    assert verdict.knocked == {"1": [target]}
    assert t in verdict.fallen and logo in verdict.removed and not verdict.out
    assert state.tower(0) == [flat] and state.tower(1) == [target]
    for piece, pose in before.items():
        assert displacement(state.piece_part(piece), pose,
                            state.world.pose(piece)) <= RESTORE_TOLERANCE, piece
    assert state.skips[0] == 2          # the knock, and the card drawn for it
    assert state.deck[-1] == LOSE_TURN
    assert [e.kind for e in state.events if e.kind in ("knocked", "knock_penalty")] == [
        "knocked", "knock_penalty"]


#: (gap m between base_0 and base_1, dx m of seat 1's flat H from its base's centre):
#: set-ups where seat 0's toppling drop (as in the knock test) strikes seat 1's flat
#: H and shoves it across its base by several millimetres (measured: 6.6 and 5.2 mm)
#: without making it fall.
NUDGES = ((0.03, -0.032), (0.035, -0.035))


@pytest.mark.parametrize("gap, dx", NUDGES)
def test_a_piece_of_another_tower_nudged_without_falling_is_no_knock(tmp_path, gap, dx):
    """docs/rules/tower.md, Knocks: a knock needs pieces of the other tower to fall.
    Seat 0's T stands upright at its base's edge and a logo lands on its bar beyond
    the stem, as in the knock test; seat 1's tower is one flat H, ``gap`` away.  The
    drop shoves the H across its base by more than knock_tolerance (measured in the
    World), but the H still lies flat on its base and touches nothing else: nothing
    of seat 1's tower fell, so there is no knock, no restoring (the H stays where it
    was pushed) and no penalty for seat 0."""
    state = game(scene=near_scene(tmp_path, gap))
    t, flat = first(state, 0, "letter_T"), first(state, 0, "letter_H")
    state.stage(0, [drop(state, flat, -0.03, seat=0),
                    drop(state, t, 0.03, seat=0, pose="upright")])
    target = first(state, 1, "letter_H")
    state.stage(1, [drop(state, target, dx, seat=1)])
    before = state.world.pose(target)
    state.give_turn(0, "play 1", "logo")
    logo = state.legal_pieces()[0]
    verdict = state.apply(drop(state, logo, 0.03 + 0.015))
    world = state.world
    shoved = displacement(state.piece_part(target), before, world.pose(target))
    assert shoved > state.rules.knock_tolerance
    top = world.vertices(state.base(1))[:, 2].max()
    assert world.vertices(target)[:, 2].min() == pytest.approx(top, abs=1e-3)
    assert world.vertices(target)[:, 2].max() == pytest.approx(top + THICK, abs=1e-3)
    assert world.touching(target) == {state.base(1)}
    assert verdict.knocked == {} and state.tower(1) == [target]
    assert state.skips[0] == 0
    assert not [e for e in state.events if e.kind in ("knocked", "knock_penalty")]
