"""Finding plugins and checking their manifests (before any of a plugin's code runs).

A plugin is a Python package with a ``plugin.toml`` manifest beside its ``__init__.py``.
They are found in the built-in ``plugins/`` tree, in folders named by ``WIF_PLUGINS_PATH``
(or passed explicitly), and through the ``wif.plugins`` entry-point group (a mod installed
with pip).  ``resolve`` orders the ones a game wants, dependencies first; the per-game
``PluginHost`` (kernel/plugins.py) imports and registers them.
"""

from __future__ import annotations

import hashlib
import stat
import importlib
import importlib.util
import os
import sys
import threading
import tomllib
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import PluginError

BUILTIN_ROOT = Path(__file__).resolve().parent.parent / "plugins"
KERNEL_PLUGIN_ID = "kernel"
ENTRY_POINT_GROUP = "wif.plugins"

Kind = Literal["rules", "optional-rule", "expansion", "scenario", "layout", "map-view", "ui"]


class Manifest(BaseModel):
    """What a plugin declares about itself before any of its code runs."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str = ""
    version: str
    kind: Kind
    description: str = ""
    requires: list[str] = Field(default_factory=list)
    conflicts: list[str] = Field(default_factory=list)
    affects_state: bool = True


@dataclass
class PluginInfo:
    manifest: Manifest
    module_name: str
    folder: Path
    origin: str  # "builtin", "folder", "entry-point", "kernel"
    _hash: str | None = field(default=None, repr=False)

    @property
    def id(self) -> str:
        return self.manifest.id

    @property
    def content_hash(self) -> str:
        if self._hash is None:
            self._hash = content_hash(self.folder) if self.origin != "kernel" else kernel_hash()
        return self._hash

    def refresh_hash(self) -> str:
        self._hash = None
        return self.content_hash

    def record(self) -> dict[str, str]:
        return {"version": self.manifest.version, "hash": self.content_hash, "kind": self.manifest.kind}


# An editor's swap, backup and lock files come and go while a plugin is edited (``wif play
# --dev``); hashing them would make a save refuse to open once the editor closed.
EDITOR_LEFTOVERS = {".swp", ".swo", ".swx", ".tmp", ".bak", ".orig"}


def _editor_leftover(path: Path) -> bool:
    name = path.name
    return (name.startswith((".", "#")) or name.endswith("~") or path.suffix in EDITOR_LEFTOVERS)


# A folder's hash by its files' names, sizes and modification times: every game opened in a
# process (a `wif submit`, a server's games) hashes every plugin, and reading them all again
# cost a third of a second an open; an edited file has a new time, so its folder is read again.
_hashed: dict[Path, tuple[tuple, str]] = {}


def content_hash(folder: Path) -> str:
    """sha256 over the plugin folder's files (names and bytes), caches, hidden files and
    editors' leftovers excluded."""
    files = []
    for path in sorted(folder.rglob("*")):
        if "__pycache__" in path.parts or path.suffix in {".pyc", ".pyo"} or _editor_leftover(path):
            continue
        try:
            st = path.stat()
        except FileNotFoundError:  # gone while listed (an editor's save)
            continue
        if stat.S_ISREG(st.st_mode):
            files.append((path, st.st_size, st.st_mtime_ns))
    seen = tuple((path.relative_to(folder).as_posix(), size, mtime) for path, size, mtime in files)
    kept = _hashed.get(folder)
    if kept is not None and kept[0] == seen:
        return kept[1]
    h = hashlib.sha256()
    for path, _, _ in files:
        rel = path.relative_to(folder).as_posix()
        h.update(rel.encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    digest = h.hexdigest()[:16]
    _hashed[folder] = (seen, digest)
    return digest


def kernel_hash() -> str:
    """The kernel's own built-in events and reducers are part of every game's rules."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for name in ("builtin.py", "engine.py", "lab.py", "state.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:16]


_manifests: dict[Path, tuple[tuple[int, int], Manifest]] = {}


def load_manifest(path: Path) -> Manifest:
    """The manifest at ``path`` (read again once the file's size or time changes: every game
    opened in a process discovers every plugin)."""
    try:
        st = path.stat()
        kept = _manifests.get(path)
        if kept is not None and kept[0] == (st.st_size, st.st_mtime_ns):
            return kept[1].model_copy(deep=True)
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        manifest = Manifest.model_validate(raw)
    except (tomllib.TOMLDecodeError, ValidationError, OSError) as exc:
        raise PluginError(f"{path}: bad plugin manifest: {exc}") from exc
    _manifests[path] = ((st.st_size, st.st_mtime_ns), manifest.model_copy(deep=True))
    return manifest


# ---------------------------------------------------------------- discovery
def _called_from_test() -> bool:
    return getattr(sys, "_called_from_test", False) and not os.environ.get("WIF_ENTRY_POINTS")


def extra_plugin_dirs() -> list[Path]:
    value = os.environ.get("WIF_PLUGINS_PATH", "")
    return [Path(p) for p in value.split(os.pathsep) if p]


@dataclass
class Discovery:
    plugins: dict[str, PluginInfo]
    errors: list[str]


def discover(extra_dirs: list[Path] | None = None) -> Discovery:
    """Find every plugin available now.  Broken manifests are reported, not fatal."""
    found: dict[str, PluginInfo] = {}
    errors: list[str] = []

    def add(info: PluginInfo) -> None:
        if info.id in found:
            errors.append(
                f"plugin id {info.id!r} found twice: {found[info.id].folder} and {info.folder}; keeping the first"
            )
            return
        found[info.id] = info

    for manifest_path in sorted(BUILTIN_ROOT.rglob("plugin.toml")):
        folder = manifest_path.parent
        if "__pycache__" in folder.parts:
            continue
        rel = folder.relative_to(BUILTIN_ROOT.parent)
        try:
            add(PluginInfo(load_manifest(manifest_path), ".".join(rel.parts), folder, "builtin"))
        except PluginError as exc:
            errors.append(str(exc))

    for base in list(extra_dirs or []) + extra_plugin_dirs():
        base = Path(base)
        for manifest_path in sorted(base.glob("*/plugin.toml")):
            try:
                manifest = load_manifest(manifest_path)
            except PluginError as exc:
                errors.append(str(exc))
                continue
            module_name = "wif_plugin_" + manifest.id.replace("-", "_")
            add(PluginInfo(manifest, module_name, manifest_path.parent, "folder"))

    if not _called_from_test():
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
            try:
                spec = importlib.util.find_spec(ep.value)
                if spec is None or not spec.submodule_search_locations:
                    raise PluginError(f"entry point {ep.name} -> {ep.value}: not a package")
                folder = Path(list(spec.submodule_search_locations)[0])
                add(PluginInfo(load_manifest(folder / "plugin.toml"), ep.value, folder, "entry-point"))
            except (PluginError, ImportError, ValueError) as exc:
                errors.append(f"entry point {ep.name}: {exc}")

    allow = os.environ.get("WIF_LOAD_PLUGINS")
    if allow is not None:
        wanted = {p.strip() for p in allow.split(",") if p.strip()}
        found = {k: v for k, v in found.items() if k in wanted}
    return Discovery(found, errors)


_IMPORTING = threading.RLock()  # a plugin module is in sys.modules before it has run: one import at a time


def import_plugin(info: PluginInfo):
    """Import a plugin's module (fresh if it is not loaded yet).  Threads wait for each other: a
    server sets up several games at once, and another thread would see a half-run module (no
    HOOKSPECS yet)."""
    with _IMPORTING:
        return _import_plugin(info)


def _import_plugin(info: PluginInfo):
    loaded = sys.modules.get(info.module_name)
    if loaded is not None:
        where = getattr(loaded, "__file__", None)
        # Two folders may hold plugins of the same id (tests, a mod being developed):
        # reuse the loaded module only if it came from this plugin's folder.
        if where is None or Path(where).resolve().parent == info.folder.resolve():
            return loaded
        del sys.modules[info.module_name]
    if info.origin == "folder":
        init = info.folder / "__init__.py"
        spec = importlib.util.spec_from_file_location(
            info.module_name, init, submodule_search_locations=[str(info.folder)]
        )
        if spec is None or spec.loader is None:
            raise PluginError(f"plugin {info.id!r}: cannot import {init}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[info.module_name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(info.module_name, None)
            raise
        return module
    return importlib.import_module(info.module_name)


def resolve(wanted: list[str], available: dict[str, PluginInfo]) -> list[PluginInfo]:
    """The plugins ``wanted`` need, dependencies first; refuses missing or conflicting ones."""
    order: list[PluginInfo] = []
    seen: set[str] = set()

    def visit(plugin_id: str, needed_by: str | None, trail: tuple[str, ...]) -> None:
        if plugin_id in seen:
            return
        if plugin_id in trail:
            raise PluginError(f"plugins require each other in a circle: {' -> '.join(trail + (plugin_id,))}")
        info = available.get(plugin_id)
        if info is None:
            who = f" (required by {needed_by!r})" if needed_by else ""
            raise PluginError(f"plugin {plugin_id!r} is not installed{who}")
        for dep in info.manifest.requires:
            visit(dep, plugin_id, trail + (plugin_id,))
        seen.add(plugin_id)
        order.append(info)

    for plugin_id in wanted:
        visit(plugin_id, None, ())
    ids = {p.id for p in order}
    for info in order:
        clash = ids & set(info.manifest.conflicts)
        if clash:
            raise PluginError(f"plugin {info.id!r} conflicts with {', '.join(sorted(clash))}")
    return order
