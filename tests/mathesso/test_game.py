"""The game state machine, scripted move by move."""

import json

import pytest

from games.mathesso.rules import (
    VARIANT_NAMES,
    GameState,
    IllegalMove,
    apply_action,
    legal_actions,
    new_game,
    result,
    scores,
    view,
)

from .helpers import (
    assert_consistent,
    assert_finished_consistently,
    decide_order,
    end_turn,
    flip,
    ids_of,
    miss,
    one_tile,
    play,
    take,
    types,
)


def started(players=("ann", "bob"), variant="pico", extensions=(), seed="test", **kw):
    """A game whose order is decided: players play in the order given."""
    state = new_game(list(players), variant, extensions, seed=seed, **kw)
    if len(players) > 1:
        ranks = ["mult:1x2", "mult:1x3", "mult:1x4", "mult:1x5", "mult:1x6", "mult:1x7"]
        state, _ = decide_order(state, dict(zip(players, ranks, strict=False)))
    assert state.order == list(players)
    return state


def assert_illegal(state, action, code):
    before = state.to_dict()
    with pytest.raises(IllegalMove) as err:
        apply_action(state, action)
    assert err.value.code == code
    assert state.to_dict() == before


# ---------------------------------------------------------------- creating a game


def test_new_game_starts_with_the_order_procedure():
    state = new_game(["ann", "bob", "cy"], "pico", seed=1)
    v = view(state, "ann")
    assert v["phase"] == "order"
    assert v["ordering"]["waiting"] == ["ann", "bob", "cy"]
    assert v["turn"] is None
    assert v["actions"] == ["flip"]
    assert all(not t["up"] for t in v["tiles"])


def test_a_solo_game_skips_the_order_procedure():
    state = new_game(["ann"], "atto", seed=1)
    assert state.phase == "play"
    assert state.player == "ann"


@pytest.mark.parametrize("players", [[], ["a"] * 2, ["a", "b", "c", "d", "e", "f", "g"], [""]])
def test_a_table_holds_one_to_six_distinct_players(players):
    with pytest.raises(ValueError):
        new_game(players, "pico", seed=1)


def test_an_extension_not_allowed_for_the_variant_cannot_start_a_game():
    with pytest.raises(ValueError):
        new_game(["ann"], "femto", ["cjv"], seed=1)


def test_points_are_off_by_default_for_the_youngest_and_may_be_switched_on():
    assert new_game(["a"], "atto", seed=1).points is False
    assert new_game(["a"], "atto", seed=1, points=True).points is True
    assert new_game(["a"], "pico", seed=1).points is True


def test_femto_and_every_larger_variant_score_by_points_by_default():
    # Seed 000, under Atto only: "Výše popsaná pravidla počítání bodů se v této
    # variantě nepoužívají a vítězí ten hráč, který nalezl nejvíce párů".
    # Femto has no such sentence, so it counts points like the larger variants.
    defaults = {v: new_game(["a"], v, seed=1).points for v in VARIANT_NAMES}
    assert defaults == {v: v != "atto" for v in VARIANT_NAMES}
    assert new_game(["a"], "femto", seed=1, points=False).points is False


# ---------------------------------------------------------------- order of play


def test_the_lowest_coloured_value_plays_first_and_seats_follow_the_order():
    state = new_game(["ann", "bob", "cy"], "pico", seed=2)
    state, events = decide_order(state, {"ann": "mult:1x9", "bob": "square:1", "cy": "mult:1x4"})
    assert state.order == ["bob", "cy", "ann"]
    assert types(events) == [
        "flipped",
        "flipped",
        "flipped",
        "order_decided",
        "turned_back",
        "turn_started",
    ]
    assert events[-1] == {"type": "turn_started", "player": "bob", "round": 1, "extra": False}
    v = view(state, "ann")
    assert [p["id"] for p in v["players"]] == ["bob", "cy", "ann"]
    assert v["ordering"] is None
    assert not any(t["up"] for t in v["tiles"])
    assert sorted(events[-2]["tiles"]) == sorted(e["tile"] for e in events[:3])


