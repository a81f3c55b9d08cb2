"""The air mission phases and what makes each one different: who flies as its "bomber", which
hexes are its targets, what is carried, and what its performance does.

Seeds: "Ground Strike", "Ground Support", "Strategic Bombardment", "Carpet Bombing", "Air
Transport", "Paradrop", "Reorganization by Air Transport" (and "Reorganize Units", By Air),
"Air Attacks", "Air Mission Performed".

Every mission runs the same Air Mission sub-machine (missions.py); a ``MissionKind`` tells it
the rest.  An optional rule adds a kind with ``register`` when its plugin is imported (Carpet
Bombing: plugins/optional/carpet-bombing), and its ``unavailable`` says why the phase is skipped
while the rule is off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .state import MISSION_KIND

@dataclass(frozen=True)
class MissionKind:
    """One air mission phase.

    - ``flyer(state, unit)``: why ``unit`` cannot fly as this mission's bomber (or transport), or None;
    - ``targets(state, power)``: every hex that may be a target for ``power`` (checked one by one);
    - ``target_problem(state, unit, hex_, cargo)``: why the bomber may not fly there (with that cargo);
    - ``cargo(state, unit, hex_)``: for transports, the units the flight may carry (``hex_`` None)
      or organize at ``hex_`` (Reorganization by Air Transport); None: no cargo field;
    - ``perform(ctx, flights)``: Air Mission Performed for the bombers that got through;
    - ``factor``: the attack factor anti-aircraft fire reduces (None: nothing to reduce);
    - ``unavailable(state)``: why the phase is skipped in this game whoever flies (an optional
      rule off, nothing to bomb), or None;
    - ``activities(state, unit, hex_, cargo)``: activities the flight spends besides its air
      mission, as ``[(kind, count)]`` (a land move for the unit carried)."""

    id: str
    name: str
    step: str
    who: str  # what flies as its bombers, for a player: "organized bombers", "air transports (ATR)"
    flyer: Callable
    targets: Callable
    target_problem: Callable
    perform: Callable
    factor: str | None = None
    cargo: Callable | None = None
    cargo_at_target: bool = False  # the cargo is chosen after the hex (the unit to organize there)
    unavailable: Callable | None = None
    activities: Callable | None = None
    # ``further_cargo(state, unit, hex_, cargo) -> (units, how_many)``: the further units the
    # flight may also organize besides ``cargo`` (Large ATRs' second reorganization point);
    # ``target_problem`` then also takes them as a fifth argument
    further_cargo: Callable | None = None
    # ``attacker(state) -> side``: the side that attacks in its air-to-air combat (rolls
    # second); None: the phasing side.  Naval air combat: the initiating side.
    attacker: Callable | None = None
    # ``return_aborted(ctx, unit_ids)``: returns the units aborted in its air-to-air combat that
    # it knows where to send (naval air combat, port attack: carrier planes to their carriers);
    # those it leaves go through the Return to Base Digression (None: all of them do).
    return_aborted: Callable | None = None
    # ``keeps_facing(state, unit_id) -> bool``: a unit aborted in its air-to-air combat is not
    # disorganized (naval air combat: a carrier plane that flew from its CV, Ships in Flames 8.3)
    keeps_facing: Callable | None = None
    # ``intrinsic_aa(state, firing_side) -> {hex: factors}``: AA that fires at a target hex
    # without being plotted (ships' AA in a port attack, "Anti-Air Fire")
    intrinsic_aa: Callable | None = None
    # ``surprise(state) -> reason | None``: why its Surprise Points Used subphase is skipped now
    # (None: it is played); with no ``surprise`` the subphase is always skipped ("Surprise never
    # happens during the other 7 air mission phases").  Port attack: the naval plugin's.
    surprise: Callable | None = None
    # ``aa_shift(state, firing_side, hex_) -> int``: columns the anti-aircraft fire at ``hex_``
    # moves (surprise points spent in a port attack)
    aa_shift: Callable | None = None
    # ``threatened(state) -> set of hexes``: targets that bombers not on a map hex (carrier planes
    # aboard carriers at sea: the naval plugin's port attack) can fly to, so CAP may fly there
    threatened: Callable | None = None
    # ``interceptors(state, side) -> bool``: the side has fighters not on a map hex that may
    # intercept (carrier planes aboard carriers at sea), so the interception subphases are played
    interceptors: Callable | None = None
    # ``cap_flyers(state, side) -> bool``: the side has fighters not on a map hex that may fly
    # Combat Air Patrol now (carrier planes aboard carriers at sea), so its CAP subphase is played
    cap_flyers: Callable | None = None
    # ``bombers_elsewhere(state, power) -> bool``: ``power`` has bombers not on a map hex that may
    # fly this mission (carrier planes aboard carriers at sea), so its phase is played
    bombers_elsewhere: Callable | None = None


KINDS: dict[str, MissionKind] = {}
# another plugin's additions to every mission kind, by name: ``extend(kind) -> kind`` (the naval
# plugin's carrier planes at sea fly Combat Air Patrol in every air mission phase)
EXTENSIONS: dict[str, Callable] = {}


def register(kind: MissionKind) -> MissionKind:
    for extend in EXTENSIONS.values():
        kind = extend(kind)
    KINDS[kind.id] = kind
    return kind


def extend_every_kind(name: str, extend: Callable) -> None:
    """Apply ``extend`` to the kinds registered and to those registered later (an optional
    rule's kind is registered when its plugin is imported, before or after the extender's), so
    a kind is the same whatever order the process imported the plugins in.  ``extend`` must
    leave a kind it extended already as it is (a reloaded plugin extends again)."""
    EXTENSIONS[name] = extend
    for kind_id, kind in list(KINDS.items()):
        KINDS[kind_id] = extend(kind)


def needs_factor(factor: str):
    """A bomber of this mission needs a ``factor`` (tactical, strategic) above 0."""
    def flyer(state, unit) -> str | None:
        if unit.factors.get(factor, 0) > 0:
            return None
        return f"{unit.power} {unit.name or unit.type} ({unit.id}) has no {factor} factor and cannot fly as a bomber"
    return flyer


def kind_of_step(step_id: str) -> MissionKind | None:
    return KINDS.get(MISSION_KIND.get(step_id, ""))
