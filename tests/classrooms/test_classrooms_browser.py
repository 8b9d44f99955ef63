"""A class lesson in a real headless Chromium against the real ASGI server.

The teacher signs up, logs in, creates a class with a pasted roster and shows
the QR code; three students join on phone-sized screens (one picks a roster
name with the claim code the teacher printed, one picks a roster name without
it and one types a new name, both approved by the teacher); the teacher starts a poker group
game for the class, the students join it from their class page, it is played
to the end; the teacher reads the results (server-rendered SVG charts), a
student's history and downloads the CSV. The API docs page renders.
"""

import csv
import io

import pytest
from playwright.sync_api import expect

from accounts.models import User
from classrooms.models import Classroom, Membership
from games.rooms.models import Room
from tests.classrooms import factories
from tests.classrooms.login import log_in, log_in_through_the_form
from tests.poker_room.live import rig_deck

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 375, "height": 740}
#: The group game's first 25 cards: numbers only, the same boards on every run.
NUMBERS = [*range(1, 14), *range(1, 13)]


def _goto(page, url: str):
    """Go to a page; the class page reloads itself as students arrive, and such a
    reload may abort the navigation once (net::ERR_ABORTED)."""
    from playwright.sync_api import Error

    try:
        page.goto(url)
    except Error:
        page.goto(url)