def test_order_flips_are_shown_to_everybody_while_the_order_is_decided():
    state = new_game(["ann", "bob"], "pico", seed=3)
    tile = one_tile(state, "mult:1x5")
    state, events = play(state, flip("ann", tile))
    assert events == [
        {
            "type": "flipped",
            "player": "ann",
            "tile": tile,
            "bw": 1,
            "face": "mult:1x5",
            "group": "mult",
            "value": 5,
            "picture": {
                "value": 5,
                "digits": [{"digit": "5", "colours": ["#f06ba8", "#43a047"]}],
                "background": "grey",
                "background_hex": ["#9e9e9e"],
                "behind": None,
                "dots": 0,
                "hint": None,
                "design": None,
            },
        }
    ]
    v = view(state, "bob")
    assert v["tiles"][tile]["face"] == "mult:1x5"
    assert v["tiles"][tile]["picture"] == events[0]["picture"]
    assert v["ordering"] == {"waiting": ["bob"], "draws": {"ann": [tile]}, "again": []}
    assert view(state, "ann")["actions"] == []


def test_players_who_tie_flip_another_one_tile():
    # Seed 000, step 3: „Pokud více hráčů objeví na barevné straně stejné číslo,
    # otočí tito hráči další kartičku s číslem 1 a postupují znovu podle kroku 2."
    state = new_game(["ann", "bob", "cy"], "pico", seed=4)
    state, events = decide_order(state, {"ann": "square:1", "bob": "fib:1", "cy": "mult:1x2"})
    assert events[-1] == {
        "type": "order_tie",
        "players": ["ann", "bob"],
        "groups": [{"players": ["ann", "bob"], "value": 1}],
    }
    assert state.phase == "order"
    # Everyone is told who flips again, and on which number they tied.
    for who in ("ann", "bob", "cy", None):
        ordering = view(state, who)["ordering"]
        assert ordering["waiting"] == ["ann", "bob"]
        assert ordering["again"] == [{"players": ["ann", "bob"], "value": 1}]
    assert legal_actions(state, "cy") == []
    assert_illegal(state, flip("cy", one_tile(state, "mult:1x8")), "not_your_turn")
    # The tiles already flipped stay face up and cannot be flipped again.
    assert_illegal(state, flip("ann", ids_of(state, "mult:1x2", 1)[0]), "already_flipped")
    state, _ = play(state, flip("bob", one_tile(state, "mult:1x7")))
    # Bob has flipped again; Ann still has to, and the tie is still theirs.
    assert view(state, "ann")["ordering"]["again"] == [{"players": ["ann", "bob"], "value": 1}]
    state, events = play(state, flip("ann", one_tile(state, "mult:1x9")))
    assert state.order == ["bob", "ann", "cy"]  # the tie decides only between the tied
    assert len(events[-2]["tiles"]) == 5  # every order tile goes back face down


def test_ties_go_on_until_broken():
    state = new_game(["ann", "bob"], "pico", seed=5)
    state, events = decide_order(state, {"ann": "square:1", "bob": "fib:1"})
    assert events[-1]["type"] == "order_tie"
    state, events = decide_order(state, {"ann": "square:1", "bob": "fib:1"})
    assert events[-1]["type"] == "order_tie"
    assert view(state)["ordering"]["again"] == [{"players": ["ann", "bob"], "value": 1}]
    state, events = decide_order(state, {"ann": "mult:1x3", "bob": "mult:1x2"})
    assert state.order == ["bob", "ann"]


