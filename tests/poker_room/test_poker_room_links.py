"""The group game and duel are reachable from the poker hub through the project's URLs."""

import pytest

pytestmark = pytest.mark.django_db


def test_poker_hub_links_to_group_game_duel_and_joining_by_code(client):
    html = client.get("/poker/").content.decode()
    assert 'href="/poker/room/new/group/"' in html
    assert 'href="/poker/room/new/duel/"' in html
    assert 'action="/rooms/"' in html


@pytest.mark.parametrize("mode", ["group", "duel"])
def test_room_creation_pages_are_routed(client, mode):
    response = client.get(f"/poker/room/new/{mode}/")
    assert response.status_code == 200
