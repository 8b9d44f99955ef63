"""Ranked games and the four leaderboards (spec poker §4 ranked, platform §4)."""

from datetime import datetime

import pytest

from accounts import services as accounts_services
from accounts.models import PlayerProfile
from classrooms import services as classroom_services
from classrooms.models import Classroom, Membership
from games.models import GameResult
from games.poker import selectors
from games.poker.errors import PokerError
from games.poker.models import LeaderboardEntry, SoloGame
from games.poker.periods import period_bounds, period_key, period_keys
from games.poker.rules.deck import DAILY_TIMEZONE
from games.poker.services import solo
from tests.leaderboards.helpers import HIGH_DECK, LOW_DECK, at, play_ranked, player

pytestmark = pytest.mark.django_db


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=DAILY_TIMEZONE)


def board(period: str, when: str, who: PlayerProfile | None = None) -> dict:
    return selectors.leaderboard(period=period, now=moment(when), player=who)


def test_a_complete_ranked_board_enters_all_four_periods():
    ada = player("Ada")
    game = play_ranked(ada, start=at("2026-11-29 10:00"))
    result = GameResult.objects.get(record=game.record)
    assert result.completed and result.record.mode == "ranked"
    assert result.details["difficulty"] == "easy"
    keys = set(LeaderboardEntry.objects.filter(player=ada).values_list("period", flat=True))
    assert keys == {"day:2026-11-29", "week:2026-11-23", "month:2026-11", "all"}
    top = board("all", "2026-11-29 12:00")["rows"]
    assert [(row.nickname, row.score, row.difficulty) for row in top] == [
        ("Ada", result.score, "easy")
    ]
    assert top[0].duration_s == pytest.approx(result.details["duration_s"], abs=0.001)


def test_an_incomplete_ranked_board_and_unranked_games_stay_off_the_leaderboard():
    bob = player("Bob")
    with_time = solo.start_solo_game(
        player=bob,
        storage_enabled=True,
        mode="ranked",
        difficulty="hard",
        seconds_per_card=3,
        now=at("2026-11-29 10:00"),
    )
    # Nobody plays: every number runs out, the board ends empty.
    solo.act_in_solo_game(
        game_id=with_time.pk, player=bob, action={"type": "advance"}, now=at("2026-11-29 11:00")
    )
    with_time.refresh_from_db()
    assert with_time.finished_at is not None
    assert GameResult.objects.get(record=with_time.record).completed is False
    easy = solo.start_solo_game(
        player=bob, storage_enabled=True, mode="easy", now=at("2026-11-29 10:00")
    )
    from tests.leaderboards.helpers import finish

    finish(easy, now=at("2026-11-29 10:00"))
    assert GameResult.objects.filter(player=bob).count() == 2
    assert not LeaderboardEntry.objects.exists()


def test_ranked_games_use_the_default_table_and_need_a_difficulty(client):
    carl = player("Carl")
    with pytest.raises(PokerError) as refused:
        solo.start_solo_game(player=carl, storage_enabled=True, mode="ranked", now=1e9)
    assert refused.value.code == "bad_difficulty"
    game = solo.start_solo_game(
        player=carl,
        storage_enabled=True,
        mode="ranked",
        difficulty="easy",
        table="school",
        now=1e9,
    )
    assert game.table == "contiguous"
    view = selectors.solo_game_view(game, now=1e9)
    assert view["preview"] is False and view["kind"] == "ranked"
    assert "deck" not in view and "sequence" not in view


def test_only_the_players_best_result_counts_per_period():
    ada = player("Ada")
    low = play_ranked(ada, start=at("2026-11-29 09:00"), deck=LOW_DECK)
    high = play_ranked(ada, start=at("2026-11-29 10:00"), deck=HIGH_DECK)
    play_ranked(ada, start=at("2026-11-29 11:00"), deck=LOW_DECK)
    low_score = GameResult.objects.get(record=low.record).score
    high_score = GameResult.objects.get(record=high.record).score
    assert high_score > low_score
    assert LeaderboardEntry.objects.filter(player=ada).count() == 4
    rows = board("day", "2026-11-29 20:00")["rows"]
    assert [(row.nickname, row.score) for row in rows] == [("Ada", high_score)]


