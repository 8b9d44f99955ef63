"""A refused move reaches the player over the real WebSocket in the player's language.

The engine's IllegalMove speaks English (stable code + a message for logs); the
adapter translates it at the edge, and the consumer activates the socket's
language, so a Czech player reads Czech.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from games.mathesso.adapter import MESSAGES
from games.mathesso.rules import GameState, IllegalMove
from games.rooms import services
from games.rooms.models import Room
from tests.mathesso.cheat import next_moves
from tests.mathesso.live import Player, Socket

pytestmark = [pytest.mark.live]


def czech(player: Player) -> Player:
    player.cookie = player.cookie.replace("matika_lang=en", "matika_lang=cs")
    return player


def test_every_engine_code_has_a_message_for_players():
    assert set(MESSAGES) == set(IllegalMove.CODES)


def test_a_refused_move_is_answered_in_czech_over_the_socket(transactional_db, asgi_server):
    host, guest = czech(Player("Hosta")), czech(Player("Guesto"))
    room = services.create_room(
        game="mathesso", mode="table", host=host.profile, settings={"variant": "pico"}
    )
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    sockets = {str(p.id): Socket(asgi_server, room.code, p) for p in (host, guest)}
    try:
        for sock in sockets.values():
            snapshot = sock.recv()
        hidden = next(t for t in snapshot["view"]["tiles"] if t["bw"] != 1)
        refused = sockets[str(guest.id)].request({"type": "flip", "tile": hidden["id"]})
        assert refused["type"] == "error" and refused["code"] == "not_a_one"
        with translation.override("cs"):
            assert refused["message"] == str(MESSAGES["not_a_one"])
        assert refused["message"] != IllegalMove.CODES["not_a_one"]
        for _step in range(10):
            state = Room.objects.get(pk=room.pk).state
            if state["phase"] == "play":
                break
            for player, message in next_moves(state):
                assert sockets[player].request(message)["type"] == "ack"
        game = GameState.from_dict(Room.objects.get(pk=room.pk).state)
        waiting = next(p for p in sockets if p != game.player)
        face_down = next(t.id for t in game.tiles if t.id not in game.face_up())
        refused = sockets[waiting].request({"type": "flip", "tile": face_down})
        assert refused["code"] == "not_your_turn"
        assert refused["message"] == "Nejsi na tahu."
    finally:
        for sock in sockets.values():
            sock.close()
