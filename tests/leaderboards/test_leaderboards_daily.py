"""The daily challenge: the deck of the day, one attempt, table, streak, beat task."""

import importlib
import threading
from datetime import date, timedelta

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone

from accounts import selectors as accounts_selectors
from games.models import GameResult
from games.poker import selectors
from games.poker import stats as poker_stats
from games.poker.errors import PokerError
from games.poker.models import DailyAttempt, DailyChallenge, SoloGame
from games.poker.rules import daily_deck
from games.poker.services import cleanup, daily, solo
from tests.leaderboards.helpers import at, finish, play_daily, player

pytestmark = pytest.mark.django_db


def _deal_order(game: SoloGame) -> list[int]:
    return game.state["sequence"] + game.state["deck"]


def test_two_players_get_the_same_deck_and_the_next_day_another():
    ada, bob = player("Ada"), player("Bob")
    start = dict(player=None, storage_enabled=True, mode="daily")
    first = solo.start_solo_game(**{**start, "player": ada}, now=at("2026-11-29 08:00"))
    second = solo.start_solo_game(**{**start, "player": bob}, now=at("2026-11-29 23:59"))
    assert first.day == second.day == date(2026, 11, 29)
    assert _deal_order(first) == _deal_order(second)
    assert _deal_order(first) == daily_deck(date(2026, 11, 29), daily.daily_secret())
    tomorrow = solo.start_solo_game(**{**start, "player": ada}, now=at("2026-11-30 00:00"))
    assert tomorrow.day == date(2026, 11, 30)
    assert _deal_order(tomorrow) != _deal_order(first)
    assert first.difficulty == "easy" and first.table == "contiguous"
    view = selectors.solo_game_view(first, now=at("2026-11-29 08:00"))
    assert view["preview"] is False and view["day"] == "2026-11-29"
    assert "deck" not in view and "sequence" not in view


def test_a_second_attempt_is_refused_and_points_to_the_unfinished_one():
    ada = player("Ada")
    game = solo.start_solo_game(
        player=ada, storage_enabled=True, mode="daily", now=at("2026-11-29 08:00")
    )
    with pytest.raises(PokerError) as refused:
        solo.start_solo_game(
            player=ada, storage_enabled=True, mode="daily", now=at("2026-11-29 09:00")
        )
    assert refused.value.code == "daily_used" and refused.value.status == 409
    assert refused.value.extra == {"game_id": str(game.pk)}
    finish(game, now=at("2026-11-29 09:00"))
    with pytest.raises(PokerError) as again:
        solo.start_solo_game(
            player=ada, storage_enabled=True, mode="daily", now=at("2026-11-29 10:00")
        )
    assert again.value.code == "daily_used" and again.value.extra == {}
    assert DailyAttempt.objects.count() == 1
    assert SoloGame.objects.filter(mode="daily").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_tabs_starting_at_once_get_one_attempt():
    ada = player("Ada")
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def attempt() -> None:
        try:
            barrier.wait()
            solo.start_solo_game(
                player=ada, storage_enabled=True, mode="daily", now=at("2026-11-29 08:00")
            )
            outcomes.append("started")
        except PokerError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["daily_used", "started"]
    assert DailyAttempt.objects.filter(player=ada).count() == 1
    assert SoloGame.objects.filter(player=ada, mode="daily").count() == 1


def test_replay_plays_the_same_deck_and_records_nothing():
    ada = player("Ada")
    with pytest.raises(PokerError) as early:
        solo.start_solo_game(
            player=ada, storage_enabled=True, mode="daily", replay=True, now=at("2026-11-29 07:00")
        )
    assert early.value.code == "daily_not_played"
    attempt = play_daily(ada, start=at("2026-11-29 08:00"))
    replay = solo.start_solo_game(
        player=ada, storage_enabled=True, mode="daily", replay=True, now=at("2026-11-29 09:00")
    )
    assert replay.state["sequence"][0] == attempt.state["sequence"][0]
    finish(replay, now=at("2026-11-29 09:00"))
    replay.refresh_from_db()
    assert replay.finished_at is not None and replay.record is None and not replay.published
    assert GameResult.objects.count() == 1
    view = selectors.solo_game_view(replay, now=at("2026-11-29 10:00"))
    assert view["recorded"] is False and view["replay"] is True


