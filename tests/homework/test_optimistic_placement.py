"""Issue 41: a placement that does not end the game is written without a
transaction or a row lock -- read, then ``UPDATE ... WHERE xmin = <read>`` --
so it costs two round trips instead of five. It must still never lose or
double a move: a write that came between the read and the update makes the
update miss, and the action is applied again to what that write left, as the
row lock would have ordered them. The card that ends the game keeps the
locked transaction (its end is recorded with it)."""

import pytest
from django.db import transaction

from games.poker.rules import JOKER
from games.poker.services import solo
from tests.leaderboards.helpers import HIGH_DECK, dealt, player


def _action(game, cell):
    hand = game.state["sequence"][game.state["handled"]]
    if hand == JOKER:
        return {"type": "use_joker", "cell": cell, "value": 13}
    return {"type": "place", "cell": cell}


def _new_game(nickname):
    with dealt(HIGH_DECK):
        return solo.start_solo_game(
            player=player(nickname), storage_enabled=True, mode="easy", now=1_000.0
        )


@pytest.mark.django_db
def test_a_placement_enters_no_transaction_and_updates_only_the_version_read(monkeypatch):
    game = _new_game("Ota")
    entered = []
    enter = transaction.Atomic.__enter__
    monkeypatch.setattr(
        transaction.Atomic, "__enter__", lambda self: entered.append(self) or enter(self)
    )
    game, _events = solo.act_in_solo_game(
        game_id=game.pk, player=game.player, action=_action(game, 0), now=1_001.0
    )
    assert entered == []
    game.refresh_from_db()
    assert game.state["cells"][0] is not None and len(game.moves) == 1


@pytest.mark.django_db(transaction=True)
def test_a_write_between_the_read_and_the_update_is_not_lost(monkeypatch):
    game = _new_game("Ema")
    read_game, reads = solo.read_game, []

    def read_then_another_placement(**kwargs):
        read = read_game(**kwargs)
        reads.append(read[1])
        if len(reads) == 1:  # another request places in cell 5 meanwhile
            solo.act_in_solo_game(
                game_id=game.pk, player=game.player, action=_action(game, 5), now=1_001.0
            )
        return read

    monkeypatch.setattr(solo, "read_game", read_then_another_placement)
    after_first, _events = solo.act_in_solo_game(
        game_id=game.pk, player=game.player, action={"type": "place", "cell": 0}, now=1_002.0
    )
    # read, the other request's read, and the read again after the update missed
    assert len(reads) == 3 and reads[2] != reads[0]
    game.refresh_from_db()
    assert [move["cell"] for move in game.moves] == [5, 0]
    assert game.state["handled"] == 2
    assert game.state["cells"][5] == HIGH_DECK[0] and game.state["cells"][0] == HIGH_DECK[1]
    assert after_first.moves == game.moves


@pytest.mark.django_db
def test_the_card_that_ends_the_game_goes_the_locked_way_at_once(monkeypatch):
    game = _new_game("Iva")
    moment = 1_001.0
    while sum(cell is None for cell in game.state["cells"]) > 1:
        cell = game.state["cells"].index(None)
        game, _events = solo.act_in_solo_game(
            game_id=game.pk, player=game.player, action=_action(game, cell), now=moment
        )
        moment += 1
    read_game, reads, locked = solo.read_game, [], []
    locked_game = solo.locked_game
    monkeypatch.setattr(solo, "read_game", lambda **kw: reads.append(1) or read_game(**kw))
    monkeypatch.setattr(solo, "locked_game", lambda **kw: locked.append(1) or locked_game(**kw))
    last = game.state["cells"].index(None)
    game, _events = solo.act_in_solo_game(
        game_id=game.pk, player=game.player, action=_action(game, last), now=moment
    )
    assert game.finished_at is not None and game.record is not None
    assert reads == [1] and locked == [1]  # one unlocked read, then the lock