def _signup(page, email="ucitelka@skola.sk"):
    page.goto("/accounts/signup/")
    page.fill("#id_email", email)
    page.fill("#id_name", "Pani Učiteľka")
    page.fill("#id_password1", factories.PASSWORD)
    page.fill("#id_password2", factories.PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/accounts/signup/sent/")
    # Sign-up does not log in (no account oracle); the password does. A class
    # needs the address verified (accounts.trust): the mailed link, read from the
    # account (the server's mailbox is in another process).
    from django.urls import reverse

    from accounts.signup import verification_token

    user = User.objects.get(email=email)
    page.goto(reverse("accounts:verify_email", kwargs={"token": verification_token(user)}))
    log_in_through_the_form(page, user)


def _phone(browser, asgi_server):
    context = browser.new_context(base_url=asgi_server, viewport=PHONE, locale="en-GB")
    return context, context.new_page()


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_lesson_class_join_poker_game_and_results(transactional_db, page, browser, asgi_server):
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
    assert f"/classes/join/{code}/?k=" in join_link  # keyed: never refused by the limits

    # Student 1 opens the join link and picks a roster name.
    context1, adam = _phone(browser, asgi_server)
    adam.goto(join_link)
    assert not adam.locator("[data-typed-name]").is_visible()  # a roster name is offered
    adam.click("label.roster-choice:has-text('Adam K.')")
    assert "Kováč" not in adam.inner_text("main")  # pupils see first names and initials
    claim_code = Membership.objects.get(roster_name="Adam Kováč").claim_code
    adam.fill("#id_claim_code", claim_code)
    adam.fill("#id_nickname", "Rychlý Sokol")
    assert _fits_the_phone(adam)
    adam.click("text=Join the class")
    adam.wait_for_selector("text=Welcome to 6.A!")
    assert "You are Adam Kováč in this class" in adam.inner_text("main")

    # The teacher keeps the class page open: it refreshes itself as students arrive.
    _goto(page, class_url)

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

    # Student 3 picks another roster name, without a claim code: the teacher confirms.
    context3, bara = _phone(browser, asgi_server)
    bara.goto(join_link)
    bara.click("label.roster-choice:has-text('Bára N.')")
    bara.fill("#id_nickname", "Chytrá Liška")
    bara.click("text=Join the class")
    bara.wait_for_selector("[data-testid=pending-note]")
    claim = page.locator("[data-testid=pending] li", has_text="claims Bára Nová")
    claim.wait_for()
    claim.locator("text=Approve").click()
    page.wait_for_selector("text=The student was approved.")
    bara.locator("[data-testid=pending-note]").wait_for(state="detached")

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
    assert members["Bára Nová"].player.nickname == "Chytrá Liška"
    assert members["Cyril Pekný"].player is None

    # The teacher starts a poker group game for the class; each student's class
    # page shows it by itself and they join in one click.
    assert problems == []  # no CSP violation, no script error on the class pages so far
    _goto(page, class_url)
    page.click("text=Group game for the whole class")
    page.wait_for_url("**/rooms/*/")
    room = Room.objects.get(classroom=classroom)
    teacher = User.objects.get(email="ucitelka@skola.sk")
    assert (room.game, room.mode, room.host) == ("poker", "group", teacher.player)
    for phone in (adam, ema, bara):
        live = phone.locator("[data-testid=live-rooms] li", has_text=room.code)
        live.wait_for()
        live.get_by_role("button", name="Join the game").click()
        expect(phone.locator("[data-room-connection]")).to_have_text("Connected")
        assert _fits_the_phone(phone)
    expect(page.locator("[data-room-seats]")).to_contain_text("Tichá Myška")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("p[data-room-status]")).to_have_text("The game is running.")

    # The boards are filled through the runtime (the poker UI has its own tests)
    # from a fixed deck of numbers; the pages step away meanwhile so the run does
    # not wait on live redraws.
    rig_deck(Room.objects.get(pk=room.pk), NUMBERS)
    for open_page in (adam, ema, bara, page):
        open_page.goto("about:blank")
    students = [members[name].player for name in ("Adam Kováč", "Bára Nová", "Ema Malá")]
    _play_poker_to_the_end(room, teacher.player, students)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and room.record.classroom == classroom
    # An earlier lesson's game, so the charts have a trend to draw.
    factories.play(classroom, dict(zip(students, (40, 55, 30), strict=True)), days_ago=7)

    _goto(page, class_url)
    page.click("a.button:has-text('Results')")
    chart = page.locator("[data-testid=class-chart] svg.chart")
    expect(chart).to_be_visible()  # waits for the results page; is_visible() read the class page
    expect(chart.locator("polyline")).to_have_count(2)  # average and best per session
    assert chart.bounding_box()["height"] > 100

    page.locator("table.data-table a").first.click()  # the poker game just played
    # wait for the session page: count() right after the click read the results page
    ranking = page.locator("[data-testid=ranking] tbody tr")
    expect(ranking).to_have_count(3)
    expect(page.locator("table.board")).to_have_count(3)
    assert page.locator("table.board").first.locator("td").count() == 25
    with page.expect_download() as download_info:
        page.click("[data-testid=session-csv]")
    download = download_info.value
    assert download.suggested_filename.endswith(".csv")
    rows = list(csv.reader(io.StringIO(open(download.path(), encoding="utf-8-sig").read())))
    assert rows[0][:5] == ["Rank", "Surname", "First name", "ID in the school system", "Nickname"]
    assert sorted(f"{row[2]} {row[1]}" for row in rows[1:]) == [
        "Adam Kováč",
        "Bára Nová",
        "Ema Malá",
    ]

    # A student's history with the trend chart.
    page.click("[data-testid=ranking] a:has-text('Adam Kováč')")
    assert page.inner_text("[data-testid=games-count]") == "2"
    assert page.locator("svg.chart polyline").count() == 1

    # The student sees their own results, nothing about classmates.
    adam.goto(f"/classes/{classroom.pk}/")
    assert adam.inner_text("[data-testid=games-count]") == "2"
    assert adam.locator("svg.chart").is_visible()
    assert "Bára" not in adam.inner_text("main")
    assert _fits_the_phone(adam)
    for context in (context1, context2, context3):
        context.close()


def test_deleting_a_class_asks_in_the_dialog(transactional_db, page):
    teacher = factories.make_teacher("mazac@skola.sk")
    classroom = factories.make_class(teacher, name="Na zmazanie")
    log_in(page, teacher)
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


def _play_poker_to_the_end(room, host, students):
    """Every student fills their board in order as the host draws (``NUMBERS``, no joker)."""
    from games.rooms import services as rooms

    for turn in range(25):
        rooms.submit(
            room_id=room.pk, player=host, client_id=f"draw-{turn}", message={"type": "draw"}
        )
        for student in students:
            move = {"type": "place", "cell": turn}
            rooms.submit(room_id=room.pk, player=student, client_id=f"m{turn}", message=move)
    rooms.end_room(room=room, actor=host)
