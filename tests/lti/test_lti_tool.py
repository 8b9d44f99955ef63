"""Matika's LTI 1.3 tool against the suite's local LMS (tests/lti/lms.py):
dynamic registration, launches (and the attacks on them), deep linking to a
homework, the landings, course copies, isolation, NRPS and grades back."""

import re
import time

import pytest
import requests

from accounts.models import PlayerProfile, User
from classrooms.models import Classroom, Membership
from games.poker.rules import JOKER
from homework.models import Assignment
from lti import nrps, registration
from lti.models import Course, GradeSend, Person, Platform, RegistrationLink, ResourceLink
from tests.lti.lms import parse_forms

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = "/poker/api/games/"


def link_url(asgi_server: str) -> str:
    return asgi_server + registration.link_path(registration.new_link())


@pytest.fixture
def registered(lms, asgi_server):
    reg = lms.register(link_url(asgi_server))
    assert reg.ok, reg.error
    return reg


def _counts():
    return (
        User.objects.count(),
        PlayerProfile.objects.count(),
        Classroom.objects.count(),
        Membership.objects.count(),
        Person.objects.count(),
        Course.objects.count(),
    )


def _course_with(lms, *, teacher="Eva Svobodová", learners=()):
    course = lms.add_course("Algebra 7.A")
    instructor = lms.add_user(teacher, role="Instructor")
    lms.enrol(course, instructor)
    pupils = []
    for name in learners:
        pupil = lms.add_user(name, role="Learner")
        lms.enrol(course, pupil)
        pupils.append(pupil)
    return course, instructor, pupils


def _form_index(lms, response, action_part: str) -> int:
    forms = parse_forms(response.text)
    found = [i for i, form in enumerate(forms) if action_part in (form.get("action") or "")]
    assert found, forms
    return found[0]


def _deep_link(lms, session, instructor, course):
    picker = lms.deep_link(session, instructor, course)
    assert picker.status_code == 200, picker.text[:500]
    assert 'data-game="poker"' in picker.text
    back = lms.submit_form(
        session, picker, data={"game": "poker"}, index=_form_index(lms, picker, "/lti/deep-link/")
    )
    assert back.status_code == 200, back.text[:500]
    assert "data-autopost" in back.text
    csp = back.headers["Content-Security-Policy"]
    assert f"form-action 'self' {lms.base_url}" in csp
    done = lms.submit_form(session, back, index=_form_index(lms, back, lms.base_url))
    assert done.status_code == 200, (done.text[:500], lms.deep_link_errors)
    return Assignment.objects.order_by("-pk").first()


# --- registration --------------------------------------------------------------------


def test_registration_with_a_one_time_link_registers_and_closes(lms, asgi_server):
    reg = lms.register(link_url(asgi_server))
    assert reg.ok, reg.error
    platform = Platform.objects.get()
    assert platform.issuer == lms.issuer and platform.client_id == reg.client_id
    assert platform.deployments.get().deployment_id == reg.deployment_id
    assert reg.initiate_login_uri == asgi_server + "/lti/login/"
    assert reg.redirect_uris == [asgi_server + "/lti/launch/"]
    assert reg.jwks_uri == asgi_server + "/lti/jwks/"
    assert "email" not in reg.claims and "name" in reg.claims
    page = reg.response
    assert page.status_code == 200
    assert "lti/close.js" in page.text
    assert f"frame-ancestors 'self' {lms.base_url}" in page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    close = requests.get(asgi_server + "/static/lti/close.js", timeout=30).text
    assert "org.imsglobal.lti.close" in close


def test_registration_without_a_valid_link_is_refused_and_a_link_works_once(lms, asgi_server):
    forged = lms.register(asgi_server + "/lti/register/not-a-real-token/")
    assert forged.response.status_code == 403
    assert forged.client_id is None
    url = link_url(asgi_server)
    assert lms.register(url).ok
    again = lms.register(url)
    assert again.response.status_code == 403 and again.client_id is None
    assert Platform.objects.count() == 1
    assert RegistrationLink.objects.filter(used_at__isnull=False).count() == 1


def test_the_management_command_prints_the_link_on_the_last_line(db, capsys):
    from django.core.management import call_command

    call_command("lti_registration_link", "--base-url", "https://matika.example.cz")
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert re.fullmatch(r"https://matika\.example\.cz/lti/register/[\w-]+/", last)
    assert registration.link_is_valid(last.rstrip("/").rsplit("/", 1)[1])


# --- launches and their attacks -------------------------------------------------------


ATTACKS = [
    ({"sign_with_other_key": True}, 403),
    ({"expired": True}, 403),
    ({"wrong_aud": True}, 403),
    ({"wrong_iss": True}, 403),
    ({"wrong_deployment": True}, 403),
    ({"wrong_nonce": True}, 403),
    ({"wrong_state": True}, 403),
    ({"message_type": "LtiSubmissionReviewRequest"}, 400),
    ({"version": "1.1"}, 400),
    ({"drop_claims": ["deployment_id"]}, 403),
]


