"""Reads for poker: a game as its player may see it, public tables, the player's records."""

import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, cast

from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from accounts import privacy
from accounts import selectors as accounts_selectors
from accounts.models import Browser, PlayerProfile
from games.rooms.models import Room, Seat

from . import coach_advice
from . import stats as poker_stats
from .errors import PokerError
from .models import DailyAttempt, LeaderboardEntry, SoloGame
from .periods import period_key
from .room_games import common as room_common
from .rules import JOKER, TABLE_NAMES, PokerGame, get_table, score_board
from .rules.scoring import CELLS

#: Places shown on a public table.
TOP = 100
#: How long "players with a higher score" is reused for ranks below the top
#: (the one count that grows with the board; docs/leaderboards.md).
AHEAD_CACHE_SECONDS = 30


def solo_game(*, game_id: object, player: PlayerProfile | None) -> SoloGame:
    """The player's own game, or ``not_found`` (another player's game looks absent)."""
    not_found = PokerError("not_found", _("This game does not exist or is not yours."), 404)
    if player is None:
        raise not_found
    try:
        return SoloGame.objects.get(pk=uuid.UUID(str(game_id)), player=player)
    except (SoloGame.DoesNotExist, ValueError):
        raise not_found from None


def solo_game_view(game: SoloGame, *, now: float) -> dict[str, Any]:
    """What the browser may see, with time applied up to ``now`` (read-only: the
    forfeits it shows are stored by the next action).

    Ranked and daily games carry ``preview: false``: the page renders no
    preview for them (the spec forbids it there)."""
    engine = PokerGame.from_dict(game.state)
    engine.advance(now)
    view = {
        "id": str(game.pk),
        "kind": game.mode,
        "recorded": not game.replay,
        "preview": game.mode in (SoloGame.Mode.EASY, SoloGame.Mode.HARD),
        **engine.player_view(),
    }
    if game.mode == SoloGame.Mode.DAILY:
        view["day"] = game.day.isoformat() if game.day else None
        view["replay"] = game.replay
        view["day_record"] = day_record(day=game.day) if game.day else None
    if game.mode in (SoloGame.Mode.RANKED, SoloGame.Mode.DAILY):
        view["published"] = game.published
    if game.mode == SoloGame.Mode.HOMEWORK:
        # The coach's review of a homework game opens only once the homework
        # allows it (after the deadline, when the teacher shows reviews): the
        # end of the game offers the link only then (``reviewable``).
        from .assignments import pupil_may_review

        view["reviewable"] = bool(view.get("over")) and pupil_may_review(game)
    if game.robot is not None:
        robot_score = score_board(game.robot["cells"], game.table)
        view["robot"] = {
            "level": game.robot["level"],
            "cells": game.robot["cells"],
            "score": robot_score.total,
            "lines": robot_score.lines,
            "kept_jokers": game.robot["kept"],
        }
    return view


# --- who may appear in public --------------------------------------------------------


def class_forbids_publication(player: PlayerProfile) -> bool:
    """True when a class the player belongs to keeps its members off public
    tables: the classes answer it through their privacy hook (``accounts.privacy``;
    ``classrooms.privacy.publication_blocked``), so poker never imports them."""
    return privacy.publication_blocked(player)


def may_publish(player: PlayerProfile | None) -> bool:
    """Consent given, profile active and its nickname not hidden, no class forbids it."""
    return bool(
        player is not None
        and player.is_active
        and not player.nickname_hidden
        and accounts_selectors.has_publication_consent(player)
        and not class_forbids_publication(player)
    )


# --- the leaderboards ---------------------------------------------------------------


@dataclass(frozen=True)
class TableRow:
    """One line of a public table: only what may be published."""

    rank: int
    nickname: str
    score: int
    difficulty: str
    duration_s: float
    mine: bool = False


def _ranked(entries: QuerySet) -> QuerySet:
    return entries.order_by("-score", "duration_ms", "finished_at", "pk")


