"""The rooms adapter: settings, start, moves, views, early end and results (no server)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import pytest
from django.utils import translation

from games.mathesso.adapter import MathessoSolo, MathessoTable, clean_settings
from games.mathesso.rules import IllegalMove
from games.rooms import registry
from games.rooms.errors import RoomError
from games.rooms.registry import SeatInfo
from tests.mathesso.cheat import mismatch, next_moves

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TABLE = MathessoTable()


def seats(*ids: int, spectator: int | None = None) -> list[SeatInfo]:
    infos = [SeatInfo(pid, f"P{pid}", "host" if i == 0 else "player") for i, pid in enumerate(ids)]
    if spectator is not None:
        infos.append(SeatInfo(spectator, "Watcher", "spectator"))
    return infos


def start(*ids: int, settings: dict | None = None, seed: int = 1, spectator=None) -> dict:
    outcome = TABLE.start(
        settings=clean_settings(settings or {"variant": "pico"}),
        seats=seats(*ids, spectator=spectator),
        rng=random.Random(seed),
        now=NOW,
    )
    return outcome.state


def move(state: dict, player: str, message: dict):
    return TABLE.apply(
        state, player_id=int(player), role="player", message=message, now=NOW, rng=random.Random(0)
    )


def play_out(state: dict) -> tuple[dict, list]:
    outcomes = []
    while state["phase"] != "over":
        for player, message in next_moves(state):
            outcome = move(state, player, message)
            outcomes.append(outcome)
            state = outcome.state
    return state, outcomes


def test_both_modes_are_registered_with_their_limits():
    assert isinstance(registry.get("mathesso", "table"), MathessoTable)
    assert isinstance(registry.get("mathesso", "solo"), MathessoSolo)
    assert registry.get("mathesso", "table").limits.max_players == 6
    assert registry.get("mathesso", "solo").limits.max_players == 1


def test_settings_default_to_pico_with_points():
    assert clean_settings({}) == {"variant": "pico", "extensions": [], "points": True}


def test_settings_keep_points_off_for_the_youngest_unless_asked():
    assert clean_settings({"variant": "atto"})["points"] is False
    assert clean_settings({"variant": "atto", "points": True})["points"] is True


def test_settings_count_points_in_femto_unless_asked():
    assert clean_settings({"variant": "femto"})["points"] is True
    assert clean_settings({"variant": "femto", "points": False})["points"] is False


def test_settings_put_extensions_in_canonical_order():
    cleaned = clean_settings({"variant": "mili", "extensions": ["cjv", "factorial", "cjv"]})
    assert cleaned["extensions"] == ["factorial", "cjv"]


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"variant": "giga"}, "bad_variant"),
        ({"variant": 3}, "bad_variant"),
        ({"variant": "atto", "extensions": ["factorial"]}, "bad_extensions"),
        ({"variant": "femto", "extensions": ["cjv"]}, "bad_extensions"),
        ({"variant": "pico", "extensions": "cjv"}, "bad_extensions"),
        ({"variant": "pico", "extensions": ["magic"]}, "bad_extensions"),
        ({"variant": "pico", "points": "yes"}, "bad_points"),
    ],
)
def test_bad_settings_are_refused_with_a_stable_code(settings, code):
    with pytest.raises(RoomError) as caught:
        clean_settings(settings)
    assert caught.value.code == code


def test_start_seats_the_players_but_not_the_spectator():
    state = start(11, 12, spectator=13)
    assert state["seats"] == ["11", "12"]
    assert state["phase"] == "order"
    assert len(state["tiles"]) == 58


def test_a_solo_game_starts_in_play_and_says_whose_turn_it_is():
    outcome = MathessoSolo().start(
        settings=clean_settings({"variant": "atto"}), seats=seats(5), rng=random.Random(2), now=NOW
    )
    assert outcome.state["phase"] == "play"
    assert outcome.public[-1] == {"type": "turn_started", "player": "5", "round": 1}


def test_the_layout_seed_comes_from_the_room_rng_and_replays_identically():
    assert start(1, 2, seed=7) == start(1, 2, seed=7)
    assert start(1, 2, seed=7)["seed"] != start(1, 2, seed=8)["seed"]


def test_a_move_is_applied_for_the_authenticated_player_only():
    state = start(1, 2)
    player, message = next_moves(state)[0]
    forged = {**message, "player": "2" if player == "1" else "1"}
    outcome = move(state, player, forged)
    assert outcome.public[0]["player"] == player


def test_an_illegal_move_raises_the_engines_stable_code():
    state = start(1, 2)
    with pytest.raises(IllegalMove) as caught:
        move(state, "1", {"type": "end_turn"})
    assert caught.value.code == "wrong_phase"
    with pytest.raises(IllegalMove) as caught:
        move(state, "1", {"type": "flip", "tile": "x"})
    assert caught.value.code == "bad_action"


def test_views_never_hold_a_hidden_face_or_the_seed():
    state = start(1, 2)
    for player, message in next_moves(state)[:1]:
        state = move(state, player, message).state
    for player_id, role in ((1, "host"), (2, "player"), (None, "spectator"), (99, "spectator")):
        shown = TABLE.view(state, player_id=player_id, role=role, seat_state={})
        assert "seed" not in json.dumps(shown)
        for tile in shown["tiles"]:
            hidden = not tile["up"] and tile["owner"] is None
            assert hidden == ("face" not in tile)
            assert hidden == ("group" not in tile)
            assert hidden == ("value" not in tile)
    assert TABLE.view(state, player_id=99, role="spectator", seat_state={})["you"] is None


def test_a_full_game_finishes_and_ranks_the_players():
    state, outcomes = play_out(start(1, 2, 3))
    assert outcomes[-1].finished
    assert not any(o.finished for o in outcomes[:-1])
    results = TABLE.results(state, {})
    assert sorted(r.player_id for r in results) == [1, 2, 3]
    assert all(r.completed for r in results)
    by_score = sorted(results, key=lambda r: -r.score)
    assert by_score[0].rank == 1
    for r in results:
        assert r.rank == 1 + sum(other.score > r.score for other in results)
        assert r.details["variant"] == "pico"
    assert sum(r.details["pairs"] for r in results) == 29


def test_the_end_view_carries_the_breakdown():
    state, _ = play_out(start(1, 2))
    shown = TABLE.view(state, player_id=1, role="host", seat_state={})
    assert shown["phase"] == "over"
    assert set(shown["result"]["breakdown"]) == {"1", "2"}
    assert shown["ended"] is False


def test_ending_early_scores_the_game_as_it_stands_and_marks_it_unfinished():
    state = start(1, 2)
    for _ in range(3):
        for player, message in next_moves(state):
            state = move(state, player, message).state
    ended = TABLE.end(state, now=NOW)
    shown = TABLE.view(ended, player_id=1, role="host", seat_state={})
    assert shown["ended"] is True
    assert shown["result"]["breakdown"]
    results = TABLE.results(ended, {})
    assert not any(r.completed for r in results)
    assert sum(r.details["pairs"] for r in results) == 2


def test_solo_practice_counts_turns_including_failed_ones():
    solo = MathessoSolo()
    state = solo.start(
        settings=clean_settings({"variant": "atto"}), seats=seats(8), rng=random.Random(3), now=NOW
    ).state
    for player, message in mismatch(state):
        state = move(state, player, message).state
    state, _ = play_out(state)
    (result,) = solo.results(state, {})
    assert result.details["turns"] == 12  # one miss and 11 pairs
    assert result.rank == 1
    assert result.score == 11  # Atto counts pairs


def test_a_sheldon_offers_the_extra_turn_in_the_view_and_end_turn_keeps_it():
    state = start(1, settings={"variant": "pico", "extensions": ["cjv"]})
    ids = {}
    for i, tile in enumerate(state["tiles"]):
        ids.setdefault(tile["face"], []).append(i)
    events = []
    for face in ("cjv:1", "cjv:3"):
        for tile in ids[face]:
            outcome = move(state, "1", {"type": "flip", "tile": tile})
            state, events = outcome.state, events + outcome.public
    types = [e["type"] for e in events]
    assert "sheldon" in types and types[-1] == "extra_turn_offered"
    shown = TABLE.view(state, player_id=1, role="host", seat_state={})
    assert shown["turn"]["offer"] is True
    assert shown["actions"] == ["end_turn", "flip"]
    assert shown["players"][0]["score"] == 12
    declined = move(state, "1", {"type": "end_turn"})
    assert [e["type"] for e in declined.public][0] == "extra_turn_declined"
    after = TABLE.view(declined.state, player_id=1, role="host", seat_state={})
    assert after["players"][0]["extra_turns"] == 1 and after["turn"]["offer"] is False


def test_players_who_flip_the_same_number_are_told_to_flip_again():
    # Seed 000, step 3: „Pokud více hráčů objeví na barevné straně stejné číslo,
    # otočí tito hráči další kartičku s číslem 1 a postupují znovu podle kroku 2."
    state = start(1, 2, 3, spectator=4)
    ones = {t["face"]: i for i, t in enumerate(state["tiles"]) if t["bw"] == 1}
    state = move(state, "1", {"type": "flip", "tile": ones["square:1"]}).state
    state = move(state, "2", {"type": "flip", "tile": ones["fib:1"]}).state
    outcome = move(state, "3", {"type": "flip", "tile": ones["mult:1x2"]})
    state = outcome.state
    tie = outcome.public[-1]
    assert tie["type"] == "order_tie" and tie["groups"] == [{"players": ["1", "2"], "value": 1}]

    def notice(viewer: int | None) -> str:
        with translation.override("en"):
            shown = TABLE.view(state, player_id=viewer, role="player", seat_state={})
        return shown["ordering"]["notice"]

    for tied in (1, 2):
        assert notice(tied) == (
            "Someone else found the same number as you (1): flip another tile showing 1."
        )
    for other in (3, 4, None):
        assert notice(other) == "Players with the same number (1) flip another tile showing 1."
    # One tied player has flipped again: the other is still told to.
    state = move(state, "1", {"type": "flip", "tile": ones["mult:1x3"]}).state
    assert notice(2).startswith("Someone else found the same number as you (1)")
    assert notice(1).startswith("Players with the same number (1)")
    state = move(state, "2", {"type": "flip", "tile": ones["mult:1x4"]}).state
    assert TABLE.view(state, player_id=1, role="player", seat_state={})["ordering"] is None
    assert state["order"] == ["1", "2", "3"]
