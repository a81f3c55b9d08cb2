"""Surprise in Port Attack: the air mission's Surprise Points Used subphase (Surprise Roll,
Spend Surprise Points) for each port attacked.

Seeds, "Surprise Points Used" (L11924-11936): "This subphase is skipped except during the port
attack phase ... MWIF generates random numbers to see if one side has been surprised ... If
surprise has occurred, then the winning side gets the opportunity to spend its surprise points
at this time."  "Surprise Points" (L6925-6950): "For Port Attacks you get surprise points equal
to the sum of: The modified search number in the highest sea-box section containing a unit you
have included in the combat; this includes fighters ... Your opponent's unmodified search roll.
Land based bombers attacking are treated as being in the 3 section.  The defender is in the 3
section if the port is a minor port, and the 5 section if the port is a major port"; "The side
with the greater number of surprise points can spend the difference ... except that a Port
Attack cannot change the combat type from naval air combat".  The benefits (the table's air-to-
air values, anti-aircraft columns, naval combat chart columns) are surprise_points.py's; here
each belongs to one port (``SpendSurprise.port``).

"Carrier planes are in the section their carrier is in (whose search numbers can be modified by
the presence of NAVs and carriers, see RAC 8.2.4).  Carriers in port do not modify the search
number" (``attacker_search_number``: the carrier's section, modified as in Naval Combat
Included Units, naval_combat.section_search, by the side's units at sea in that area).

Authored: the search number of a section is its number (data/naval.json) and land-based
aircraft's section 3 is not modified; the attacker's "highest sea-box section" is taken over the
bombers and escorts it flew to that port before the roll; each port attacked is one combat
with its own two rolls; avoiding the combat and selecting a target are
not offered in a port attack (the attack is the air mission's, decided when the bombers flew).
"""

from __future__ import annotations

from kernel.events import EventData
from plugins.rules.air.state import AM, air
from plugins.rules.core import hex_key, weather_in

from .naval_combat import section_search, units_in_area
from .naval_units import at_sea, carrier_of
from .sea_box_section import box_hex, port_at, search_number
from .state import naval, rules

SURPRISE_ROLL = f"{AM}.surprise-points-used.surprise-roll"
SPEND_STEP = f"{AM}.surprise-points-used.spend-surprise-points"
KIND = "port-attack"
BOMBERS_SECTION = 3  # "Land based bombers attacking are treated as being in the 3 section"
DEFENDER_SECTION = {"minor": 3, "major": 5}


@rules.event
class PortSurpriseRolled(EventData):
    """Surprise Roll of a port attack: for each port attacked ("col,row"), each side's roll and
    the surprise points of the side with more; ``ports`` empty: a new port attack begins."""

    ports: dict[str, dict] = {}  # "col,row" -> {"rolls": {side: roll}, "surprise": {side: points}}


@rules.reducer("PortSurpriseRolled")
def _rolled(state, event):
    n = naval(state)
    n.port_surprise = {key: {"rolls": dict(d["rolls"]), "surprise": dict(d["surprise"]), "air_values": {},
                             "aa_shifts": {}, "shifts": {}} for key, d in event.data["ports"].items()}


@rules.describe("PortSurpriseRolled")
def _describe(event, state):
    ports = event.data["ports"]
    if not ports:
        return "Port attack: surprise is rolled anew"
    parts = []
    for key, d in sorted(ports.items()):
        name = port_at(tuple(int(x) for x in key.split(","))) or key
        rolls = ", ".join(f"{s} rolled {r}" for s, r in d["rolls"].items())
        points = ", ".join(f"{s} {p}" for s, p in d["surprise"].items() if p) or "none"
        parts.append(f"{getattr(name, 'name', name)}: {rolls}; surprise points {points}")
    return "Port attack surprise: " + "; ".join(parts)


def attacked_ports(state) -> dict[str, str]:
    """Port hex key -> the attacking side, for the ports the phasing side's bombers flew to."""
    m = air(state).mission
    return {hex_key(f.hex): f.side for f in sorted(m.flights.values(), key=lambda f: f.unit)
            if f.role == "bomber" and port_at(tuple(f.hex)) is not None}


def attacker_search_number(state, key: str, side: str) -> int:
    """"The modified search number in the highest sea-box section containing a unit you have
    included in the combat; this includes fighters": ``side``'s aircraft flying to the port
    ``key``; a land-based one counts in the 3 section, unmodified; a carrier plane in its
    carrier's section, modified by the NAVs and carriers of ``side`` there."""
    best = (-1, 0)  # (section, its search number)
    for f in sorted(air(state).mission.flights.values(), key=lambda f: f.unit):
        if f.side != side or hex_key(f.hex) != key:
            continue
        carrier = carrier_of(state, f.unit)
        box = at_sea(state, carrier) if carrier is not None else None
        if box is None:
            best = max(best, (BOMBERS_SECTION, search_number(BOMBERS_SECTION)))
            continue
        number = section_search(state, side, box.section, weather_in(state, box_hex(box.area)),
                                of_units=units_in_area(state, box.area, side))
        best = max(best, (box.section, number))
    return best[1]


def surprise_skip(state) -> str | None:
    """``MissionKind.surprise`` of Port Attack: the subphase is played when bombers flew to a port."""
    if not attacked_ports(state):
        return "Surprise Points Used: no bomber flew to a port"
    return None


@rules.step_rule(SURPRISE_ROLL)
def surprise_roll(ctx, step_id: str) -> None:
    state = ctx.state
    ports = {}
    for key, attacker in sorted(attacked_ports(state).items()):
        defender = next(s for s in state.kernel.sides if s != attacker)
        city = port_at(tuple(int(x) for x in key.split(",")))
        size = getattr(city, "port", "minor") or "minor"
        rolls = {side: ctx.roll(f"Surprise Points Used: {side}'s search roll at the port {getattr(city, 'name', key)}")[0]
                 for side in (attacker, defender)}
        points = {attacker: attacker_search_number(state, key, attacker) + rolls[defender],
                  defender: DEFENDER_SECTION.get(size, 3) + rolls[attacker]}
        surprise = {s: max(0, points[s] - points[t]) for s, t in ((attacker, defender), (defender, attacker))}
        ports[key] = {"rolls": rolls, "surprise": surprise}
    ctx.emit(PortSurpriseRolled(ports=ports))


def spender(state) -> tuple[str, str] | None:
    """(port key, side) of the first port whose winning side has points to spend."""
    for key, d in sorted(naval(state).port_surprise.items()):
        side = next((s for s, p in d["surprise"].items() if p >= 2), None)
        if side is not None:
            return key, side
    return None


def aa_shift(state, firing: str, hex_) -> int:
    """``MissionKind.aa_shift`` of Port Attack: the surprise columns spent on the fire at ``hex_``."""
    if air(state).mission.kind != KIND:
        return 0
    return naval(state).port_surprise.get(hex_key(hex_), {}).get("aa_shifts", {}).get(firing, 0)


def chart_shift(state, hex_, attacker: str) -> int:
    """The surprise columns spent on the bombers' air-to-sea attack at ``hex_``."""
    return naval(state).port_surprise.get(hex_key(hex_), {}).get("shifts", {}).get(attacker, 0)


def air_values(state, combat, side: str) -> list[tuple[int, str]]:
    """The air plugin's ``air_combat_value_modifiers`` in a port attack's air-to-air combat."""
    if air(state).mission.kind != KIND or combat is None:
        return []
    value = naval(state).port_surprise.get(hex_key(combat.hex), {}).get("air_values", {}).get(side, 0)
    return [(value, "surprise points")] if value else []
