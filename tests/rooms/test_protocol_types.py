"""The protocol is declared, not built: every message, event, frame and view is a model
class a type checker can read, each family a discriminated union on ``type``, and every
game of every mode declares the model of what its players see (issue 26 §3).

The views themselves are checked against their models where they are produced: on
every frame of a game of every mode (``test_schemas.py``) and on every stored event
(``schema_check.py``).
"""

from __future__ import annotations

import inspect
from typing import Annotated, get_args, get_origin

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from games.abaku import events as abaku
from games.mathesso import events as mathesso
from games.poker.room_games import events as poker
from games.rooms import protocol, registry, schemas
from games.theorems import events as theorems

UNIONS = {
    "runtime messages": (schemas.RuntimeMessage, schemas.MESSAGES),
    "runtime events": (schemas.RuntimeEvent, schemas.EVENTS),
    "frames": (schemas.Frame, schemas.FRAMES),
    "abaku messages": (abaku.AbakuMessage, abaku.MESSAGES),
    "abaku events": (abaku.AbakuEvent, abaku.EVENTS),
    "mathesso messages": (mathesso.MathessoMessage, mathesso.MESSAGES),
    "mathesso events": (mathesso.MathessoEvent, mathesso.EVENTS),
    "theorems messages": (theorems.TheoremsMessage, theorems.MESSAGES),
    "theorems events": (theorems.TheoremsEvent, theorems.EVENTS),
    "theorems log": (theorems.LogEntry, theorems.LOG_ENTRIES),
    "poker group messages": (poker.GroupMessage, poker.GROUP_MESSAGES),
    "poker group events": (poker.GroupEvent, poker.GROUP_EVENTS),
    "poker duel messages": (poker.DuelMessage, poker.DUEL_MESSAGES),
    "poker duel events": (poker.DuelEvent, poker.DUEL_EVENTS),
    "poker board events": (poker.BoardEvent, poker.by_union(poker.BoardEvent)),
}


def project_adapters() -> list[tuple[str, str, registry.RoomGame]]:
    return [
        (game, mode, registry.get(game, mode))
        for game, mode in registry.registered()
        if type(registry.get(game, mode)).__module__.startswith("games.")
    ]


@pytest.mark.parametrize("name", sorted(UNIONS))
def test_each_family_is_a_discriminated_union_of_declared_classes(name):
    union, table = UNIONS[name]
    assert get_origin(union) is Annotated
    assert get_args(union)[1].discriminator == "type"
    members = schemas.union_members(union)
    assert table == {schemas.type_name(model): model for model in members}
    for model in members:
        # declared in a module with a class statement, not built by create_model
        assert inspect.getsource(model).startswith(f"class {model.__name__}(")
        assert model.__module__ != "pydantic.main"


@pytest.mark.parametrize("name", sorted(UNIONS))
def test_a_union_tells_its_members_apart_by_type(name):
    union, table = UNIONS[name]
    checker = TypeAdapter(union)
    with pytest.raises(ValidationError, match="union_tag_invalid|does not match any"):
        checker.validate_python({"type": "no such type"})
    kind = next(kind for kind, model in table.items() if _required(model) - {"type"})
    with pytest.raises(ValidationError) as refused:
        checker.validate_python({"type": kind})
    # the errors name the member the tag chose, not every member of the union
    assert {error["loc"][0] for error in refused.value.errors()} == {kind}
    assert {error["type"] for error in refused.value.errors()} == {"missing"}


def _required(model: type[BaseModel]) -> set[str]:
    return {name for name, info in model.model_fields.items() if info.is_required()}


def test_every_adapter_uses_the_declared_tables_and_view_model_of_its_game():
    expected = {
        ("abaku", "table"): (abaku.MESSAGES, abaku.EVENTS, abaku.AbakuView),
        ("abaku", "solo"): (abaku.MESSAGES, abaku.EVENTS, abaku.AbakuView),
        ("mathesso", "table"): (mathesso.MESSAGES, mathesso.EVENTS, mathesso.MathessoView),
        ("mathesso", "solo"): (mathesso.MESSAGES, mathesso.EVENTS, mathesso.MathessoView),
        ("theorems", "table"): (theorems.MESSAGES, theorems.EVENTS, theorems.TheoremsView),
        ("theorems", "homework"): (theorems.MESSAGES, theorems.EVENTS, theorems.TheoremsView),
        ("poker", "group"): (poker.GROUP_MESSAGES, poker.GROUP_EVENTS, poker.GroupView),
        ("poker", "duel"): (poker.DUEL_MESSAGES, poker.DUEL_EVENTS, poker.DuelView),
    }
    found = {(game, mode): adapter for game, mode, adapter in project_adapters()}
    assert set(found) == set(expected)
    for key, (messages, events, view) in expected.items():
        adapter = found[key]
        assert (adapter.messages, adapter.events, adapter.view_model) == (messages, events, view)
        assert issubclass(view, BaseModel) and view.model_config.get("extra") == "forbid"


def test_a_sync_view_is_checked_against_the_game_view_model():
    adapter = registry.get("poker", "duel")
    view = {
        "kind": "duel",
        "settings": {"table": "classic", "difficulty": "easy", "seconds": None},
        "players": [{"player_id": 1, "nickname": "Anna"}],
        "server_now": 1.5,
        "dealt": 0,
        "closed": False,
        "progress": {},
        "game": None,
        "ended": False,
    }
    assert protocol.view_problem(adapter, view) is None
    assert protocol.view_problem(adapter, {}) is None  # the lobby: nothing yet
    assert "secret_deck" in protocol.view_problem(adapter, {**view, "secret_deck": [1, 2]})
    assert "server_now" in protocol.view_problem(adapter, {**view, "server_now": "soon"})
    assert protocol.view_problem(adapter, [view]) is not None
    sync = {
        "type": "sync",
        "seq": 3,
        "room": {
            "code": "ABCDEF",
            "game": "poker",
            "mode": "duel",
            "status": "running",
            "locked": False,
            "host_id": 1,
            "max_players": 2,
            "spectators": False,
            "expires_at": "2026-01-01T00:00:00+00:00",
            "seats": [],
        },
        "you": {"player_id": 1, "role": "host", "status": "joined"},
        "view": {**view, "deck": [1]},
    }
    problems = protocol.frame_problems(adapter, sync)
    assert len(problems) == 1 and "deck" in problems[0]
