"""The group game and the duel through a real server: WebSockets, Redis, PostgreSQL."""

from __future__ import annotations

import itertools
import threading

import pytest

from games.models import GameRecord, GameResult
from games.poker.rules.state import MAX_SECONDS
from games.rooms import services
from games.rooms.models import Room, RoomEvent, Seat
from tests.poker_room.live import rig_deck, standings, travel

pytestmark = [pytest.mark.live]


_groups = itertools.count(1)


def open_group(make_player, players: int, **settings):
    group = next(_groups)
    host = make_player(f"Učiteľka {group}")
    room = services.create_room(game="poker", mode="group", host=host.profile, settings=settings)
    seated = []
    for index in range(players):
        player = make_player(f"Žiak {group}-{index + 1}")
        services.join_room(room=room, player=player.profile)
        seated.append(player)
    return room, host, seated


def connect_all(poker_server, open_socket, room, people):
    sockets = {}
    for person in people:
        socket = open_socket(poker_server, room.code, person)
        assert socket.recv()["type"] == "sync"
        sockets[person.id] = socket
    return sockets


def drawn_card(socket) -> dict:
    step = socket.event("drawn")
    return next(e for e in step["events"] if e["type"] == "drawn") | {"seq": step["seq"]}


def place_all(sockets: dict, players, message_for) -> dict[int, dict]:
    """Every player sends at once; each must get its own ack and its own board."""
    ids = {p.id: sockets[p.id].send(message_for(p)) for p in players}
    answers = {p.id: sockets[p.id].answer_to(ids[p.id]) for p in players}
    for answer in answers.values():
        assert answer["type"] == "ack", answer
        assert answer["seq"] is None  # per-seat: no room-wide seq, no room row lock
    return answers


def test_a_group_game_with_a_joker_to_the_final_ranking(
    transactional_db, poker_server, make_player, open_socket
):
    room, host, (ana, ben, cyril) = open_group(make_player, 3)
    sockets = connect_all(poker_server, open_socket, room, [host, ana, ben, cyril])
    assert sockets[host.id].request({"type": "start"})["type"] == "ack"
    for socket in sockets.values():
        socket.event("poker_started")
    rig_deck(room, [7, 0, 7, 7] + [n for n in range(1, 14) if n != 7] * 2)
    refused = sockets[ana.id].request({"type": "draw"})
    assert refused["type"] == "error" and refused["code"] == "not_host"

    seen = []
    for turn in range(25 + 1):  # 25 numbers and one joker
        sockets[host.id].request({"type": "draw"})
        events = {pid: drawn_card(s) for pid, s in sockets.items()}
        assert len({(e["seq"], e["card"], e["index"]) for e in events.values()}) == 1
        card = events[host.id]["card"]
        seen.append(card)
        closed = Room.objects.get(pk=room.pk).state["closed"]
        for player in (ana, ben, cyril):
            board = Seat.objects.get(room=room, player=player.profile).state
            if board["finished_at"] is not None:
                continue  # Ana and Cyril used the joker: their boards are full already
            cell = board["cells"].index(None)
            if card == 0 and player is ana:
                message = {"type": "use_joker", "cell": cell, "value": 7}
            elif card == 0 and player is ben:
                message = {"type": "keep_joker"}
            elif card == 0:
                message = {"type": "use_joker", "cell": cell, "value": 1}
            elif player is ben and closed:
                # The sequence ran out; Ben places his kept joker while holding the last number.
                assert board["kept_jokers"] == 1 and board["cells"].count(None) == 1
                message = {"type": "place_kept_joker", "cell": cell, "value": 7}
            else:
                message = {"type": "place", "cell": cell}
            answer = sockets[player.id].request(message)
            assert answer["type"] == "ack", (turn, player.id, answer)
        if turn == 12:
            live = standings(poker_server, room, host)
            assert live["status"] == "running" and live["placed_current"] == 3
            assert [entry["rank"] for entry in live["ranking"]] == sorted(
                entry["rank"] for entry in live["ranking"]
            )
            assert "cells" not in live["ranking"][0]  # boards stay hidden while playing
            student_view = standings(poker_server, room, ana)
            assert "ranking" not in student_view
        if Room.objects.get(pk=room.pk).state["closed"]:
            break
    room.refresh_from_db()
    assert room.state["closed"] and len(room.state["sequence"]) == 26
    ben_board = Seat.objects.get(room=room, player=ben.profile).state
    assert ben_board["kept_jokers"] == 0 and 7 in [
        ben_board["cells"][c] for c in ben_board["joker_cells"]
    ]
    # Every board is over: the next standings request ends the game for everyone.
    final = standings(poker_server, room, ana)
    assert final["status"] == "finished"
    for socket in sockets.values():
        socket.event("finished")
    ranking = final["ranking"]
    assert {e["player_id"] for e in ranking} == {ana.id, ben.id, cyril.id}
    assert all(e["filled"] == 25 and len(e["cells"]) == 25 for e in ranking)
    ana_entry = next(e for e in ranking if e["player_id"] == ana.id)
    assert ana_entry["joker_cells"] == [1]
    record = GameRecord.objects.get(game="poker", mode="group")
    results = {r.player_id: r for r in GameResult.objects.filter(record=record)}
    assert set(results) == {ana.id, ben.id, cyril.id}  # the dealing host has no board
    for entry in ranking:
        stored = results[entry["player_id"]]
        assert (stored.score, stored.rank, stored.completed) == (
            entry["score"],
            entry["rank"],
            True,
        )
        assert stored.details["board"] == entry["cells"] and "duration_s" not in stored.details


