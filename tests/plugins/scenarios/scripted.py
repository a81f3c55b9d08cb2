"""The scripted Barbarossa policy, built only from what ``Game.choices`` offers.

Default setups; Germany moves first on turn 1 and every power takes land actions; each
land movement step moves up to six units (armour first) as far east (Germany) or west
(USSR) as offered; Germany attacks up to three offered hexes with every offered unit (the
USSR from turn 4); combats are fought on the Blitz table where offered; every step is then
finished.  ``game`` may be a Game or anything with ``choices``, ``state`` and ``submit``."""

from __future__ import annotations

MOVERS = 6
ATTACKS = 3


def _choice(decision, type_):
    found = decision.find(type_)
    return found[0] if found else None


def _submit(g, cmd) -> bool:
    return g.submit(cmd).accepted


def _moves(g, choice, power) -> int:
    east = 1 if power == "germany" else -1
    units = g.state["units"].units
    field = choice.fields[0]
    options = sorted(field.all_options(), key=lambda o: (units[o.value].type not in ("arm", "mech"), o.value))
    moved = 0
    for option in options[:MOVERS]:
        dest = [f for f in option.next_fields() if f.name == "to"]
        if not dest:
            continue
        targets = sorted(dest[0].values(), key=lambda h: (-east * h[0], tuple(h)))
        for h in targets[:3]:
            if _submit(g, {"type": choice.type, "actor": choice.actor, "unit": option.value, "to": list(h)}):
                moved += 1
                break
    return moved


def _attacks(g, choice) -> int:
    done = 0
    for option in choice.fields[0].all_options()[:ATTACKS]:
        attackers = [f for f in option.next_fields() if f.kind == "units"]
        units = attackers[0].values() if attackers else []
        if units and _submit(g, {"type": choice.type, "actor": choice.actor, "hex": list(option.value), "units": units}):
            done += 1
    return done


def _one(g, choice, prefer=None) -> bool:
    """Submit ``choice`` with the preferred option of its first field (else the first offered)."""
    cmd = choice.base()
    if choice.fields:
        field = choice.fields[0]
        values = field.values()
        value = prefer if prefer in values else values[0]
        cmd[field.name] = list(value) if isinstance(value, tuple) else value
        option = next(o for o in field.all_options() if o.value == value)
        for f in option.next_fields():
            cmd[f.name] = f.values()[0] if f.kind != "units" else f.values()
    return _submit(g, cmd)


def decide(g, decision) -> bool:
    """One scripted decision; False when nothing was done (the step is then finished)."""
    k = g.state.kernel
    power = decision.commands[0].actor if decision.commands else decision.decider
    for type_, prefer in (("RestoreSetup", None), ("ChooseFirstMover", "axis" if k.turn == 1 else decision.decider),
                          ("ChooseAction", "land"), ("ChooseOverstackLoss", None)):
        choice = _choice(decision, type_)
        if choice is not None and _one(g, choice, prefer):
            return True
    choice = _choice(decision, "MoveLandUnit")
    if choice is not None and _moves(g, choice, power) and g.state.kernel.sequence.current == decision.step:
        pass  # moved: finish the step below
    choice = _choice(decision, "DeclareAttack")
    if choice is not None and (power == "germany" or k.turn >= 4):
        _attacks(g, choice)
    for type_, prefer in (("SelectLandCombat", None), ("ChooseLandCombatType", "blitz"), ("ResolveCombat", None)):
        choice = _choice(decision, type_)
        if choice is not None and _one(g, choice, prefer):
            return True
    return False


def play_scripted(g, limit: int = 5000) -> int:
    n = 0
    while not g.state.kernel.sequence.finished and n < limit:
        n += 1
        decisions = g.choices(None).decisions
        assert decisions, f"nothing to decide at {g.state.kernel.sequence.current}"
        decision = decisions[0]
        step = g.state.kernel.sequence.current
        if decide(g, decision):
            continue
        if decision.decider not in g.state.kernel.sequence.pending or g.state.kernel.sequence.current != step:
            continue  # a decision above finished the step for it
        finish = [c for c in g.choices(None).decisions[0].commands if c.type == "FinishStep"]
        assert finish, f"stuck at {step}: FinishStep not offered"
        out = g.submit(finish[0].base())
        assert out.accepted, f"stuck at {step}: {out.reason}"
    return n
