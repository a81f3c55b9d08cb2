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

from .bot_carrier_air import GROUND_SUPPORT, CarrierAirSense

GROUND_STRIKE = "Ground Strike"
BOMBING_MISSIONS = (GROUND_STRIKE, GROUND_SUPPORT)  # what the bot flies its land-based bombers on
ROLES = ("bomber", "escort", "cap", "interceptor")  # the flights' roles in their previews


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
