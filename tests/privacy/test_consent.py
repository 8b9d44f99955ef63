"""Consent for minors through HTTP and the services (issue 17 §4)."""

import pytest
from django.utils import translation

from accounts import consent, services
from accounts.errors import AccountsError
from accounts.models import PublicationConsent
from tests.privacy.helpers import login_as, make_player

pytestmark = pytest.mark.django_db


def test_the_age_of_digital_consent_is_15_in_czech_and_16_in_slovak():
    assert consent.consent_age("cs") == 15
    assert consent.consent_age("sk") == 16
    assert consent.consent_age("en") == 16
    with translation.override("en"):
        assert "15 years" in consent.age_statement("cs")
        text = consent.question()
    assert "deleted for good" in text and "Anyone on the internet" in text


def test_a_yes_without_the_age_statement_is_refused_and_stores_nothing(client):
    player, token = make_player()
    login_as(client, token)
    refused = client.post(
        "/accounts/player/consent/", {"consent": "yes"}, headers={"accept": "application/json"}
    )
    assert refused.status_code == 400 and refused.json()["code"] == "needs_age"
    assert not PublicationConsent.objects.exists()
    with pytest.raises(AccountsError):
        services.record_consent(player=player, granted=True, language="cs")
    # A no never needs it; a yes with it is stored with the version and the text.
    client.post("/accounts/player/consent/", {"consent": "no"})
    client.post("/accounts/player/consent/", {"consent": "yes", "age": "yes"})
    no, yes = PublicationConsent.objects.order_by("pk")
    assert not no.granted and no.age_confirmed is None
    assert yes.granted and yes.age_confirmed is True and yes.text_version == consent.VERSION
    assert yes.text.endswith(consent.age_statement(yes.language))


def test_the_profile_page_asks_the_age_sentence_too(client):
    _player, token = make_player()
    login_as(client, token)
    html = client.get("/accounts/player/").content.decode()
    assert 'name="age" value="yes"' in html
