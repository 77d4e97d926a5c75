"""balance3d.planar: hulls, clipping, areas and outlines of convex sets, checked
against their definitions (corners and areas worked out by hand)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance3d import planar

SQUARE = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])


def test_hull_drops_inner_and_straight_stretch_points_and_runs_anticlockwise():
    points = [(1.0, 1.0), (2.0, 2.0), (0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (0.0, 2.0),
              (0.5, 1.5), (2.0, 1.0)]
    assert planar.convex_hull(points).tolist() == SQUARE.tolist()


def test_hull_of_degenerate_sets():
    assert planar.convex_hull(np.zeros((0, 2))).shape == (0, 2)
    assert planar.convex_hull([(1.0, 2.0), (1.0, 2.0)]).tolist() == [[1.0, 2.0]]
    assert planar.convex_hull([(2.0, 2.0), (0.0, 0.0), (1.0, 1.0)]).tolist() == [
        [0.0, 0.0], [2.0, 2.0]]


def test_hull_bits_do_not_follow_the_order_of_the_points():
    rng = np.random.default_rng(3)
    points = rng.normal(size=(40, 2))
    hull = planar.convex_hull(points)
    assert planar.convex_hull(points[::-1]).tobytes() == hull.tobytes()
    assert planar.convex_hull(rng.permutation(points)).tobytes() == hull.tobytes()


def test_two_overlapping_squares_meet_in_their_common_square():
    shifted = SQUARE + 1.0
    meet = planar.convex_hull(planar.intersect(SQUARE, shifted))
    assert meet.tolist() == [[1.0, 1.0], [2.0, 1.0], [2.0, 2.0], [1.0, 2.0]]
    assert planar.overlap_area(SQUARE, shifted) == 1.0


def test_squares_sharing_an_edge_meet_along_it_and_apart_do_not():
    beside = SQUARE + (2.0, 0.0)
    assert planar.convex_hull(planar.intersect(SQUARE, beside)).tolist() == [
        [2.0, 0.0], [2.0, 2.0]]
    assert len(planar.intersect(SQUARE, SQUARE + (2.5, 0.0))) == 0


def test_a_margin_lets_a_segment_meet_a_segment_beside_it():
    a = np.array([[0.0, 0.0], [1.0, 0.0]])
    b = np.array([[0.5, 1e-10], [2.0, 1e-10]])
    assert len(planar.intersect(a, b)) == 0
    meet = planar.convex_hull(planar.intersect(a, b, slack=1e-9))
    # b grown by the margin reaches it beyond its end too
    assert meet[:, 0].tolist() == pytest.approx([0.5 - 1e-9, 1.0], abs=1e-15)


def test_points_meet_what_contains_them():
    assert planar.intersect([[1.0, 1.0]], SQUARE).tolist() == [[1.0, 1.0]]
    assert len(planar.intersect([[3.0, 1.0]], SQUARE)) == 0
    assert planar.intersect(SQUARE, [[2.0, 1.0]]).tolist()[0] == [2.0, 1.0]


def test_area_and_centroid_of_a_triangle():
    triangle = [(0.0, 0.0), (3.0, 0.0), (0.0, 3.0)]
    assert planar.area(triangle) == 4.5
    assert planar.area(triangle[::-1]) == 4.5
    assert planar.centroid(triangle) == (1.0, 1.0)
    assert planar.area(triangle[:2]) == 0.0
    with pytest.raises(ValueError, match="no area"):
        planar.centroid([(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)])


def test_contains_counts_the_boundary_in():
    xs = np.array([1.0, 2.0, 2.0 + 1e-12, -1.0])
    assert planar.contains(SQUARE, xs, np.ones(4)).tolist() == [True, True, False, False]


def test_boundary_distance_inside_and_outside():
    assert planar.boundary_distance(SQUARE, 0.5, 1.0) == 0.5
    assert planar.boundary_distance(SQUARE, 5.0, 6.0) == 5.0


def test_boundary_points_walk_the_ring_in_equal_steps():
    points = planar.boundary_points(SQUARE, 0.5)
    assert len(points) == 17
    assert points[0].tolist() == [0.0, 0.0] and points[-1].tolist() == [0.0, 0.0]
    assert points[4].tolist() == [2.0, 0.0] and points[6].tolist() == [2.0, 1.0]
    steps = np.hypot(*np.diff(points, axis=0).T)
    assert np.allclose(steps, 0.5)
    assert planar.boundary_points([[1.0, 1.0]], 0.5).tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert math.isclose(float(planar.boundary_points(SQUARE, 3.0)[1, 0]), 2.0)


def test_a_segment_across_a_polygon_keeps_its_whole_length_in_either_order():
    # a segment lying off the grid lines, as a knife edge under a tilted face does
    # (clipping the square by the segment's zero-width strip instead keeps one point)
    segment = np.array([[0.6795390248598157, -1.0], [0.8762995539162535, 3.0]])
    for meet in (planar.intersect(SQUARE, segment), planar.intersect(segment, SQUARE)):
        ends = planar.convex_hull(meet)
        assert len(ends) == 2
        assert ends[:, 1].tolist() == pytest.approx([0.0, 2.0], abs=1e-15)
        x0, x1 = segment[:, 0]
        assert ends[:, 0].tolist() == pytest.approx([x0 + (x1 - x0) / 4, x0 + 3 * (x1 - x0) / 4],
                                                    abs=1e-15)
