"""The rooms' two performance switches measured in bench/ (issue 41): the direct
fan-out can be turned off, and the DB threads set the GIL switch interval."""

from __future__ import annotations

import sys

from games.rooms.consumers import RoomConsumer
from games.rooms.dbthreads import DatabaseThreads


class Layer:
    def __init__(self) -> None:
        self.sinks: dict[str, object] = {}

    def register_sink(self, channel: str, sink: object) -> None:
        self.sinks[channel] = sink


def _consumer(layer: Layer) -> RoomConsumer:
    consumer = RoomConsumer()
    consumer.channel_layer = layer
    consumer.channel_name = "specific.x!1"
    return consumer


def test_room_events_go_straight_to_the_socket_by_default(settings):
    layer = Layer()
    consumer = _consumer(layer)
    consumer._take_events_straight()
    assert layer.sinks == {"specific.x!1": consumer}


def test_with_the_direct_fanout_off_every_event_comes_through_the_queue(settings):
    settings.ROOMS_DIRECT_FANOUT = False
    layer = Layer()
    _consumer(layer)._take_events_straight()
    assert layer.sinks == {}


def test_the_db_threads_set_the_switch_interval_when_they_start():
    before = sys.getswitchinterval()
    try:
        threads = DatabaseThreads(1, name="switch-test", switch_interval=0.0007)
        assert sys.getswitchinterval() == before  # nothing until the threads start
        threads._start()
        assert abs(sys.getswitchinterval() - 0.0007) < 1e-6
    finally:
        sys.setswitchinterval(before)
