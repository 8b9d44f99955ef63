"""Room events go straight from the channel layer to the socket (issue 41): the
direct fan-out is the only way, with no switch to turn it off."""

from __future__ import annotations

from games.rooms.consumers import RoomConsumer


class Layer:
    def __init__(self) -> None:
        self.sinks: dict[str, object] = {}

    def register_sink(self, channel: str, sink: object) -> None:
        self.sinks[channel] = sink


def _consumer(layer: object) -> RoomConsumer:
    consumer = RoomConsumer()
    consumer.channel_layer = layer  # type: ignore[assignment]
    consumer.channel_name = "specific.x!1"
    return consumer


def test_room_events_go_straight_to_the_socket(settings):
    layer = Layer()
    consumer = _consumer(layer)
    consumer._take_events_straight()
    assert layer.sinks == {"specific.x!1": consumer}


def test_the_old_switch_no_longer_turns_the_direct_fanout_off(settings):
    settings.ROOMS_DIRECT_FANOUT = False
    layer = Layer()
    consumer = _consumer(layer)
    consumer._take_events_straight()
    assert layer.sinks == {"specific.x!1": consumer}


def test_a_layer_without_sinks_delivers_through_the_queue(settings):
    consumer = _consumer(object())
    consumer._take_events_straight()  # nothing to register with: no error
