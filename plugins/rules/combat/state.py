"""The land combat plugin's state section and the questions every combat module asks of it:
which combats are declared, which is being resolved, who decides for each side.

``rules`` is the plugin's registry (kernel.registry): every module adds its events, commands
and step rules to it and ``__init__`` exports its hookimpls.  A combat's id is its defending
hex key, "col,row"; its ``stage`` runs declared -> selected -> typed -> rolled -> applied
(or cancelled).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from kernel.errors import Rejected
from kernel.registry import Registry

from . import odds as O

rules = Registry()
PROC = "wif.procedures.land-combat-resolution"
COMBAT = "wif.turn.impulse.land.combat"
OPEN_STAGES = ("declared", "selected", "typed")


class Combat(BaseModel):
    id: str
    hex: tuple[int, int]
    attackers: list[str] = Field(default_factory=list)
    powers: list[str] = Field(default_factory=list)  # attacking powers, in order of declaration
    forced: str = ""  # "invasion" / "paradrop": a notional unit may defend
    paradropped: list[str] = Field(default_factory=list)  # attackers that paradropped into the hex
    notional: bool | None = None  # None: not asked; True: the notional unit defends
    hq: dict[str, list[str]] = Field(default_factory=dict)  # side -> HQs declared
    hq_shift: dict[str, int] = Field(default_factory=dict)  # side -> successful HQ support
    stage: str = "declared"
    chooser: str | None = None  # "attacker"/"defender" chooses the table (judged with the rules' hooks)
    snow_eligible: bool | None = None  # the attacker may gain from its snow units (judged with the hooks)
    table: str | None = None
    snow_units: bool | None = None
    result: dict | None = None
    converted: bool | None = None
    losses: dict[str, int] = Field(default_factory=dict)  # side -> losses still to take
    retreating: list[str] = Field(default_factory=list)
    # unit id -> hexes ("col,row") it has retreated out of: it never retreats back into them
    retreat_trail: dict[str, list[str]] = Field(default_factory=dict)
    # Shatter: a converted S/B with 2+ units to retreat sends those that can't to the pool
    excess_to_pool: bool = False
    advance: bool = False
    breakthrough: bool = False
    advanced: list[str] = Field(default_factory=list)
    second: list[str] = Field(default_factory=list)  # units advanced a second hex


@rules.state("combat")
class CombatState(BaseModel):
    stamp: tuple[int, int] = (0, 0)  # (turn, impulse) of the declarations held
    combats: dict[str, Combat] = Field(default_factory=dict)
    ground_support: dict[str, dict[str, float]] = Field(default_factory=dict)
    hq_used: list[str] = Field(default_factory=list)
    frames: dict[str, str | None] = Field(default_factory=dict)  # sequence stack depth -> combat


def cs(state) -> CombatState:
    return state["combat"]


def stamp(state) -> tuple[int, int]:
    return (state.kernel.turn, state.kernel.impulse)


def fresh_impulse(state) -> bool:
    """True when the combats held are last impulse's (the next declaration clears them)."""
    return tuple(cs(state).stamp) != stamp(state)


def open_combats(state) -> list[Combat]:
    """Declared combats not yet resolved (nor cancelled), in declaration order."""
    return [c for c in cs(state).combats.values() if c.stage in OPEN_STAGES]


def waiting_combats(state) -> list[Combat]:
    """Declared combats not yet selected for resolution."""
    return [c for c in open_combats(state) if c.stage == "declared"]


def declared_this_impulse(state) -> list[Combat]:
    if fresh_impulse(state):
        return []
    return [c for c in cs(state).combats.values() if c.stage != "cancelled"]


def depth(state) -> int:
    return len(state.kernel.sequence.stack)


def current_combat(state) -> Combat | None:
    """The combat the innermost land combat resolution sub-machine is resolving."""
    cid = cs(state).frames.get(str(depth(state)))
    return cs(state).combats.get(cid) if cid else None


def hook_of(host):
    """The game's hooks (optional rules' modifiers) when the kernel passed the plugin host to a
    choices or preview function, else None (the base rules alone)."""
    return host.pm.hook if host is not None else None


def combat_now(state, rule: str) -> Combat:
    """The combat being resolved, or Rejected naming the step's rule."""
    c = current_combat(state)
    if c is None:
        raise Rejected(f"{rule}: no land combat is being resolved now")
    return c


# ---------------------------------------------------------------- the units and sides of a combat
def units(state):
    return state["units"].units


def side_of(state, power: str) -> str | None:
    return state.kernel.side_of(power)


def attacking_side(state, c: Combat) -> str | None:
    return side_of(state, c.powers[0]) if c.powers else state.kernel.active_side


def defending_side(state, c: Combat) -> str | None:
    att = attacking_side(state, c)
    return next((s for s in state.kernel.sides if s != att), None)


def living_attackers(state, c: Combat) -> list:
    u = units(state)
    return [u[i] for i in c.attackers if i in u and u[i].on_map]


def defenders(state, c: Combat) -> list:
    return O.defenders(state, c.hex, c.powers[0]) if c.powers else []


def team_leader(state, side: str | None) -> str | None:
    """The side's decision maker: the power "involved in the most land combats" (Land
    Combat), else the side's first power."""
    if side is None:
        return None
    powers = list(state.kernel.sides.get(side, []))
    if not powers:
        return None
    counts = {p: sum(1 for c in cs(state).combats.values() if p in c.powers) for p in powers}
    return max(powers, key=lambda p: (counts[p], -powers.index(p)))


def attacking_leader(state, c: Combat) -> str | None:
    return team_leader(state, attacking_side(state, c))


def defending_leader(state, c: Combat) -> str | None:
    """The power with the most land units defending the hex (Retreats: "the major power with
    the most units involved in the combat chooses"), else the defending side's leader."""
    dfn = defenders(state, c)
    if dfn:
        powers = [u.power for u in dfn]
        return max(dict.fromkeys(powers), key=powers.count)
    return team_leader(state, defending_side(state, c))


def side_name(state, c: Combat, power: str) -> str:
    """"attacker" or "defender": which side of combat ``c`` ``power`` is on."""
    return "attacker" if side_of(state, power) == attacking_side(state, c) else "defender"
