"""A refused Matematici move reaches the player over the real WebSocket in Czech.

The rules engine raises IllegalMove with an English message; the adapter maps the
stable code to a translated message (``games.theorems.errors``) and the consumer
activates the socket's language.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core import signing

from accounts import identity
from accounts import services as accounts_services
from games.rooms import services as room_services
from games.theorems.rules import STARTER_DECKS, GameState
from tests.theorems.test_theorems_live import Client

pytestmark = [pytest.mark.live]


def test_refused_deck_and_move_are_answered_in_czech(transactional_db, asgi_server):
    profile, token = accounts_services.create_profile(browser_token=None, nickname="Ada")
    signed = signing.dumps(token, salt=identity.SALT)
    cookie = f"{settings.PLAYER_COOKIE_NAME}={signed}; matika_lang=cs"
    room = room_services.create_room(
        game="theorems", mode="table", host=profile, settings={"table_size": 2}
    )
    client = Client(asgi_server, room.code, cookie)
    try:
        assert client.recv()["type"] == "sync"
        assert client.request({"type": "start"})["type"] == "ack"
        bad = client.request(
            {"type": "deck", "name": "Tiny", "mathematician": "euclid", "cards": ["pythagoras"]}
        )
        assert bad["code"] == "deck_too_small"
        assert bad["message"] == "Balíček potřebuje aspoň 10 karet."
        deck = STARTER_DECKS[0]
        answer = client.request(
            {
                "type": "deck",
                "name": "Geometři",
                "mathematician": deck.mathematician,
                "cards": list(deck.deck),
            }
        )
        assert answer["type"] == "ack"
        room.refresh_from_db()
        game = GameState.from_dict(room.state["game"])
        if room.state["seats"][game.to_act]["robot"]:
            refused = client.request({"type": "action", "action": {"type": "draw"}})
            assert refused["code"] == "not_your_turn"
            assert refused["message"] == "Nejsi na tahu."
        else:
            refused = client.request({"type": "action", "action": {"type": "no_such_move"}})
            assert refused["type"] == "error" and refused["code"] == "unknown_action"
            assert refused["message"] == "Tohle není tah této hry."
    finally:
        client.ws.close()
