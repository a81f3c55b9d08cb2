"""Barbarossa's set-up areas ("Setup", "Setup Tray"): the hexes of each area, computed once per
process for all the games a server decides at once (issue 15), and the nearest legal hex the
default set-up falls back on."""

from __future__ import annotations

import threading
from functools import cache

from plugins.rules.core import world_map
from plugins.scenarios.barbarossa import oob, setup_tray


@cache
def _land_hexes_by_country() -> tuple[tuple[tuple[int, int], str], ...]:
    m = world_map()
    return tuple(((col, row), m.country_code((col, row))) for row in range(m.grid.rows) for col in range(m.grid.cols)
                 if m.country_code((col, row)) and m.is_land((col, row)))


def _area_by_every_hex(area_id: str) -> frozenset:
    """The area's definition read hex by hex over the whole map (slow, obviously right)."""
    m = world_map()
    out = set()
    for clause in oob.scenario_data().areas[area_id].clauses:
        for h, code in _land_hexes_by_country():
            if code not in clause.countries:
                continue
            if clause.cols and not clause.cols[0] <= h[0] <= clause.cols[1]:
                continue
            if clause.rows and not clause.rows[0] <= h[1] <= clause.rows[1]:
                continue
            if clause.cities and m.city_at(h) is None:
                continue
            out.add(h)
    return frozenset(out)


def test_setup_areas_are_their_clauses_over_the_whole_map():
    for area_id in ("leningrad", "ussr-reinf", "reich", "ags", "odessa"):  # boxes, whole countries, cities
        assert oob.area_hexes(area_id) == _area_by_every_hex(area_id), area_id
    assert all(oob.area_hexes(a) for a in oob.scenario_data().areas)


def test_hexes_of_country_is_every_hex_of_its_code_row_by_row():
    m = world_map()
    for code in ("GE", "SU", "ES"):
        expected = [(c, r) for r in range(m.grid.rows) for c in range(m.grid.cols) if m.country_code((c, r)) == code]
        assert m.hexes_of_country(code) == expected, code


def test_setup_areas_are_computed_once_when_many_games_ask_at_once():
    oob._compute_area_hexes.cache_clear()
    setup_tray._nearest_first.cache_clear()
    got: list = []
    start = threading.Barrier(8)

    def ask():
        start.wait()
        got.append(oob.area_hexes("kiev"))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and all(h is got[0] for h in got)
    assert oob._compute_area_hexes.cache_info().misses == 1


def test_restore_setup_falls_back_on_the_nearest_hex_of_the_area():
    grid = world_map().grid
    unit = oob.scenario_data().units[0]
    order = setup_tray._nearest_first(unit.area, tuple(unit.hex))
    assert set(order) == oob.area_hexes(unit.area)
    assert order[0] == tuple(unit.hex)  # every default position lies in its area
    distances = [grid.distance(tuple(unit.hex), h) for h in order]
    assert distances == sorted(distances)
