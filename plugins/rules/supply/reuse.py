"""Supply searches kept and reused across positions (issues 11, 14, 15: the trace was done again
from scratch after every event).

A search reads the map (fixed), its seeds, the tracer's ``situation`` (the war, who is friendly,
the weather, who controls each country, what the overseas rules read) and, hex by hex, whether a
path may enter a hex: that reads the hex's control and whether it is in an enemy ZOC with no
friendly land unit (``Tracer.blocked``).  A search only ever asks that of hexes it gives a cost to,
so a kept answer is still right for a new position with the same seeds and situation if no hex it
gave a cost to changed control or blocking; e.g. a move in the rear, a naval or air step, a
move or a combat away from the search's hexes.

One store per thread: a server (app/net/server.py) decides each of its games on the game's own
thread, so games never evict, or worse read, each other's answers.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

_kept = threading.local()
# Bounds on memory (a kept search is a few hundred kB: costs, overseas costs, parents; a server
# keeps one store per game thread): a position's traces use about 10 keys
KEPT = 24  # keys: (kind, seeds) or (search kind, situation), the least recently used dropped first
VERSIONS = 3  # positions kept per key (e.g. before and after a unit's move)
SEARCHES = 6  # searches kept per situation and kind (a trace makes 2-5 from different seeds)


def changed_hexes(tracer, hex_control: dict, blocked: set) -> set:
    """The hexes whose control or blocking differs between ``tracer`` and a kept position."""
    if tracer.hex_control == hex_control and tracer.blocked == blocked:
        return set()
    out = tracer.blocked ^ blocked
    now = tracer.hex_control
    for h in now.keys() | hex_control.keys():
        if now.get(h) != hex_control.get(h):
            out.add(h)
    return out


def reused(tracer, key: tuple, compute):
    """The answer kept under ``key`` and ``tracer.situation()`` for a position that differs from
    the tracer's in no hex the answer read, or ``compute()``'s, kept.  ``compute`` returns
    (answer, the hexes it read); the answer must not be changed by the caller."""
    store = getattr(_kept, "store", None)
    if store is None:
        store = _kept.store = OrderedDict()
    full = (key, tracer.situation())
    versions = store.get(full)
    if versions is not None:
        store.move_to_end(full)
        for version in versions:
            hex_control, blocked, answer, read = version
            changed = changed_hexes(tracer, hex_control, blocked)
            if not any(h in read for h in changed):
                return answer
    else:
        versions = store[full] = []
        if len(store) > KEPT:
            store.popitem(last=False)
    answer, read = compute()
    versions.insert(0, (tracer.hex_control, tracer.blocked, answer, read))
    del versions[VERSIONS:]
    return answer


def reused_search(tracer, seeds: frozenset, railway: bool, compute) -> tuple[dict, dict]:
    """``Tracer.reach_both``'s answers: kept ones if the seeds are the same and nothing they read
    changed, else the latest kept search of the situation brought up to date (repair.py), else
    ``compute(seeds, railway)`` -> (land, overseas, parents).  ``compute(seeds, railway, land,
    parents)`` adds the paths overseas to repaired land costs."""
    from .repair import repaired

    store = getattr(_kept, "store", None)
    if store is None:
        store = _kept.store = OrderedDict()
    full = (("search", railway), tracer.situation())
    versions = store.get(full)
    if versions is None:
        versions = store[full] = []
        if len(store) > KEPT:
            store.popitem(last=False)
    store.move_to_end(full)
    base = None
    for version in versions:
        changed = changed_hexes(tracer, version["hex_control"], version["blocked"])
        if version["seeds"] == seeds:
            if not any(h in version["overseas"] for h in changed):
                return version["land"], version["overseas"]
            base = (version, changed)
            break
        if base is None:
            base = (version, changed)
    fixed = repaired(tracer, base[0], seeds, railway, base[1]) if base is not None else None
    if fixed is None:
        land, overseas, parents = compute(seeds, railway)
    else:
        land, overseas, parents = compute(seeds, railway, *fixed)
    versions.insert(0, {"seeds": seeds, "hex_control": tracer.hex_control, "blocked": tracer.blocked,
                        "enterable": tracer._enterable, "land": land, "overseas": overseas, "parents": parents})
    del versions[SEARCHES:]
    return land, overseas


def shared_enterable(tracer) -> dict:
    """A dict for ``tracer``'s may-a-path-enter answers, started from the last tracer's of the same
    situation less the hexes whose control or blocking changed (half of a fresh search's time is
    working those answers out).  The tracer fills it in; later tracers start from it."""
    table = getattr(_kept, "enterable", None)
    if table is None:
        table = _kept.enterable = OrderedDict()
    situation = tracer.situation()
    last = table.get(situation)
    if last is None:
        answers = {}
    else:
        hex_control, blocked, known = last
        answers = dict(known)
        for h in changed_hexes(tracer, hex_control, blocked):
            answers.pop(h, None)
    table[situation] = (tracer.hex_control, tracer.blocked, answers)
    table.move_to_end(situation)
    if len(table) > 8:
        table.popitem(last=False)
    return answers


def forget() -> None:
    _kept.store = None
    _kept.enterable = None