def leaderboard(
    *, period: str, now: datetime, player: PlayerProfile | None = None
) -> dict[str, Any]:
    """The top ``TOP`` of ``period`` at ``now`` plus the player's own row, also
    when it is outside the top (its rank counted through the ranking index)."""
    key = period_key(period, now)
    entries = LeaderboardEntry.objects.filter(period=key)
    rows = [
        TableRow(
            rank=rank,
            nickname=entry.player.nickname,
            score=entry.score,
            difficulty=entry.difficulty,
            duration_s=entry.duration_ms / 1000,
            mine=player is not None and entry.player_id == player.pk,
        )
        for rank, entry in enumerate(_ranked(entries).select_related("player")[:TOP], start=1)
    ]
    own = None
    if player is not None and not any(row.mine for row in rows):
        entry = entries.filter(player=player).first()
        if entry is not None:
            own = TableRow(
                rank=rank_in(entries, entry, cache_key=key),
                nickname=player.nickname,
                score=entry.score,
                difficulty=entry.difficulty,
                duration_s=entry.duration_ms / 1000,
                mine=True,
            )
    return {"period": period, "key": key, "rows": rows, "own": own}


def rank_in(entries: QuerySet, entry: Any, *, cache_key: str | None = None) -> int:
    """1 + how many rows of ``entries`` are ahead of ``entry``: higher score,
    then shorter game, then earlier finish -- two index range counts.

    With ``cache_key`` the first count (all higher scores: it grows with the
    board) is shared for ``AHEAD_CACHE_SECONDS`` by everyone with that score,
    so a rank deep in a board of 100 000 players costs one count per score
    value per half-minute; the tie count (players with the same score) is exact.
    """

    def higher() -> int:
        return entries.filter(score__gt=entry.score).count()

    if cache_key is None:
        ahead = higher()
    else:
        ahead = cast(
            int,
            cache.get_or_set(f"poker:ahead:{cache_key}:{entry.score}", higher, AHEAD_CACHE_SECONDS),
        )
    ahead += (
        entries.filter(score=entry.score)
        .filter(
            Q(duration_ms__lt=entry.duration_ms)
            | Q(duration_ms=entry.duration_ms, finished_at__lt=entry.finished_at)
        )
        .count()
    )
    return ahead + 1


# --- the daily challenge ------------------------------------------------------------


def _day_table(day: date) -> QuerySet:
    return DailyAttempt.objects.filter(day=day, published=True, finished_at__isnull=False)


def day_record(*, day: date) -> dict[str, Any] | None:
    """The best published result of the day, shown above the board while playing."""
    best = _ranked(_day_table(day)).select_related("player").first()
    if best is None:
        return None
    return {"score": best.score, "nickname": best.player.nickname}


def daily_table(*, day: date, player: PlayerProfile | None = None) -> dict[str, Any]:
    rows = [
        TableRow(
            rank=rank,
            nickname=attempt.player.nickname,
            score=attempt.score,
            difficulty="easy",
            duration_s=(attempt.duration_ms or 0) / 1000,
            mine=player is not None and attempt.player_id == player.pk,
        )
        for rank, attempt in enumerate(
            _ranked(_day_table(day)).select_related("player")[:TOP], start=1
        )
    ]
    own = daily_attempt(player=player, day=day) if player is not None else None
    return {"day": day, "rows": rows, "own": own}


def daily_attempt(*, player: PlayerProfile, day: date) -> DailyAttempt | None:
    return DailyAttempt.objects.filter(player=player, day=day).first()


def browser_played_daily(*, browser: Browser | None, day: date) -> bool:
    """Whether a counted attempt at ``day`` was started in this browser (by any
    of its profiles): the browser's one attempt a day is used."""
    return browser is not None and DailyAttempt.objects.filter(browser=browser, day=day).exists()


