"""Kamikaze Attacks by Japan (optional rule Kamikaze): Japan may declare its bombers that came
through the air-to-air combat of a naval air combat to fly as kamikazes.

Seeds, "Kamikaze Attacks by Japan" (L12348-12356): "If the optional rule for using Kamikazes is
being used and there are Japanese bombers that survived air-to-air combat in a naval air
combat, the Japanese player has the opportunity to declare them as flying as kamikazes".
"Kamikaze Form" (L9952-9990): "The Japanese player can declare kamikaze attacks in any naval
air combat after air-to-air combat but before anti-aircraft fire.  He can nominate any or all
of his bombers as kamikazes ... The air-to-sea factors of kamikaze bombers that survive
anti-aircraft fire are doubled.  Note that anti-aircraft fire reduces the original bombing
factors of the air units.  Any surviving bombing factors are then doubled.  After the air to
sea attack is resolved, all kamikazes and their pilots are destroyed."  The seeds set no date:
with the optional rule on, a Guadalcanal game (May/June 1942 to January/February 1943) has them
too; the rule is off unless the players switch it on (plugins/optional/framework's catalogue;
not during naval air combat).

How: the naval air combat waits after the air-to-air combat (``NavalAirStageReached``
"kamikaze") while Japan declares (``DeclareKamikaze``, one bomber a command; FinishStep when
done); then the non-initiating side's ships fire (naval_air_combat.after_kamikaze).  The
doubling is in naval_air_combat.pressing_factors; the kamikazes still flying are destroyed at
End Naval Combat Round (naval_air_combat.round_over), after both air-to-sea attacks.  "If the
Carrier Planes optional rule is not being used, any carrier that flies its air units as
kamikazes results in the carrier being damaged": this edition's carriers always carry carrier
air units as counters (the naval README), so that case does not arise.
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command, EventData

from .naval_air_combat import KAMIKAZE_STAGE, KAMIKAZE_STEP, kamikaze_candidates
from .naval_units import label
from .state import naval, rules

RULE = "Kamikaze Attacks by Japan"


@rules.event
class KamikazeDeclared(EventData):
    """Japan declared ``unit`` (one of its bombers in a naval air combat) a kamikaze."""

    unit: str


@rules.reducer("KamikazeDeclared")
def _declared(state, event):
    c = naval(state).combat
    if event.data["unit"] not in c.kamikazes:
        c.kamikazes.append(event.data["unit"])


@rules.describe("KamikazeDeclared")
def _describe(event, state):
    return f"{label(state, event.data['unit'])} flies as a kamikaze"


class DeclareKamikaze(Command):
    unit: str


def why_not_kamikaze(state, actor: str, unit_id: str) -> str | None:
    c = naval(state).combat
    if c is None or c.air_stage != KAMIKAZE_STAGE:
        return f"{RULE}: kamikazes are declared only after a naval air combat's air-to-air combat, before its AA fire"
    if actor != "japan":
        return f"{RULE}: only Japan declares kamikazes, not {actor}"
    if unit_id in c.kamikazes:
        return f"{RULE}: {label(state, unit_id)} already flies as a kamikaze"
    if unit_id not in {f.unit for f in kamikaze_candidates(state)}:
        return f"{RULE}: {unit_id!r} is not a Japanese bomber that came through the air-to-air combat"
    return None


def kamikaze_choices(state, actor, step_id):
    if step_id != KAMIKAZE_STEP:
        return None
    fit = [f.unit for f in kamikaze_candidates(state) if why_not_kamikaze(state, actor, f.unit) is None]
    if not fit:
        return None
    return [Field("unit", "unit", [Option(u, label(state, u)) for u in fit], label="bomber to fly as a kamikaze")]


def kamikaze_preview(state, cmd: DeclareKamikaze) -> dict:
    problem = why_not_kamikaze(state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    flight = next(f for f in kamikaze_candidates(state) if f.unit == cmd.unit)
    factor = state["units"].units[cmd.unit].factors.get("naval", 0)
    return {"unit": cmd.unit, "air_to_sea": factor, "if_it_survives_aa": f"2 x ({factor} - AA losses)",
            "aa_losses_so_far": flight.aa_loss, "destroyed_after_the_attack": True}


@rules.command(DeclareKamikaze, choices=kamikaze_choices, preview=kamikaze_preview)
def declare_kamikaze(ctx, cmd: DeclareKamikaze) -> None:
    problem = why_not_kamikaze(ctx.state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    ctx.emit(KamikazeDeclared(unit=cmd.unit))
