"""Map views and screen layouts: the models, and the player's own copies as files.

Seeds, "Map Views": a map view is 9 parameters of a detailed map (centre column and row,
zoom 1-8, rail lines, map labels, weather zones, units, unit resolution, weather, hex
control), kept in a list per major power that can be restored, saved, redefined, renamed,
deleted and reordered.  Seeds, "Screen Layouts": a layout is the position and size of every
window; defaults M1007, M1210, M1610, M1612, M1912 and the dual-monitor M2510, and a
"New Game" layout per scenario.

Defaults come from plugins (kinds "map-view" and "layout"); the player's lists live as JSON
in the user config folder (``WIF_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/wif``, else
``~/.config/wif``).  A file that cannot be read is reported, set aside as ``*.bad`` the
first time we write in its place, and the defaults are used: nothing is silently lost.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

WINDOW_KINDS = ("main", "layouts", "mapviews", "detailed", "global", "legend", "sequence", "units_in_hex",
                "selectable", "play", "setup_tray")


class MapView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    col: int = Field(ge=0, lt=360)
    row: int = Field(ge=0, lt=195)
    zoom: int = Field(ge=1, le=8)
    rail: bool = True
    labels: bool = True
    weather_zones: bool = False
    units: bool = True
    unit_resolution: Literal["high", "medium"] = "high"
    weather: bool = False
    control: bool = False

    def parameters(self) -> dict:
        """The 9 parameters of the seeds (everything but the name)."""
        return self.model_dump(exclude={"name"})


class WindowGeometry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    x: int
    y: int
    w: int = Field(ge=1)
    h: int = Field(ge=1)
    visible: bool = True
    rolled: bool = False  # seeds: any form can be rolled up to its title bar


class ScreenLayout(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    screen: tuple[int, int]
    windows: dict[str, WindowGeometry]
    scenario: str | None = None  # a "New Game" layout belongs to one scenario
    description: str = ""

    def window_kind(self, key: str) -> str:
        return key.split("-")[0]


# ---------------------------------------------------------------------- config folder
def config_dir() -> Path:
    if os.environ.get("WIF_CONFIG_DIR"):
        return Path(os.environ["WIF_CONFIG_DIR"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "wif"


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "unnamed"


def _read_json(path: Path, messages: list[str]):
    """The JSON in ``path``, or None (with a message) when it is missing or unreadable."""
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        messages.append(f"{path}: cannot read ({exc}); using the defaults")
        return None


def _write_json(path: Path, value, bad: set[Path]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path in bad and path.exists():
        # keep the player's unreadable file: they may want to mend it by hand
        path.replace(path.with_name(path.name + ".bad"))
        bad.discard(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(value, indent=2, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)


# ---------------------------------------------------------------------- map views
class MapViewStore:
    """The map-view list of each major power: plugin defaults, then the player's file."""

    def __init__(self, defaults: dict[str, list[MapView]], folder: Path | None = None,
                 messages: list[str] | None = None):
        self.defaults = defaults
        self.folder = (folder or config_dir()) / "mapviews"
        self.messages = messages if messages is not None else []
        self._bad: set[Path] = set()
        self._lists: dict[str, list[MapView]] = {}

    def path(self, power: str) -> Path:
        return self.folder / f"{_slug(power)}.json"

    def _load(self, power: str) -> list[MapView]:
        path = self.path(power)
        raw = _read_json(path, self.messages)
        if raw is None:
            if path.exists():
                self._bad.add(path)
            return [v.model_copy() for v in self.defaults.get(power, [])]
        views, problems = [], []
        items = raw.get("views") if isinstance(raw, dict) else None
        if not isinstance(items, list):
            self.messages.append(f"{path}: expected {{\"views\": [...]}}; using the defaults")
            self._bad.add(path)
            return [v.model_copy() for v in self.defaults.get(power, [])]
        for i, item in enumerate(items):
            try:
                views.append(MapView.model_validate(item))
            except ValidationError as exc:
                first = exc.errors()[0]
                problems.append(f"view {i + 1} ({item.get('name', '?') if isinstance(item, dict) else '?'}): "
                                f"{'.'.join(str(x) for x in first['loc'])}: {first['msg']}")
        if problems:
            self._bad.add(path)
            self.messages.append(f"{path}: {len(problems)} map view(s) skipped: {'; '.join(problems)}")
        return views

    def views(self, power: str) -> list[MapView]:
        if power not in self._lists:
            self._lists[power] = self._load(power)
        return self._lists[power]

    def names(self, power: str) -> list[str]:
        return [v.name for v in self.views(power)]

    def _find(self, power: str, name: str) -> int:
        for i, v in enumerate(self.views(power)):
            if v.name == name:
                return i
        raise KeyError(f"no map view named {name!r} for {power}")

    def _save(self, power: str) -> None:
        _write_json(self.path(power), {"views": [v.model_dump() for v in self.views(power)]}, self._bad)

    def get(self, power: str, name: str) -> MapView:
        return self.views(power)[self._find(power, name)]

    def restore(self, power: str, name: str) -> MapView:
        """Seeds: Restore reads the view's parameters from disk."""
        self._lists.pop(power, None)
        return self.get(power, name)

    def save(self, power: str, view: MapView) -> None:
        """Seeds: Save writes a new map view (a name the list does not have yet)."""
        if view.name in self.names(power):
            raise ValueError(f"{power} already has a map view named {view.name!r}; use redefine")
        self.views(power).append(view)
        self._save(power)

    def redefine(self, power: str, name: str, view: MapView) -> None:
        self.views(power)[self._find(power, name)] = view.model_copy(update={"name": name})
        self._save(power)

    def rename(self, power: str, name: str, new_name: str) -> None:
        if new_name in self.names(power):
            raise ValueError(f"{power} already has a map view named {new_name!r}")
        i = self._find(power, name)
        self.views(power)[i] = self.views(power)[i].model_copy(update={"name": new_name})
        self._save(power)

    def delete(self, power: str, name: str) -> None:
        del self.views(power)[self._find(power, name)]
        self._save(power)

    def move(self, power: str, name: str, where: int | str) -> None:
        """Up/Down move one place (``where`` -1 / +1); Ctrl+Up/Down to the top / bottom."""
        views = self.views(power)
        i = self._find(power, name)
        view = views.pop(i)
        if where == "top":
            j = 0
        elif where == "bottom":
            j = len(views)
        else:
            j = max(0, min(len(views), i + int(where)))
        views.insert(j, view)
        self._save(power)


