"""The detailed map (seeds, "Detailed Map"): zoom 1-8, the world wrapping east-west with no
seam, scrolling clamped north-south, layers, counters, hover and selection.

Drawing is two passes.  The static layers (terrain, hexsides, rails, labels, weather zones,
weather, hex control) are baked into chunk surfaces: a block of ``chunk_cols`` x
``chunk_rows`` hexes per zoom level, built on first sight and kept in an LRU cache, so a
frame is a dozen or two ``blits``.  Counters, the hover outline and the selection are drawn
on top every frame with ``fblits``.  When state changes only the chunks holding changed
hexes are thrown away (``invalidate_hexes``).

Positions: ``centre`` is the view's middle in hex units (fx = pixel x / w, fy = row of
the centre line), the same at every zoom, so zooming keeps places where they are.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass, field

import pygame

from kernel.hexgrid import Hex

from . import mapstyle
from .chunklayers import draw_hexsides, draw_labels
from .counters import CounterArt
from .dirty import MapChanges
from .fonts import font  # noqa: F401  (app modules import the map's font from here)
from .mapmodel import MapModel
from .stackdraw import UnitLayer
from .stamps import Stamps, hex_corners

STATIC_LAYERS = ("terrain", "hexsides", "rail", "labels", "weather_zones", "weather", "control")
ALL_LAYERS = STATIC_LAYERS + ("units",)
DEFAULT_LAYERS = {"terrain": True, "hexsides": True, "rail": True, "labels": True, "weather_zones": False,
                  "weather": False, "control": False, "units": True}
CHUNK_CACHE_SIZE = 400
PREFETCH_WAIT_CAP = 0.008  # seconds; see DetailedMap.prefetch


@dataclass
class Selection:
    """What the player clicked: a hex and possibly units in it.  Rule plugins read it
    (move previews, combat targets) through the window's selection listeners."""

    hex: Hex | None = None
    units: list[str] = field(default_factory=list)


