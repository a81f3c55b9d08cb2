"""What never crosses the wire to a player (issue #15, "Done when"): the server's dice secret
(its host secret, the game's dice key, the seed), another player's hidden events, or their
hashes.  The hidden thing is Air-to-air Combat: Arrange Units ("neither side sees how the
other side has arranged its units until both sides click on the 'Axis/Allies Ready'
button"): alice (Germany) has arranged her line, the game waits for bob (USSR), and every
frame bob's client receives while he looks (view, update, choices and their branches,
previews, replay, lobby, spectate) and decides is recorded and searched."""

from __future__ import annotations

import base64
import json
from functools import partial
from pathlib import Path

import pytest

from app.net.client import NetClient
from conftest import start_server, stop_server
from helpers import air_unit, ok, unit
from kernel import keys as keyring
from kernel.events import canonical_json
from kernel.game import Game
from kernel.replay import Replay

TARGET = (203, 54)
GE_BASE, SU_BASE = (201, 51), (207, 53)
SEATS = {"alice": ["germany"], "bob": ["ussr"]}
SECRET_LINE = {"fighters": ["f2", "f1"], "bombers": ["s1", "s2"]}  # alice's order, not the default lines' (f1 f2, s2 s1)


def a_server_game_at_arrange_units(games: Path) -> None:
    """The lab's air combat of tests/kernel/test_views.py, made as `wif serve` makes a game
    (the server a player with no powers, the players' keys recorded) and played up to alice's
    secret arrangement; the game's spec written beside it, as the lobby writes it."""
    land = partial(unit, combat=3, move=3)
    units = [air_unit("s1", "germany", "tac", GE_BASE, tactical=3, range_=8),
             air_unit("s2", "germany", "tac", GE_BASE, tactical=2, range_=8),
             air_unit("f1", "germany", "ftr", GE_BASE, air=5, range_=8),
             air_unit("f2", "germany", "ftr", GE_BASE, air=4, range_=8),
             land("r1", "ussr", TARGET),
             air_unit("i1", "ussr", "ftr", SU_BASE, air=3, range_=10),
             air_unit("i2", "ussr", "ftr", SU_BASE, air=2, range_=10)]
    options = {"units": units, "actions": {"germany": "air"}, "start_at": "turn.impulse.independent-air.ground-strike"}
    keys = {p: keyring.public_key_hex(p, create=True) for p in SEATS}
    keyring.public_key_hex("server", create=True)
    games.mkdir(parents=True)
    with Game.new("lab", games / "air.wif", seed=None, options=options, extra_plugins=["air"],
                  players={"server": [], **SEATS}, player_keys=keys) as game:
        ok(game, type="FinishStep", actor="ussr")
        for uid in ("s1", "s2"):
            ok(game, type="FlyMission", actor="germany", unit=uid, hex=list(TARGET))
        for uid in ("f1", "f2"):
            ok(game, type="FlyMission", actor="germany", unit=uid, hex=list(TARGET), role="escort")
        ok(game, type="FinishStep", actor="germany")
        for uid in ("i1", "i2"):
            ok(game, type="FlyIntercept", actor="ussr", unit=uid, hex=list(TARGET))
        ok(game, type="FinishStep", actor="ussr")
        ok(game, type="ArrangeAirLine", actor="germany", **SECRET_LINE)
        assert game.state.kernel.sequence.current.endswith("arrange-units")
    spec = {"scenario": "lab", "rules": ["air"], "seed": None, "creator": "alice", "invitation": False,
            "seats": {p: {"powers": powers, "key": keys[p]} for p, powers in SEATS.items()}}
    (games / "air.json").write_text(json.dumps(spec))


def recording(client: NetClient) -> list[str]:
    """Every frame ``client`` receives from now on."""
    frames: list[str] = []
    receive = client.ws.recv

    def recv(*args, **kwargs):
        frame = receive(*args, **kwargs)
        frames.append(frame if isinstance(frame, str) else frame.decode("latin-1"))
        return frame
    client.ws.recv = recv
    return frames


def walk(value, key_path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, key_path + (k,))
    elif isinstance(value, list):
        for v in value:
            yield from walk(v, key_path)
    yield key_path, value


@pytest.fixture(scope="module")
def seen_by_bob(tmp_path_factory):
    """The game made and served once for this module's tests: what bob received while he
    looked and while he decided, his replay, and the server's stored log and secrets."""
    tmp_path = tmp_path_factory.mktemp("air")
    with pytest.MonkeyPatch.context() as patch:
        # one config dir for the server and both players: the test is about what crosses the wire
        patch.setenv("WIF_CONFIG_DIR", str(tmp_path / "server-config"))
        a_server_game_at_arrange_units(tmp_path / "games")
        started = start_server(tmp_path)
        try:
            with Game.open(started["games"] / "air.wif", read_only=True) as game:
                stored = {r.seq: r for r in game.history()}
                game_id = game.identity.game_id
            secret = keyring.host_secret()
            secrets = {"the host secret": secret.hex(),
                       "the game's dice key": keyring.game_dice_key(secret, game_id).hex(),
                       "the salt of the heads players sign": stored[1].data["head_salt"]}
            looked, deciding, replay = look_and_decide(started["url"])
        finally:
            stop_server(started["proc"])
    hidden_seq = next(seq for seq, r in stored.items() if r.type == "AirLineArranged")
    return {"stored": stored, "hidden_seq": hidden_seq, "secrets": secrets, "looked": looked,
            "deciding": deciding, "replay": replay}