def test_three_players_who_tie_all_flip_again():
    players = ["ann", "bob", "cy", "dan"]
    state = new_game(players, "pico", seed=8)
    faces = {"ann": "square:1", "bob": "fib:1", "cy": "square:1", "dan": "mult:1x2"}
    state, events = decide_order(state, faces)
    assert events[-1]["groups"] == [{"players": ["ann", "bob", "cy"], "value": 1}]
    assert view(state, "dan")["ordering"]["waiting"] == ["ann", "bob", "cy"]
    state, _ = decide_order(state, {"ann": "mult:1x3", "bob": "fib:1"})
    assert view(state)["ordering"]["again"] == [{"players": ["ann", "bob", "cy"], "value": 1}]
    state, _ = decide_order(state, {"cy": "mult:1x4"})
    assert state.order == ["bob", "ann", "cy", "dan"]


def test_ties_are_broken_by_lot_when_the_one_tiles_run_out():
    # Atto has seven "1" tiles: six players leave one, too few for two tied players.
    players = ["p1", "p2", "p3", "p4", "p5", "p6"]
    faces = ["square:1", "square:1", "mult:1x2", "mult:1x3", "mult:1x4", "mult:1x5"]
    state = new_game(players, "atto", seed=6)
    state, events = decide_order(state, dict(zip(players, faces, strict=True)))
    lots = next(e for e in events if e["type"] == "order_lots")
    assert sorted(lots["players"]) == ["p1", "p2"]
    assert state.order == [*lots["players"], "p3", "p4", "p5", "p6"]
    assert state.phase == "play"


def test_order_procedure_accepts_only_one_tiles():
    state = new_game(["ann", "bob"], "pico", seed=7)
    two = ids_of(state, "mult:1x2", 2)[0]
    assert_illegal(state, flip("ann", two), "not_a_one")
    assert_illegal(state, end_turn("ann"), "wrong_phase")
    assert_illegal(state, {"type": "turn_back"}, "nothing_to_turn_back")
    state, _ = play(state, flip("ann", one_tile(state, "mult:1x2")))
    assert_illegal(state, flip("ann", one_tile(state, "mult:1x3")), "not_your_turn")


# ---------------------------------------------------------------- turns


def test_two_tiles_with_the_same_face_are_taken_by_the_player():
    state = started()
    a, b = ids_of(state, "mult:3x4")
    state, events = play(state, flip("ann", a), flip("ann", b))
    assert types(events) == ["flipped", "flipped", "pair_taken", "turn_ended", "turn_started"]
    assert events[2] == {"type": "pair_taken", "player": "ann", "tiles": [a, b], "face": "mult:3x4"}
    assert state.player == "bob"  # one turn per round, even after a pair
    v = view(state, "bob")
    assert v["players"][0]["pairs"] == ["mult:3x4"]
    assert v["players"][0]["score"] == 2
    assert v["tiles"][a]["owner"] == "ann" and v["tiles"][a]["face"] == "mult:3x4"


def test_two_different_tiles_are_shown_and_then_turned_back():
    state = started()
    a = ids_of(state, "mult:3x4")[0]
    b = ids_of(state, "mult:2x6")[0]
    state, events = play(state, flip("ann", a), flip("ann", b))
    assert types(events) == ["flipped", "flipped", "no_pair", "turn_ended", "turn_started"]
    v = view(state, "bob")
    assert v["shown"] == [a, b]
    assert v["tiles"][a]["up"] and v["tiles"][b]["face"] == "mult:2x6"
    state, events = play(state, flip("bob", ids_of(state, "prime:2")[0]))
    assert events[0] == {"type": "turned_back", "tiles": [a, b]}
    assert not view(state)["tiles"][a]["up"]


def test_a_server_timer_may_turn_shown_tiles_back_earlier():
    state = started()
    state, _ = miss(state)
    shown = list(state.shown)
    state, events = play(state, {"type": "turn_back"})
    assert events == [{"type": "turned_back", "tiles": shown}]
    assert state.shown == [] and state.player == "bob"
    assert_illegal(state, {"type": "turn_back"}, "nothing_to_turn_back")


