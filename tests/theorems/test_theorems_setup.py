"""Spec §1: players, decks, dealing, the start player."""

import json

import pytest

from games.theorems.rules import (
    CATALOGUE,
    STARTER_DECKS,
    GameState,
    IllegalMove,
    legal_actions,
    new_game,
)

DECK = [
    "pythagoras",
    "thales",
    "ceva",
    "ptolemy",
    "euler_line",
    "coffee",
    "eureka",
    "holidays",
    "conference",
    "computer",
]


def two_players(deck_a=DECK, deck_b=DECK, mathematician="euclid"):
    return [
        {"mathematician": mathematician, "deck": deck_a},
        {"mathematician": "gauss", "deck": deck_b},
    ]


def test_each_player_holds_four_cards_and_the_rest_is_their_draw_pile():
    state = new_game(two_players(), seed=3)
    for player in state.players:
        assert len(player.hand) == 4
        assert len(player.draw_pile) == len(DECK) - 4
        assert sorted(player.hand + player.draw_pile) == sorted(DECK)
        assert player.discard_pile == [] and player.boredom == 0


def test_decks_are_shuffled_from_the_seed_reproducibly():
    assert new_game(two_players(), seed=5).to_dict() == new_game(two_players(), seed=5).to_dict()
    orders = {tuple(new_game(two_players(), seed=s).players[0].draw_pile) for s in range(20)}
    assert len(orders) > 10


def test_start_player_is_random_and_has_two_actions_in_round_one():
    starts = set()
    for seed in range(30):
        state = new_game(two_players(), seed=seed)
        starts.add(state.current)
        assert state.start_player == state.current
        assert state.actions_left == 2
    assert starts == {0, 1}


def test_two_to_four_players_may_play():
    for count in (2, 3, 4):
        players = [{"mathematician": "euler", "deck": DECK} for _ in range(count)]
        assert len(new_game(players, seed=1).players) == count


@pytest.mark.parametrize("count", [0, 1, 5])
def test_fewer_than_two_or_more_than_four_players_is_illegal(count):
    players = [{"mathematician": "euler", "deck": DECK} for _ in range(count)]
    with pytest.raises(IllegalMove) as error:
        new_game(players, seed=1)
    assert error.value.code == "invalid_players"


def test_two_players_may_use_the_same_cards_in_their_own_decks():
    state = new_game(two_players(), seed=1)
    assert sorted(state.players[0].all_cards()) == sorted(state.players[1].all_cards())


@pytest.mark.parametrize(
    ("deck", "mathematician", "code"),
    [
        (DECK[:9], "euclid", "deck_too_small"),
        (DECK + ["pythagoras"], "euclid", "duplicate_card"),
        (DECK[:9] + ["no_such_card"], "euclid", "unknown_card"),
        (DECK[:9] + ["euler"], "euclid", "mathematician_in_deck"),
        (DECK, "thales", "not_a_mathematician"),
        (DECK, "nobody", "not_a_mathematician"),
        ("pythagoras", "euclid", "malformed_deck"),
    ],
)
def test_invalid_decks_are_refused_with_a_stable_code(deck, mathematician, code):
    with pytest.raises(IllegalMove) as error:
        new_game(two_players(deck_a=deck, mathematician=mathematician), seed=1)
    assert error.value.code == code


def test_a_deck_has_between_ten_and_twenty_cards():
    cards = [c for c, card in CATALOGUE.items() if card.kind != "mathematician"]
    new_game(two_players(deck_a=cards[:10], deck_b=cards[:20]), seed=1)
    with pytest.raises(IllegalMove) as error:
        new_game(two_players(deck_a=cards[:21]), seed=1)
    assert error.value.code == "deck_too_large"


def test_the_mathematician_is_face_up_and_not_part_of_the_deck():
    state = new_game(two_players(), seed=1)
    assert state.players[0].mathematician == "euclid"
    assert "euclid" not in state.players[0].all_cards()


def test_starter_decks_start_a_game():
    state = new_game([deck.player() for deck in STARTER_DECKS], seed=11)
    assert state.status == "running" and state.winners == []
    assert legal_actions(state)


def test_state_round_trips_through_json():
    state = new_game([deck.player() for deck in STARTER_DECKS], seed=11)
    data = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(data) == state