@pytest.mark.parametrize(("attack", "status"), ATTACKS, ids=lambda v: str(v)[:40])
def test_a_forged_or_broken_launch_is_refused_and_creates_nothing(lms, registered, attack, status):
    course, instructor, _pupils = _course_with(lms)
    before = _counts()
    response = lms.launch(requests.Session(), instructor, course, **attack)
    assert response.status_code == status, (attack, response.status_code, response.text[:300])
    assert "Matika" in response.text and response.headers.get("X-Error-Code")
    assert _counts() == before


def test_a_replayed_launch_is_refused(lms, registered):
    course, instructor, _pupils = _course_with(lms)
    response = lms.launch(requests.Session(), instructor, course, replay=True)
    assert response.status_code == 403
    assert response.headers["X-Error-Code"] == "bad_state"


def test_a_refused_launch_page_speaks_czech(lms, registered):
    course, instructor, _pupils = _course_with(lms)
    session = requests.Session()
    session.headers["Accept-Language"] = "cs"
    response = lms.launch(session, instructor, course, expired=True)
    assert response.status_code == 403
    assert '<html lang="cs">' in response.text


# --- deep linking, landings, grades ---------------------------------------------------


def test_deep_linking_makes_a_homework_in_two_submits_and_the_lms_accepts_it(
    lms, registered, asgi_server
):
    course, instructor, _pupils = _course_with(lms)
    session = requests.Session()
    assignment = _deep_link(lms, session, instructor, course)
    assert assignment is not None and assignment.game == "poker"
    returned = lms.deep_link_returns[-1]
    assert len(returned["links"]) == 1 and len(returned["lineitems"]) == 1
    classroom = assignment.classroom
    teacher = Person.objects.get(sub=instructor.sub).user
    assert classroom.teacher == teacher and not teacher.has_usable_password()
    assert teacher.email.endswith(".invalid")
    assert classroom.join_enabled is False
    # The instructor opens the new link: the homework page of the class, logged in.
    link = lms.links[course.id][-1]
    landing = lms.launch(session, instructor, course, link=link)
    assert landing.status_code == 200
    assert landing.url.endswith(f"/classes/{classroom.pk}/homework/{assignment.pk}/")
    assert ResourceLink.objects.get().lineitem_url.startswith(lms.base_url)


def test_course_copy_makes_a_new_class_and_another_platform_sees_nothing(
    lms, make_lms, registered, asgi_server
):
    course, instructor, _pupils = _course_with(lms)
    session = requests.Session()
    first = _deep_link(lms, session, instructor, course)
    copy = lms.copy_course(course, title="Algebra 7.A (2027)")
    lms.enrol(copy, instructor)
    landing = lms.launch(session, instructor, copy, link=lms.links[copy.id][0])
    assert landing.status_code == 200
    copied = Course.objects.get(context_id=copy.context_id)
    assert copied.classroom_id != first.classroom_id
    new_assignment = ResourceLink.objects.get(course=copied).assignment
    assert new_assignment.classroom_id == copied.classroom_id
    assert new_assignment.pk != first.pk and new_assignment.game == first.game
    # A second LMS reusing the same user ids and the same custom parameter.
    other = make_lms()
    assert other.register(link_url(asgi_server)).ok
    other_course = other.add_course("Algebra 7.A")
    other_teacher = other.add_user("Eva Svobodová", role="Instructor")
    other.enrol(other_course, other_teacher)
    assert other_teacher.sub == instructor.sub
    forged_link = other.add_link(
        other_course,
        custom={"matika_assignment": str(first.pk)},
        line_item={"label": "x", "scoreMaximum": 10},
    )
    response = other.launch(requests.Session(), other_teacher, other_course, link=forged_link)
    assert response.status_code == 200
    theirs = Course.objects.get(deployment__platform__issuer=other.issuer)
    assert response.url.endswith(f"/classes/{theirs.classroom_id}/")
    assert not ResourceLink.objects.filter(course=theirs).exists()
    assert Person.objects.filter(sub=instructor.sub).count() == 2
    # A learner of that LMS with the same forged link gets nothing at all.
    other_pupil = other.add_user("Adam Kovář", role="Learner")
    other.enrol(other_course, other_pupil)
    refused = other.launch(requests.Session(), other_pupil, other_course, link=forged_link)
    assert refused.status_code == 404
    assert not Membership.objects.filter(
        classroom=first.classroom, roster_name="Adam Kovář"
    ).exists()
    # Its own deep link makes its own class, never the first one's.
    _deep_link(other, requests.Session(), other_teacher, other_course)
    assert theirs.classroom_id not in {first.classroom_id, copied.classroom_id}
    assert theirs.classroom.teacher != first.classroom.teacher