# ---------------------------------------------------------------------- screen layouts
class LayoutStore:
    """Screen layouts: plugin defaults and the player's files, one file per layout plus the
    list's order and which layout is current."""

    def __init__(self, defaults: dict[str, ScreenLayout], folder: Path | None = None,
                 messages: list[str] | None = None):
        self.defaults = defaults
        self.folder = (folder or config_dir()) / "layouts"
        self.messages = messages if messages is not None else []
        self._bad: set[Path] = set()
        self._order: list[str] | None = None
        self.current: str | None = None

    def _list_path(self) -> Path:
        return self.folder / "_list.json"

    def path(self, name: str) -> Path:
        return self.folder / f"{_slug(name)}.json"

    def names(self) -> list[str]:
        if self._order is None:
            raw = _read_json(self._list_path(), self.messages)
            order = list(self.defaults)
            if isinstance(raw, dict) and isinstance(raw.get("order"), list):
                order = [n for n in raw["order"] if isinstance(n, str)]
                if isinstance(raw.get("current"), str):
                    self.current = raw["current"]
            elif raw is not None or self._list_path().exists():
                self._bad.add(self._list_path())
            self._order = order
        return self._order

    def _save_list(self) -> None:
        _write_json(self._list_path(), {"order": self.names(), "current": self.current}, self._bad)

    def get(self, name: str) -> ScreenLayout:
        """The player's file for ``name`` if there is one, else the plugin default."""
        path = self.path(name)
        raw = _read_json(path, self.messages)
        if raw is not None:
            try:
                return ScreenLayout.model_validate(raw)
            except ValidationError as exc:
                first = exc.errors()[0]
                self.messages.append(f"{path}: not a screen layout ({'.'.join(str(x) for x in first['loc'])}: "
                                     f"{first['msg']}); using the default")
        if path.exists():
            self._bad.add(path)
        if name in self.defaults:
            return self.defaults[name].model_copy(deep=True)
        raise KeyError(f"no screen layout named {name!r}")

    def save(self, layout: ScreenLayout) -> None:
        """Save (or redefine) a layout under its name and put it in the list."""
        _write_json(self.path(layout.name), layout.model_dump(mode="json"), self._bad)
        if layout.name not in self.names():
            self.names().append(layout.name)
        self._save_list()

    def fetch(self, path: str | Path) -> ScreenLayout:
        """Seeds, "Screen Layouts": fetch a layout from disk (a file not in the list, e.g. a
        friend's) and add it to the list.  A name already in the list with other contents
        gets " (2)", " (3)" ... so the player's own layout is not overwritten.  Raises
        ValueError naming the file when it is not a screen layout; nothing changes then."""
        path = Path(path)
        notes: list[str] = []
        raw = _read_json(path, notes)
        if raw is None:
            raise ValueError(notes[0].replace("; using the defaults", "") if notes else f"{path}: no such file")
        try:
            layout = ScreenLayout.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise ValueError(f"{path}: not a screen layout ({'.'.join(str(x) for x in first['loc'])}: "
                             f"{first['msg']})") from None
        name, n = layout.name, 1
        while name in self.names() and self.get(name).model_dump() != layout.model_copy(update={"name": name}).model_dump():
            n += 1
            name = f"{layout.name} ({n})"
        layout = layout.model_copy(update={"name": name})
        self.save(layout)
        return layout

    def rename(self, name: str, new_name: str) -> None:
        layout = self.get(name).model_copy(update={"name": new_name})
        self.save(layout)
        order = self.names()
        order.remove(new_name)
        order[order.index(name)] = new_name
        if self.current == name:
            self.current = new_name
        self._save_list()

    def delete(self, name: str) -> None:
        """Seeds: delete removes the name from the list; the file stays on disk."""
        self.names().remove(name)
        self._save_list()

    def move(self, name: str, where: int | str) -> None:
        order = self.names()
        i = order.index(name)
        order.pop(i)
        j = 0 if where == "top" else len(order) if where == "bottom" else max(0, min(len(order), i + int(where)))
        order.insert(j, name)
        self._save_list()

    def set_current(self, name: str) -> None:
        self.current = name
        self._save_list()


