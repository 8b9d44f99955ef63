import pytest
from django.utils import timezone

from tests.classrooms import factories


@pytest.fixture
def teacher(db):
    # verified, as a teacher who runs classes is (only verified accounts invite co-teachers)
    return factories.make_teacher("ucitel@skola.sk", email_verified_at=timezone.now())


@pytest.fixture
def classroom(teacher):
    return factories.make_class(teacher, roster="Adam Kováč\nBára Nová\nCyril Pekný")


@pytest.fixture
def teacher_client(client, teacher):
    client.force_login(teacher)
    return client


@pytest.fixture
def player_client(db):
    """A student's browser: a client holding a player profile's identity cookie."""
    from django.test import Client

    from accounts import identity
    from accounts import services as account_services

    def make(nickname: str):
        client = Client(headers={"accept-language": "en"})
        player, token = account_services.create_profile(browser_token=None, nickname=nickname)
        from django.conf import settings
        from django.core import signing

        client.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(token, salt=identity.SALT)
        return client, player

    return make
