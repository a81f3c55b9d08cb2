"""Clicks on what a map layer draws beyond hexes: the sea boxes of the war at sea.

A unit at sea has no hex, so the window's own map input (app/mapinput.py: hexes and the units
in them) never sees it.  A map layer that draws such things answers ``hit(window, dmap,
point)`` with what a click there stands for (plugins/mapviews/seaboxes: a section box
"AREA:section", its sea area, the section number, the units of the pile clicked); this module
offers that to the command being filled in, as a player means it:

1. the field to fill (then the fields chosen earlier) takes the first of the click's values
   it offers (an option or hex field), or the pile's units it offers (a unit field: the next
   one on a second click; a units field: added, or taken out when all are in); a value taken
   may bring a follow-up the next field takes from the same click (the sea area, then the
   section of the box clicked), and a field offering one value only is taken with it;
2. else another offered command whose first field takes it is filled in instead (a click on
   a ship at sea in Naval Movement starts its move);
3. a command completed by single choices is submitted at once, as on the map.

A click on a hex offers the same way the values an option field may give a hex as text: a
port "col,row" (where a naval move starts or ends) and the sea area of that hex.

Nothing here knows a rule: the values come from the layer, the legal ones from
``Game.choices`` (the fill's options)."""

from __future__ import annotations

from .commandfill import CommandFill, same
from .fieldforms import fillable, one_step
from .windowstyle import DIM


def layer_hit(window, dmap, point) -> dict | None:
    """The first map layer's answer for a click at ``point`` (on the map surface), or None."""
    for layer in reversed(window.ui.layers):
        hit = getattr(layer, "hit", None)
        if callable(hit):
            found = hit(window, dmap, point)
            if found is not None:
                return found
    return None


def click(window, dmap, point) -> bool:
    """A click on the detailed map at ``point``: True when a layer's box took it."""
    hit = layer_hit(window, dmap, point)
    if hit is None:
        return False
    units = list(hit.get("units") or [])
    name = hit.get("name") or hit.get("area")
    where = f"{name} section {hit['section']}" if hit.get("section") is not None else f"{name}"
    window.set_selection(tuple(hit["hex"]) if hit.get("hex") else None, units)
    window.say(f"selected {where}" + (f", {len(units)} unit(s)" if units else ""), DIM)
    play = window.play
    if play is not None and not play.hidden() and play.tray.active() and play.tray.sea_click(hit.get("values") or []):
        return True  # the Setup Tray's units in hand set up at sea there (app/setuptray.py)
    if play is not None and not play.hidden():
        offer(play, hit.get("values") or [], units, hit.get("then") or {})
    return True


def hex_values(window, hex_) -> list:
    """What a click on a hex may stand for in an option field: the hex as "col,row" text and
    the sea area it lies in."""
    out: list = [f"{hex_[0]},{hex_[1]}"]
    sea = window.model.world.sea_area_code(tuple(hex_))
    if sea:
        out.append(sea)
    return out


def offer_hex(window, hex_) -> bool:
    """A hex click the map input did not take, offered to option fields (a port, a sea area)."""
    play = window.play
    if play is None or play.hidden() or play.fill is None:
        return False
    return _offer_to(play, play.fill, hex_values(window, hex_), [], {}, kinds=("option",))


def offer(play, values: list, units: list, then: dict) -> bool:
    """Offer a click's values and units to the command being filled in, else to another offered
    command it starts; True when a field took them."""
    if play.fill is not None and _offer_to(play, play.fill, values, units, then):
        return True
    for choice in play.decisions.commands():
        if choice.type == "FinishStep" or not choice.fields or not fillable(choice):
            continue
        if play.fill is not None and choice is play.fill.choice:
            continue
        fill = CommandFill(choice)
        _forced(fill)
        if _take(fill, fill.pending(), values, units, then) is not None:
            play.fill_in(choice)
            return _offer_to(play, play.fill, values, units, then)
    return False


def _offer_to(play, fill: CommandFill, values: list, units: list, then: dict, kinds=None) -> bool:
    before = dict(fill.values)
    _forced(fill)  # a sole choice before the clicked one (the only group of the abort queue)
    if not _offered(play, fill, values, units, then, kinds):
        fill.values = before  # the click took nothing: the fill stays as the form shows it
        return False
    return True


def _offered(play, fill: CommandFill, values: list, units: list, then: dict, kinds) -> bool:
    path, pending = fill.walk()
    fields = ([pending] if pending is not None else []) + [f for f in path if f is not pending]
    for f in fields:
        if kinds is not None and f.kind not in kinds:
            continue
        taken = _take(fill, f, values, units, then)
        if taken is None:
            continue
        follow = then.get(taken, []) if isinstance(taken, str) else []
        nxt = fill.pending()
        if follow and nxt is not None and nxt.kind in ("option", "hex"):
            _take(fill, nxt, follow, [], {})
        _forced(fill)
        play.fill_changed()
        if fill.complete() and f.kind in ("unit", "option", "hex") and one_step(fill):
            play.submit(fill.command())
        return True
    return False


def _forced(fill: CommandFill) -> None:
    """Fields offering a single value (a move into a port has one "section": the port; the
    abort queue's only group) are taken with the click that opened them."""
    for _ in range(8):
        f = fill.pending()
        if f is None or f.kind not in ("option", "hex") or len(f.all_options()) != 1:
            return
        if not fill.set(f.name, f.all_options()[0].value):
            return


def _take(fill: CommandFill, f, values: list, units: list, then: dict):
    """Set field ``f`` from the click (on ``fill`` as given); the value taken, or None."""
    if f is None:
        return None
    if f.kind in ("option", "hex"):
        for v in values:
            if fill.option(f, v) is not None and fill.set(f.name, v):
                return v
        return None
    here = [u for u in units if fill.option(f, u) is not None]
    if not here:
        return None
    if f.kind == "units":
        return here if fill.toggle(f.name, here) else None
    if f.kind == "unit":
        current = fill.values.get(f.name)
        nxt = here[(here.index(current) + 1) % len(here)] if current in here else here[0]
        return nxt if fill.set(f.name, nxt) else None
    return None


__all__ = ["click", "hex_values", "layer_hit", "offer", "offer_hex", "same"]