def test_ties_go_to_the_shorter_game_then_the_earlier_finish():
    slow, quick, early = player("Slow"), player("Quick"), player("Early")
    play_ranked(slow, start=at("2026-11-29 10:00"), step=3)
    play_ranked(quick, start=at("2026-11-29 10:30"), step=1)
    play_ranked(early, start=at("2026-11-29 09:00"), step=1)
    rows = board("day", "2026-11-29 20:00")["rows"]
    assert [row.nickname for row in rows] == ["Early", "Quick", "Slow"]
    assert [row.rank for row in rows] == [1, 2, 3]
    assert len({row.score for row in rows}) == 1
    lower = player("Lower")
    play_ranked(lower, start=at("2026-11-29 08:00"), deck=LOW_DECK, step=0.5)
    assert board("day", "2026-11-29 20:00")["rows"][-1].nickname == "Lower"


def test_a_better_game_of_the_same_length_replaces_an_equal_later_one_only_if_earlier():
    ada = player("Ada")
    first = play_ranked(ada, start=at("2026-11-29 10:00"))
    play_ranked(ada, start=at("2026-11-29 11:00"))
    entry = LeaderboardEntry.objects.get(player=ada, period="all")
    assert entry.game_id == first.pk  # the same score and time: the earlier finish stays


def test_period_keys_change_at_local_midnight_and_on_monday():
    sunday_night = moment("2026-11-29 23:59:59")  # a Sunday in Bratislava (UTC+1)
    monday = moment("2026-11-30 00:00:00")
    assert period_keys(sunday_night) == {
        "day": "day:2026-11-29",
        "week": "week:2026-11-23",
        "month": "month:2026-11",
        "all": "all",
    }
    assert period_keys(monday) == {
        "day": "day:2026-11-30",
        "week": "week:2026-11-30",
        "month": "month:2026-11",
        "all": "all",
    }
    # 23:30 UTC on the 30th is already 1 December in Bratislava.
    from datetime import UTC

    assert period_key("month", datetime(2026, 11, 30, 23, 30, tzinfo=UTC)) == "month:2026-12"
    start, end = period_bounds("week:2026-11-30")
    assert start == monday and (end - start).days == 7
    assert period_bounds("month:2026-12")[1] == moment("2027-01-01 00:00")


def test_boards_follow_the_periods_at_the_frozen_now():
    ada, bob = player("Ada"), player("Bob")
    play_ranked(ada, start=at("2026-11-29 23:58"), step=1)  # Sunday
    play_ranked(bob, start=at("2026-11-30 00:01"), step=1)  # Monday
    names = lambda period, when: [row.nickname for row in board(period, when)["rows"]]  # noqa: E731
    assert names("day", "2026-11-29 23:59:59") == ["Ada"]
    assert names("day", "2026-11-30 00:00") == ["Bob"]
    assert names("week", "2026-11-29 23:59:59") == ["Ada"]
    assert names("week", "2026-11-30 12:00") == ["Bob"]
    assert sorted(names("month", "2026-11-30 12:00")) == ["Ada", "Bob"]
    assert names("month", "2026-12-01 00:00") == []
    assert sorted(names("all", "2027-05-01 00:00")) == ["Ada", "Bob"]


def test_the_players_own_rank_is_shown_outside_the_top_100():
    players = PlayerProfile.objects.bulk_create(
        PlayerProfile(nickname=f"P{i:03d}", code=f"C{i:07d}") for i in range(105)
    )
    when = moment("2026-11-29 12:00")
    games = SoloGame.objects.bulk_create(
        SoloGame(player=p, mode="ranked", table="contiguous", state={}, finished_at=when)
        for p in players
    )
    LeaderboardEntry.objects.bulk_create(
        LeaderboardEntry(
            period="all",
            player=p,
            game=g,
            score=1000 - i,
            duration_ms=60_000,
            finished_at=when,
            difficulty="easy",
        )
        for i, (p, g) in enumerate(zip(players, games, strict=True))
    )
    result = board("all", "2026-11-29 13:00", players[103])
    assert len(result["rows"]) == 100
    assert result["own"].rank == 104 and result["own"].nickname == "P103"
    inside = board("all", "2026-11-29 13:00", players[5])
    assert inside["own"] is None and inside["rows"][5].mine


def test_without_consent_nothing_is_published_and_the_game_goes_on():
    shy = player("Shy", consent=None)
    no = player("No", consent=False)
    for who in (shy, no):
        game = play_ranked(who, start=at("2026-11-29 10:00"))
        assert game.finished_at is not None and game.record is not None
        assert game.published is False
    assert not LeaderboardEntry.objects.exists()


