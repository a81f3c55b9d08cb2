"""Render PNGs of the committed map (terrain, political, a Europe close-up) for review.

Hexsides: rivers blue, canals cyan, straits red, lake sides light blue, fortifications
magenta inside the fortified hex. Ports: a blue ring beside the city (filled: major), or on
the hex for a port without a city; iced-in ports have a white ring round it."""

from __future__ import annotations

import colorsys
import hashlib
import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from kernel.hexgrid import DIRECTION_NAMES, WORLD  # noqa: E402
from kernel.worldmap import WorldMap, lonlat_to_pixel  # noqa: E402

TERRAIN_COLOURS = {
    "sea": (70, 110, 170), "lake": (120, 170, 220), "clear": (200, 210, 140), "forest": (60, 130, 60),
    "jungle": (20, 95, 45), "mountain": (140, 110, 80), "swamp": (110, 150, 130), "desert": (235, 210, 150),
    "desert mountain": (190, 150, 100), "tundra": (180, 190, 180), "ice": (245, 250, 255),
}
PORT_COLOUR = (10, 40, 200)
ICED_COLOUR = (235, 250, 255)
CONTROLLER_COLOURS = {
    "Germany": (90, 90, 90), "Italy": (150, 170, 110), "Japan": (230, 200, 60), "France": (70, 120, 220),
    "Commonwealth": (210, 170, 120), "USSR": (160, 90, 50), "USA": (50, 120, 60), "China": (170, 200, 230),
}


def _country_colour(code: str, controller: str) -> tuple[int, int, int]:
    if controller in CONTROLLER_COLOURS:
        base = CONTROLLER_COLOURS[controller]
        shade = int(hashlib.md5(code.encode()).hexdigest()[:2], 16) % 30 - 15
        return tuple(max(0, min(255, v + shade)) for v in base)
    hue = int(hashlib.md5(code.encode()).hexdigest()[:4], 16) / 65535
    r, g, b = colorsys.hsv_to_rgb(hue, 0.25, 0.95)
    return (int(r * 255), int(g * 255), int(b * 255))


def _sea_colour(code: str) -> tuple[int, int, int]:
    hue = int(hashlib.md5(code.encode()).hexdigest()[:4], 16) / 65535
    r, g, b = colorsys.hsv_to_rgb(0.5 + hue * 0.2, 0.45, 0.55 + 0.3 * (hue % 0.3))
    return (int(r * 255), int(g * 255), int(b * 255))