def daily_result(*, player: PlayerProfile, day: date) -> dict[str, Any] | None:
    """Score, rank of the day and streak: what the end dialog and the share text say.
    The rank is the place the score has on the day's table (also when the
    player chose not to be published)."""
    attempt = daily_attempt(player=player, day=day)
    if attempt is None or attempt.finished_at is None:
        return None
    return {
        "day": day.isoformat(),
        "score": attempt.score,
        "rank": rank_in(_day_table(day).exclude(pk=attempt.pk), attempt),
        "published": attempt.published,
        "streak": poker_stats.daily_streak(player, today=day),
    }


# --- stats ----------------------------------------------------------------------------


def player_stats(*, player: PlayerProfile) -> dict[str, Any]:
    """Spec §5, from the one source (``accounts.selectors.player_stats``)."""
    return accounts_selectors.player_stats(player)["poker"]


# --- the coach's hints ----------------------------------------------------------------

#: Where a hint for a board sent by the browser may be asked: the scoresheet
#: and the easy game played in the browser. Everything else is refused.
HINT_CONTEXTS = ("scoresheet", "easy")


def board_hint(data: dict[str, Any], *, player_ids: Iterable[int] = ()) -> dict[str, Any]:
    """A hint for a board the browser sends (scoresheet, browser-led easy game).

    ``{"context", "table", "cells", "card", "seen"?, "kept"?}``; ``seen``
    defaults to the numbers on the board (a paper game's only known cards).
    ``player_ids``: the caller's profiles (the selected one and every profile of
    the browser); a board that is one of their unfinished competitive games is
    refused (``hint_not_allowed_in_competition``), whatever ``context`` says.
    """
    if data.get("context") not in HINT_CONTEXTS:
        raise PokerError(
            "hint_not_allowed", _("Hints are only for easy games and the scoresheet."), 403
        )
    bad = PokerError("bad_board", _("Send a board of 25 cells, each empty or 1 to 13."))
    table = data.get("table")
    if table not in TABLE_NAMES:
        raise PokerError("bad_table", _("Unknown scoring table."))
    cells = data.get("cells")
    if not isinstance(cells, list) or len(cells) != CELLS:
        raise bad
    if any(c is not None and (type(c) is not int or not 1 <= c <= 13) for c in cells):
        raise bad
    if None not in cells:
        raise PokerError("board_full", _("The board is full."), 409)
    card = data.get("card")
    if card is not None and (type(card) is not int or not 0 <= card <= 13):
        raise PokerError("bad_card", _("The number in hand must be 1 to 13 (0 for a joker)."))
    kept = data.get("kept", 0)
    if type(kept) is not int or not 0 <= kept <= 4:
        raise bad
    seen = data.get("seen")
    if seen is None:
        seen = [c for c in cells if c is not None]
    if not isinstance(seen, list) or any(type(c) is not int or not 0 <= c <= 13 for c in seen):
        raise bad
    if card == JOKER or kept:
        if get_table(table).jokers == 0:
            raise PokerError("bad_card", _("This table is played without jokers."))
    if any(
        position.matches(cells, card) for position in competitive_positions(player_ids=player_ids)
    ):
        raise PokerError(
            "hint_not_allowed_in_competition",
            _(
                "The coach does not help in ranked games, the daily challenge, duels "
                "or class games. Finish that game first."
            ),
            403,
        )
    return coach_advice.hint(cells, card, table=table, seen=seen, kept=kept)


# --- no coach in competitive play (issue 27 §2) ----------------------------------------

#: Solo games the coach never helps in: ranked, the counted daily attempt, the
#: game against the robot (``hint_for_game`` helps easy games only); homework
#: games too unless their assignment allows hints.
COMPETITIVE_SOLO_MODES = (SoloGame.Mode.RANKED, SoloGame.Mode.DAILY, SoloGame.Mode.ROBOT)
#: Room modes of poker where every seat competes (duel, group and class games).
ROOM_GAME = "poker"