def test_fifty_players_placing_the_same_number_at_once_lose_nothing(
    transactional_db, poker_server, make_player, open_socket
):
    room, host, players = open_group(make_player, 50)
    sockets = connect_all(poker_server, open_socket, room, [host, *players])
    services.start_room(room=room, actor=host.profile)
    rig_deck(room, [9, 9])
    sockets[host.id].request({"type": "draw"})
    seq_before = Room.objects.get(pk=room.pk).seq
    barrier = threading.Barrier(len(players))
    answers: dict[int, dict] = {}
    errors: list[BaseException] = []

    def play(player, cell):
        try:
            socket = sockets[player.id]
            barrier.wait(timeout=30)
            message_id = socket.send({"id": f"place-{player.id}", "type": "place", "cell": cell})
            answers[player.id] = socket.answer_to(message_id)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(p, i % 25)) for i, p in enumerate(players)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    assert len(answers) == 50
    for player in players:
        assert answers[player.id] == {"type": "ack", "id": f"place-{player.id}", "seq": None}
    boards = {s.player_id: s.state for s in Seat.objects.filter(room=room, role="player")}
    assert all(boards[p.id]["cells"][i % 25] == 9 for i, p in enumerate(players))
    assert RoomEvent.objects.filter(room=room, kind="seat").count() == 50
    assert Room.objects.get(pk=room.pk).seq == seq_before  # placements took no room seq
    assert standings(poker_server, room, host)["placed_current"] == 50