def test_nrps_roster_reads_every_page_and_names_stay_roster_names(lms, registered):
    names = ["Adam Kovář", "Bára Nová", "Cyril Malý", "Dana Horká", "Emil Tichý"]
    course, instructor, _pupils = _course_with(lms, learners=names)
    lms.launch(requests.Session(), instructor, course)
    mapped = Course.objects.get()
    assert mapped.memberships_url
    # The launch queued a refresh too: in a full run the suite's Celery worker may
    # have applied it first, so the count here is 5 or 0, and the roster is whole
    # either way; a second refresh changes nothing.
    assert nrps.refresh(mapped.pk) in (0, 5)
    roster = list(mapped.classroom.members.values_list("roster_name", flat=True))
    assert sorted(roster) == sorted(names)
    assert nrps.refresh(mapped.pk) == 0
    assert mapped.classroom.members.count() == 5
    assert not PlayerProfile.objects.filter(nickname__in=names).exists()
    assert lms.page_size < 5  # the roster came in several pages


def _land_and_play(lms, pupil, course, link, asgi_server, before_play=None):
    session = requests.Session()
    landing = lms.launch(session, pupil, course, link=link)
    assert landing.status_code == 200, landing.text[:300]
    match = re.search(r'data-assignment="(\d+)"', landing.text)
    assert match, landing.url
    assignment_id = int(match.group(1))
    if before_play is not None:
        before_play()
    headers = {"X-CSRFToken": session.cookies.get("csrftoken", ""), "Accept-Language": "en"}
    game = session.post(
        asgi_server + GAMES,
        json={"mode": "assignment", "assignment": assignment_id},
        headers=headers,
        timeout=60,
    )
    assert game.status_code == 201, game.text[:300]
    state = game.json()["game"]
    for _ in range(60):
        if state["over"]:
            break
        free = [i for i, cell in enumerate(state["cells"]) if cell is None]
        action = (
            {"type": "use_joker", "cell": free[0], "value": 7}
            if state["hand"] == JOKER
            else {"type": "place", "cell": free[0]}
        )
        reply = session.post(
            f"{asgi_server}{GAMES}{state['id']}/actions/", json=action, headers=headers, timeout=60
        )
        assert reply.status_code == 200, reply.text[:300]
        state = reply.json()["game"]
    assert state["over"]
    return assignment_id


def test_done_when_five_learners_launch_play_and_their_scores_reach_the_gradebook(
    lms, registered, asgi_server, celery_worker_process
):
    names = ["Adam Kovář", "Bára Nová", "Cyril Malý", "Dana Horká", "Emil Tichý"]
    course, instructor, pupils = _course_with(lms, learners=names)
    assignment = _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    for pupil in pupils:
        assert _land_and_play(lms, pupil, course, link, asgi_server) == assignment.pk
    lineitem_id = link.line_item_ids[0]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if len(lms.gradebook(course)) == 5:
            break
        time.sleep(0.5)
    book = lms.gradebook_raw(course)
    assert set(book) == set(names), (book, lms.service_errors, lms.token_errors)
    scores = {s["userId"] for s in lms.scores[lineitem_id]}
    assert scores == {pupil.sub for pupil in pupils}
    members = Membership.objects.filter(classroom=assignment.classroom, player__isnull=False)
    assert members.count() == 5
    assert set(members.values_list("roster_name", flat=True)) == set(names)
    assert GradeSend.objects.filter(status="sent").count() == 5
    # Nicknames are generated, never the LMS names.
    assert not PlayerProfile.objects.filter(nickname__in=names).exists()
    # The teacher sees per pupil that the score was sent.
    # The teacher sees per pupil that the score was sent, reached from the
    # homework page the instructor lands on.
    teacher_session = requests.Session()
    landing = lms.launch(teacher_session, instructor, course, link=link)
    grades_url = f"/lti/classes/{assignment.classroom_id}/homework/{assignment.pk}/grades/"
    assert landing.url.endswith(f"/classes/{assignment.classroom_id}/homework/{assignment.pk}/")
    assert 'data-testid="homework-extra-link"' in landing.text
    assert f'href="{grades_url}"' in landing.text
    page = teacher_session.get(f"{asgi_server}{grades_url}", timeout=60)
    assert page.status_code == 200
    assert page.text.count('data-status="sent"') == 5


