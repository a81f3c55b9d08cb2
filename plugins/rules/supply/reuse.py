"""Supply searches kept and reused across positions (issues 11, 14, 15: the trace was done again
from scratch after every event).

A search reads the map (fixed), its seeds, the tracer's ``search_situation`` (the war, who is
friendly, which weather zones are frozen, who controls each country, what the overseas rules
read) and, hex by hex, whether a
path may enter a hex: that reads the hex's control and whether it is in an enemy ZOC with no
friendly land unit (``Tracer.blocked``).  A search only ever asks that of hexes it gives a cost to,
so a kept answer is still right for a new position with the same seeds and situation if no hex it
gave a cost to changed control or blocking; e.g. a move in the rear, a naval or air step, a
move or a combat away from the search's hexes.

One store per thread: a server (app/net/server.py) decides each of its games on the game's own
thread, so games never evict each other's answers; a thread with nothing kept for a situation
starts from the searches published by all threads (``_published``: e.g. a server's new games,
all at the same start).
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
    parents)`` adds the paths overseas to repaired land costs.  A thread with no search of the
    situation (a server's game at its first trace, or a power's first of a new turn) starts from
    the searches other threads published (``_published``)."""
    from .repair import repaired

    store = getattr(_kept, "store", None)
    if store is None:
        store = _kept.store = OrderedDict()
    full = (("search", railway), tracer.search_situation())
    versions = store.get(full)
    if versions is None:
        versions = store[full] = list(_published_versions(full))
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
    version = {"seeds": seeds, "hex_control": tracer.hex_control, "blocked": tracer.blocked,
               "enterable": tracer._enterable, "land": land, "overseas": overseas, "parents": parents}
    versions.insert(0, version)
    del versions[SEARCHES:]
    _publish(full, version)
    return land, overseas


# Searches shared between threads (a server's games): a kept search is a fact of its situation,
# seeds and the control and blocking of the hexes it read, not of a game, so another game in the
# same situation may start from it (reused as is, or repaired).  Versions are never changed once
# kept; only their ``enterable`` answers grow (by their own thread: a reader's ``get`` may miss
# a hex, then repair.py searches afresh).  A few kept: most games of a server are at their start.
_published: OrderedDict = OrderedDict()
_published_lock = threading.Lock()
PUBLISHED = 16  # situations (each with up to VERSIONS searches) kept for every thread


def _published_versions(full) -> list:
    with _published_lock:
        return list(_published.get(full, ()))


def _publish(full, version: dict) -> None:
    with _published_lock:
        versions = _published.get(full)
        if versions is None:
            versions = _published[full] = []
            if len(_published) > PUBLISHED:
                _published.popitem(last=False)
        _published.move_to_end(full)
        versions.insert(0, version)
        del versions[VERSIONS:]


def shared_enterable(tracer) -> dict:
    """A dict for ``tracer``'s may-a-path-enter answers, started from the last tracer's of the same
    situation less the hexes whose control or blocking changed (half of a fresh search's time is
    working those answers out).  The tracer fills it in; later tracers start from it."""
    table = getattr(_kept, "enterable", None)
    if table is None:
        table = _kept.enterable = OrderedDict()
    situation = tracer.search_situation()  # an answer reads a hex's frozen lakes, not its range
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
    with _published_lock:
        _published.clear()
