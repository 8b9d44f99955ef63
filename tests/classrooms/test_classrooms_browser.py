"""A class lesson in a real headless Chromium against the real ASGI server.

The teacher signs up, creates a class with a pasted roster and shows the QR
code; three students join on phone-sized screens (two pick roster names, one
types a new name that the teacher approves); the teacher reads the results
(server-rendered SVG charts), a student's history, downloads the CSV, and the
API docs page renders.
"""

import csv
import io

import pytest

from accounts.models import User
from classrooms.models import Classroom, Membership
from tests.classrooms import factories

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 375, "height": 740}


def _signup(page, email="ucitelka@skola.sk"):
    page.goto("/accounts/signup/")
    page.fill("#id_email", email)
    page.fill("#id_name", "Pani Učiteľka")
    page.fill("#id_password1", factories.PASSWORD)
    page.fill("#id_password2", factories.PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/")


def _phone(browser, asgi_server):
    context = browser.new_context(base_url=asgi_server, viewport=PHONE, locale="en-GB")
    return context, context.new_page()


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_lesson_teacher_creates_class_students_join_teacher_reads_results(
    transactional_db, page, browser, asgi_server
):
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    _signup(page)
    page.goto("/classes/")
    page.click("text=New class")
    page.fill("#id_name", "6.A")
    page.fill("#id_school_year", "2026/27")
    page.fill("#id_roster", "Adam Kováč\nBára Nová\nCyril Pekný")
    page.click("main button[type=submit]")
    page.wait_for_selector("[data-testid=class-code]")
    code = page.inner_text("[data-testid=class-code]").strip()
    assert page.locator("[data-testid=qr] svg").is_visible()
    class_url = page.url
    page.click("text=Show the QR code big")
    assert page.locator(".qr.big svg").bounding_box()["width"] > 200
    join_link = page.inner_text(".join-link").strip()
    assert join_link.endswith(f"/classes/join/{code}/")

    # Student 1 opens the join link and picks a roster name.
    context1, adam = _phone(browser, asgi_server)
    adam.goto(join_link)
    assert not adam.locator("[data-typed-name]").is_visible()  # a roster name is offered
    adam.click("label.roster-choice:has-text('Adam Kováč')")
    adam.fill("#id_nickname", "Rychlý Sokol")
    assert _fits_the_phone(adam)
    adam.click("text=Join the class")
    adam.wait_for_selector("text=Welcome to 6.A!")
    assert "You are Adam Kováč in this class" in adam.inner_text("main")

    # The teacher keeps the class page open: it refreshes itself as students arrive.
    page.goto(class_url)

    # Student 2 types the code and a name that is not in the roster.
    context2, ema = _phone(browser, asgi_server)
    ema.goto("/classes/join/")
    ema.fill("#id_code", code.lower())
    ema.click("main button[type=submit]")
    ema.click("text=My name is not in the list")
    ema.fill("#id_typed_name", "Ema Malá")
    ema.fill("#id_nickname", "Tichá Myška")
    assert _fits_the_phone(ema)
    ema.click("text=Join the class")
    ema.wait_for_selector("[data-testid=pending-note]")

    # Student 3 picks another roster name.
    context3, bara = _phone(browser, asgi_server)
    bara.goto(join_link)
    bara.click("label.roster-choice:has-text('Bára Nová')")
    bara.fill("#id_nickname", "Chytrá Liška")
    bara.click("text=Join the class")
    bara.wait_for_selector("text=Welcome to 6.A!")

    # The teacher approves the typed name (the waiting student appeared by itself).
    pending = page.locator("[data-testid=pending] li", has_text="Ema Malá")
    pending.wait_for()
    assert "Tichá Myška" in pending.inner_text()
    pending.locator("text=Approve").click()
    page.wait_for_selector("text=The student was approved.")
    ema.locator("[data-testid=pending-note]").wait_for(state="detached")  # refreshed by itself
    assert "My results" in ema.inner_text("main")

    classroom = Classroom.objects.get()
    assert classroom.teacher == User.objects.get(email="ucitelka@skola.sk")
    members = {m.roster_name: m for m in classroom.members.select_related("player")}
    assert members["Ema Malá"].status == Membership.Status.APPROVED
    assert members["Adam Kováč"].player.nickname == "Rychlý Sokol"
    assert members["Cyril Pekný"].player is None

    # Two finished group games of the class (the runtime writes these records).
    players = {name: m.player for name, m in members.items() if m.player}
    factories.play(
        classroom,
        {players["Adam Kováč"]: 40, players["Bára Nová"]: 55, players["Ema Malá"]: 30},
        days_ago=1,
        details={"board": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]},
    )
    factories.play(classroom, {players["Adam Kováč"]: 62, players["Bára Nová"]: 48})

    page.goto(class_url)
    page.click("a.button:has-text('Results')")
    chart = page.locator("[data-testid=class-chart] svg.chart")
    assert chart.is_visible()
    assert chart.locator("polyline").count() == 2
    assert chart.bounding_box()["height"] > 100

    page.locator("table.data-table a").first.click()  # newest session
    page.go_back()
    page.locator("table.data-table a").nth(1).click()  # the older, three-player session
    ranking = page.locator("[data-testid=ranking] tbody tr")
    assert ranking.count() == 3
    assert "Bára Nová" in ranking.first.inner_text()
    assert page.locator("table.board").count() == 3
    with page.expect_download() as download_info:
        page.click("[data-testid=session-csv]")
    download = download_info.value
    assert download.suggested_filename.endswith(".csv")
    rows = list(csv.reader(io.StringIO(open(download.path(), encoding="utf-8-sig").read())))
    assert rows[0][:4] == ["Rank", "Student", "Nickname", "Score"]
    assert [row[1] for row in rows[1:]] == ["Bára Nová", "Adam Kováč", "Ema Malá"]

    # A student's history with the trend chart.
    page.click("[data-testid=ranking] a:has-text('Adam Kováč')")
    assert page.inner_text("[data-testid=games-count]") == "2"
    assert page.locator("svg.chart polyline").count() == 1

    # The student sees their own results, nothing about classmates.
    adam.reload()
    assert adam.inner_text("[data-testid=games-count]") == "2"
    assert adam.locator("svg.chart").is_visible()
    assert "Bára" not in adam.inner_text("main")
    assert _fits_the_phone(adam)
    assert problems == []  # no CSP violation, no script error on the teacher's pages
    for context in (context1, context2, context3):
        context.close()


