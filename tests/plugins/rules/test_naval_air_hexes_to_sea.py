"""Sea Box Section (seeds L6350-6402): an air unit flying to sea has "their range ... reduced by
the number of hexes they moved to reach the first all sea hex in the sea area".
``naval_air.hexes_to_sea`` measures it with rows searched nearest first and each answer kept
(the bots ask it for every air unit and sea area); it must give the plain minimum of
``grid.distance`` over the area's all-sea hexes everywhere, across the east-west wrap too."""

import random

from plugins.rules import core
from plugins.rules.naval import naval_air


def _plain(hex_, area):
    grid = core.world_map().grid
    return min(grid.distance(hex_, h) for h in naval_air._all_sea(area))


def test_hexes_to_sea_is_the_plain_minimum_distance():
    m = core.world_map()
    grid = m.grid
    rng = random.Random(14)
    hexes = [(rng.randrange(grid.cols), rng.randrange(grid.rows)) for _ in range(6)]
    hexes += [(0, 0), (grid.cols - 1, grid.rows - 1), (0, grid.rows // 2), (grid.cols - 1, grid.rows // 2)]
    hexes.append(tuple(m.port("Rabaul").hex) if m.port("Rabaul") else (0, 1))
    for hex_ in hexes:
        for area in sorted(m.sea_areas):
            assert naval_air.hexes_to_sea(hex_, area) == _plain(hex_, area), (hex_, area)


def test_hexes_to_sea_accepts_a_list_hex():
    hex_ = [10, 10]
    area = sorted(core.world_map().sea_areas)[0]
    assert naval_air.hexes_to_sea(hex_, area) == _plain(tuple(hex_), area)