def test_a_player_may_flip_a_single_tile_and_end_the_turn():
    state = started()
    tile = ids_of(state, "prime:5")[0]
    assert_illegal(state, end_turn("ann"), "nothing_flipped")
    state, _ = play(state, flip("ann", tile))
    assert view(state, "ann")["actions"] == ["end_turn", "flip"]
    state, events = play(state, end_turn("ann"))
    assert types(events) == ["turn_ended", "turn_started"]
    assert state.player == "bob" and state.shown == [tile]
    assert view(state)["tiles"][tile]["face"] == "prime:5"


def test_a_shown_tile_may_be_flipped_again_by_the_next_player():
    state = started()
    a, b = ids_of(state, "prime:5")
    state, _ = play(state, flip("ann", a), end_turn("ann"))
    state, events = play(state, flip("bob", a), flip("bob", b))
    assert types(events)[:3] == ["turned_back", "flipped", "flipped"]
    assert state.pairs["bob"] == [[a, b]]


def test_rounds_count_and_every_player_has_one_turn_per_round():
    state = started(("ann", "bob", "cy"))
    seen = []
    for _ in range(6):
        seen.append((state.round, state.player))
        state, _ = take(state, next(f for f in _untaken_faces(state)))
    assert seen == [
        (1, "ann"),
        (1, "bob"),
        (1, "cy"),
        (2, "ann"),
        (2, "bob"),
        (2, "cy"),
    ]
    assert state.turns == {"ann": 2, "bob": 2, "cy": 2}


def _untaken_faces(state):
    owned = state.owners()
    return [p.tile.face for p in state.tiles if p.id not in owned and p.tile.group != "cjv"]


@pytest.mark.parametrize(
    ("make_action", "code"),
    [
        (lambda s: flip("bob", 0), "not_your_turn"),
        (lambda s: end_turn("bob"), "not_your_turn"),
        (lambda s: flip("zed", 0), "unknown_player"),
        (lambda s: flip("ann", len(s.tiles)), "no_such_tile"),
        (lambda s: flip("ann", -1), "no_such_tile"),
        (lambda s: flip("ann", s.flips[0]), "already_flipped"),
        (lambda s: flip("ann", ids_of(s, "mult:3x4")[0]), "tile_taken"),
        (lambda s: {"type": "flip", "player": "ann"}, "bad_action"),
        (lambda s: {"type": "flip", "player": "ann", "tile": "3"}, "bad_action"),
        (lambda s: {"type": "flip", "player": "ann", "tile": True}, "bad_action"),
        (lambda s: {"type": "end_turn"}, "bad_action"),
        (lambda s: {"type": "dance", "player": "ann"}, "bad_action"),
        (lambda s: ["flip", "ann", 0], "bad_action"),
    ],
)
def test_illegal_moves_have_stable_codes_and_change_nothing(make_action, code):
    state = started()
    state, _ = take(state, "mult:3x4")
    state, _ = miss(state)
    state, _ = play(state, flip("ann", ids_of(state, "prime:2")[0]))
    assert_illegal(state, make_action(state), code)


def test_illegal_move_serialises_for_a_client():
    err = IllegalMove("tile_taken")
    assert err.to_dict() == {"code": "tile_taken", "message": IllegalMove.CODES["tile_taken"]}
    assert json.dumps(err.to_dict())
    with pytest.raises(ValueError):
        IllegalMove("no_such_code")


def test_apply_action_leaves_the_given_state_untouched():
    state = started()
    before = state.to_dict()
    a, b = ids_of(state, "fib:8")
    after, _ = play(state, flip("ann", a), flip("ann", b))
    assert state.to_dict() == before
    assert after.pairs["ann"] == [[a, b]]


def test_state_round_trips_through_json():
    state = started(extensions=("factorial", "cjv"))
    state, _ = take(state, "cjv:1")
    state, _ = miss(state)
    state, _ = play(state, flip("ann", ids_of(state, "prime:2")[0]))
    text = json.dumps(state.to_dict())
    restored = GameState.from_dict(json.loads(text))
    assert restored == state
    assert_consistent(restored)