def test_the_table_of_the_day_ranks_published_attempts_and_shows_the_record():
    ada, bob, shy = player("Ada"), player("Bob"), player("Shy", consent=None)
    play_daily(ada, start=at("2026-11-29 08:00"))
    play_daily(bob, start=at("2026-11-29 07:00"))
    play_daily(shy, start=at("2026-11-29 06:00"))
    table = selectors.daily_table(day=date(2026, 11, 29))
    assert [row.nickname for row in table["rows"]] == ["Bob", "Ada"]  # same deck: earlier wins
    record = selectors.day_record(day=date(2026, 11, 29))
    assert record == {"score": table["rows"][0].score, "nickname": "Bob"}
    mine = selectors.daily_result(player=ada, day=date(2026, 11, 29))
    assert mine["rank"] == 2 and mine["streak"] == 1 and mine["published"] is True
    unpublished = selectors.daily_result(player=shy, day=date(2026, 11, 29))
    assert unpublished["published"] is False and unpublished["rank"] == 1
    assert selectors.daily_result(player=ada, day=date(2026, 11, 30)) is None


def test_the_streak_counts_consecutive_days_and_a_missed_day_breaks_it():
    ada = player("Ada")
    for day in ("2026-11-25", "2026-11-27", "2026-11-28", "2026-11-29"):
        play_daily(ada, start=at(f"{day} 12:00"))
    assert poker_stats.daily_streak(ada, today=date(2026, 11, 29)) == 3
    assert poker_stats.daily_streak(ada, today=date(2026, 11, 30)) == 3  # not yet lost
    assert poker_stats.daily_streak(ada, today=date(2026, 12, 1)) == 0
    assert poker_stats.daily_streak(ada, today=date(2026, 11, 25)) == 1
    stats = accounts_selectors.player_stats(ada, today=date(2026, 11, 29))["poker"]
    assert stats["daily_streak"] == 3 and stats["easy_record"] is not None


def test_the_beat_task_catches_up_missed_days_and_freezes_old_tables():
    ada, bob = player("Ada"), player("Bob")
    assert daily.rotate_daily_challenges(now=at("2026-11-26 00:00:05")) == {
        "published": ["2026-11-26"],
        "frozen": [],
    }
    play_daily(ada, start=at("2026-11-26 10:00"))
    late = solo.start_solo_game(
        player=bob, storage_enabled=True, mode="daily", now=at("2026-11-26 23:59")
    )
    # The beat was down for three nights.
    done = daily.rotate_daily_challenges(now=at("2026-11-29 00:00:03"))
    assert done == {
        "published": ["2026-11-27", "2026-11-28", "2026-11-29"],
        "frozen": ["2026-11-26", "2026-11-27", "2026-11-28"],
    }
    assert daily.rotate_daily_challenges(now=at("2026-11-29 00:10")) == {
        "published": [],
        "frozen": [],
    }
    challenge = DailyChallenge.objects.get(day=date(2026, 11, 26))
    assert challenge.frozen_at is not None
    assert DailyAttempt.objects.get(player=ada).rank == 1
    assert GameResult.objects.get(player=ada).rank == 1
    # Finished after the freeze: recorded (stats, streak) but not on the table.
    finish(late, now=at("2026-11-29 08:00"))
    attempt = DailyAttempt.objects.get(player=bob)
    assert attempt.finished_at is not None and attempt.published is False
    assert GameResult.objects.get(player=bob).details["day"] == "2026-11-26"
    assert [r.nickname for r in selectors.daily_table(day=date(2026, 11, 26))["rows"]] == ["Ada"]


def test_a_start_before_the_beat_publishes_the_day_itself():
    ada = player("Ada")
    solo.start_solo_game(
        player=ada, storage_enabled=True, mode="daily", now=at("2026-11-29 00:00:01")
    )
    assert DailyChallenge.objects.filter(day=date(2026, 11, 29), frozen_at=None).exists()


