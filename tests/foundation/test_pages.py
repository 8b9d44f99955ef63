import pytest
from django.template.loader import render_to_string
from django.test import override_settings

from core import registry as game_registry

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "language,heading",
    [
        ("en", "Maths games for the whole class"),
        ("cs", "Matematické hry pro celou třídu"),
        ("sk", "Matematické hry pre celú triedu"),
    ],
)
def test_home_page_in_three_languages_from_the_browser_preference(client, language, heading):
    response = client.get("/", headers={"accept-language": language})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert heading in html


def test_language_switcher_remembers_the_choice(client):
    response = client.post("/i18n/setlang/", {"language": "sk", "next": "/"})
    assert response.status_code == 302
    html = client.get("/", headers={"accept-language": "en"}).content.decode()
    assert '<html lang="sk">' in html


def test_home_page_presents_all_four_games(client):
    html = client.get("/", headers={"accept-language": "en"}).content.decode()
    assert len(game_registry.games()) == 4
    for game in game_registry.games():
        assert str(game.name) in html


def test_every_page_sends_a_content_security_policy(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_unknown_page_gets_the_friendly_404(client):
    with override_settings(DEBUG=False):
        response = client.get("/no-such-page/", headers={"accept-language": "en"})
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()
    assert "Back to the home page" in response.content.decode()


def test_500_page_renders_without_a_request():
    html = render_to_string("500.html")
    assert "Something went wrong" in html or "Něco se pokazilo" in html


def test_privacy_page_explains_storage(client):
    html = client.get("/privacy/", headers={"accept-language": "en"}).content.decode()
    assert "What is stored" in html
    assert "Switch saving off" in html


def test_demo_data_is_idempotent(settings):
    from django.core.management import call_command

    from accounts.models import User
    from classrooms.models import Classroom, Membership

    settings.DEBUG = True
    call_command("load_demo")
    call_command("load_demo")
    assert User.objects.count() == 1
    assert Classroom.objects.count() == 1
    assert Membership.objects.count() >= 5