def test_deleting_a_class_asks_in_the_dialog(transactional_db, page):
    teacher = factories.make_teacher("mazac@skola.sk")
    classroom = factories.make_class(teacher, name="Na zmazanie")
    page.goto("/accounts/login/")
    page.fill("#id_username", teacher.email)
    page.fill("#id_password", factories.PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/")
    page.goto(f"/classes/{classroom.pk}/")
    page.click("text=Delete the class")
    dialog = page.locator("dialog[open]")
    assert "Na zmazanie" in dialog.inner_text()
    dialog.locator("text=Cancel").click()
    assert Classroom.objects.filter(pk=classroom.pk).exists()
    page.click("text=Delete the class")
    page.locator("dialog[open] >> text=Yes").click()
    page.wait_for_selector("text=The class and all its results were deleted.")
    assert not Classroom.objects.filter(pk=classroom.pk).exists()


def test_api_docs_page_renders_with_self_hosted_swagger(transactional_db, page):
    problems = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.goto("/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Matika API" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-summary-path")
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/classes/{id}/sessions/" in path for path in paths)
    assert not [p for p in problems if "Content Security Policy" in p]


def _student_context(browser, asgi_server, player):
    """A phone whose identity cookie holds ``player`` (as after joining the class)."""
    from django.conf import settings
    from django.core import signing

    from accounts import identity
    from accounts.models import Browser

    token = identity.new_token()
    stored = Browser.objects.create(token_hash=identity.hash_token(token), selected=player)
    stored.profiles.add(player)
    context = browser.new_context(
        base_url=asgi_server, viewport=PHONE, locale="en-GB", is_mobile=True
    )
    context.add_cookies(
        [
            {
                "name": settings.PLAYER_COOKIE_NAME,
                "value": signing.dumps(token, salt=identity.SALT),
                "url": asgi_server,
            }
        ]
    )
    return context


def _play_poker_to_the_end(room, host, students):
    """Every student fills their board in order as the host draws (jokers count as 1)."""
    from games.rooms import services as rooms
    from games.rooms.errors import RoomError

    for turn in range(25):
        rooms.submit(
            room_id=room.pk, player=host, client_id=f"draw-{turn}", message={"type": "draw"}
        )
        for student in students:
            move = {"type": "place", "cell": turn}
            try:
                rooms.submit(room_id=room.pk, player=student, client_id=f"m{turn}", message=move)
            except RoomError:
                joker = {"type": "use_joker", "cell": turn, "value": 1}
                rooms.submit(room_id=room.pk, player=student, client_id=f"j{turn}", message=joker)
    rooms.end_room(room=room, actor=host)


def test_teacher_starts_a_poker_group_game_for_the_class_and_reads_its_results(
    transactional_db, page, browser, asgi_server
):
    from playwright.sync_api import expect

    from games.rooms import registry
    from games.rooms.models import Room

    if ("poker", "group") not in registry.registered():
        pytest.skip("the poker group game is not registered with the rooms runtime yet")
    teacher = factories.make_teacher("ucitel@skola.sk")
    classroom = factories.make_class(teacher, roster="Adam Kováč\nBára Nová\nCyril Pekný")
    students = []
    for member in classroom.members.all():
        member.player = factories.make_player(f"Hráč {member.roster_name.split()[0]}")
        member.save()
        students.append(member.player)

    page.goto("/accounts/login/")
    page.fill("#id_username", teacher.email)
    page.fill("#id_password", factories.PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/")
    page.goto(f"/classes/{classroom.pk}/")
    page.click("text=Group game for the whole class")
    page.wait_for_url("**/rooms/*/")
    room = Room.objects.get(classroom=classroom)
    assert (room.game, room.mode) == ("poker", "group")
    teacher.refresh_from_db()
    assert room.host == teacher.player  # the teacher hosts with their own profile
    expect(page.locator("[data-room-connection]")).to_have_text("Connected")

    contexts = []
    for student in students:
        context = _student_context(browser, asgi_server, student)
        contexts.append(context)
        phone = context.new_page()
        phone.goto(f"/classes/{classroom.pk}/")
        live = phone.locator("[data-testid=live-rooms] li", has_text=room.code)
        live.get_by_role("button", name="Join the game").click()  # one click from the class
        expect(phone.locator("[data-room-connection]")).to_have_text("Connected")
        assert _fits_the_phone(phone)
    expect(page.locator("[data-room-seats]")).to_contain_text(students[-1].nickname)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("p[data-room-status]")).to_have_text("The game is running.")

    # The boards are played through the runtime (the poker UI has its own tests);
    # the pages are closed meanwhile so the run does not wait on live redraws.
    for context in contexts:
        context.close()
    page.goto("about:blank")
    _play_poker_to_the_end(room, room.host, students)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and room.record.classroom == classroom

    page.goto(f"/classes/{classroom.pk}/results/")
    assert page.locator("[data-testid=class-chart] svg.chart").is_visible()
    assert page.locator("table.data-table").first.locator("tbody tr").count() == 1
    page.locator("table.data-table a").first.click()
    ranking = page.locator("[data-testid=ranking] tbody tr")
    assert ranking.count() == 3
    assert page.locator("table.board").count() == 3
    with page.expect_download() as download_info:
        page.click("[data-testid=session-csv]")
    rows = list(
        csv.reader(io.StringIO(open(download_info.value.path(), encoding="utf-8-sig").read()))
    )
    assert sorted(row[1] for row in rows[1:]) == ["Adam Kováč", "Bára Nová", "Cyril Pekný"]
    page.click("[data-testid=ranking] a:has-text('Bára Nová')")
    assert page.inner_text("[data-testid=games-count]") == "1"
