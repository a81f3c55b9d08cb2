"""The plugins a save recorded against the plugins installed now: what differs, in words
(a game opens only with the same set, unless read-only; ``wif verify`` reports the same)."""

from __future__ import annotations

from .builtin import KERNEL_VERSION
from .plugin_discovery import KERNEL_PLUGIN_ID, PluginInfo, kernel_hash


def compare_plugin_sets(recorded: dict[str, dict], available: dict[str, PluginInfo]) -> list[str]:
    problems = []
    for plugin_id, rec in recorded.items():
        if plugin_id == KERNEL_PLUGIN_ID:
            if rec.get("version") != KERNEL_VERSION:
                problems.append(f"kernel version {rec.get('version')} recorded, this build is {KERNEL_VERSION}")
            elif rec.get("hash") != kernel_hash():
                problems.append("the kernel's built-in rules changed since this game was recorded")
            continue
        info = available.get(plugin_id)
        if info is None:
            problems.append(f"plugin {plugin_id!r} (version {rec.get('version')}) is missing")
        elif info.manifest.version != rec.get("version"):
            problems.append(f"plugin {plugin_id!r} is version {info.manifest.version}, the game used {rec.get('version')}")
        elif info.content_hash != rec.get("hash"):
            problems.append(f"plugin {plugin_id!r} {info.manifest.version} has changed (content hash {info.content_hash}, the game used {rec.get('hash')})")
    return problems
