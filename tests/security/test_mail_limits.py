"""No mail cannon (issue 27 §4): "An unverified account can create classes and
send co-teacher invitations with its own text and links to any address, without
limit (10 re-invites, 10 mails); sign-up is unlimited (20 'you already have an
account' mails to one teacher). Required: invitations only from verified
accounts; limits per account, per recipient and per address; names used in
mails neutralised (no links); one 'already registered' notice per address per
day." And a school's thirty teachers behind one address still sign up.
Replayed through HTTP with the real rates (tests/security/conftest.py)."""

import itertools
import secrets

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import User
from classrooms.models import CoTeacher
from tests.classrooms import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_inline")]

# Mail counters live in the cache for the whole run: every test mails its own
# addresses, so no test uses up another's budget.
_run = secrets.token_hex(3)
_numbers = itertools.count()


_network = secrets.randbelow(250)
_hosts = itertools.count(1)


def _email(name: str) -> str:
    return f"{name}-{_run}-{next(_numbers)}@skola.sk"


def _other_address() -> str:
    """An address apart from the test's own (and from tests/security/conftest.py's)."""
    return f"192.168.{_network}.{next(_hosts)}"


@pytest.fixture
def send(django_capture_on_commit_callbacks):
    """POST as ``client``, running the mail queued after the commit."""

    def post(client: Client, path: str, data: dict):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(path, data)

    return post


def _teacher_browser(address: str, *, verified: bool = True, name: str = "Pani Učiteľka"):
    teacher = factories.make_teacher(
        name=name, email_verified_at=timezone.now() if verified else None
    )
    client = Client(REMOTE_ADDR=address, headers={"accept-language": "en"})
    client.force_login(teacher)
    return teacher, client


def _invite(send, client, classroom, email):
    return send(client, f"/classes/{classroom.pk}/co-teachers/", {"email": email})


def _signup(address: str, email: str):
    return Client(REMOTE_ADDR=address, headers={"accept-language": "en"}).post(
        "/accounts/signup/",
        {
            "email": email,
            "name": "Pani Učiteľka",
            "password1": factories.PASSWORD,
            "password2": factories.PASSWORD,
        },
    )


def test_an_unverified_account_sends_no_invitation(send, address):
    teacher, client = _teacher_browser(address)
    classroom = factories.make_class(teacher)
    # an account that holds a class but whose address is not (or no longer) proved
    User.objects.filter(pk=teacher.pk).update(email_verified_at=None)
    response = _invite(send, client, classroom, _email("obet"))
    assert response.status_code == 302
    assert not CoTeacher.objects.exists()
    assert mail.outbox == []
    page = client.get(response["Location"]).content.decode()
    assert "Confirm your e-mail address first" in page


def test_ten_re_invitations_of_one_address_send_three_mails(send, address):
    teacher, client = _teacher_browser(address)
    classroom = factories.make_class(teacher)
    victim = _email("obet")
    for _ in range(10):
        _invite(send, client, classroom, victim)
        invite = CoTeacher.objects.filter(classroom=classroom).first()
        if invite is not None:
            client.post(f"/classes/{classroom.pk}/co-teachers/{invite.pk}/remove/")
    assert [message.to for message in mail.outbox] == [[victim]] * 3
    refused = _invite(send, client, classroom, victim)
    page = client.get(refused["Location"]).content.decode()
    assert "Too many invitations were sent. Try again in" in page
    assert not CoTeacher.objects.exists()


def test_the_recipient_budget_holds_over_every_sender(send, address):
    victim = _email("obet")
    for _ in range(5):
        teacher, client = _teacher_browser(_other_address())
        _invite(send, client, factories.make_class(teacher), victim)
    assert len(mail.outbox) == 3


def test_one_account_sends_at_most_thirty_invitations_a_day(send, address):
    teacher, client = _teacher_browser(address)
    classes = [factories.make_class(teacher, name=f"{n}.A") for n in range(4)]
    for number in range(35):
        _invite(send, client, classes[number // 10], _email("kolega"))
    assert len(mail.outbox) == 30
    assert CoTeacher.objects.count() == 30


def test_one_network_address_has_an_invitation_budget_over_all_accounts(send, address, settings):
    settings.MATIKA_LIMITS = {"invitations_address": "4/d"}
    for _ in range(6):
        teacher, client = _teacher_browser(address)
        _invite(send, client, factories.make_class(teacher), _email("kolega"))
    assert len(mail.outbox) == 4
    # another address is not touched
    teacher, client = _teacher_browser(_other_address())
    _invite(send, client, factories.make_class(teacher), _email("kolega"))
    assert len(mail.outbox) == 5


def test_names_in_the_invitation_mail_carry_no_link(send, address):
    teacher, client = _teacher_browser(address, name="Admin www.evil.example")
    classroom = factories.make_class(teacher, name="Prize at https://evil.example/win")
    _invite(send, client, classroom, _email("obet"))
    (message,) = mail.outbox
    for text in (message.subject, message.body):
        assert "https://evil" not in text
        assert "evil.example" not in text
        assert "www.evil" not in text
    assert "evil[.]example" in message.body
    # the real link is still there
    assert "/classes/invitations/" in message.body


def test_twenty_sign_ups_with_a_known_address_send_one_notice(address):
    known = User.objects.create_user(_email("ucitel"), "Stare-heslo-987")
    for _ in range(20):
        assert _signup(_other_address(), known.email).status_code == 302
    assert [message.to for message in mail.outbox] == [[known.email]]


def test_thirty_teachers_behind_one_address_all_sign_up(address):
    for _ in range(30):
        assert _signup(address, _email("ucitel")).status_code == 302
    assert User.objects.count() == 30
    assert len(mail.outbox) == 30


def test_sign_ups_from_one_address_are_limited_with_a_stable_code(address):
    for _ in range(60):
        assert _signup(address, _email("ucitel")).status_code == 302
    late = _email("dalsi")
    response = _signup(address, late)
    assert response.status_code == 429
    assert 'data-code="too_many_signups"' in response.content.decode()
    assert not User.objects.filter(email=late).exists()
    # a known address is refused alike (the limit tells nothing about accounts)
    assert _signup(address, User.objects.first().email).status_code == 429
    # another address signs up
    assert _signup(_other_address(), late).status_code == 302


def test_the_verification_link_is_resent_five_times_a_day(address):
    victim = _email("obet")
    assert _signup(address, victim).status_code == 302
    client = Client(REMOTE_ADDR=address, headers={"accept-language": "en"})
    client.force_login(User.objects.get(email=victim))
    for _ in range(10):
        client.post("/accounts/verify/resend/")
    # the link of the sign-up and five resends
    assert [message.to for message in mail.outbox] == [[victim]] * 6
    page = client.post("/accounts/verify/resend/", follow=True).content.decode()
    assert "We have already sent you several links today." in page