def fit_layout(layout: ScreenLayout, screen: tuple[int, int]) -> tuple[ScreenLayout, str | None]:
    """A layout that fits ``screen``: windows reaching past it are scaled and moved inside.
    Returns the layout to use and a message for the player when anything changed."""
    sw, sh = screen
    need_w = max((g.x + g.w for g in layout.windows.values()), default=0)
    need_h = max((g.y + g.h for g in layout.windows.values()), default=0)
    if need_w <= sw and need_h <= sh:
        return layout, None
    fx, fy = min(1.0, sw / max(1, need_w)), min(1.0, sh / max(1, need_h))
    windows = {}
    for key, g in layout.windows.items():
        w, h = max(60, int(g.w * fx)), max(40, int(g.h * fy))
        w, h = min(w, sw), min(h, sh)
        x, y = min(int(g.x * fx), sw - w), min(int(g.y * fy), sh - h)
        windows[key] = g.model_copy(update={"x": max(0, x), "y": max(0, y), "w": w, "h": h})
    fitted = layout.model_copy(update={"windows": windows, "screen": (sw, sh)})
    return fitted, (f"screen layout {layout.name} needs {need_w}x{need_h} but the screen is {sw}x{sh}: "
                    f"windows scaled to fit (the saved layout is unchanged)")