@dataclass(frozen=True)
class Position:
    """What a player faces in one unfinished competitive game: the numbers on
    the board and the card in hand.

    A sent board *matches* when it holds the card in hand and nearly the same
    numbers, wherever they stand: the coach scores rows, columns and diagonals
    alike, so a mirrored, rotated or row-swapped copy of the board gets the same
    advice and must be refused too. The tolerance grows with the board (half of
    its numbers, at least 3), so changing a few numbers to slip through also
    spoils the advice; a practice board is that close to a competitive board
    with the same card in hand only by rare chance.
    """

    numbers: Counter
    hand: int | None

    def matches(self, cells: Sequence[int | None], card: int | None) -> bool:
        # An empty board protects nothing: every practice game starts with the
        # same position, and its hint is the same.
        if card != self.hand or not self.numbers:
            return False
        sent = Counter(value for value in cells if value is not None)
        difference = sum(((sent - self.numbers) + (self.numbers - sent)).values())
        return difference <= max(3, self.numbers.total() // 2)


def _position(game: PokerGame) -> Position:
    return Position(Counter(v for v in game.cells if v is not None), game.hand)


def competitive_positions(*, player_ids: Iterable[int]) -> list[Position]:
    """The positions of every unfinished ranked, daily, robot, duel and group
    (class) poker game of these players: the boards the coach must not see."""
    ids = sorted({int(pk) for pk in player_ids})
    if not ids:
        return []
    from .assignments import hints_allowed

    unfinished = SoloGame.objects.filter(player_id__in=ids, finished_at__isnull=True, replay=False)
    positions = [
        _position(PokerGame.from_dict(game.state))
        for game in unfinished.filter(
            Q(mode__in=COMPETITIVE_SOLO_MODES) | Q(mode=SoloGame.Mode.HOMEWORK)
        ).only("pk", "mode", "state")
        # Homework: the coach helps only where the teacher allowed it.
        if game.mode != SoloGame.Mode.HOMEWORK or not hints_allowed(game)
    ]
    seats = Seat.objects.filter(
        player_id__in=ids,
        status=Seat.Status.JOINED,
        room__game=ROOM_GAME,
        room__status__in=Room.LIVE_STATUSES,
    ).select_related("room")
    for seat in seats:
        state = seat.room.state or {}
        if "sequence" not in state or "settings" not in state:
            continue  # a lobby: nothing dealt yet
        stored = (state.get("boards") or {}).get(str(seat.player_id)) or seat.state
        if not stored:
            continue  # a host who only deals has no board
        positions.append(_position(room_common.board_at(state, stored, None)))
    return positions


# --- the coach's review and the coach's daily score -------------------------------

#: How long the coach's score on a day's deck is cached (it never changes).
COACH_DAILY_CACHE_SECONDS = 3 * 24 * 3600


def reviewable_game(*, game_id: object, viewer: PlayerProfile | None, today: date) -> SoloGame:
    """A finished game whose review may be shown to ``viewer``.

    The link is shareable: anyone holding it sees the review (no nickname is
    shown). A daily game of a day still running is only its player's: its
    numbers are everybody's challenge until the day is over."""
    not_found = PokerError("not_found", _("This game review does not exist."), 404)
    try:
        game = SoloGame.objects.get(pk=uuid.UUID(str(game_id)))
    except (SoloGame.DoesNotExist, ValueError):
        raise not_found from None
    if game.finished_at is None:
        raise not_found
    owner = viewer is not None and viewer.pk == game.player_id
    if (
        game.mode == SoloGame.Mode.DAILY
        and game.day is not None
        and game.day >= today
        and not owner
    ):
        raise not_found
    return game


def coach_daily_score(*, day: date, table: str, secret: str) -> int:
    """The coach's score on the day's deck: computed once per day, then cached."""
    from . import coach_review
    from .rules import daily_deck

    key = f"poker:coach-daily:{day.isoformat()}:{table}"
    score = cache.get(key)
    if score is None:
        score = coach_review.coach_game(daily_deck(day, secret, table), table)["score"]
        cache.set(key, score, COACH_DAILY_CACHE_SECONDS)
    return score