def render(world: WorldMap, size: float, mode: str, window=None, labels=False) -> Image.Image:
    """window = (lon_min, lon_max, lat_min, lat_max) crops the image; None = whole world."""
    if window:
        x0, y1 = lonlat_to_pixel(window[0], window[2])
        _, y0 = lonlat_to_pixel(window[1], window[3])
        x1 = x0 + (window[1] - window[0]) * math.sqrt(3)
        x0, x1, y0, y1 = x0 * size, x1 * size, y0 * size, y1 * size
    else:
        x0, y0 = -size, -size
        x1, y1 = WORLD.cols * math.sqrt(3) * size, (WORLD.rows * 1.5 + 0.5) * size
    image = Image.new("RGB", (int(x1 - x0), int(y1 - y0)), (20, 20, 30))
    draw = ImageDraw.Draw(image)
    base_origin = (-x0, -y0)
    world_px = WORLD.cols * math.sqrt(3) * size

    def at(h):  # origin that puts hex h inside the window (the world wraps east-west)
        cx, _ = WORLD.hex_to_pixel(h, size, base_origin)
        return (base_origin[0] + world_px, base_origin[1]) if window and cx < -2 * size else base_origin

    hexes = list(WORLD.all_hexes())
    for h in hexes:
        origin = at(h)
        cx, cy = WORLD.hex_to_pixel(h, size, origin)
        if not (-2 * size <= cx <= image.width + 2 * size and -2 * size <= cy <= image.height + 2 * size):
            continue
        if mode == "terrain":
            colour = TERRAIN_COLOURS[world.terrain(h)]
        elif world.is_sea(h):
            colour = _sea_colour(world.sea_area_code(h))
        else:
            c = world.country_of(h)
            colour = _country_colour(c.code, c.controller) if c else (255, 0, 255)
            if world.is_lake(h):
                colour = (120, 170, 220)
        outline = None if size < 6 else tuple(max(0, v - 25) for v in colour)
        draw.polygon(WORLD.corners(h, size, origin), fill=colour, outline=outline)
    line_width = max(1, int(size / 4))
    for side, feature in world.hexside_features().items():
        (col, row), direction = WORLD.hexside_of(side)
        p, q = WORLD.side_endpoints((col, row), direction, size, at((col, row)))
        colour = {"river": (30, 60, 230), "canal": (0, 220, 220), "strait": (255, 0, 0), "lake": (120, 170, 220)}
        draw.line([p, q], fill=colour[feature.kind], width=line_width + (1 if feature.kind != "river" else 0))
    # Fortifications: a thick magenta-black line just inside the fortified hex, on the fort side.
    for side, fort in world.fort_hexsides().items():
        fortified = fort.hex
        origin = at(fortified)
        p, q = WORLD.side_endpoints(fortified, DIRECTION_NAMES.index(fort.side), size, origin)
        cx, cy = WORLD.hex_to_pixel(fortified, size, origin)
        inset = lambda pt: (pt[0] + (cx - pt[0]) * 0.18, pt[1] + (cy - pt[1]) * 0.18)
        draw.line([inset(p), inset(q)], fill=(150, 0, 110), width=line_width + 2)
    if mode == "political":
        # Sea-area and country borders as thin lines along hex edges.
        for h in hexes:
            for d in range(3):
                n = WORLD.neighbour(h, d)
                if n is None:
                    continue
                if world.is_sea(h) and world.is_sea(n) and world.sea_area_code(h) != world.sea_area_code(n):
                    colour = (230, 230, 255)
                elif world.is_land(h) and world.is_land(n) and world.country_code(h) != world.country_code(n):
                    colour = (40, 20, 20)
                else:
                    continue
                p, q = WORLD.side_endpoints(h, d, size, at(h))
                draw.line([p, q], fill=colour, width=1)
    if size >= 4:
        for rail in world.rails:
            pts = [WORLD.hex_to_pixel(h, size, at(h)) for h in rail.hexes]
            for p, q in zip(pts, pts[1:]):
                if abs(p[0] - q[0]) < 3 * size:
                    draw.line([p, q], fill=(60, 40, 30), width=1)
    for city in world.cities.values():
        cx, cy = WORLD.hex_to_pixel(city.hex, size, at(city.hex))
        if not (0 <= cx <= image.width and 0 <= cy <= image.height):
            continue
        r = max(1.5, size * (0.45 if city.objective else 0.3))
        fill = (200, 0, 0) if city.objective else ((255, 255, 255) if city.is_capital else (30, 30, 30))
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=(0, 0, 0))
        if labels and (size >= 10 or city.objective or city.is_capital):
            draw.text((cx + r + 1, cy - r - 2), city.name, fill=(0, 0, 0) if mode == "terrain" else (20, 0, 60))
    for port in world.ports:  # ports: blue ring (major: filled), iced-in: white ring round it
        cx, cy = WORLD.hex_to_pixel(port.hex, size, at(port.hex))
        if not (0 <= cx <= image.width and 0 <= cy <= image.height):
            continue
        r = max(1.5, size * 0.22)
        px, py = cx + size * 0.35, cy - size * 0.35  # beside the city dot
        if port.kind == "port":
            px, py = cx, cy
        draw.ellipse([px - r, py - r, px + r, py + r], fill=PORT_COLOUR if port.port == "major" else None,
                     outline=PORT_COLOUR, width=max(1, int(size / 8)))
        if port.iced_zone is not None:
            q = r + max(1.0, size * 0.12)
            draw.ellipse([px - q, py - q, px + q, py + q], outline=ICED_COLOUR, width=max(1, int(size / 10)))
        if labels and size >= 10 and port.kind == "port":
            draw.text((px + r + 1, py - r - 2), port.name, fill=(0, 20, 90))
    if labels and mode == "political":
        for area in world.sea_areas.values():
            hs = world.hexes_of_sea_area(area.code)
            if not hs:
                continue
            pts = [WORLD.hex_to_pixel(h, size, at(h)) for h in hs]
            mx = sorted(p[0] for p in pts)[len(pts) // 2]
            my = sorted(p[1] for p in pts)[len(pts) // 2]
            if 0 <= mx <= image.width and 0 <= my <= image.height:
                draw.text((mx - 20, my), area.name, fill=(255, 255, 255))
    return image


def render_all(map_dir: Path, out_dir: Path, progress=print) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    world = WorldMap(map_dir)
    jobs = [
        ("terrain_4px.png", 4.0, "terrain", None, False),
        ("political_4px.png", 4.0, "political", None, True),
        ("europe_terrain_12px.png", 12.0, "terrain", (-12, 45, 30, 72), True),
        ("europe_political_12px.png", 12.0, "political", (-12, 45, 30, 72), True),
        ("pacific_political_8px.png", 8.0, "political", (95, 200, -25, 45), True),
        ("baltic_ports_16px.png", 16.0, "terrain", (8, 32, 53, 66.5), True),
        ("mediterranean_ports_10px.png", 10.0, "terrain", (-7, 37, 30, 46.5), True),
        ("solomons_ports_16px.png", 16.0, "terrain", (145, 166, -13, -1), True),
    ]
    for name, size, mode, window, labels in jobs:
        image = render(world, size, mode, window, labels)
        image.save(out_dir / name, optimize=True)
        progress(f"rendered {name} ({image.width}x{image.height})")


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[2]
    render_all(root / "maps" / "world", root / "maps" / "png")
