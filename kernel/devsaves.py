"""Saves played with hot reload (``wif play --dev``).

A reload records in the save's meta ``plugin_history`` each version of a plugin the game was
replayed under (its content hash before and after), and sets ``plugins`` to the new set.  When
the edit is later undone with the window closed, the plugins on disk differ from ``plugins``
but are a version the game was already played under: opening it then is no surprise to the
player, so the save opens normally, replayed under the code as it is, and the change is
recorded as a reload would record it.  Code the game never ran under still makes it refuse
(``--read-only`` looks at it)."""

from __future__ import annotations

import time

from .plugins import PluginInfo


def versions_played(history: list[dict]) -> dict[str, set[str]]:
    """plugin id -> the content hashes the game was played under, from ``plugin_history``."""
    out: dict[str, set[str]] = {}
    for entry in history:
        out.setdefault(entry["plugin"], set()).update(h for h in (entry.get("from"), entry.get("to")) if h)
    return out


def changes_played_before(recorded: dict[str, dict], available: dict[str, PluginInfo],
                          history: list[dict]) -> dict[str, tuple[str, str]]:
    """The plugins whose files changed since the save was written but are, byte for byte, a
    version the game was played under (same manifest version): id -> (recorded, current hash)."""
    played = versions_played(history)
    out = {}
    for plugin_id, rec in recorded.items():
        info = available.get(plugin_id)
        if (info is not None and info.manifest.version == rec.get("version")
                and info.content_hash != rec.get("hash") and info.content_hash in played.get(plugin_id, ())):
            out[plugin_id] = (rec.get("hash"), info.content_hash)
    return out


def record_reopened(game, changes: dict[str, tuple[str, str]]) -> None:
    """The save now follows the plugins it was opened with, as after a reload."""
    history = game.store.meta("plugin_history") or []
    for plugin_id, (old, new) in changes.items():
        history.append({"plugin": plugin_id, "at_seq": game.state.kernel.seq, "from": old, "to": new,
                        "time": time.time(), "reopened": True})
    game.store.set_meta("plugin_history", history)
    game.store.set_meta("plugins", game.plugin_set)
