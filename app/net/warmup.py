"""A server's warm-up (issue #15): the per-process tables the rules fill on first use (the
world map, supply's facts of every land hex, the plugins' imports) are filled as `wif serve`
starts, before its first game, so that 50 games making their first action choice in the same
seconds do not each pay for them on the one core (docs/BENCHMARKS.md, "Network (#15)").

The server never imports a plugin: it builds each installed scenario's plugin host (as a game
would) and asks the optional hook ``warm_tables`` specified here; a plugin answers with what it
filled (plain data), or not at all.
"""

from __future__ import annotations

import sys
import time

import pluggy

from kernel.plugin_discovery import discover, resolve
from kernel.plugins import PluginHost

hookspec = pluggy.HookspecMarker("wif")


@hookspec
def warm_tables():
    """Fill this plugin's per-process tables now (the server is starting); a dict of what was
    filled ({table: count}) or None."""


def _with_specs(pm: pluggy.PluginManager) -> pluggy.PluginManager:
    hook = getattr(pm.hook, "warm_tables", None)
    if hook is None or hook.spec is None:
        pm.add_hookspecs(sys.modules[__name__])
    return pm


def warm_up(plugin_dirs=None) -> dict:
    """Build each installed scenario's plugin host and ask its plugins to fill their tables:
    ``{"seconds": wall time, "scenarios": [ids], "filled": {table: count}}``."""
    started = time.perf_counter()
    found = discover(plugin_dirs).plugins
    scenarios = sorted(pid for pid, info in found.items() if info.manifest.kind == "scenario")
    filled: dict = {}
    for scenario in scenarios:
        host = PluginHost(resolve([scenario], found))
        for answer in _with_specs(host.pm).hook.warm_tables():
            for table, count in (answer or {}).items():
                filled.setdefault(table, count)  # tables are per process: the first fill is all
    return {"seconds": round(time.perf_counter() - started, 2), "scenarios": scenarios, "filled": filled}