def test_from_dict_refuses_an_unknown_version():
    d = started().to_dict()
    d["version"] = 99
    with pytest.raises(ValueError):
        GameState.from_dict(d)


# ---------------------------------------------------------------- Sheldon


def sheldon_for_ann():
    """Ann completes a Sheldon in round 2 (cjv:1 in round 1, cjv:3 in round 2)."""
    state = started(extensions=("cjv",))
    state, _ = take(state, "cjv:1")
    state, _ = miss(state)
    state, events = take(state, "cjv:3")
    return state, events


def test_a_sheldon_scores_twelve_and_offers_an_extra_turn():
    state, events = sheldon_for_ann()
    assert types(events)[-4:] == ["pair_taken", "sheldon", "turn_ended", "extra_turn_offered"]
    assert scores(state)["ann"] == 12
    v = view(state, "ann")
    assert v["turn"] == {"player": "ann", "flips": [], "extra": False, "offer": True}
    assert v["players"][0]["extra_turns"] == 1 and v["players"][0]["sheldons"] == 1
    assert v["actions"] == ["end_turn", "flip"]
    assert view(state, "bob")["actions"] == []


def test_an_extra_turn_taken_is_a_whole_turn_outside_the_round():
    state, _ = sheldon_for_ann()
    state, events = miss(state)
    assert types(events)[:3] == ["extra_turn_taken", "turn_started", "flipped"]
    assert events[1] == {"type": "turn_started", "player": "ann", "round": 2, "extra": True}
    assert types(events)[-2:] == ["turn_ended", "turn_started"]
    assert state.player == "bob" and state.round == 2
    assert state.extra_turns("ann") == 0
    assert state.turns["ann"] == 3


def test_an_extra_turn_declined_is_kept_for_a_later_turn():
    state, _ = sheldon_for_ann()
    state, events = play(state, end_turn("ann"))
    assert types(events) == ["extra_turn_declined", "turn_started"]
    assert state.player == "bob" and state.extra_turns("ann") == 1
    state, _ = miss(state)
    state, events = miss(state)  # ann's ordinary turn in round 3
    assert types(events)[-1] == "extra_turn_offered"
    state, events = take(state, "prime:2")
    assert types(events)[0] == "extra_turn_taken"
    assert state.pairs["ann"][-1] and state.player == "bob"


def test_the_offer_is_made_after_any_own_turn_including_a_single_flip():
    state, _ = sheldon_for_ann()
    state, _ = play(state, end_turn("ann"))
    state, _ = miss(state)
    state, events = play(state, flip("ann", ids_of(state, "prime:3")[0]), end_turn("ann"))
    assert types(events)[-1] == "extra_turn_offered"


def test_cjv_tiles_of_one_design_from_two_pairs_of_the_box_are_taken_as_a_pair():
    # Seed 000: „Jako další kartičku hráč otočí číslo 21, aby na barevné straně
    # nalezl graficky stejně zpracované číslo 12." Both design-I pairs look alike.
    state = started(extensions=("cjv",))
    twelve_1 = ids_of(state, "cjv:1", 12)[0]
    twenty_one_2 = ids_of(state, "cjv:2", 21)[0]
    state, events = play(state, flip("ann", twelve_1), flip("ann", twenty_one_2))
    taken = next(e for e in events if e["type"] == "pair_taken")
    assert taken == {
        "type": "pair_taken",
        "player": "ann",
        "tiles": [twelve_1, twenty_one_2],
        "face": "cjv:1",
    }
    state, _ = miss(state)  # bob
    twelve_2 = ids_of(state, "cjv:2", 12)[0]
    twenty_one_1 = ids_of(state, "cjv:1", 21)[0]
    state, events = play(state, flip("ann", twenty_one_1), flip("ann", twelve_2))
    assert "pair_taken" in types(events) and "sheldon" not in types(events)
    assert state.faces_of("ann") == ["cjv:1", "cjv:2"]
    assert scores(state)["ann"] == 10  # two design-I pairs: 5 + 5, no Sheldon
    assert view(state)["players"][0]["pairs"] == ["cjv:1", "cjv:2"]