def test_withdrawing_consent_removes_the_entries_at_once():
    ada = player("Ada")
    play_ranked(ada, start=at("2026-11-29 10:00"))
    assert LeaderboardEntry.objects.filter(player=ada).count() == 4
    accounts_services.record_consent(player=ada, granted=False, language="en")
    assert not LeaderboardEntry.objects.exists()
    assert not SoloGame.objects.filter(published=True).exists()
    # Consent given again publishes new results only.
    accounts_services.record_consent(player=ada, granted=True, language="en", age_confirmed=True)
    assert not LeaderboardEntry.objects.exists()
    play_ranked(ada, start=at("2026-11-29 11:00"), deck=LOW_DECK)
    assert LeaderboardEntry.objects.filter(player=ada).count() == 4


@pytest.mark.parametrize("how", ["reset", "delete", "hide", "ban"])
def test_reset_delete_hide_and_ban_remove_the_entries(how, admin_client):
    ada = player("Ada")
    play_ranked(ada, start=at("2026-11-29 10:00"))
    if how == "reset":
        accounts_services.reset_stats(player=ada)
    elif how == "delete":
        accounts_services.delete_profile(player=ada)
    else:
        action = {"hide": "hide_nicknames", "ban": "ban_profiles"}[how]
        admin_client.post(
            "/admin/accounts/playerprofile/", {"action": action, "_selected_action": [ada.pk]}
        )
    assert not LeaderboardEntry.objects.exists()
    if how in ("hide", "ban"):
        play_ranked(PlayerProfile.objects.get(pk=ada.pk), start=at("2026-11-29 11:00"))
        assert not LeaderboardEntry.objects.exists()


def _classroom(*, public: bool) -> Classroom:
    from accounts.models import User

    teacher = User.objects.create_user(f"t{Classroom.objects.count()}@skola.cz", "Heslo-1234")
    return Classroom.objects.create(
        name="7.B",
        teacher=teacher,
        join_code=f"AB{Classroom.objects.count():04d}",
        public_publication=public,
    )


def test_a_class_that_forbids_publication_keeps_its_members_off():
    pupil = player("Pupil")
    Membership.objects.create(classroom=_classroom(public=False), player=pupil, roster_name="J.")
    play_ranked(pupil, start=at("2026-11-29 10:00"))
    assert not LeaderboardEntry.objects.exists()


def test_one_forbidding_class_is_enough_and_joining_it_removes_entries():
    pupil = player("Pupil")
    Membership.objects.create(classroom=_classroom(public=True), player=pupil, roster_name="J.")
    play_ranked(pupil, start=at("2026-11-29 10:00"))
    assert LeaderboardEntry.objects.filter(player=pupil).count() == 4
    classroom_services.join_classroom(
        classroom=_classroom(public=False), player=pupil, typed_name="J."
    )
    assert not LeaderboardEntry.objects.exists()


def test_switching_class_publication_off_removes_its_members_entries():
    pupil = player("Pupil")
    classroom = _classroom(public=True)
    Membership.objects.create(classroom=classroom, player=pupil, roster_name="J.")
    play_ranked(pupil, start=at("2026-11-29 10:00"))
    assert LeaderboardEntry.objects.exists()
    classroom_services.update_classroom(
        classroom=classroom, name="7.B", school_year="", subject="", public_publication=False
    )
    assert not LeaderboardEntry.objects.exists()


def test_a_moderator_hides_an_entry_and_the_next_best_game_takes_its_place(admin_client):
    ada = player("Ada")
    low = play_ranked(ada, start=at("2026-11-29 09:00"), deck=LOW_DECK)
    high = play_ranked(ada, start=at("2026-11-29 10:00"), deck=HIGH_DECK)
    entry = LeaderboardEntry.objects.get(player=ada, period="day:2026-11-29")
    assert entry.game_id == high.pk
    response = admin_client.post(
        "/admin/poker/leaderboardentry/",
        {"action": "hide_entries", "_selected_action": [entry.pk]},
    )
    assert response.status_code == 302
    entries = LeaderboardEntry.objects.filter(player=ada)
    assert entries.count() == 4 and {e.game_id for e in entries} == {low.pk}
    assert SoloGame.objects.get(pk=high.pk).leaderboard_hidden


def test_the_published_data_are_only_nickname_score_difficulty_and_time():
    ada = player("Ada")
    play_ranked(ada, start=at("2026-11-29 10:00"))
    row = board("all", "2026-11-29 12:00")["rows"][0]
    assert set(vars(row)) == {"rank", "nickname", "score", "difficulty", "duration_s", "mine"}


