"""The ports layer of the detailed map: ports without a city and iced-in ports.

The window draws cities (and a port mark beside a city that is a port) itself; the map's
241 minor ports that are not cities (kernel.worldmap ``WorldMap.port_towns``) and the
iced-in ports (``City.iced_zone``: snow or blizzard in that weather zone ices the port in;
seeds, "Weather Report" and "Supply Sources and Paths") are drawn here, over the map, while
its labels layer is on:
- a port without a city: a blue ring on its hex (filled for a major port), its name from zoom 5;
- an iced-in port: a white ring round the port mark and a small ice star, with the weather
  zone that ices it from zoom 6.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl

PORT_COLOUR = (20, 40, 160)
ICE_COLOUR = (240, 250, 255)
ICE_EDGE = (40, 90, 140)
MIN_ZOOM = 3
NAME_ZOOM = 5
ZONE_ZOOM = 6


class PortsLayer:
    """A map layer (app/uiplugins.py): ``draw(window, dmap, surface, pos)``."""

    name = "ports"

    def __init__(self, world):
        self.port_towns = sorted(world.port_towns.values(), key=lambda p: (p.row, p.col))
        self.iced = sorted(world.iced_ports, key=lambda p: (p.row, p.col))
        self._labels: dict = {}
        self._marks_for: tuple | None = None  # the view the kept marks were placed for
        self._marks: list = []

    def marks(self, dmap, size) -> list[tuple[str, object, tuple[int, int]]]:
        """('town' | 'iced', port, screen point) of the marks on a surface of that size; placed
        again only when the view moves (a click redraws the map, the ports stay put)."""
        view = (dmap.view_origin(), dmap.geometry.w, dmap.geometry.h, tuple(size))
        if view != self._marks_for:
            self._marks, self._marks_for = self._place(dmap, size), view
        return self._marks

    def _place(self, dmap, size) -> list[tuple[str, object, tuple[int, int]]]:
        w, h = size
        margin = 2 * dmap.geometry.w
        out = []
        for kind, ports in (("town", self.port_towns), ("iced", self.iced)):
            for port in ports:
                x, y = dmap.hex_to_screen(port.hex)
                if -margin <= x <= w + margin and -margin <= y <= h + margin:
                    out.append((kind, port, (x, y)))
        return out

    def draw(self, window, dmap, surface, pos) -> None:
        import pygame

        from app.fonts import font

        if dmap.zoom < MIN_ZOOM or not dmap.layers.get("labels", True):
            return
        g = dmap.geometry
        r = max(2, g.w // 7)
        for kind, port, (x, y) in self.marks(dmap, dmap.size):
            cx, cy = pos[0] + x, pos[1] + y
            if kind == "town":
                pygame.draw.circle(surface, PORT_COLOUR, (cx, cy), r, 0 if port.port == "major" else max(1, r // 2))
                if dmap.zoom >= NAME_ZOOM:
                    surface.blit(self._label(port.name, font, g), (cx - self._label(port.name, font, g).get_width() // 2,
                                                                    cy + r + 1))
            else:
                mx, my = (cx, cy) if port.kind == "port" else (cx + r + 2, cy - r - 1)  # the window's port mark
                pygame.draw.circle(surface, ICE_EDGE, (mx, my), r + 3, 2)
                pygame.draw.circle(surface, ICE_COLOUR, (mx, my), r + 2, 1)
                _ice_star(surface, (mx + r + 4, my - r - 3), max(3, r))
                if dmap.zoom >= ZONE_ZOOM:
                    surface.blit(self._label(f"iced: zone {port.iced_zone}", font, g), (mx + r + 6, my - 2))

    def _label(self, text, font, g):
        key = (text, g.h)
        if key not in self._labels:
            face = font(max(10, min(16, int(g.h * 0.4))))
            self._labels[key] = face.render(text, True, PORT_COLOUR)
        return self._labels[key]


def _ice_star(surface, centre, radius) -> None:
    """Three crossed strokes: the ice mark."""
    import math

    import pygame

    x, y = centre
    for k in range(3):
        angle = math.pi / 2 + k * math.pi / 3
        dx, dy = radius * math.cos(angle), radius * math.sin(angle)
        pygame.draw.line(surface, ICE_EDGE, (x - dx, y - dy), (x + dx, y + dy), 3)
        pygame.draw.line(surface, ICE_COLOUR, (x - dx, y - dy), (x + dx, y + dy), 1)


@hookimpl
def register_map_layers(register):
    from kernel.worldmap import load_world_map

    register(PortsLayer(load_world_map()))
