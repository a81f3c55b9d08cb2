"""The greedy bot's land-based aircraft: what a flight from an airfield is worth, scored from
its preview (``FlyMission``, ``FlyCAP``, ``FlyIntercept``) with the same sense and the same
scores as a carrier plane's flight from its carrier (app/bot_carrier_air.py: ``bombing_score``,
``cap_score``, ``escort_intercept_score``), so a rule of thumb lives in one place.

Seeds (000): "Ground Strike" (a bomber disorganizes the enemy units in a hex, then flies back
face down), "Ground Support" (its factor added to a land combat this impulse), "Combat Air
Patrol (CAP)" (non-phasing fighters over the hexes the enemy's bombers threaten; it "uses up"
the fighter), "Non-Phasing Side Flies Interceptors" (fighters against the bombers that flew).

Authored: the bot flies only ground strikes and ground support as a land-based bomber (the
other missions - bombing production, air transport, paradrop - are left to the player's
judgement it lacks); a ground strike is worth it only on enemy units beside the side's own
(where it may attack them in Land Combat) or on an objective, so a bomber is not spent face
down on an empty or quiet hex.
"""

from __future__ import annotations

from kernel.choices import CommandChoice

from .bot_carrier_air import ESCORT, GROUND_SUPPORT, INTERCEPT, CarrierAirSense

GROUND_STRIKE = "Ground Strike"
FLIGHTS = {"FlyMission": None, "FlyCAP": "cap", "FlyIntercept": "interceptor"}  # command -> its role (None: a field)
AIR_PREVIEWS = 8  # the greedy bot previews this many flights of one command, the best by the map
BOMBING_MISSIONS = (GROUND_STRIKE, GROUND_SUPPORT)  # what the bot flies its land-based bombers on
ROLES = ("bomber", "escort", "cap", "interceptor")  # the flights' roles in their previews


def air_candidates(choice: CommandChoice, sense: CarrierAirSense, limit: int = AIR_PREVIEWS) -> list[dict]:
    """A flight command's ``limit`` best candidates by the map, before any preview, from every
    flyer's target hexes (the choice tree has them all: building it checked each): a bomber's
    where a ground strike is worth it (``strike_worth``: ground support's attacked hexes are
    such too), holding the side's land units (ground support of a combat it defends) or a port
    attack's target; a fighter's over what the side has there (``cap_score``); escorts always.
    Hexes worth nothing are never previewed.  A flight whose hex is followed by more fields
    (an air transport's cargo) is not one the bot flies."""
    ranked = []
    for unit in choice.fields[0].all_options():
        for f in unit.next_fields():
            roles = f.all_options() if f.name == "role" else [None]
            for role in roles:
                name = role.value if role is not None else FLIGHTS[choice.type]
                for hex_field in (role.next_fields() if role is not None else [f]):
                    if hex_field.name != "hex":
                        continue
                    for h in hex_field.all_options():
                        by_map = 0.0 if h.next_fields() else _by_map(sense, name, h.value)
                        if by_map > 0:
                            cmd = {**choice.base(), "unit": unit.value, "hex": h.value}
                            if role is not None:
                                cmd["role"] = name
                            ranked.append((by_map, len(ranked), cmd))
    ranked.sort(key=lambda r: (-r[0], r[1]))
    return [cmd for _score, _n, cmd in ranked[:limit]]


def _by_map(sense: CarrierAirSense, role: str, hex_) -> float:
    """What a flight of ``role`` to ``hex_`` may be worth, read off the map (its preview decides)."""
    if role == "bomber":  # a strike, ground support where the side attacks or defends, a port attack
        return (sense.enemy_combat.get(tuple(hex_), 0) if sense.strike_worth(hex_) else 0.0) \
            + sense.own_combat(hex_) + sense.port_attack_score(hex_)
    if role == "escort":
        return ESCORT
    return sense.cap_score(hex_) + (INTERCEPT if role == "interceptor" else 0.0)


def land_air_score(sense: CarrierAirSense, preview: dict) -> float | None:
    """The greedy bot's score of a land-based aircraft's flight from its preview (the bomber's
    ``tactical`` factor after the target hex's weather and terrain), or None when the preview
    is not one (a carrier plane's flight is app/bot_carrier_air.py's)."""
    role = preview.get("role")
    if role not in ROLES or "lands_on" in preview or "hex" not in preview:
        return None
    if role == "bomber":
        if preview.get("mission") not in BOMBING_MISSIONS:
            return 0.0
        return sense.bombing_score(preview, float(preview.get("tactical") or 0))
    if role == "cap":
        return sense.cap_score(preview["hex"])
    return sense.escort_intercept_score(preview)
