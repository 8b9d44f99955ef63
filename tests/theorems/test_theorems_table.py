"""The rooms adapter of Matematici: setup, routing by ``to_act``, robots, views, results."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest

from games.rooms import registry
from games.rooms.errors import RoomError
from games.rooms.registry import SeatInfo
from games.theorems.adapter import TheoremsTable
from games.theorems.errors import TheoremsError
from games.theorems.rules import STARTER_DECKS, GameState, choose_action, legal_actions

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
GEOMETERS, NUMBER_THEORISTS = STARTER_DECKS


def deck_message(starter=GEOMETERS, **changes) -> dict:
    message = {
        "type": "deck",
        "name": str(starter.names["en"]),
        "mathematician": starter.mathematician,
        "cards": list(starter.deck),
    }
    message.update(changes)
    return message


def started(humans: int = 1, *, table_size: int = 2, seed: int = 1) -> tuple[TheoremsTable, dict]:
    adapter = TheoremsTable()
    seats = [SeatInfo(100 + i, f"P{i}", "host" if i == 0 else "player") for i in range(humans)]
    outcome = adapter.start(
        settings={"table_size": table_size, "robot_delay_ms": 500},
        seats=seats,
        rng=random.Random(seed),
        now=NOW,
    )
    return adapter, outcome.state


def dealt(humans: int = 1, *, table_size: int = 2, seed: int = 1) -> tuple[TheoremsTable, dict]:
    adapter, state = started(humans, table_size=table_size, seed=seed)
    for i in range(humans):
        starter = STARTER_DECKS[i % 2]
        state = adapter.apply(
            state,
            player_id=100 + i,
            role="player",
            message=deck_message(starter),
            now=NOW,
            rng=random.Random(0),
        ).state
    return adapter, state


def act(adapter, state, player_id, action, now=NOW):
    return adapter.apply(
        state,
        player_id=player_id,
        role="player",
        message={"type": "action", "action": action},
        now=now,
        rng=random.Random(0),
    )


def test_the_adapter_is_registered_for_tables():
    adapter = registry.get("theorems", "table")
    assert isinstance(adapter, TheoremsTable)
    assert adapter.limits.max_players == 4


@pytest.mark.parametrize(
    "settings",
    [
        {"table_size": 1},
        {"table_size": 5},
        {"table_size": "3"},
        {"burn": "no"},
        {"robot_delay_ms": -1},
    ],
)
def test_bad_table_settings_are_refused(settings):
    with pytest.raises(RoomError) as refused:
        TheoremsTable().clean_settings(settings)
    assert refused.value.code in {"bad_table_size", "bad_settings"}


def test_empty_settings_mean_a_table_of_two_with_burning():
    assert TheoremsTable().clean_settings({}) == {
        "table_size": 2,
        "burn": True,
        "robot_delay_ms": 700,
    }


def test_robots_fill_the_empty_seats_with_a_starter_deck():
    _adapter, state = started(humans=1, table_size=4)
    assert state["phase"] == "setup"
    seats = state["seats"]
    assert [s["robot"] for s in seats] == [False, 1, 2, 3]
    starters = {d.id: d for d in STARTER_DECKS}
    for robot in seats[1:]:
        assert robot["player_id"] is None
        assert robot["deck"] == list(starters[robot["deck_name"]].deck)


def test_a_full_table_of_humans_gets_no_robots():
    _adapter, state = started(humans=3, table_size=2)
    assert [s["robot"] for s in state["seats"]] == [False, False, False]


def test_the_cards_are_dealt_when_every_human_has_chosen_a_deck():
    adapter, state = started(humans=2, table_size=3)
    outcome = adapter.apply(
        state, player_id=100, role="host", message=deck_message(), now=NOW, rng=random.Random(0)
    )
    assert outcome.state["phase"] == "setup"
    assert outcome.public == [{"type": "deck_chosen", "seat": 0}]
    outcome = adapter.apply(
        outcome.state,
        player_id=101,
        role="player",
        message=deck_message(NUMBER_THEORISTS),
        now=NOW,
        rng=random.Random(0),
    )
    assert outcome.state["phase"] == "playing"
    game = GameState.from_dict(outcome.state["game"])
    assert [p.mathematician for p in game.players][:2] == ["euclid", "gauss"]
    assert all(len(p.hand) == 4 for p in game.players)
    assert set(outcome.private) == {100, 101}  # each human gets their own view


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"cards": list(GEOMETERS.deck[:9])}, "deck_too_small"),
        ({"cards": [*GEOMETERS.deck[:10], GEOMETERS.deck[0]]}, "duplicate_card"),
        ({"cards": [*GEOMETERS.deck, "no_such_card"]}, "unknown_card"),
        ({"mathematician": "pythagoras"}, "not_a_mathematician"),
        ({"cards": [*GEOMETERS.deck, "gauss"]}, "mathematician_in_deck"),
        ({"cards": "pythagoras"}, "malformed_deck"),
        ({"name": ""}, "bad_deck_name"),
    ],
)
def test_an_invalid_deck_is_refused_with_the_engines_code(changes, code):
    adapter, state = started()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises((RoomError, TheoremsError)) as refused:
        adapter.apply(
            state,
            player_id=100,
            role="host",
            message=deck_message(**changes),
            now=NOW,
            rng=random.Random(0),
        )
    assert refused.value.code == code
    assert json.dumps(state, sort_keys=True) == before


def test_moves_before_the_deal_and_decks_after_it_are_refused():
    adapter, state = started()
    with pytest.raises(RoomError) as refused:
        act(adapter, state, 100, {"type": "draw"})
    assert refused.value.code == "not_playing"
    adapter, state = dealt()
    with pytest.raises(RoomError) as refused:
        adapter.apply(
            state, player_id=100, role="host", message=deck_message(), now=NOW, rng=random.Random(0)
        )
    assert refused.value.code == "not_in_setup"


def _human_to_act(state) -> int | None:
    game = GameState.from_dict(state["game"])
    seat = state["seats"][game.to_act]
    return seat["player_id"]


def test_input_is_routed_by_to_act_and_others_are_refused():
    adapter, state = dealt(humans=2, table_size=2)
    game = GameState.from_dict(state["game"])
    waiting = state["seats"][1 - game.to_act]["player_id"]
    with pytest.raises(TheoremsError) as refused:
        act(adapter, state, waiting, {"type": "end_turn"})
    assert refused.value.code == "not_your_turn"
    mover = state["seats"][game.to_act]["player_id"]
    after = act(adapter, state, mover, {"type": "end_turn"}).state
    assert GameState.from_dict(after["game"]).current != game.current


@pytest.mark.parametrize(
    "action",
    [
        {"type": "fly"},
        {"type": "play"},
        "draw",
        {"type": "play", "card": "nonsense"},
        {"type": {"card": "abacus"}},
        {"type": ["draw"]},
        {"type": "play", "card": {"id": "abacus"}},
        {"type": "choose", "choice": {"x": [1]}},
    ],
)
def test_a_malformed_move_changes_nothing(action):
    adapter, state = dealt(humans=2)
    mover = _human_to_act(state)
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(TheoremsError):
        act(adapter, state, mover, action)
    assert json.dumps(state, sort_keys=True) == before


def test_a_player_without_a_seat_is_refused():
    adapter, state = dealt()
    with pytest.raises(RoomError) as refused:
        act(adapter, state, 999, {"type": "draw"})
    assert refused.value.code == "not_seated"


def test_the_view_never_shows_other_hands_pile_order_or_the_seed():
    adapter, state = dealt(humans=2, table_size=3)
    game = GameState.from_dict(state["game"])
    mine = adapter.view(state, player_id=100, role="host", seat_state={})
    assert mine["you"] == 0
    players = mine["game"]["players"]
    assert sorted(players[0]["hand"]) == sorted(game.players[0].hand)
    assert all("hand" not in p for p in players[1:])
    text = json.dumps({key: value for key, value in mine.items() if key != "my_deck"})
    assert 'draw_pile"' not in text and "seed" not in text
    for other in game.players[1:]:
        for card in other.hand:
            visible = {
                *(t["card"] for p in players for t in p["theorems"]),
                *(c for p in players for c in p["discard_pile"]),
                *players[0]["hand"],
                *(m for m in (p["mathematician"] for p in players)),
            }
            assert card in visible or json.dumps(card) not in text
    # other players' deck lists are not shown either, only their names
    public_keys = {"seat", "player_id", "nickname", "robot", "ready", "deck_name", "mathematician"}
    assert all(set(s) == public_keys for s in mine["seats"])
    assert mine["my_deck"]["cards"] == list(GEOMETERS.deck)


def test_private_views_go_only_to_their_own_player():
    adapter, state = dealt(humans=2)
    mover = _human_to_act(state)
    outcome = act(adapter, state, mover, {"type": "draw"})
    for player_id, events in outcome.private.items():
        seat = next(i for i, s in enumerate(outcome.state["seats"]) if s["player_id"] == player_id)
        (event,) = events
        assert event["view"]["you"] == seat
        assert [("hand" in p) for p in event["view"]["game"]["players"]] == [
            i == seat for i in range(2)
        ]
    assert any(e["type"] == "log" for e in outcome.public)


def test_a_robot_acts_on_a_tick_once_its_moment_has_come():
    adapter, state = dealt(humans=1, table_size=2, seed=3)
    # make it the robot's turn
    while _human_to_act(state) is not None:
        state = act(adapter, state, 100, {"type": "end_turn"}).state
    due = adapter.next_deadline(state)
    assert due is not None and due > NOW
    assert adapter.tick(state, now=due - timedelta(milliseconds=1), rng=random.Random(0)) is None
    outcome = adapter.tick(state, now=due, rng=random.Random(0))
    assert outcome is not None
    assert len(outcome.state["game"]["log"]) > len(state["game"]["log"])


def _play_out(adapter, state, rng, now=NOW) -> dict:
    for _step in range(3000):
        if state["phase"] != "playing":
            return state
        player_id = _human_to_act(state)
        if player_id is None:
            now = adapter.next_deadline(state)
            state = adapter.tick(state, now=now, rng=rng).state
        else:
            game = GameState.from_dict(state["game"])
            action = choose_action(game, rng)
            assert action in legal_actions(game)
            action = {k: v for k, v in action.items() if k != "player"}
            state = act(adapter, state, player_id, action, now=now).state
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("seed", range(4))
def test_a_human_and_robots_play_to_the_end_and_get_results(seed):
    adapter, state = dealt(humans=1, table_size=2 + seed % 3, seed=seed)
    final = _play_out(adapter, state, random.Random(seed))
    assert final["phase"] == "finished"
    assert final["robot_due"] is None
    game = GameState.from_dict(final["game"])
    (result,) = adapter.results(final, {})
    assert result.player_id == 100
    assert result.completed is True
    assert result.score == len(game.players[0].proven)
    assert result.details["won"] == (0 in game.winners)
    expected = "draw" if not game.winners else ("win" if 0 in game.winners else "loss")
    assert result.details["outcome"] == expected
    assert result.details["duration_s"] >= 0
    assert (result.rank == 1) == (0 in game.winners or not game.winners and result.rank == 1)


def test_two_humans_are_ranked_by_the_game():
    adapter, state = dealt(humans=2, table_size=2, seed=5)
    final = _play_out(adapter, state, random.Random(5))
    results = {r.player_id: r for r in adapter.results(final, {})}
    game = GameState.from_dict(final["game"])
    for seat, player_id in enumerate((100, 101)):
        if seat in game.winners:
            assert results[player_id].rank == 1
    if game.winners:
        assert sorted(r.rank for r in results.values()) == [1, 2]


def test_the_host_ending_the_game_early_scores_it_as_not_completed():
    adapter, state = dealt()
    ended = adapter.end(state, now=NOW)
    assert ended["phase"] == "ended"
    assert adapter.next_deadline(ended) is None
    (result,) = adapter.results(ended, {})
    assert result.completed is False


def test_a_game_ended_before_the_deal_has_no_results():
    adapter, state = started()
    assert adapter.results(adapter.end(state, now=NOW), {}) == []
