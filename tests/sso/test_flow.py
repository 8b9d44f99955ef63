"""School sign-in over HTTP: Matika (uvicorn) <-> the local OpenID provider.

Every test drives the real flow: Matika's login URL redirects to the
provider's authorization endpoint, the provider redirects back with a code,
Matika exchanges it at the token endpoint and checks the signed ID token with
the provider's discovery and JWKS.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from allauth.socialaccount.models import SocialAccount
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts.models import User
from tests.sso.conftest import SCHOOL_DOMAIN, browser_session, csrf_token, refusal_code
from tests.sso.op import OTHER_TENANT, TENANT

pytestmark = pytest.mark.django_db(transaction=True)


def sign_in(server: str, provider: str, session=None, next_url: str | None = None):
    session = session or browser_session()
    params = {"next": next_url} if next_url else {}
    response = session.get(f"{server}/accounts/sso/{provider}/login/", params=params, timeout=60)
    return session, response


def google_teacher(op, email=f"jana.novakova@{SCHOOL_DOMAIN}", **claims):
    op.sign_in_as(
        **{
            "email": email,
            "email_verified": True,
            "hd": SCHOOL_DOMAIN,
            "name": "Jana Nováková",
            **claims,
        }
    )


def logged_in(session, server) -> bool:
    """Whether the browser holds a teacher's session (the teacher's export answers)."""
    response = session.get(
        f"{server}/accounts/teacher/export.json", allow_redirects=False, timeout=60
    )
    return response.status_code == 200


def nothing_created(before_users: int) -> None:
    assert User.objects.count() == before_users
    assert SocialAccount.objects.count() == 0


def assert_refused(server, session, response, *, status, code, users_before) -> None:
    """A readable refusal with its code; no account, no link, nobody signed in."""
    assert response.status_code == status
    assert refusal_code(response.text) == code
    nothing_created(users_before)
    assert not logged_in(session, server)


def log_out(session, server) -> None:
    page = session.get(f"{server}/classes/", timeout=60).text
    session.post(
        f"{server}/accounts/logout/",
        data={"csrfmiddlewaretoken": csrf_token(page)},
        headers={"Referer": f"{server}/classes/"},
        timeout=60,
    )


def test_new_teacher_with_the_school_domain_signs_in_and_logout_ends_the_session(
    sso_server, op_reset
):
    google_teacher(op_reset)
    session, response = sign_in(sso_server, "google")
    assert response.status_code == 200
    assert response.url.startswith(f"{sso_server}/classes/")
    user = User.objects.get(email=f"jana.novakova@{SCHOOL_DOMAIN}")
    assert user.name == "Jana Nováková"
    assert user.email_verified
    assert not user.has_usable_password()
    account = SocialAccount.objects.get(user=user)
    assert account.provider == "google"
    assert account.uid == op_reset.state.identity["sub"]
    # Only the few claims that say which school account it is are kept.
    assert set(account.extra_data["id_token"]) <= {
        "iss",
        "sub",
        "email",
        "email_verified",
        "hd",
        "tid",
        "name",
    }
    assert "nonce" not in account.extra_data["id_token"]
    assert logged_in(session, sso_server)

    # A shared computer: logging out ends the session on the server too.
    session_key = session.cookies.get("sessionid")
    log_out(session, sso_server)
    assert not Session.objects.filter(session_key=session_key).exists()
    assert not logged_in(session, sso_server)

    # The next sign-in finds the linked identity: no second account.
    _, again = sign_in(sso_server, "google")
    assert again.url.startswith(f"{sso_server}/classes/")
    assert User.objects.filter(email__endswith=SCHOOL_DOMAIN).count() == 1
    assert SocialAccount.objects.count() == 1


def test_a_wrong_hosted_domain_is_refused_with_nothing_created(sso_server, op_reset):
    before = User.objects.count()
    google_teacher(op_reset, email="teacher@other-school.example", hd="other-school.example")
    session, response = sign_in(sso_server, "google")
    assert "does not belong to a school" in response.text
    assert_refused(
        sso_server, session, response, status=403, code="sso_wrong_school", users_before=before
    )


def test_a_missing_hosted_domain_is_refused_when_an_allowlist_is_set(sso_server, op_reset):
    before = User.objects.count()
    # A private account: the right-looking address, but no hd claim at all.
    op_reset.sign_in_as(email=f"someone@{SCHOOL_DOMAIN}", email_verified=True, name="X")
    _, response = sign_in(sso_server, "google")
    assert response.status_code == 403
    assert refusal_code(response.text) == "sso_wrong_school"
    nothing_created(before)


def test_the_hd_hint_in_the_url_changes_nothing(sso_server, op_reset):
    """``hd`` in the authorization URL is a hint; only the signed claim counts."""
    before = User.objects.count()
    google_teacher(op_reset, email="mallory@evil.example", hd="evil.example")
    session = browser_session()
    response = session.get(
        f"{sso_server}/accounts/sso/google/login/",
        params={"auth_params": f"hd={SCHOOL_DOMAIN}"},
        timeout=60,
    )
    assert response.status_code == 403
    nothing_created(before)


def test_microsoft_with_the_schools_tenant_signs_in(sso_server, op_reset):
    op_reset.sign_in_as(email="ucitel@zs.example", tid=TENANT, xms_edov=True, name="Petr Učitel")
    _, response = sign_in(sso_server, "microsoft")
    assert response.url.startswith(f"{sso_server}/classes/")
    user = User.objects.get(email="ucitel@zs.example")
    assert SocialAccount.objects.get(user=user).provider == "microsoft"


def test_microsoft_with_another_tenant_is_refused(sso_server, op_reset):
    before = User.objects.count()
    op_reset.sign_in_as(email="ucitel@zs.example", tid=OTHER_TENANT, xms_edov=True)
    _, response = sign_in(sso_server, "microsoft")
    assert response.status_code == 403
    assert refusal_code(response.text) == "sso_wrong_school"
    nothing_created(before)


def test_microsoft_without_a_verified_address_makes_no_account(sso_server, op_reset):
    """Microsoft's ``email`` claim alone is not verified (no ``xms_edov``)."""
    before = User.objects.count()
    op_reset.sign_in_as(email="ucitel@zs.example", tid=TENANT)
    _, response = sign_in(sso_server, "microsoft")
    assert response.status_code == 403
    assert refusal_code(response.text) == "sso_email_unverified"
    nothing_created(before)


