"""The choices a client gets carry the branches the rules have already built (an option's
``then``; an empty list when nothing follows it), so the client asks ``expand`` only for the
branches still to be built, and gets the same fields either way (app/net/server.py field_json).
At 1 game the bots' expand requests fell from 1.49 to 0.53 a command (tools/bench_net.py)."""

from __future__ import annotations

from app.net.client import NetClient

SEATS = {"alice": ["germany"], "bob": ["ussr"]}


def inline_paths(fields: list[dict], path: list[int]) -> list[tuple[list[int], list[dict]]]:
    """(expand path, the fields sent with the option) of every option that came with its ``then``."""
    out = []
    for f_index, field in enumerate(fields):
        for o_index, option in enumerate(field.get("options", [])):
            if "then" in option:
                here = path + [f_index, o_index]
                out.append((here, option["then"]))
                out += inline_paths(option["then"], here)
    return out


def test_choices_carry_built_branches_equal_to_their_expansion(server):
    """Set-up: a unit to place (its hexes built when asked), then its hexes, which nothing
    follows: the expansion of the unit says so, and the client asks nothing more for a hex."""
    alice, bob = NetClient(server["url"], "alice"), NetClient(server["url"], "bob")
    with alice, bob:
        alice.create("g1", "barbarossa", SEATS)
        alice.join("g1")
        bob.join("g1")
        mover = alice if alice.request("status", game="g1")["my_turn"] else bob
        raw = mover.request("choices", game="g1")
        d_index, c_index = next((d, c) for d, decision in enumerate(raw["decisions"])
                                for c, command in enumerate(decision["commands"]) if command["type"] == "PlaceUnit")
        unit_option = raw["decisions"][d_index]["commands"][c_index]["fields"][0]["options"][0]
        assert "then" not in unit_option  # the unit's hexes are built when asked for
        hexes = mover.request("expand", game="g1", seq=raw["seq"], path=[d_index, c_index, 0, 0])["fields"]
        found = inline_paths(hexes, [d_index, c_index, 0, 0])
        assert found and all(then == [] for _, then in found)  # every hex: nothing follows
        for path, then in found[:3]:  # what expand would have answered
            assert mover.request("expand", game="g1", seq=raw["seq"], path=path)["fields"] == then, path

        asked = []
        request = mover.request
        mover.request = lambda op, **fields: (asked.append(op), request(op, **fields))[1]
        _, decisions = mover.choices("g1")
        hex_field = decisions[d_index].commands[c_index].fields[0].all_options()[0].next_fields()[0]
        assert [o.value for o in hex_field.all_options()] == [o["value"] for o in hexes[0]["options"]]
        assert all(o.next_fields() == [] for o in hex_field.all_options())
        # not even the unit's hexes: built by the expand above, the same position's choices carry them
        assert asked == ["choices"]