def test_the_two_black_twelves_do_not_pair_in_play():
    # Seed 000: „Následující černé kartičky 12 jsou různé, nejedná se tedy o pár".
    state = started(extensions=("cjv",))
    a, b = ids_of(state, "zero:12a")[0], ids_of(state, "zero:12b")[0]
    state, events = play(state, flip("ann", a), flip("ann", b))
    assert "no_pair" in types(events) and state.pairs["ann"] == []
    shown = {t["id"]: t["picture"] for t in view(state)["tiles"] if t["up"]}
    assert shown[a]["dots"] != shown[b]["dots"]


def test_two_sheldons_give_two_extra_turns_and_twenty_four_points():
    state, _ = sheldon_for_ann()
    state, _ = play(state, end_turn("ann"))
    state, _ = miss(state)
    state, events = take(state, "cjv:2")
    assert "sheldon" not in types(events)  # a third CJV pair alone is no Sheldon
    state, _ = play(state, end_turn("ann"))
    state, _ = miss(state)
    state, events = take(state, "cjv:4")
    assert "sheldon" in types(events)
    assert scores(state)["ann"] == 24
    assert state.extra_turns("ann") == 2
    state, _ = miss(state)
    assert state.player == "ann" and state.offer
    state, _ = miss(state)
    assert state.player == "bob" and state.extra_turns("ann") == 0


# ---------------------------------------------------------------- the end


def test_the_game_ends_when_every_tile_is_taken():
    state = new_game(["ann"], "atto", seed=8)
    faces = sorted({p.tile.face for p in state.tiles})
    for face in faces[:-1]:
        state, _ = take(state, face)
    assert state.phase == "play"
    state, events = take(state, faces[-1])
    assert types(events)[-2:] == ["turn_ended", "game_over"]
    assert events[-1] == {
        "type": "game_over",
        "scores": {"ann": 11},
        "winners": ["ann"],
        "draw": False,
    }
    assert state.turns["ann"] == 11  # solo practice counts turns
    assert view(state, "ann")["turn"] is None
    assert_finished_consistently(state)
    assert_illegal(state, flip("ann", 0), "game_over")
    assert_illegal(state, {"type": "turn_back"}, "game_over")


def test_equal_points_at_the_end_are_a_draw():
    state = started(variant="nano", points=False)
    while state.phase == "play":
        state, _ = take(state, _untaken_faces(state)[0])
    assert result(state) == {
        "scores": {"ann": 21, "bob": 21},
        "winners": ["ann", "bob"],
        "draw": True,
    }
    assert_finished_consistently(state)


def test_most_points_win_even_against_more_pairs():
    state = started(variant="pico")
    state, _ = take(state, "prime:2")
    state, _ = take(state, "square:3")
    state, _ = take(state, "prime:3")
    assert result(state) == {"scores": {"ann": 2, "bob": 3}, "winners": ["bob"], "draw": False}
    assert result(started(variant="pico", points=False)) == {
        "scores": {"ann": 0, "bob": 0},
        "winners": ["ann", "bob"],
        "draw": True,
    }


def test_the_end_view_itemises_every_players_score():
    state = new_game(["ann"], "atto", seed=9, points=True)
    while state.phase == "play":
        state, _ = take(state, _untaken_faces(state)[0])
    breakdown = view(state)["result"]["breakdown"]["ann"]
    assert breakdown["total"] == scores(state)["ann"]
    assert {k["key"] for k in breakdown["keys"]} == {1, 2, 3, 4, 5, 6}