def test_generic_provider_without_an_allowlist_signs_in(sso_server, op_reset):
    op_reset.sign_in_as(email="reditel@skola.example", email_verified="true", name="Ředitel")
    _, response = sign_in(sso_server, "oidc")
    assert response.url.startswith(f"{sso_server}/classes/")
    assert User.objects.filter(email="reditel@skola.example").exists()


def existing_teacher(email=f"eva@{SCHOOL_DOMAIN}", password="a-long-Password-1"):
    """A teacher who verified the address (an unverified account is taken over
    by the address's school sign-in: tests/security/test_squatter_accounts.py)."""
    return User.objects.create_user(
        email=email, password=password, name="Eva", email_verified_at=timezone.now()
    )


def test_an_unverified_address_cannot_take_over_an_existing_account(sso_server, op_reset):
    owner = existing_teacher()
    op_reset.sign_in_as(email=owner.email.upper(), email_verified=False, hd=SCHOOL_DOMAIN)
    session, response = sign_in(sso_server, "google")
    assert response.status_code == 403
    assert refusal_code(response.text) == "sso_email_unverified"
    assert SocialAccount.objects.count() == 0
    assert not logged_in(session, sso_server)
    assert session.get(f"{sso_server}/accounts/sso/link/", timeout=60).status_code == 400