def test_the_periodic_tasks_are_registered_for_the_database_scheduler():
    from django_celery_beat.models import PeriodicTask

    migration = importlib.import_module("games.poker.migrations.0003_daily_tasks_and_data")
    migration.create_tasks(apps, None)
    migration.create_tasks(apps, None)  # idempotent
    daily = PeriodicTask.objects.get(task="poker.rotate_daily_challenge")
    assert daily.enabled and daily.crontab is not None
    crontab = daily.crontab
    assert (crontab.minute, crontab.hour, crontab.day_of_week) == ("0", "0", "*")
    assert (crontab.day_of_month, crontab.month_of_year) == ("*", "*")
    assert str(crontab.timezone) == "Europe/Bratislava"
    assert (
        PeriodicTask.objects.filter(task="poker.cleanup_abandoned_games", enabled=True).count() == 1
    )
    from config.celery import app

    app.loader.import_default_modules()
    assert "poker.rotate_daily_challenge" in app.tasks
    assert "poker.cleanup_abandoned_games" in app.tasks


def test_abandoned_games_are_ended_by_time_or_deleted():
    ada = player("Ada")
    start = at("2026-11-28 10:00")
    easy = solo.start_solo_game(player=ada, storage_enabled=True, mode="easy", now=start)
    hard = solo.start_solo_game(
        player=ada, storage_enabled=True, mode="hard", seconds_per_card=3, now=start
    )
    daily = solo.start_solo_game(player=ada, storage_enabled=True, mode="daily", now=start)
    fresh = solo.start_solo_game(
        player=ada, storage_enabled=True, mode="easy", now=at("2026-11-29 09:00")
    )
    done = cleanup.cleanup_abandoned_games(now=at("2026-11-29 10:30"))
    assert done == {"ended": 1, "deleted": 2}
    assert not SoloGame.objects.filter(pk__in=[easy.pk, daily.pk]).exists()
    hard.refresh_from_db()
    assert hard.finished_at is not None and hard.record is not None
    assert SoloGame.objects.filter(pk=fresh.pk, finished_at=None).exists()
    attempt = DailyAttempt.objects.get(player=ada)
    assert attempt.game is None  # the day's attempt stays used
    assert cleanup.cleanup_abandoned_games(now=at("2026-11-29 10:31")) == {
        "ended": 0,
        "deleted": 0,
    }


@pytest.mark.django_db(transaction=True)
def test_the_rotation_runs_in_a_real_celery_worker(celery_worker_process):
    from games.poker import tasks
    from games.poker.rules import daily_date

    today = daily_date(timezone.now())
    missed = today - timedelta(days=3)
    DailyChallenge.objects.create(day=missed, table="contiguous")
    done = tasks.rotate_daily_challenge.delay().get(timeout=60)
    assert done["published"] == [(missed + timedelta(days=n)).isoformat() for n in (1, 2, 3)]
    assert done["frozen"] == [(missed + timedelta(days=n)).isoformat() for n in (0, 1, 2)]
    assert DailyChallenge.objects.filter(day=today, frozen_at=None).exists()


def test_deleting_the_profile_leaves_nothing_of_it_in_poker_tables():
    from accounts import services as accounts_services
    from games.poker.models import LeaderboardEntry
    from tests.leaderboards.helpers import play_ranked

    ada = player("Ada Zmizelá")
    play_ranked(ada, start=at("2026-11-29 09:00"))
    play_daily(ada, start=at("2026-11-29 10:00"))
    solo.start_solo_game(player=ada, storage_enabled=True, mode="easy", now=at("2026-11-29 11:00"))
    accounts_services.delete_profile(player=ada)
    assert not SoloGame.objects.exists()
    assert not DailyAttempt.objects.exists() and not LeaderboardEntry.objects.exists()
    assert GameResult.objects.filter(player=None).count() == 2  # anonymised, for class reports
    with connection.cursor() as cursor:
        for table in ("poker_sologame", "poker_dailyattempt", "poker_leaderboardentry"):
            cursor.execute(f"SELECT * FROM {table}")
            assert "Ada Zmizelá" not in str(cursor.fetchall())


def test_daily_deck_has_its_own_secret_so_rotating_secret_key_keeps_it(settings):
    settings.POKER_DAILY_SECRET = "daily-" + "d" * 44
    start = dict(storage_enabled=True, mode="daily", now=at("2026-11-29 08:00"))
    first = solo.start_solo_game(player=player("Ada"), **start)
    settings.SECRET_KEY = "rotated-" + "r" * 50
    second = solo.start_solo_game(player=player("Bob"), **start)
    assert _deal_order(first) == _deal_order(second)
    assert _deal_order(first) == daily_deck(date(2026, 11, 29), "daily-" + "d" * 44)
    settings.POKER_DAILY_SECRET = ""
    assert daily.daily_secret() == settings.SECRET_KEY