def test_a_learner_launch_in_chromium_at_360px_through_the_lms_page(make_lms, asgi_server, page):
    """The LMS on ``localhost``, Matika on 127.0.0.1: a truly cross-site form_post
    in a real browser, through the LMS's own auto-submitting page."""
    lms = make_lms(host="localhost")
    assert lms.register(link_url(asgi_server)).ok
    course, instructor, pupils = _course_with(lms, learners=["Adam Kovář"])
    assignment = _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(lms.launch_page_url(course, link, pupils[0]))
    page.wait_for_url(re.compile(r".*/poker/play/\?assignment=\d+"), timeout=60_000)
    assert page.locator(f'[data-assignment="{assignment.pk}"]').count() == 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    member = Membership.objects.get(classroom=assignment.classroom, roster_name="Adam Kovář")
    assert member.player is not None


def test_a_grade_the_lms_cannot_take_is_retried_then_shown_unsent_to_the_teacher(
    lms, registered, asgi_server, client
):
    """No worker here: the finished game leaves a pending send. With the LMS gone
    the task retries (Celery runs the retries inline when applied eagerly) and,
    after the last one, the pupil's row tells the teacher it was not sent."""
    from lti.tasks import GRADE_RETRIES, send_grade

    course, instructor, pupils = _course_with(lms, learners=["Adam Kovář"])
    assignment = _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    # The LMS goes away between the launch and the end of the game (a worker of
    # another test may be running: its first try fails too and waits to retry).
    _land_and_play(lms, pupils[0], course, link, asgi_server, before_play=lms.stop)
    grade = GradeSend.objects.get()
    assert grade.status == "pending"
    assert "?type_id=" in grade.link.lineitem_url
    assert send_grade.apply(args=[grade.pk]).get() == "failed"
    grade.refresh_from_db()
    assert grade.status == "failed" and grade.tries >= GRADE_RETRIES + 1
    assert "unreachable" in grade.error
    client.force_login(Person.objects.get(sub=instructor.sub).user)
    page = client.get(
        f"/lti/classes/{assignment.classroom_id}/homework/{assignment.pk}/grades/"
    ).content.decode()
    assert page.count('data-status="failed"') == 1


def test_staff_make_a_registration_link_on_the_staff_page_and_others_cannot(client, db):
    teacher = User.objects.create_user("ucitel@skola.cz", "Heslo-dlouhe-1")
    client.force_login(teacher)
    assert client.post("/lti/staff/").status_code == 403
    staff = User.objects.create_user("spravce@skola.cz", "Heslo-dlouhe-1", is_staff=True)
    client.force_login(staff)
    page = client.post("/lti/staff/")
    assert page.status_code == 200
    link = re.search(r"data-registration-link>([^<]+)<", page.content.decode()).group(1)
    assert link.startswith("http://testserver/lti/register/")
    assert registration.link_is_valid(link.rstrip("/").rsplit("/", 1)[1])
    assert "http://testserver/lti/login/" in page.content.decode()


def test_a_learner_from_the_roster_takes_their_entry_and_a_nameless_one_gets_the_nickname(
    lms, registered
):
    course, instructor, pupils = _course_with(lms, learners=["Adam Kovář"])
    anonymous = lms.add_user("Bára Nová", role="Learner")
    lms.enrol(course, anonymous)
    _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    mapped = Course.objects.get()
    nrps.refresh(mapped.pk)
    entry = Membership.objects.get(classroom=mapped.classroom, roster_name="Adam Kovář")
    assert entry.player is None
    assert lms.launch(requests.Session(), pupils[0], course, link=link).status_code == 200
    entry.refresh_from_db()
    assert entry.player is not None and entry.player.nickname != "Adam Kovář"
    assert mapped.classroom.members.filter(roster_name="Adam Kovář").count() == 1
    # The LMS sends no name: the roster shows the generated nickname.
    before = set(mapped.classroom.members.values_list("pk", flat=True))
    assert (
        lms.launch(requests.Session(), anonymous, course, link=link, no_name=True).status_code
        == 200
    )
    person = Person.objects.get(sub=anonymous.sub)
    member = Membership.objects.get(classroom=mapped.classroom, player=person.player)
    assert member.pk in before  # the NRPS entry, found by the LMS user id
    assert person.player.nickname not in {"Bára Nová", ""}


def test_privacy_erasing_a_pupil_drops_only_their_lms_binding_and_export_names_it(lms, registered):
    from accounts import erasure
    from accounts.export import export_profile as player_data

    course, instructor, pupils = _course_with(lms, learners=["Adam Kovář", "Bára Nová"])
    _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    for pupil in pupils:
        lms.launch(requests.Session(), pupil, course, link=link)
    adam = Person.objects.get(sub=pupils[0].sub)
    data = player_data(adam.player)
    assert data["lms"][0]["lms_user_id"] == pupils[0].sub
    assert data["lms"][0]["lms"] == lms.issuer
    people = Person.objects.count()
    erasure.erase_profile(adam.player)
    assert not Person.objects.filter(sub=pupils[0].sub).exists()
    assert Person.objects.count() == people - 1
    assert Person.objects.get(sub=pupils[1].sub).player is not None
