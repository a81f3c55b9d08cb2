"""Hexside layer: printed fortifications (kind "fort" in the world map) are drawn on their
hexside in the fort colour, and only with the hexsides layer on."""

from __future__ import annotations

import pygame

from app import mapstyle
from app.detailed import DetailedMap
from app.mapmodel import MapModel
from app.stamps import hex_corners
from kernel.hexgrid import DIRECTION_NAMES


def test_fort_hexsides_are_drawn_in_the_fort_colour():
    pygame.display.init()
    pygame.font.init()
    try:
        model = MapModel()
        fort = next(f for f in model.world.fort_hexsides().values() if f.name == "Westwall")
        dmap = DetailedMap(model, (480, 320), zoom=7, centre=fort.hex)
        dmap.layers.update(labels=False, rail=False, units=False)
        surface = pygame.Surface((480, 320))
        dmap.draw(surface)
        g = dmap.geometry
        sx, sy = dmap.hex_to_screen(fort.hex)
        corners = hex_corners(g, sx, sy)
        d = DIRECTION_NAMES.index(fort.side)
        # direction d's side runs between the corners the stamps use for it: find it by the
        # midpoint nearest the neighbour's centre
        neighbour = model.grid.neighbour(fort.hex, d)
        nx, ny = dmap.hex_to_screen(neighbour)
        mids = [((corners[i][0] + corners[(i + 1) % 6][0]) / 2, (corners[i][1] + corners[(i + 1) % 6][1]) / 2)
                for i in range(6)]
        mx, my = min(mids, key=lambda m: (m[0] - (sx + nx) / 2) ** 2 + (m[1] - (sy + ny) / 2) ** 2)
        assert tuple(surface.get_at((int(mx), int(my))))[:3] == mapstyle.FORT
        dmap.layers["hexsides"] = False
        dmap.draw(surface)
        assert tuple(surface.get_at((int(mx), int(my))))[:3] != mapstyle.FORT
    finally:
        pygame.quit()