def test_a_verified_match_links_only_after_the_owner_gives_the_password(sso_server, op_reset):
    owner = existing_teacher()
    google_teacher(op_reset, email=owner.email)
    session, response = sign_in(sso_server, "google", next_url="/classes/")
    assert response.url == f"{sso_server}/accounts/sso/link/"
    assert "already exists" in response.text
    # Not signed in, nothing linked, until the owner confirms.
    assert not logged_in(session, sso_server)
    assert SocialAccount.objects.count() == 0

    wrong = session.post(
        response.url,
        data={"csrfmiddlewaretoken": csrf_token(response.text), "password": "guess"},
        headers={"Referer": response.url},
        timeout=60,
    )
    assert wrong.status_code == 400
    assert "The password is not right." in wrong.text
    assert SocialAccount.objects.count() == 0
    assert not logged_in(session, sso_server)

    right = session.post(
        response.url,
        data={
            "csrfmiddlewaretoken": csrf_token(wrong.text),
            "password": "a-long-Password-1",
            "action": "link",
        },
        headers={"Referer": response.url},
        timeout=60,
    )
    assert right.url == f"{sso_server}/classes/"
    account = SocialAccount.objects.get()
    assert account.user == owner
    assert logged_in(session, sso_server)
    # The confirmation is used once.
    assert session.get(f"{sso_server}/accounts/sso/link/", timeout=60).status_code == 400

    # From now on the school account alone signs the owner in.
    fresh, again = sign_in(sso_server, "google")
    assert again.url.startswith(f"{sso_server}/classes/")
    assert logged_in(fresh, sso_server)
    assert User.objects.count() == 1


def test_cancelling_the_link_links_nothing(sso_server, op_reset):
    owner = existing_teacher()
    google_teacher(op_reset, email=owner.email)
    session, response = sign_in(sso_server, "google")
    cancelled = session.post(
        response.url,
        data={"csrfmiddlewaretoken": csrf_token(response.text), "action": "cancel"},
        headers={"Referer": response.url},
        timeout=60,
    )
    assert cancelled.url.startswith(f"{sso_server}/accounts/login/")
    assert SocialAccount.objects.count() == 0
    assert not logged_in(session, sso_server)


@pytest.mark.parametrize(
    "tamper",
    [
        pytest.param({"key": "forged"}, id="forged-signature"),
        pytest.param({"aud": "someone-elses-client"}, id="wrong-audience"),
        pytest.param({"exp": 1_600_000_000, "iat": 1_599_999_000}, id="expired"),
        pytest.param({"iss": "http://127.0.0.1:1/google"}, id="wrong-issuer"),
        pytest.param({"drop": ["nonce"]}, id="no-nonce"),
        pytest.param({"nonce": "not-the-one-sent"}, id="other-nonce"),
    ],
)
def test_a_bad_id_token_is_refused_with_nothing_created(sso_server, op_reset, tamper):
    before = User.objects.count()
    google_teacher(op_reset)
    op_reset.state.tamper = dict(tamper)
    session, response = sign_in(sso_server, "google")
    assert "Nothing was changed" in response.text
    assert_refused(
        sso_server, session, response, status=400, code="sso_failed", users_before=before
    )


def test_a_replayed_callback_is_refused(sso_server, op_reset):
    """The callback's state is single-use: replaying the URL (code and state)
    in the same browser after the sign-in, or in another browser, signs nobody in."""
    google_teacher(op_reset)
    session = browser_session()
    first = session.get(f"{sso_server}/accounts/sso/google/login/", timeout=60)
    callback = next(r for r in first.history if "/login/callback/" in r.url).url
    assert first.url.startswith(f"{sso_server}/classes/")
    users = User.objects.count()

    attacker = browser_session()
    stolen = attacker.get(callback, timeout=60)
    assert stolen.status_code == 400
    assert not logged_in(attacker, sso_server)

    log_out(session, sso_server)
    replayed = session.get(callback, timeout=60)
    assert replayed.status_code == 400
    assert refusal_code(replayed.text) == "sso_failed"
    assert not logged_in(session, sso_server)
    assert User.objects.count() == users


