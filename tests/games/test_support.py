"""The judges' shared support fixed point (balance3d.games.support)."""
from __future__ import annotations

from balance3d.games.support import resting_on


def test_a_chain_listed_top_first_is_found_whole():
    """c rests on the root b, a on c, d on nothing: listed top first, so a first pass
    over the names can only find c, and the fixed point must go round again for a."""
    graph = {"a": {"c"}, "c": {"b"}, "b": set(), "d": set()}
    assert resting_on({"b"}, ["a", "c", "d"], graph) == {"a", "b", "c"}


def test_only_the_names_given_are_followed():
    """x rests on the root, y on x; x is not among the names to follow, so y is not
    reached through it."""
    graph = {"x": {"root"}, "y": {"x"}}
    assert resting_on({"root"}, ["y"], graph) == {"root"}


def test_bodies_leaning_on_each_other_rest_only_through_a_root():
    graph = {"p": {"q"}, "q": {"p"}, "r": {"root", "p"}}
    assert resting_on({"root"}, ["p", "q", "r"], graph) == {"root", "r"}
    assert resting_on(set(), ["p", "q", "r"], graph) == set()
