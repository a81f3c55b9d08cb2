"""Which parts of the map a batch of events changed, so only those are redrawn.

The detailed map bakes its static layers (terrain ... weather, hex control) into chunk
surfaces and draws units on top every frame.  After events are applied, the chunks that
show a changed hex are dropped and nothing else:

- hex control (core ``HexControlChanged``: its hex; ``CountryControlSet``: the country's
  hexes) dirties the chunks baked with the hex-control layer on;
- weather (core ``WeatherSet``: the hexes of its zones) dirties those baked with weather on;
- the hexes any plugin reports through the ``event_hexes`` hook dirty every chunk holding
  them, except for the units plugin's events: units are not baked into chunks, they only
  make the stacks be gathered again;
- an event type nobody describes with hexes changes nothing on the map.

Reducers are the only writers of state, so these events are the whole list of changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The units plugin's events touch the ``units`` section only (drawn every frame).
UNIT_EVENTS = frozenset({"UnitCreated", "UnitMoved", "UnitFlipped", "UnitFactorsChanged"})


@dataclass
class MapChanges:
    static: dict[str, set] = field(default_factory=lambda: {"control": set(), "weather": set(), "any": set()})
    units: set = field(default_factory=set)
    everything: bool = False

    def __bool__(self) -> bool:
        return self.everything or bool(self.units) or any(self.static.values())

    def hexes(self) -> set:
        out = set(self.units)
        for hexes in self.static.values():
            out |= hexes
        return out


def map_changes(game, records, model) -> MapChanges:
    """What ``records`` (just applied to ``game.state``) changed on the map."""
    changes = MapChanges()
    hook = game.host.pm.hook
    has_hook = hasattr(hook, "event_hexes")
    for rec in records:
        d = rec.data
        if rec.type == "HexControlChanged":
            changes.static["control"].add((int(d["hex"][0]), int(d["hex"][1])))
            continue
        if rec.type == "CountryControlSet":
            changes.static["control"].update(model.country_hexes(d["country"]))
            continue
        if rec.type == "WeatherSet":
            for zone in d.get("weather", {}):
                changes.static["weather"].update(model.zone_hexes(int(zone)))
            continue
        if not has_hook:
            continue
        found = set()
        for hexes in hook.event_hexes(event=rec, state=game.state):
            for h in hexes or ():
                found.add((int(h[0]), int(h[1])))
        if rec.type in UNIT_EVENTS:
            changes.units |= found
        else:
            changes.static["any"] |= found
    return changes