def test_fifty_players_hard_mode_with_laggers_and_timeouts_then_a_host_who_leaves(
    transactional_db, poker_server, make_player, open_socket
):
    # The longest clock there is (300 s): a loaded machine must not forfeit a number
    # the test places "in time"; the sleepers' forfeits come from travelling, not waiting.
    room, host, players = open_group(make_player, 50, difficulty="hard", seconds=MAX_SECONDS)
    sockets = connect_all(poker_server, open_socket, room, [host, *players])
    services.start_room(room=room, actor=host.profile)
    rig_deck(room, [n for n in range(1, 14)] * 2)  # no jokers at the top: 26 numbers
    prompt, laggers, sleepers = players[:40], players[40:45], players[45:]
    behind: dict[int, list[int]] = {p.id: [] for p in laggers}
    for turn in range(25):
        sockets[host.id].request({"type": "draw"})
        active = prompt + (sleepers if turn < 15 else [])
        if not 10 <= turn < 15:
            active += laggers
        place_all(sockets, active, lambda p, turn=turn: {"type": "place", "cell": turn})
        if 10 <= turn < 15:
            for lagger in laggers:
                behind[lagger.id].append(turn)
        if turn == 14:
            live = standings(poker_server, room, host)
            by_id = {e["player_id"]: e for e in live["ranking"]}
            assert all(by_id[p.id]["behind"] == 5 for p in laggers)  # the host sees who lags
            # The laggers catch up in order, each number in its own time.
            for cell in range(10, 15):
                place_all(sockets, laggers, lambda p, cell=cell: {"type": "place", "cell": cell})
    room.refresh_from_db()
    assert room.state["closed"] and room.status == "running"
    live = standings(poker_server, room, host)
    assert live["status"] == "running" and live["playing"] == 5  # the sleepers are not done
    # A reconnect changes nothing: deadlines come from stored times.
    sockets[players[45].id].close()
    again = open_socket(poker_server, room.code, players[45]).recv()
    assert again["view"]["game"]["forfeited"] == 0
    # An hour passes for the sleepers' ten numbers, 300 s each (stored times moved back).
    travel(room, 60 * 60)
    final = standings(poker_server, room, host)
    assert final["status"] == "finished"
    by_id = {e["player_id"]: e for e in final["ranking"]}
    for player in prompt + laggers:
        assert by_id[player.id]["filled"] == 25 and by_id[player.id]["forfeited"] == 0
    for player in sleepers:
        assert by_id[player.id]["filled"] == 15 and by_id[player.id]["forfeited"] == 10
    results = GameResult.objects.filter(record=Room.objects.get(pk=room.pk).record)
    assert results.count() == 50
    assert results.filter(completed=True).count() == 45
    top = max(e["score"] for e in final["ranking"])
    assert all(e["rank"] == 1 for e in final["ranking"] if e["score"] == top)

    # A second game: the host leaves after three numbers; everyone gets the ranking.
    second, host2, five = open_group(make_player, 5)
    sockets2 = connect_all(poker_server, open_socket, second, [host2, *five])
    services.start_room(room=second, actor=host2.profile)
    rig_deck(second, [4, 5, 6])
    for turn in range(3):
        sockets2[host2.id].request({"type": "draw"})
        card = drawn_card(sockets2[five[0].id])["card"]
        movers = five[: 5 - turn]
        place_all(
            sockets2,
            movers,
            lambda p, turn=turn, card=card: (
                {"type": "place", "cell": turn}
                if card
                else {"type": "use_joker", "cell": turn, "value": 5}
            ),
        )
    assert sockets2[host2.id].request({"type": "end"})["type"] == "ack"
    for socket in sockets2.values():
        finished = socket.event("finished")
        results = next(e for e in finished["events"] if e["type"] == "finished")["results"]
        assert len(results) == 5
    final2 = standings(poker_server, second, five[-1])
    assert final2["status"] == "finished"
    assert [e["filled"] for e in sorted(final2["ranking"], key=lambda e: e["player_id"])] == [
        3,
        3,
        3,
        2,
        1,
    ]
    assert all(not e["completed"] for e in final2["ranking"])


def test_a_duel_over_websockets_to_a_win(transactional_db, poker_server, make_player, open_socket):
    anna, boris = make_player("Anna"), make_player("Boris")
    room = services.create_room(game="poker", mode="duel", host=anna.profile, settings={})
    socket_a = open_socket(poker_server, room.code, anna)
    socket_a.recv()
    refused = socket_a.request({"type": "start"})
    assert refused["type"] == "error" and refused["code"] == "not_enough_players"
    # Issue 21: "the duel starts by itself when both are in" -- in the join's own step.
    services.join_room(room=room, player=boris.profile)
    started = socket_a.event("started")
    assert {e["type"] for e in started["events"]} >= {"started", "poker_started"}
    assert Room.objects.get(pk=room.pk).status == "running"
    socket_b = open_socket(poker_server, room.code, boris)
    socket_b.recv()
    refused = socket_a.request({"type": "start"})
    assert refused["type"] == "error" and refused["code"] == "already_started"
    for _turn in range(40):
        for socket, player in ((socket_a, anna), (socket_b, boris)):
            # Two messages a turn: past the socket's burst the server asks to slow
            # down, and request() resends after a pause, as the page does.
            view = socket.request({"type": "sync"})["view"]
            game = view["game"]
            if view["ended"] or game["finished_at"] is not None:
                continue
            hand = (
                game["sequence"][game["handled"]]
                if game["handled"] < len(game["sequence"])
                else None
            )
            if hand is None:
                continue
            cell = game["cells"].index(None)
            value = 13 if player is anna else 1
            message = (
                {"type": "use_joker", "cell": cell, "value": value}
                if hand == 0
                else {"type": "place", "cell": cell}
            )
            assert socket.request(message)["type"] == "ack"
        if Room.objects.get(pk=room.pk).status == "finished":
            break
    room.refresh_from_db()
    assert room.status == "finished"
    results = {r.player_id: r for r in GameResult.objects.filter(record=room.record)}
    outcomes = {results[anna.id].details.get("outcome"), results[boris.id].details.get("outcome")}
    assert outcomes in ({"win", "loss"}, {"draw"})
    assert all(r.details["filled"] == 25 for r in results.values())