class DetailedMap:
    def __init__(self, model: MapModel, size: tuple[int, int] = (1024, 768), zoom: int = 5,
                 centre: Hex = (217, 48)):
        self.model = model
        self.grid = model.grid
        self.size = size
        self.zoom = max(1, min(8, zoom))
        self.layers = dict(DEFAULT_LAYERS)
        self.unit_resolution = "high"
        self.fx, self.fy = 0.0, 0.0
        self.center_on(centre)
        self.counters = CounterArt(model)
        self._stamps: dict[int, Stamps] = {}
        self._chunks: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self.chunks_built = 0
        self._build_seconds: dict[int, float] = {}
        self.hover: Hex | None = None
        self.selection = Selection()
        self._controller_grid: list[list[str]] | None = None
        self.units_layer = UnitLayer(self)
        self._static_side_data()

    # ------------------------------------------------------------------ geometry
    @property
    def geometry(self) -> mapstyle.ZoomGeometry:
        return mapstyle.ZOOMS[self.zoom]

    def world_size(self) -> tuple[int, int]:
        g = self.geometry
        return (self.grid.cols * g.w, (self.grid.rows - 1) * g.h + 2 * g.top)

    def hex_centre_world(self, hex_: Hex) -> tuple[int, int]:
        g = self.geometry
        col, row = hex_
        return (col * g.w + g.half_w * (row & 1), row * g.h + g.top)

    def view_origin(self) -> tuple[float, float]:
        """World pixel at the surface's top-left corner (x not folded)."""
        g = self.geometry
        return (self.fx * g.w - self.size[0] / 2, self.fy * g.h + g.top - self.size[1] / 2)

    def screen_to_hex(self, pos: tuple[int, int]) -> Hex | None:
        g = self.geometry
        ox, oy = self.view_origin()
        wx, wy = pos[0] + ox, pos[1] + oy - g.top
        # Undo the integer stretch, then ask the grid (regular hex of radius 1).
        found = self.grid.pixel_to_hex(wx / g.w * math.sqrt(3), wy / g.h * 1.5, 1.0)
        return found

    def hex_to_screen(self, hex_: Hex) -> tuple[int, int]:
        """Screen position of a hex centre, choosing the copy of the world nearest the view."""
        ox, oy = self.view_origin()
        x, y = self.hex_centre_world(hex_)
        ww = self.world_size()[0]
        sx = (x - ox) % ww
        if sx > ww - self.geometry.w * 2:
            sx -= ww
        return (int(round(sx)), int(round(y - oy)))

    @property
    def centre_hex(self) -> Hex:
        return self.screen_to_hex((self.size[0] // 2, self.size[1] // 2)) or (int(self.fx) % self.grid.cols, 0)

    # ------------------------------------------------------------------ moving the view
    def _clamp(self) -> None:
        g = self.geometry
        self.fx %= self.grid.cols
        half_rows = (self.size[1] / 2) / g.h
        low, high = half_rows - g.top / g.h, (self.grid.rows - 1) + g.top / g.h - half_rows
        if low > high:  # the whole height fits: keep the world centred
            self.fy = (self.grid.rows - 1) / 2
        else:
            self.fy = min(max(self.fy, low), high)

    def center_on(self, hex_: Hex) -> None:
        col, row = self.grid.normalize(hex_)
        self.fx = col + 0.5 * (row & 1)  # a centre's pixel x is col*w (+w/2 on odd rows)
        self.fy = float(row)
        self._clamp()

    def scroll_pixels(self, dx: float, dy: float) -> None:
        g = self.geometry
        self.fx += dx / g.w
        self.fy += dy / g.h
        self._clamp()

    def scroll_hexes(self, dcol: int, drow: int) -> None:
        """Arrow keys: one hex in that direction (seeds, Detailed Map: Scrolling)."""
        self.fx += dcol
        self.fy += drow
        self._clamp()

    def scroll_pages(self, dx: int, dy: int) -> None:
        """Ctrl+arrow: one page."""
        self.scroll_pixels(dx * self.size[0], dy * self.size[1])

    def set_zoom(self, zoom: int, anchor: tuple[int, int] | None = None) -> None:
        """Change zoom keeping the point under ``anchor`` (the cursor) where it is."""
        zoom = max(1, min(8, zoom))
        if zoom == self.zoom:
            return
        if anchor is None:
            anchor = (self.size[0] // 2, self.size[1] // 2)
        g = self.geometry
        ox, oy = self.view_origin()
        ax, ay = (anchor[0] + ox) / g.w, (anchor[1] + oy - g.top) / g.h  # hex units
        self.zoom = zoom
        g = self.geometry
        self.fx = ax - (anchor[0] - self.size[0] / 2) / g.w
        self.fy = ay - (anchor[1] - self.size[1] / 2) / g.h
        self._clamp()

    def resize(self, size: tuple[int, int]) -> None:
        self.size = (max(1, size[0]), max(1, size[1]))
        self._clamp()

    # ------------------------------------------------------------------ chunk cache
    def stamps(self, zoom: int | None = None) -> Stamps:
        zoom = zoom or self.zoom
        if zoom not in self._stamps:
            self._stamps[zoom] = Stamps(mapstyle.ZOOMS[zoom])
        return self._stamps[zoom]

    def _static_key(self) -> tuple:
        return tuple(self.layers[name] for name in STATIC_LAYERS)

    def invalidate(self) -> None:
        """Forget every chunk and the stacks (weather changed, a reload, a new map)."""
        self._chunks.clear()
        self._controller_grid = None
        self.units_layer.forget()
        self.units_layer.static_changed()

    def invalidate_hexes(self, hexes, layer: str | None = None) -> int:
        """Forget the cached chunks a change at these hexes shows on; returns how many.

        ``layer`` ("control", "weather") narrows it to chunks baked with that layer on:
        a chunk drawn with the layer off looks the same after the change.  The controller
        grid is patched at these hexes only (rebuilding it reads all 70,200 hexes)."""
        hexes = [self.grid.normalize(h) for h in hexes]
        if self._controller_grid is not None and layer in (None, "control"):
            cg = self._controller_grid
            land = [(c, r) for c, r in hexes if cg[r][c] != "sea"]
            for (col, row), power in zip(land, self.model.controllers_at(land)):
                cg[row][col] = power
        self.units_layer.static_changed(hexes)
        if not hexes or not self._chunks:
            return 0
        flag = STATIC_LAYERS.index(layer) if layer in STATIC_LAYERS else None
        zooms = {key[0] for key in self._chunks}
        doomed = set()
        for zoom in zooms:
            g = mapstyle.ZOOMS[zoom]
            cw, ch = g.chunk_cols * g.w, g.chunk_rows * g.h
            n_x = self.grid.cols // g.chunk_cols
            reach_x, reach_y = g.half_w + 1, g.top + 1  # a hex's stamp spans its centre +- these
            for col, row in hexes:
                x, y = col * g.w + g.half_w * (row & 1), row * g.h + g.top
                for ci in range((x - reach_x) // cw, (x + reach_x) // cw + 1):
                    for cj in range((y - reach_y) // ch, (y + reach_y) // ch + 1):
                        doomed.add((zoom, ci % n_x, cj))
        keys = [k for k in self._chunks if (k[0], k[2], k[3]) in doomed and (flag is None or k[1][flag])]
        for key in keys:
            del self._chunks[key]
        return len(keys)

    def apply_changes(self, changes: "MapChanges") -> int:
        """Forget what events changed (see ``app.dirty``); returns the chunks dropped."""
        dropped = 0
        if changes.everything:
            dropped = len(self._chunks)
            self.invalidate()
            return dropped
        for layer, hexes in changes.static.items():
            if hexes:
                dropped += self.invalidate_hexes(hexes, None if layer == "any" else layer)
        if changes.units:
            self.units_layer.forget()
        return dropped

    def chunk(self, zoom: int, ci: int, cj: int) -> pygame.Surface:
        key = (zoom, self._static_key(), ci, cj)
        found = self._chunks.get(key)
        if found is not None:
            self._chunks.move_to_end(key)
            return found
        started = time.perf_counter()
        found = self._build_chunk(zoom, ci, cj)
        spent = time.perf_counter() - started
        self._build_seconds[zoom] = 0.7 * self._build_seconds.get(zoom, spent) + 0.3 * spent
        self._chunks[key] = found
        if len(self._chunks) > CHUNK_CACHE_SIZE:
            self._chunks.popitem(last=False)
        return found

    def _static_side_data(self) -> None:
        w = self.model.world
        self._side_features = w.hexside_features()
        self._forts = w.fort_hexsides() if hasattr(w, "fort_hexsides") else {}
        self._rail_links: dict[Hex, list[Hex]] = {}
        for line in w.rails:
            for a, b in zip(line.hexes, line.hexes[1:]):
                self._rail_links.setdefault(a, []).append(b)
                self._rail_links.setdefault(b, []).append(a)
        self._cities = list(w.cities.values())

    def _build_chunk(self, zoom: int, ci: int, cj: int, region: tuple | None = None, unnamed=None) -> pygame.Surface:
        """Chunk (ci, cj) of the static layers; or ``region`` (x0, y0, w, h world pixels) of
        them with the city ``unnamed``'s name left out (``map_without_name``)."""
        g = mapstyle.ZOOMS[zoom]
        st = self.stamps(zoom)
        m = self.model
        cols, rows = self.grid.cols, self.grid.rows
        world_h = (rows - 1) * g.h + 2 * g.top
        if region is None:
            self.chunks_built += 1
            cw, ch = g.chunk_cols * g.w, g.chunk_rows * g.h
            x0, y0 = ci * cw, cj * ch
            surface = pygame.Surface((cw, max(1, min(ch, world_h - y0))))
        else:
            x0, y0, cw, ch = region
            surface = pygame.Surface((cw, ch))
        surface.fill(mapstyle.TERRAIN_COLOURS["sea"])
        layers = self.layers
        r_lo = max(0, (y0 - 2 * g.top) // g.h - 1)
        r_hi = min(rows - 1, (y0 + ch) // g.h + 1)
        c_lo, c_hi = x0 // g.w - 1, (x0 + cw) // g.w + 1
        hexes = []  # (col unwrapped, col, row, sx, sy) centre on the chunk surface
        for r in range(r_lo, r_hi + 1):
            shift = g.half_w * (r & 1)
            sy = r * g.h + g.top - y0
            for c in range(c_lo, c_hi + 1):
                hexes.append((c, c % cols, r, c * g.w + shift - x0, sy))
        ox, oy = st.offset
        terrain_grid = m.terrain_grid
        blits = []
        for _, col, row, sx, sy in hexes:
            terrain = terrain_grid[row][col]
            if layers["terrain"]:
                stamp = st.terrain(terrain)
            else:
                stamp = st.terrain("sea" if terrain in ("sea", "lake") else "clear", symbols=False)
            blits.append((stamp, (sx - ox, sy - oy)))
        if layers["weather"]:
            for _, col, row, sx, sy in hexes:
                weather = m.weather(m.zone_grid[row][col])
                if weather != "fine":
                    land, sea = mapstyle.WEATHER_COLOURS.get(weather, mapstyle.WEATHER_COLOURS["fine"])
                    colour = sea if terrain_grid[row][col] in ("sea", "lake") else land
                    blits.append((st.tint(colour, 110), (sx - ox, sy - oy)))
        if layers["control"]:
            if self._controller_grid is None:
                self._controller_grid = m.controller_grid()
            cg = self._controller_grid
            for _, col, row, sx, sy in hexes:
                power = cg[row][col]
                if power != "sea":
                    colour = mapstyle.power_colour(power)
                    stamp = st.ring(colour, max(2, g.w // 8)) if zoom >= 4 else st.tint(colour, 150)
                    blits.append((stamp, (sx - ox, sy - oy)))
        surface.blits(blits, doreturn=False)
        if layers["hexsides"] or layers["weather_zones"]:
            draw_hexsides(self, surface, g, hexes, zoom)
        if layers["rail"] and zoom >= 2:
            width = 1 if zoom < 5 else 2
            for _, col, row, sx, sy in hexes:
                for other in self._rail_links.get((col, row), ()):
                    # half a segment from each end, so neighbouring chunks meet exactly
                    dc = (other[0] - col + cols // 2) % cols - cols // 2
                    tx = sx + dc * g.w + g.half_w * ((other[1] & 1) - (row & 1))
                    ty = sy + (other[1] - row) * g.h
                    pygame.draw.line(surface, mapstyle.RAIL, (sx, sy), ((sx + tx) / 2, (sy + ty) / 2), width)
        if layers["labels"]:
            draw_labels(self, surface, g, zoom, x0, y0, unnamed=unnamed)
        return surface

    def map_without_name(self, city, rect: pygame.Rect) -> pygame.Surface:
        """The map in the world rectangle ``rect`` without ``city``'s printed name: what the
        units layer lays over the printed name when it moves the name above a counter (a blank
        plate there showed below the counter, issue 11)."""
        return self._build_chunk(self.zoom, 0, 0, region=tuple(rect), unnamed=city)

    # ------------------------------------------------------------------ drawing
    def draw(self, target: pygame.Surface, pos: tuple[int, int] = (0, 0)) -> None:
        """Draw the view onto ``target`` at ``pos`` (clipped to the view's size)."""
        g = self.geometry
        zoom = self.zoom
        cw, ch = g.chunk_cols * g.w, g.chunk_rows * g.h
        n_x = self.grid.cols // g.chunk_cols
        world_h = self.world_size()[1]
        ox, oy = self.view_origin()
        ox_i, oy_i = int(math.floor(ox)), int(math.floor(oy))
        w, h = self.size
        old_clip = target.get_clip()
        target.set_clip(pygame.Rect(pos, self.size).clip(old_clip) if old_clip else pygame.Rect(pos, self.size))
        if oy_i < 0 or oy_i + h > world_h:
            target.fill((10, 10, 20), pygame.Rect(pos, self.size))
        blits = []
        for cj in range(max(0, oy_i // ch), min((world_h - 1) // ch, (oy_i + h - 1) // ch) + 1):
            for i in range(ox_i // cw, (ox_i + w - 1) // cw + 1):
                surf = self.chunk(zoom, i % n_x, cj)
                blits.append((surf, (pos[0] + i * cw - ox_i, pos[1] + cj * ch - oy_i)))
        target.fblits(blits)
        if self.layers["units"]:
            self.units_layer.draw(target, pos, ox_i, oy_i)
        for hex_, colour, width in ((self.hover, mapstyle.HOVER, 1), (self.selection.hex, mapstyle.SELECTION, 3)):
            if hex_ is not None:
                sx, sy = self.hex_to_screen(hex_)
                pygame.draw.polygon(target, colour, hex_corners(g, pos[0] + sx, pos[1] + sy), width)
        target.set_clip(old_clip)

    def prefetch(self, limit: int = 1, deadline: float | None = None) -> int:
        """Build up to ``limit`` missing chunks in the ring just outside the view, so panning
        finds them ready; with ``deadline`` (a ``time.perf_counter()`` value) only while a
        chunk, at this zoom's measured build time, still fits before it.  Returns how many
        it built."""
        g = self.geometry
        cw, ch = g.chunk_cols * g.w, g.chunk_rows * g.h
        n_x = self.grid.cols // g.chunk_cols
        world_h = self.world_size()[1]
        ox, oy = (int(math.floor(v)) for v in self.view_origin())
        w, h = self.size
        key = self._static_key()
        built = 0
        rows = range(max(0, oy // ch - 1), min((world_h - 1) // ch, (oy + h - 1) // ch + 1) + 1)
        for i in range(ox // cw - 1, (ox + w - 1) // cw + 2):
            for cj in rows:
                if (self.zoom, key, i % n_x, cj) in self._chunks:
                    continue
                # a chunk slower than PREFETCH_WAIT_CAP still gets built once that much time is
                # left: else a slow zoom's estimate would keep prefetch off until drawing stalls
                need = min(self.build_seconds(self.zoom), PREFETCH_WAIT_CAP)
                if deadline is not None and time.perf_counter() + need > deadline:
                    return built
                self.chunk(self.zoom, i % n_x, cj)
                built += 1
                if built >= limit:
                    return built
        return built

    def build_seconds(self, zoom: int) -> float:
        """What building one chunk at ``zoom`` has cost here (a running mean; 15 ms before
        the first build)."""
        return self._build_seconds.get(zoom, 0.015)

    def stacks(self) -> list[tuple[Hex, list]]:
        """Units on the map by hex (top of each stack first), rebuilt on new game events."""
        return self.units_layer.stacks()