def look_and_decide(url: str) -> tuple[list[str], list[str], bytes]:
    """bob looks at everything a window looks at, then arranges his line; the frames he
    received before his command was decided, and while it was, and his replay (F9)."""
    with NetClient(url, "bob") as bob:
        frames = recording(bob)
        bob.join("air")
        bob.request("info", game="air")
        bob.request("view", game="air")
        bob.request("update", game="air", since=0)
        replay = base64.b64decode(bob.request("replay", game="air")["save"])
        bob.request("list")
        bob.request("spectate", game="air")
        _, found = bob.choices("air")
        arrange = next(c for d in found if d.pending for c in d.commands if c.type == "ArrangeAirLine")
        for field in arrange.fields:  # every branch opened, as a window does while the player chooses
            for option in field.all_options():
                option.next_fields()
        command = {"type": "ArrangeAirLine", "actor": "ussr", "fighters": ["i1", "i2"], "bombers": []}
        bob.request("preview", game="air", command=command)
        looked = list(frames)
        assert bob.submit("air", command)["accepted"]
        return looked, frames[len(looked):], replay


def test_a_player_never_receives_the_dice_secret_or_the_other_sides_hidden_event(seen_by_bob):
    stored, hidden_seq, looked = seen_by_bob["stored"], seen_by_bob["hidden_seq"], seen_by_bob["looked"]
    hidden = stored[hidden_seq]
    for frame in looked + seen_by_bob["deciding"]:
        for name, value in seen_by_bob["secrets"].items():
            assert value not in frame, f"{name} was sent to bob"
        for key_path, _ in walk(json.loads(frame)):
            assert not ({"seed", "dice_playback", "head_salt"} & set(key_path[-1:])), \
                f"a secret field {key_path} was sent to bob"
    for frame in looked:
        assert canonical_json(SECRET_LINE["fighters"]) not in frame and canonical_json(SECRET_LINE["bombers"]) not in frame
        for _, value in walk(json.loads(frame)):
            assert not (isinstance(value, dict) and value.get("type") == "AirLineArranged"
                        and value.get("data", {}).get("side") == "axis"), "alice's arrangement was sent to bob"
        assert hidden.hash.hex() not in frame, "the hidden event's stored hash was sent to bob"
    # no stored hash at all reaches bob's view: each chains on the hidden event (kernel/views.py)
    after_hidden = {r.hash.hex() for seq, r in stored.items() if seq >= hidden_seq}
    for frame in looked:
        assert not [h for h in after_hidden if h in frame], "a stored hash chained on the hidden event was sent to bob"


def test_a_players_replay_keeps_the_gap_of_a_hidden_event_and_opens(seen_by_bob, tmp_path):
    stored, hidden_seq = seen_by_bob["stored"], seen_by_bob["hidden_seq"]
    path = tmp_path / "bob-replay.wif"
    path.write_bytes(seen_by_bob["replay"])
    with Game.open(path, read_only=True) as view:
        shown = [r.seq for r in view.history()]
        assert hidden_seq not in shown and shown == [seq for seq in stored if seq != hidden_seq]
        assert not [r for r in view.history() if r.type == "AirLineArranged"]
        walk_through = Replay(view)
        walk_through.seek(1)
        walk_through.seek(walk_through.last)
        assert walk_through.state.kernel.seq == max(stored) and walk_through.skipped == []


def test_the_signature_request_carries_no_hash_of_the_hidden_event(seen_by_bob):
    """What bob signs names the heads his command was decided on and made, salted
    (kernel/fairplay.py signed_head): a bare head chains on alice's hidden arrangement, and
    bob could test guesses of it against it, as tests/kernel/test_views.py's attack does."""
    stored, hidden_seq = seen_by_bob["stored"], seen_by_bob["hidden_seq"]
    sign_requests = [bytes.fromhex(json.loads(f)["message"]) for f in seen_by_bob["deciding"]
                     if json.loads(f).get("op") == "sign"]
    assert sign_requests and all(m.startswith(b'["wif signed command"') for m in sign_requests)
    after_hidden = {r.hash.hex().encode() for seq, r in stored.items() if seq >= hidden_seq}
    assert not [m for m in sign_requests if any(h in m for h in after_hidden)]
