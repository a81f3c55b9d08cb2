"""The greedy bot's objectives: which it wants to take, which its side holds and must keep
where the enemy threatens them, and which it lost and wants back (Guadalcanal's "Victory":
each side scores 5 for an objective it holds that the enemy held at the start, so a lost
objective costs its 5 and a captured one is worth keeping).

All of it is read the way a player reads the map: the objectives hook (``objective_hexes``:
what a power's side does not hold), asked for each side, so a side's held objectives are the
ones the enemy wants; the Victory form's hook (``victory_standing``: the rows each side scores,
an enemy's row with a hex is one of ours it took); the counters on the map (the ``units``
section the map draws, as app/mapmodel.py reads it) and the sea boxes (``sea_boxes``).
Nothing here is a rule: it scores what ``Game.choices`` offers, through previews.
"""

from __future__ import annotations

from functools import cache

from .bot_sea import coastal_areas
from .uihooks import ask_game

THREAT_RANGE = 4  # enemy land units this many hexes from a held objective threaten it
DEFEND = 2.0  # a land unit moving onto a threatened objective of its side that needs a garrison
GARRISON = 2  # ... which it needs while fewer than this many of the side's land units hold it
LEAVE = -3.0  # a land unit leaving a threatened objective it garrisons (with too few left)
LEAVE_QUIET = -1.5  # ... or the last unit leaving one the enemy does not threaten yet
RETAKE = 1.0  # progress towards an objective the enemy took from us counts this much more
ON_TARGET = 1.0  # an attack on a hex the side wants (an objective to take or take back)


@cache
def _grid():
    from kernel.worldmap import WorldMap

    return WorldMap().grid


def _hexes(found) -> set[tuple[int, int]]:
    return {tuple(h) for hexes in found or [] if hexes for h in hexes}


class LandSense:
    """What the greedy bot of one power knows about the objectives at one moment."""

    def __init__(self, game, power: str, wanted: list[tuple[int, int]]):
        state = game.state
        k = state.kernel
        self.side = side = k.side_of(power) or power
        self.wanted = set(wanted)
        self.unit_hex: dict[str, tuple[int, int]] = {}
        self.garrison: dict[tuple[int, int], int] = {}
        self.enemy_combat: dict[tuple[int, int], float] = {}  # hex -> the enemy land units' combat factors
        self.combat: dict[str, float] = {}  # our land unit (on the map or aboard a ship) -> its combat factor
        ours: dict[tuple[int, int], list[str]] = {}
        section = state.sections.get("units")
        for u in section.units.values() if section is not None else ():
            if u.where == "aboard" and u.branch == "land" and (k.side_of(u.power) or u.power) == side:
                self.combat[u.id] = float(u.factors.get("combat", 0) or 0)  # an invader: its strength counts
            if u.where != "map" or u.hex is None:
                continue
            h = tuple(u.hex)
            self.unit_hex[u.id] = h
            if u.branch != "land":
                continue
            if (k.side_of(u.power) or u.power) == side:
                self.garrison[h] = self.garrison.get(h, 0) + 1
                self.combat[u.id] = float(u.factors.get("combat", 0) or 0)
                ours.setdefault(h, []).append(u.id)
            else:
                self.enemy_combat[h] = self.enemy_combat.get(h, 0) + float(u.factors.get("combat", 0) or 0)
        enemy_power = next((p for s, powers in k.sides.items() if s != side for p in powers), None)
        enemy_wants = _hexes(game.host.pm.hook.objective_hexes(state=state, power=enemy_power)) if enemy_power else set()
        self.held = enemy_wants - self.wanted  # what our side holds (neutral hexes both want)
        standing = ask_game(game, "victory_standing", state=state) or {}
        self.lost = {tuple(r["hex"]) for r in standing.get("rows", []) if r.get("hex")
                     and r.get("controller") not in (side, None) and tuple(r["hex"]) in self.wanted}
        enemy_areas = {box["area"] for box in ask_game(game, "sea_boxes", state=state) or []
                       if any(u["side"] != side and u["kind"] != "convoy" for u in box["units"])}
        grid = _grid()
        self.threatened = {h for h in self.held
                           if any(grid.distance(h, e) <= THREAT_RANGE for e in self.enemy_combat)
                           or coastal_areas(h) & enemy_areas}
        self.needy = {h for h in self.threatened if self.garrison.get(h, 0) < GARRISON}
        # the last land unit on an objective the side holds: it stays (an empty objective is
        # the enemy's for the walking in, or the landing)
        self.last_guards = {ids[0] for h, ids in ours.items() if h in self.held and len(ids) == 1}
        self._nearest: dict[tuple, int] = {}  # (hex, which targets) -> hexes to the nearest

    def needs_garrison(self, hex_) -> bool:
        return tuple(hex_) in self.needy

    def _progress(self, start, end, which: str) -> float:
        """How much nearer ``end`` is than ``start`` to the nearest of the ``which`` targets."""
        targets = getattr(self, which)
        if not targets:
            return 0.0
        near = []
        for h in (start, end):
            d = self._nearest.get((h, which))
            if d is None:
                grid = _grid()
                d = self._nearest[h, which] = min(grid.distance(h, t) for t in targets)
            near.append(d)
        return float(near[0] - near[1])

    def move_score(self, unit: str, end) -> float:
        """A land move of ``unit`` to ``end``: progress towards what the side wants (lost
        objectives first), onto a threatened objective that needs defenders, never off the
        last defenders of one."""
        start = self.unit_hex.get(unit)
        if start is None:
            return 0.0
        end = tuple(end)
        score = self._progress(start, end, "wanted") + RETAKE * self._progress(start, end, "lost")
        if start != end and start in self.threatened and self.garrison.get(start, 0) <= GARRISON:
            score += LEAVE
        elif start != end and unit in self.last_guards:
            score += LEAVE_QUIET
        if end != start and self.needs_garrison(end):
            score += DEFEND
        elif not self.needs_garrison(start):
            score += 0.5 * self._progress(start, end, "needy")
        return score

    def attack_bonus(self, hex_) -> float:
        return ON_TARGET if hex_ is not None and tuple(hex_) in self.wanted else 0.0

    def defended(self) -> frozenset[tuple[int, int]]:
        """The held objectives the enemy threatens (the sea's task forces go beside them too)."""
        return frozenset(self.threatened)

