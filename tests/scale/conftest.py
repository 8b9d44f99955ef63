"""Fixtures for the scale tests: the rooms fixtures (players, sockets, the test game)."""

from tests.rooms.conftest import make_player, open_socket  # noqa: F401
