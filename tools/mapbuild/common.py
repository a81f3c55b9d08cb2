"""What every step of the map build shares: the paths, progress messages and the readers of maps/src/*."""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from kernel.hexgrid import WORLD  # noqa: E402
from kernel.worldmap import TERRAIN_CODES  # noqa: E402

SRC = REPO / "maps" / "src"
OUT = REPO / "maps" / "world"
PNG_DIR = REPO / "maps" / "png"
COLS, ROWS = WORLD.cols, WORLD.rows
TERRAIN_NAME_TO_CODE = {name: code for code, name in TERRAIN_CODES.items()}

T0 = time.time()


def progress(message: str) -> None:
    print(f"[{time.time() - T0:6.1f}s] {message}", flush=True)


def site_file(*parts: str) -> Path:
    for entry in sys.path:
        candidate = Path(entry, *parts)
        if candidate.exists():
            return candidate
    raise SystemExit(f"build input not found: {'/'.join(parts)} (install the mapbuild extra)")


def read_csv(name: str) -> list[dict]:
    with open(SRC / name, encoding="utf-8") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    return list(csv.DictReader(lines))


def read_blocks(name: str) -> list[tuple[str, list[tuple[float, float]]]]:
    """Blocks of '[header]' + one line of 'lon,lat' points."""
    blocks = []
    header = None
    for line in (SRC / name).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            header = line.strip()
        else:
            points = [tuple(float(v) for v in p.split(",")) for p in line.split()]
            blocks.append((header, points))
    return blocks
