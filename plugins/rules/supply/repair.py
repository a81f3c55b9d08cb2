"""A kept supply search brought up to date for a new position, instead of searched again
(issues 11 and 15: after a unit's move or an impulse, most of a power's rail net is unchanged).

A search (``Tracer.search``) is a shortest-path tree: each hex's cost comes from its next hex
towards the seeds (``parents``).  When some hexes may no longer be entered, or seeds are gone,
only the hexes whose path ran through them lose their cost: they are costed again from their
neighbours that kept theirs, and the search goes on from there; hexes a path may now enter, and
new seeds, are expanded again.  The answer is the one a search from scratch gives (the same
costs, the same hexes), the tree differs only between paths of equal cost.
"""

from __future__ import annotations

from .map_facts import MAX_RANGE, _node


def _children(kept: dict) -> dict:
    """Each hex of a kept search -> the hexes whose path goes on through it: worked out once per
    kept search (it is repaired again and again, e.g. once a power for each position), and only
    when a path was cut."""
    children = kept.get("children")
    if children is None:
        children = {}
        for h, parent in kept["parents"].items():
            children.setdefault(parent, []).append(h)
        kept["children"] = children  # another thread may do the same at once: the same answer
    return children


def repaired(tracer, kept: dict, seeds, railway: bool, changed: set) -> tuple[dict, dict] | None:
    """(costs, parents) of ``tracer``'s search from ``seeds`` worked out from ``kept`` (a search
    of the same situation: its ``seeds``, ``land`` costs, ``parents`` and the ``enterable``
    answers of its position), or None when it cannot be (then search afresh).  ``changed``:
    the hexes whose control or blocking differs between the two positions."""
    old_land, old_parents, old_seeds, old_enterable = kept["land"], kept["parents"], kept["seeds"], kept["enterable"]
    enterable = tracer.enterable
    roots, again = [], []
    for h in changed:
        if h not in old_land:
            continue  # never asked: it changes nothing (reuse.py)
        was, now = old_enterable.get(h), enterable(h)
        if was is None:
            return None
        if was and not now:
            roots.append(h)
        elif now and not was:
            again.append(h)
    gone = [h for h in old_seeds if h not in seeds]
    lost = set(gone)
    stack = roots + gone
    children = _children(kept) if stack else {}
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in lost:
                lost.add(child)
                stack.append(child)
    land = {h: d for h, d in old_land.items() if h not in lost} if lost else dict(old_land)
    parents = {h: p for h, p in old_parents.items() if h not in lost} if lost else dict(old_parents)
    restart: dict = {}
    crossable = tracer.crossable
    for h in lost:
        best = parent = None
        for n, lake_side, free in _node(h)[1]:
            d = land.get(n)
            if d is None or not enterable(n) or (lake_side and not crossable(h, n, True)):
                continue
            nd = d if railway and free else d + _node(n)[0]
            if nd <= MAX_RANGE and (best is None or nd < best):
                best, parent = nd, n
        if best is not None:
            restart[h] = best
            parents[h] = parent
    for h in seeds:
        if h not in old_seeds or h in lost:
            restart[h] = 0
            parents.pop(h, None)
    return tracer.search(restart, railway, known=land, parents=parents, again=again), parents
