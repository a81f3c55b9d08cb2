"""The check of every port's sea areas against a geographer's list (maps/src/port_sea_areas_atlas.txt).

Run:  .venv/bin/python tools/mapbuild/port_atlas.py [--map-dir maps/world]
Prints one line per port whose sea areas (the areas its hex touches, ``WorldMap.port_areas``)
disagree with the list, and exits 1 if any does: a required area it does not open on, an area it
opens on that the list neither requires nor tolerates, a port the list does not know or a listed
port missing from the map. Reads only the committed map (kernel.worldmap), so tests run it too.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from kernel.worldmap import DEFAULT_MAP_DIR, WorldMap  # noqa: E402

ATLAS = Path(__file__).resolve().parents[2] / "maps" / "src" / "port_sea_areas_atlas.txt"


def read_atlas(path: Path = ATLAS) -> dict[str, tuple[set[str], set[str]]]:
    """{port: (required sea areas, tolerated sea areas)}; a malformed line stops with file and line."""
    atlas: dict[str, tuple[set[str], set[str]]] = {}
    area = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            code = line[1:3]
            if line[3:4] != "]" or not code.isalpha() or not code.isupper():
                raise SystemExit(f"{path.name} line {number}: expected '[CODE] Name', got {raw!r}")
            area = code
            continue
        if area is None:
            raise SystemExit(f"{path.name} line {number}: a port before any '[CODE]' line")
        name, tolerated = (line[:-1].strip(), True) if line.endswith("?") else (line, False)
        required, allowed = atlas.setdefault(name, (set(), set()))
        (allowed if tolerated else required).add(area)
    return atlas


def disagreements(world: WorldMap, atlas: dict[str, tuple[set[str], set[str]]]) -> list[str]:
    """One line per port whose sea areas on the map are not the atlas's, sorted by port name."""
    out = []
    on_map = {p.name: p for p in world.ports}
    for name in sorted(set(on_map) | set(atlas)):
        if name not in atlas:
            out.append(f"{name}: on the map ({' '.join(world.port_areas(on_map[name]))}) but not in the atlas list")
            continue
        if name not in on_map:
            out.append(f"{name}: in the atlas list but not a port on the map")
            continue
        required, tolerated = atlas[name]
        actual = set(world.port_areas(on_map[name]))
        missing, extra = sorted(required - actual), sorted(actual - required - tolerated)
        if missing or extra:
            said = [f"does not open on {' '.join(missing)}"] if missing else []
            said += [f"opens on {' '.join(extra)}, which the atlas does not give it"] if extra else []
            out.append(f"{name}: {'; '.join(said)} (map: {' '.join(sorted(actual)) or 'none'}; "
                       f"atlas: {' '.join(sorted(required))})")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map-dir", default=str(DEFAULT_MAP_DIR))
    parser.add_argument("--atlas", default=str(ATLAS))
    args = parser.parse_args(argv)
    found = disagreements(WorldMap(args.map_dir), read_atlas(Path(args.atlas)))
    print("\n".join(found) if found else "every port opens on the sea areas the atlas list gives it")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
