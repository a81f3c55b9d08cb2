"""Property and example tests for kernel.hexgrid (odd-r pointy-top, east-west wrap)."""

import pytest
from hypothesis import given, settings, strategies as st

from kernel.hexgrid import E, NE, NW, SE, SW, W, WORLD, HexGrid, HexGridError

COLS, ROWS = WORLD.cols, WORLD.rows
hexes = st.tuples(st.integers(0, COLS - 1), st.integers(0, ROWS - 1))
any_col = st.integers(-3 * COLS, 3 * COLS)


def test_world_is_360_by_195():
    assert WORLD.hex_count == 70_200


def test_odd_row_neighbours_are_shifted_east():
    # Row 10 (even): NE neighbour keeps the column; row 11 (odd): it moves one east.
    assert WORLD.neighbour((50, 10), NE) == (50, 9)
    assert WORLD.neighbour((50, 10), NW) == (49, 9)
    assert WORLD.neighbour((50, 11), NE) == (51, 10)
    assert WORLD.neighbour((50, 11), SW) == (50, 12)
    assert WORLD.neighbour((50, 11), E) == (51, 11)


def test_wrap_at_the_seam():
    assert WORLD.neighbour((359, 4), E) == (0, 4)
    assert WORLD.neighbour((0, 4), W) == (359, 4)
    assert WORLD.distance((359, 100), (0, 100)) == 1
    assert WORLD.distance((0, 0), (180, 0)) == 180


def test_top_and_bottom_rows_have_four_neighbours():
    assert len(WORLD.neighbours((10, 0))) == 4
    assert len(WORLD.neighbours((10, ROWS - 1))) == 4
    assert WORLD.neighbour((10, 0), NE) is None


def test_non_wrapping_grid_has_edges():
    grid = HexGrid(5, 5, wrap=False)
    assert grid.neighbour((4, 2), E) is None
    with pytest.raises(HexGridError):
        grid.normalize((5, 0))


def test_bad_row_is_refused():
    with pytest.raises(HexGridError, match="row"):
        WORLD.normalize((3, ROWS))


@given(hexes, any_col)
def test_wrapping_columns_is_invisible(h, shift):
    shifted = (h[0] + shift * COLS, h[1])
    assert WORLD.normalize(shifted) == h
    assert WORLD.neighbours(shifted) == WORLD.neighbours(h)


@given(hexes, hexes)
def test_distance_symmetric_and_zero_only_on_self(a, b):
    assert WORLD.distance(a, b) == WORLD.distance(b, a)
    assert (WORLD.distance(a, b) == 0) == (a == b)


@given(hexes, hexes, st.integers(-2, 2))
def test_distance_ignores_which_copy_of_the_world(a, b, turns):
    assert WORLD.distance(a, (b[0] + turns * COLS, b[1])) == WORLD.distance(a, b)


@given(hexes, hexes, hexes)
def test_triangle_inequality(a, b, c):
    assert WORLD.distance(a, c) <= WORLD.distance(a, b) + WORLD.distance(b, c)


@given(hexes)
def test_neighbours_are_at_distance_one_and_mutual(h):
    for d in range(6):
        n = WORLD.neighbour(h, d)
        if n is None:
            continue
        assert WORLD.distance(h, n) == 1
        assert WORLD.neighbour(n, (d + 3) % 6) == h
        assert WORLD.direction_to(h, n) == d


@given(hexes)
def test_cube_round_trip(h):
    x, y, z = WORLD.to_cube(h)
    assert x + y + z == 0
    assert WORLD.from_cube(x, y, z) == h
    assert WORLD.from_axial(*WORLD.to_axial(h)) == h


@given(hexes, st.sampled_from([1.0, 4.0, 7.5, 12.0, 33.3]))
def test_pixel_round_trip_at_centre_and_near_corners(h, size):
    x, y = WORLD.hex_to_pixel(h, size)
    assert WORLD.pixel_to_hex(x, y, size) == h
    for cx, cy in WORLD.corners(h, size):
        # A point 80% of the way from centre to a corner is still inside the hex.
        assert WORLD.pixel_to_hex(x + 0.8 * (cx - x), y + 0.8 * (cy - y), size) == h


@given(hexes, st.integers(0, COLS - 1))
def test_pixel_wraps_with_origin(h, _):
    size = 6.0
    x, y = WORLD.hex_to_pixel(h, size, origin=(100.0, 50.0))
    world_width = COLS * 3 ** 0.5 * size
    assert WORLD.pixel_to_hex(x + world_width, y, size, origin=(100.0, 50.0)) == h


def test_pixel_outside_rows_is_none():
    assert WORLD.pixel_to_hex(10.0, -50.0, 5.0) is None


@given(hexes, st.integers(0, 6))
def test_ring_has_hexes_at_exact_distance(h, radius):
    ring = WORLD.ring(h, radius)
    assert all(WORLD.distance(h, r) == radius for r in ring)
    assert len(set(ring)) == len(ring)
    if radius and radius <= h[1] < ROWS - radius:
        assert len(ring) == 6 * radius


@given(hexes, st.integers(0, 4))
def test_within_counts(h, radius):
    if radius <= h[1] < ROWS - radius:
        assert len(WORLD.within(h, radius)) == 1 + 3 * radius * (radius + 1)


@given(hexes, hexes)
def test_line_is_connected_and_has_distance_plus_one_hexes(a, b):
    path = WORLD.line(a, b)
    assert path[0] == a and path[-1] == b
    assert len(path) == WORLD.distance(a, b) + 1
    for p, q in zip(path, path[1:]):
        assert WORLD.distance(p, q) == 1


def test_line_crosses_the_seam():
    path = WORLD.line((358, 50), (2, 50))
    assert path == [(358, 50), (359, 50), (0, 50), (1, 50), (2, 50)]


@given(hexes)
def test_hexside_ids_are_shared_by_both_hexes(h):
    for d in range(6):
        side = WORLD.hexside(h, d)
        n = WORLD.neighbour(h, d)
        if n is None:
            assert side is None
            continue
        assert side == WORLD.hexside(n, (d + 3) % 6)
        assert set(WORLD.hexside_hexes(side)) == {h, n}
        assert WORLD.hexside_between(h, n) == side


def test_hexsides_are_distinct_per_hex():
    sides = WORLD.hexsides((100, 100))
    assert len(sides) == len(set(sides)) == 6


def test_hexside_across_the_seam():
    assert WORLD.hexside((359, 7), E) == WORLD.hexside((0, 7), W)


def test_non_adjacent_hexside_refused():
    with pytest.raises(HexGridError, match="not adjacent"):
        WORLD.hexside_between((0, 0), (5, 5))


def test_side_endpoints_are_shared_corners():
    a, b = (10, 10), (11, 10)
    pa = WORLD.side_endpoints(a, E, 10.0)
    pb = WORLD.side_endpoints(b, W, 10.0)
    assert {tuple(round(v, 6) for v in p) for p in pa} == {tuple(round(v, 6) for v in p) for p in pb}
