"""Play solo games through the services with chosen decks and clocks."""

from contextlib import contextmanager
from datetime import datetime
from unittest import mock

from accounts import services as accounts_services
from accounts.models import PlayerProfile
from games.poker.models import SoloGame
from games.poker.rules import JOKER, build_deck
from games.poker.rules.deck import DAILY_TIMEZONE
from games.poker.services import solo

#: Sorted: rows of equal numbers, a high score when placed in order.
HIGH_DECK = build_deck()
#: Interleaved: few combinations, a lower score.
LOW_DECK = [card for i in range(4) for card in range(1, 14)] + [JOKER, JOKER]


def at(text: str) -> float:
    """Epoch seconds of a Bratislava wall-clock time ``YYYY-MM-DD HH:MM[:SS]``."""
    return datetime.fromisoformat(text).replace(tzinfo=DAILY_TIMEZONE).timestamp()


def player(nickname: str, *, consent: bool | None = True) -> PlayerProfile:
    profile, _token = accounts_services.create_profile(browser_token=None, nickname=nickname)
    if consent is not None:
        accounts_services.record_consent(
            player=profile, granted=consent, language="en", age_confirmed=consent
        )
    return profile


@contextmanager
def dealt(deck: list[int]):
    with mock.patch.object(solo, "seeded_deck", lambda seed, table: list(deck)):
        yield


def finish(game: SoloGame, *, now: float, step: float = 1.0) -> SoloGame:
    """Fill the board cell by cell in order (jokers as 13); one action per ``step``."""
    cell = 0
    moment = now
    while True:
        game.refresh_from_db()
        state = game.state
        if state["finished_at"] is not None:
            return game
        moment += step
        hand = (
            state["sequence"][state["handled"]]
            if state["handled"] < len(state["sequence"])
            else None
        )
        while state["cells"][cell] is not None:
            cell += 1
        if hand == JOKER:
            action = {"type": "use_joker", "cell": cell, "value": 13}
        else:
            action = {"type": "place", "cell": cell}
        solo.act_in_solo_game(game_id=game.pk, player=game.player, action=action, now=moment)


def play_ranked(
    who: PlayerProfile,
    *,
    start: float,
    deck: list[int] = HIGH_DECK,
    step: float = 1.0,
    difficulty: str = "easy",
    seconds: int | None = None,
) -> SoloGame:
    with dealt(deck):
        game = solo.start_solo_game(
            player=who,
            storage_enabled=True,
            mode="ranked",
            difficulty=difficulty,
            seconds_per_card=seconds,
            now=start,
        )
    return finish(game, now=start, step=step)


def play_daily(who: PlayerProfile, *, start: float, replay: bool = False) -> SoloGame:
    game = solo.start_solo_game(
        player=who, storage_enabled=True, mode="daily", replay=replay, now=start
    )
    return finish(game, now=start)