def _plan(sql: str, params) -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_the_top_100_and_the_rank_count_read_the_ranking_index():
    """EXPLAIN on 3 000 players x 2 periods (bench/RESULTS-leaderboards.md has 1M results)."""
    from django.db import connection

    players = PlayerProfile.objects.bulk_create(
        PlayerProfile(nickname=f"P{i:04d}", code=f"D{i:07d}") for i in range(3000)
    )
    when = moment("2026-11-29 12:00")
    games = SoloGame.objects.bulk_create(
        SoloGame(player=p, mode="ranked", table="contiguous", state={}, finished_at=when)
        for p in players
    )
    LeaderboardEntry.objects.bulk_create(
        LeaderboardEntry(
            period=period,
            player=p,
            game=g,
            score=(i * 7919) % 400,
            duration_ms=60_000 + (i * 104729) % 600_000,
            finished_at=when,
            difficulty="easy",
        )
        for period in ("all", "day:2026-11-29")
        for i, (p, g) in enumerate(zip(players, games, strict=True))
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE poker_leaderboardentry")
    entries = LeaderboardEntry.objects.filter(period="all")
    top = entries.order_by("-score", "duration_ms", "finished_at", "pk")[:100]
    plan = _plan(*top.query.sql_with_params())
    assert "Index Scan using poker_board_rank" in plan and "Seq Scan" not in plan, plan
    entry = entries.order_by("-score", "duration_ms")[50]
    for part in (
        entries.filter(score__gt=entry.score),
        entries.filter(score=entry.score, duration_ms__lt=entry.duration_ms),
    ):
        plan = _plan(*part.values("pk").query.sql_with_params())
        assert "poker_board_rank" in plan and "Seq Scan" not in plan, plan
    assert selectors.rank_in(entries, entry) == 51


@pytest.mark.parametrize("side", ["member", "profile"])
def test_a_profile_merged_into_a_member_of_a_forbidding_class_leaves_the_boards(side):
    pupil, second_device = player("Pupil"), player("Tablet")
    classroom = _classroom(public=False)
    membership = Membership.objects.create(classroom=classroom, player=pupil, roster_name="J.")
    duplicate = Membership.objects.create(
        classroom=classroom, player=None, roster_name="J. (tablet)"
    )
    play_ranked(second_device, start=at("2026-11-29 10:00"))
    assert LeaderboardEntry.objects.filter(player=second_device).exists()
    # The tablet's profile reaches the class through the teacher's merge, as the
    # member's second profile or as the duplicate entry folded into the member.
    if side == "member":
        duplicate.player = second_device
        duplicate.save()
        source, target = duplicate, membership
    else:
        membership.player, duplicate.player = None, pupil
        membership.save()
        duplicate.save()
        membership.other_players.add(second_device)
        source, target = membership, duplicate
    classroom_services.merge_members(classroom=classroom, source_id=source.pk, target_id=target.pk)
    assert not LeaderboardEntry.objects.exists()


def test_staff_switching_publication_off_in_the_admin_removes_the_members_entries(admin_client):
    pupil = player("Pupil")
    classroom = _classroom(public=True)
    Membership.objects.create(classroom=classroom, player=pupil, roster_name="J.")
    play_ranked(pupil, start=at("2026-11-29 10:00"))
    assert LeaderboardEntry.objects.exists()
    url = f"/admin/classrooms/classroom/{classroom.pk}/change/"
    page = admin_client.get(url)
    data = {}
    for name, value in page.context["adminform"].form.initial.items():
        data[name] = "" if value is None else value
    data.update(
        {
            "name": classroom.name,
            "teacher": classroom.teacher_id,
            "join_code": classroom.join_code,
            "join_enabled": "on",
            "created_at_0": classroom.created_at.strftime("%Y-%m-%d"),
            "created_at_1": classroom.created_at.strftime("%H:%M:%S"),
        }
    )
    data.pop("created_at", None)
    data.pop("public_publication", None)  # unticked
    for formset in page.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        for field in ("TOTAL_FORMS", "INITIAL_FORMS", "MIN_NUM_FORMS", "MAX_NUM_FORMS"):
            data[management.add_prefix(field)] = management.initial.get(field, 0)
        for form in formset.formset.initial_forms:
            for field_name, field in form.fields.items():
                value = form.initial.get(field_name, field.initial)
                if value is None:
                    continue
                if isinstance(value, list):
                    value = [getattr(item, "pk", item) for item in value]
                if hasattr(value, "strftime"):  # split date and time widgets
                    data[form.add_prefix(field_name) + "_0"] = value.strftime("%Y-%m-%d")
                    data[form.add_prefix(field_name) + "_1"] = value.strftime("%H:%M:%S")
                    continue
                data[form.add_prefix(field_name)] = getattr(value, "pk", value)
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    classroom.refresh_from_db()
    assert not classroom.public_publication
    assert not LeaderboardEntry.objects.exists()
