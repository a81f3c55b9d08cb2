"""What every scenario plugin answers the same way about itself: whether a game is the
scenario's, whether its victory rules apply (also in a lab game whose options say
``"scenario_rules": "<scenario>"``), its stored final result, and the victory form's shape.

A scenario keeps its own state under its name (``state[name]``) with a ``result`` field (the
data of its final victory event, None until decided) and imports these instead of writing
them again (Barbarossa, Guadalcanal)."""

from __future__ import annotations


def is_scenario(state, name: str) -> bool:
    return state.kernel.scenario == name


def scenario_rules_apply(state, name: str) -> bool:
    """The scenario's victory conditions apply: in the scenario, or in a test situation (lab
    scenario) whose options say ``"scenario_rules": name``."""
    return is_scenario(state, name) or state.kernel.options.get("scenario_rules") == name


def final_result(state, name: str) -> dict | None:
    """The scenario's decided result (its victory event's data), or None: another scenario's
    game, or not decided yet."""
    if not is_scenario(state, name):
        return None
    return state[name].result or None


def victory_form(state, name: str, totals: dict, rows: list[dict]) -> dict:
    """The Victory form's content (the ``victory_standing`` UI hook): totals, rows, and the
    result's words once decided."""
    result = state[name].result
    return {"totals": totals, "rows": rows, "result": result.get("result") if result else None}


def describe_victory(event, state) -> str:
    """A final victory event in the log (each scenario registers it for its own event type)."""
    return f"Victory: {event.data['result']}"
