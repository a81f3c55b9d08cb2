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
SEA_BORDER_COLOUR = (225, 235, 255)  # ports views: the line between two sea areas
SEA_LABEL_COLOUR = (255, 255, 255)
WATER_LABEL_COLOUR = (255, 235, 140)  # a named water (Sea of Azov) within a sea area
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


def render(world: WorldMap, size: float, mode: str, window=None, labels=False, seas=False) -> Image.Image:
    """window = (lon_min, lon_max, lat_min, lat_max) crops the image; None = whole world.
    seas: also draw the sea-area borders and name each sea area and named water in view (the ports
    views: which water a port opens on)."""
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
    city_labels, port_labels, sea_labels = [], [], []  # ([(x, y) ...], dot radius, text, colour)
    if seas:
        sea_labels = _draw_seas(world, draw, image, size, at)
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
            city_labels.append((not (city.objective or city.is_capital), ([(cx, cy)], r, city.name,
                                                                          (0, 0, 0) if mode == "terrain" else (20, 0, 60))))
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
            port_labels.append(([(px, py)], r, port.name, (0, 20, 90)))
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
    cities_first = [label for _, label in sorted(city_labels, key=lambda c: c[0])]  # objectives, capitals first
    _place_labels(draw, image, cities_first + port_labels + sea_labels)
    return image


def _place_labels(draw, image, labels) -> None:
    """Each label beside its dot where it covers no dot and no label placed before it (east, then
    west, below, above); a label with no free place is left out rather than drawn over another.
    A sea's label (radius 0) is centred on one of its hexes, the middle one first. Labels are
    (points, dot radius, text, colour); cities come first, then ports, sea names last."""
    dots = [(x - r, y - r, x + r, y + r) for points, r, _, _ in labels if r for x, y in points]
    taken: list[tuple[float, float, float, float]] = []
    overlaps = lambda a, b: a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    for points, r, text, colour in labels:
        w, h = draw.textlength(text), 10
        if r == 0:
            spots = [(x - w / 2, y - h / 2) for x, y in points]
        else:
            (x, y), = points
            spots = [(x + r + 1, y - h / 2), (x - r - 1 - w, y - h / 2), (x - w / 2, y + r + 1),
                     (x - w / 2, y - r - 1 - h)]
        own = [(x - r, y - r, x + r, y + r) for x, y in points] if r else []
        for sx, sy in spots:
            box = (sx, sy, sx + w, sy + h)
            if box[0] >= 0 and box[1] >= 0 and box[2] <= image.width and box[3] <= image.height \
                    and not any(overlaps(box, t) for t in taken) \
                    and not any(overlaps(box, d) for d in dots if d not in own):
                taken.append(box)
                draw.text((sx, sy - 1), text, fill=colour)
                break


def _draw_seas(world: WorldMap, draw, image, size: float, at) -> list:
    """Sea-area borders (white, along hex edges); returns the labels naming each sea area and named
    water in view, at the middle of its hexes in view (a named water's name in its own colour)."""
    inside = lambda p: 0 <= p[0] <= image.width and 0 <= p[1] <= image.height
    groups: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for h in WORLD.all_hexes():
        code = world.sea_area_code(h)
        if code is None:
            continue
        for d in range(3):
            n = WORLD.neighbour(h, d)
            if n is not None and world.is_sea(n) and world.sea_area_code(n) != code:
                p, q = WORLD.side_endpoints(h, d, size, at(h))
                if inside(p) or inside(q):
                    draw.line([p, q], fill=SEA_BORDER_COLOUR, width=max(1, int(size / 6)))
        centre = WORLD.hex_to_pixel(h, size, at(h))
        if inside(centre):
            water = world.named_water_of(h)
            key = ("water", water.name) if water else ("area", f"{world.sea_areas[code].name} ({code})")
            groups.setdefault(key, []).append(centre)
    out = []
    for (kind, name), points in sorted(groups.items()):
        if len(points) < 3 and kind == "area":
            continue
        mx = sorted(p[0] for p in points)[len(points) // 2]
        my = sorted(p[1] for p in points)[len(points) // 2]
        spots = sorted(points, key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p))[:40]
        out.append((spots, 0, name, SEA_LABEL_COLOUR if kind == "area" else WATER_LABEL_COLOUR))
    return out


def render_all(map_dir: Path, out_dir: Path, progress=print) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    world = WorldMap(map_dir)
    jobs = [
        ("terrain_4px.png", 4.0, "terrain", None, False),
        ("political_4px.png", 4.0, "political", None, True),
        ("europe_terrain_12px.png", 12.0, "terrain", (-12, 45, 30, 72), True),
        ("europe_political_12px.png", 12.0, "political", (-12, 45, 30, 72), True),
        ("pacific_political_8px.png", 8.0, "political", (95, 200, -25, 45), True),
        ("baltic_ports_16px.png", 16.0, "terrain", (7, 34, 52.5, 66.5), True),
        ("mediterranean_ports_10px.png", 10.0, "terrain", (-7, 37, 30, 46.5), True),
        ("blacksea_azov_ports_16px.png", 16.0, "terrain", (26, 43, 40, 48.5), True),
        ("solomons_ports_16px.png", 16.0, "terrain", (145, 166, -13, -1), True),
    ]
    for name, size, mode, window, labels in jobs:
        image = render(world, size, mode, window, labels, seas="_ports_" in name)
        image.save(out_dir / name, optimize=True)
        progress(f"rendered {name} ({image.width}x{image.height})")


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[2]
    render_all(root / "maps" / "world", root / "maps" / "png")
