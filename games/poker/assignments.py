"""Poker as homework (``GameSpec.assignable``): every pupil of an assignment
plays the same server-led solo game, its deck derived from the server secret
and the assignment like the daily deck -- never stored apart from the game's
own state, never sent before a card is dealt.

The homework app sits above the games: this module reaches it only through
``core.registry.assignments()`` (the gate it registers).
"""

import hashlib
import hmac
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import PlayerProfile
from core import registry
from core.assignments import settings_object

from .errors import PokerError
from .models import SoloGame
from .rules import DEFAULT_TABLE, EASY, HARD, TABLE_NAMES, PokerGame
from .rules.deck import seeded_deck
from .rules.state import MAX_SECONDS, MIN_SECONDS
from .services import clock
from .services.daily import daily_secret

GAME = "poker"
DIFFICULTIES = (EASY, HARD)
DEFAULT_SECONDS = 30
_PREFIX = b"poker-assignment:"


def clean_settings(settings: Any) -> dict[str, Any]:
    """``{"table", "difficulty", "seconds_per_card"}``: the table and the rules
    every pupil plays; ``seconds_per_card`` only for the hard game."""
    settings = settings_object(settings, {"table", "difficulty", "seconds_per_card"})
    table = settings.get("table", DEFAULT_TABLE)
    if table not in TABLE_NAMES:
        raise ValidationError(_("Unknown scoring table."), code="bad_table")
    difficulty = settings.get("difficulty", EASY)
    if difficulty not in DIFFICULTIES:
        raise ValidationError(_("Choose the difficulty: easy or hard."), code="bad_difficulty")
    seconds = settings.get("seconds_per_card")
    if difficulty == EASY:
        seconds = None
    else:
        if seconds is None:
            seconds = DEFAULT_SECONDS
        if type(seconds) is not int or not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise ValidationError(
                _("Seconds per number must be a whole number from %(min)d to %(max)d.")
                % {"min": MIN_SECONDS, "max": MAX_SECONDS},
                code="bad_seconds",
            )
    return {"table": table, "difficulty": difficulty, "seconds_per_card": seconds}


#: The default "full marks" point per table (``Assignable.full_marks``): the
#: coach's median score over 2,000 shuffled games of the table
#: (bench/RESULTS-poker-coach.md), a score few pupils reach (the greedy
#: "best preview" habit averages 172-221 on these tables). The same for every
#: attempt and every deck of the table, so the gradebook keeps the class's order.
FULL_MARKS = {"contiguous": 270, "school": 260, "matematico": 370}


def full_marks(settings: Any) -> int:
    return FULL_MARKS.get(settings.get("table", DEFAULT_TABLE), FULL_MARKS[DEFAULT_TABLE])


def setting_fields() -> list[tuple[str, Any, list | None, Any]]:
    from .presentation import table_context

    return [
        (
            "table",
            gettext_lazy("Scoring table"),
            [(t["name"], t["label"]) for t in table_context()],
            DEFAULT_TABLE,
        ),
        (
            "difficulty",
            gettext_lazy("Difficulty"),
            [(EASY, gettext_lazy("easy")), (HARD, gettext_lazy("hard"))],
            EASY,
        ),
        ("seconds_per_card", gettext_lazy("Seconds per number (hard game)"), None, DEFAULT_SECONDS),
    ]


def assignment_deck(key: str, table: str) -> list[int]:
    """The assignment's deck: HMAC-SHA256(server secret, key) seeds the shuffle,
    so it is the same for every pupil and cannot be computed without the secret."""
    digest = hmac.new(daily_secret().encode(), _PREFIX + key.encode(), hashlib.sha256).digest()
    return seeded_deck(int.from_bytes(digest, "big"), table)


def start_assignment_game(
    *, player: PlayerProfile | None, storage_enabled: bool, assignment: object, now: float
) -> tuple[SoloGame, bool]:
    """The pupil's game of ``assignment``: a new one (True), or their unfinished
    one continued (False) -- from any device of the same profile."""
    if player is None or not storage_enabled:
        raise PokerError(
            "no_profile", _("Choose a nickname first so your games can be recorded."), 403
        )
    gate = registry.assignments()
    with transaction.atomic():
        try:
            ticket = gate.begin(game=GAME, assignment_id=assignment, player=player)
        except registry.AssignmentRefused as refusal:
            raise PokerError(refusal.code, refusal.message, refusal.status) from None
        if ticket.resume is not None:
            game = SoloGame.objects.filter(pk=ticket.resume, player=player).first()
            if game is not None and game.finished_at is None:
                return game, False
        settings = ticket.settings
        moment = clock.moment(now)
        engine = PokerGame.new(
            table=settings["table"],
            mode=settings["difficulty"],
            seconds_per_card=settings["seconds_per_card"],
            deck=assignment_deck(ticket.key, settings["table"]),
            now=now,
        )
        game = SoloGame.objects.create(
            player=player,
            mode=SoloGame.Mode.HOMEWORK,
            difficulty=settings["difficulty"],
            table=settings["table"],
            seconds_per_card=settings["seconds_per_card"],
            state=engine.to_dict(),
            created_at=moment,
            updated_at=moment,
        )
        gate.attach(attempt_id=ticket.attempt_id, ref=str(game.pk))
    return game, True


def game_finished(*, game: SoloGame, result: Any) -> None:
    """Called by ``services.solo.save`` in the transaction that recorded the end."""
    registry.assignments().finished(game=GAME, ref=str(game.pk), result=result)


def hints_allowed(game: SoloGame) -> bool:
    return registry.assignments().hints_allowed(game=GAME, ref=str(game.pk))


def pupil_may_review(game: SoloGame) -> bool:
    return registry.assignments().pupil_may_review(game=GAME, ref=str(game.pk))


def play_url(assignment_id: int) -> str:
    return f"{reverse('poker:play')}?assignment={assignment_id}"


def pupil_review_url(ref: str) -> str:
    return reverse("poker:review", args=[ref])
