"""The JSON Schema (``docs/protocol.schema.json``) and the JS typedefs
(``static/js/kit/protocol.js``) are generated from the protocol's pydantic models and
fail here when they are stale: run ``python -m tools.protocol_schema``."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from tools import protocol_schema


@pytest.fixture(scope="module")
def rendered() -> tuple[str, str]:
    return protocol_schema.render()


def test_the_committed_json_schema_is_the_one_the_models_give(rendered):
    schema, _typedefs = rendered
    assert protocol_schema.SCHEMA.read_text() == schema, (
        "docs/protocol.schema.json is stale: run python -m tools.protocol_schema"
    )


def test_the_committed_js_typedefs_are_the_ones_the_models_give(rendered):
    _schema, typedefs = rendered
    assert protocol_schema.TYPEDEFS.read_text() == typedefs, (
        "static/js/kit/protocol.js is stale: run python -m tools.protocol_schema"
    )


def test_the_check_command_fails_on_a_stale_file(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "protocol.js"
    stale.write_text("// an old protocol.js\n")
    monkeypatch.setattr(protocol_schema, "TYPEDEFS", stale)
    monkeypatch.setattr(protocol_schema, "ROOT", tmp_path)
    monkeypatch.setattr(protocol_schema, "SCHEMA", tmp_path / "protocol.schema.json")
    protocol_schema.SCHEMA.write_text(protocol_schema.render()[0])
    assert protocol_schema.main(["--check"]) == 1
    assert "protocol.js is out of date" in capsys.readouterr().err
    assert protocol_schema.main([]) == 0
    assert protocol_schema.main(["--check"]) == 0


def _validator(name: str) -> Draft202012Validator:
    document = json.loads(protocol_schema.SCHEMA.read_text())
    return Draft202012Validator({**document, "$ref": f"#/$defs/{name}"})


def test_the_schema_is_valid_json_schema_and_names_every_room_family():
    document = json.loads(protocol_schema.SCHEMA.read_text())
    Draft202012Validator.check_schema(document)
    for room in document["x-rooms"]:
        for part in ("message", "event", "view"):
            assert room[part] in document["$defs"], room
    games = {room["game"] for room in document["x-rooms"]}
    assert games >= {"poker", "mathesso", "abaku", "theorems"}
    assert {"Frame", "RuntimeMessage", "RuntimeEvent"} <= set(document["$defs"])


def test_the_schema_accepts_what_the_server_sends_and_refuses_what_it_never_does():
    frames = _validator("Frame")
    ack = {"type": "ack", "id": "a1", "seq": 4}
    assert not list(frames.iter_errors(ack))
    assert list(frames.iter_errors({**ack, "seq": "4"}))
    assert list(frames.iter_errors({**ack, "secret": 1}))
    assert list(frames.iter_errors({"type": "teleport"}))
    events = _validator("AbakuEvent")
    assert not list(events.iter_errors({"type": "turn", "player": 1, "deadline": None}))
    assert list(events.iter_errors({"type": "turn", "player": "1", "deadline": None}))
    messages = _validator("PokerDuelMessage")
    assert not list(messages.iter_errors({"type": "place", "cell": 3}))
    assert list(messages.iter_errors({"type": "place"}))