def test_a_replayed_nonce_is_refused(sso_server, op_reset):
    """A token minted for an earlier sign-in (its nonce) is not accepted for a new one."""
    google_teacher(op_reset)
    sign_in(sso_server, "google")
    old_nonce = op_reset.state.nonces[-1]
    before = User.objects.count()
    op_reset.sign_in_as(email=f"other@{SCHOOL_DOMAIN}", email_verified=True, hd=SCHOOL_DOMAIN)
    op_reset.state.tamper = {"nonce": old_nonce}
    session, response = sign_in(sso_server, "google")
    assert response.status_code == 400
    assert User.objects.count() == before
    assert not logged_in(session, sso_server)


def test_login_page_shows_one_button_per_provider(sso_server):
    html = browser_session().get(f"{sso_server}/accounts/login/", timeout=60).text
    assert 'data-sso-provider="google"' in html
    assert "Sign in with Google" in html
    assert "Sign in with Microsoft" in html
    assert "Sign in with SkolniLogin" in html
    # The password form is still there.
    assert 'name="password"' in html


def test_an_unknown_provider_is_a_404(sso_server):
    session = browser_session()
    assert session.get(f"{sso_server}/accounts/sso/github/login/", timeout=60).status_code == 404
    callback = f"{sso_server}/accounts/sso/github/login/callback/?code=x&state=y"
    assert session.get(callback, timeout=60).status_code == 404


def link_directly(user, op, provider="google"):
    """The identity ``op`` signs in as next, linked to ``user`` beforehand."""
    SocialAccount.objects.create(user=user, provider=provider, uid=op.state.identity["sub"])


def test_staff_with_two_factor_still_give_their_code_for_the_admin(sso_server, op_reset):
    from django_otp.plugins.otp_totp.models import TOTPDevice

    staff = User.objects.create_user(
        email=f"admin@{SCHOOL_DOMAIN}", password="a-long-Password-1", is_staff=True
    )
    staff.is_superuser = True
    staff.save()
    TOTPDevice.objects.create(user=staff, name="phone", confirmed=True)
    google_teacher(op_reset, email=staff.email)
    link_directly(staff, op_reset)
    session, response = sign_in(sso_server, "google")
    assert logged_in(session, sso_server)
    admin = session.get(f"{sso_server}/admin/", allow_redirects=False, timeout=60)
    assert admin.status_code == 302
    assert "/admin/login/" in admin.headers["Location"]


def test_a_switched_off_account_is_not_signed_in(sso_server, op_reset):
    teacher = User.objects.create_user(email=f"off@{SCHOOL_DOMAIN}", is_active=False)
    google_teacher(op_reset, email=teacher.email)
    link_directly(teacher, op_reset)
    session, response = sign_in(sso_server, "google")
    assert response.status_code == 403
    assert refusal_code(response.text) == "sso_account_inactive"
    assert not logged_in(session, sso_server)


def test_a_school_account_never_becomes_a_player(sso_server, op_reset):
    """Pupils stay nickname-first: school sign-in makes teacher accounts only."""
    from accounts.models import PlayerProfile

    profiles = PlayerProfile.objects.count()
    google_teacher(op_reset, email=f"new@{SCHOOL_DOMAIN}")
    sign_in(sso_server, "google")
    user = User.objects.get(email=f"new@{SCHOOL_DOMAIN}")
    assert user.player_id is None
    assert PlayerProfile.objects.count() == profiles


def test_the_login_url_cannot_replace_the_redirect_uri_or_the_nonce(sso_server):
    """``?auth_params=`` may add hints; what binds the flow stays Matika's own."""
    session = browser_session()
    response = session.get(
        f"{sso_server}/accounts/sso/google/login/",
        params={"auth_params": "redirect_uri=https://evil.example/cb&nonce=fixed&prompt=login"},
        allow_redirects=False,
        timeout=60,
    )
    assert response.status_code == 302
    query = parse_qs(urlsplit(response.headers["Location"]).query)
    assert query["redirect_uri"] == [f"{sso_server}/accounts/sso/google/login/callback/"]
    assert query["nonce"] != ["fixed"] and len(query["nonce"][0]) >= 32
    assert query["prompt"] == ["login"]
    assert query["code_challenge_method"] == ["S256"]
