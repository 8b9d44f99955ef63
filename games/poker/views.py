"""Pages and the small JSON API of server-led solo poker (see docs/poker-api.md).

Thin adapters: parse the request, call a service or selector, render. Errors
leave as ``{"code", "message"}`` with a fitting HTTP status.
"""

import hashlib
import json
import time
from datetime import date
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)

from accounts import consent, limits
from accounts import selectors as accounts_selectors
from accounts.middleware import lean
from accounts.requests import PlayerRequest

from . import offline as offline_assets
from . import selectors
from .errors import PokerError
from .models import DailyChallenge
from .periods import PERIODS
from .presentation import page_context
from .review_page import render_review
from .rules import DEFAULT_TABLE, daily_date
from .services.coach import hint_for_game
from .services.daily import daily_secret
from .services.solo import act_in_solo_game, start_solo_game


def _error(error: PokerError) -> JsonResponse:
    return JsonResponse(
        {**error.extra, "code": error.code, "message": str(error.message)}, status=error.status
    )


def _body(request: HttpRequest) -> dict[str, Any]:
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise PokerError("bad_json", _("The request is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise PokerError("bad_json", _("The request is not valid JSON."))
    return data


@require_GET
@ensure_csrf_cookie
def index(request: PlayerRequest) -> HttpResponse:
    context = page_context(request)
    if request.player is not None and request.storage_enabled:
        context["stats"] = selectors.player_stats(player=request.player)
    return render(request, "poker/index.html", context)


@require_GET
@ensure_csrf_cookie
def play(request: PlayerRequest) -> HttpResponse:
    context = page_context(request)
    assignment = request.GET.get("assignment", "")
    if assignment.isdigit():
        # Class homework: started by the page's button (games/poker/assignments.py).
        context.update(kind="homework", assignment_id=int(assignment))
    return render(request, "poker/play.html", context)


def _competition_context(request: PlayerRequest, kind: str) -> dict[str, Any]:
    """Ranked and daily pages: they need the server, saving and a nickname, and
    ask the publication question (its exact text) before the first public write."""
    context = page_context(request)
    player = request.player if request.storage_enabled else None
    answer = accounts_selectors.current_consent(player) if player else None
    context.update(
        {
            "kind": kind,
            "can_compete": player is not None,
            "consent_state": "unknown" if answer is None else ("yes" if answer.granted else "no"),
            "consent_question": consent.question(),
            "consent_age_statement": consent.age_statement(),
        }
    )
    return context


@require_GET
@ensure_csrf_cookie
def ranked(request: PlayerRequest) -> HttpResponse:
    return render(request, "poker/play.html", _competition_context(request, "ranked"))


@require_GET
@ensure_csrf_cookie
def robot(request: PlayerRequest) -> HttpResponse:
    """A game against the robot (beginner, greedy or the coach) on the same numbers."""
    context = page_context(request)
    context.update(
        {
            "kind": "robot",
            "can_compete": request.player is not None and request.storage_enabled,
            "robot_levels": [
                ("beginner", _("Beginner: plays sensibly, with some luck")),
                ("greedy", _("Greedy: always takes the most points now")),
                ("coach", _("Coach: the strongest, plans ahead")),
            ],
        }
    )
    return render(request, "poker/play.html", context)


@require_GET
@ensure_csrf_cookie
def daily(request: PlayerRequest) -> HttpResponse:
    """Today's challenge: start it, continue it, or (when used) see the result,
    share it and replay the numbers."""
    context = _competition_context(request, "daily")
    day = daily_date(timezone.now())
    context["day"] = day
    context["day_record"] = selectors.day_record(day=day)
    player = request.player
    if context["can_compete"] and player is not None:  # can_compete: a profile
        attempt = selectors.daily_attempt(player=player, day=day)
        context["attempt"] = attempt
        # Another profile of this browser used the browser's attempt (issue 27 §2).
        context["browser_daily_used"] = attempt is None and selectors.browser_played_daily(
            browser=request.browser, day=day
        )
        context["daily_result"] = selectors.daily_result(player=player, day=day)
        if attempt is not None and attempt.finished_at is None and attempt.game_id:
            context["continue_id"] = str(attempt.game_id)
        if attempt is not None and attempt.finished_at is not None and attempt.game is not None:
            # After the attempt: the coach's score on the same numbers, and the review.
            context["coach_score"] = selectors.coach_daily_score(
                day=day, table=attempt.game.table, secret=daily_secret()
            )
            context["review_id"] = str(attempt.game_id)
    return render(request, "poker/play.html", context)


@require_GET
def leaderboard(request: PlayerRequest) -> HttpResponse:
    period = request.GET.get("period", "day")
    if period not in PERIODS:
        period = "day"
    player = request.player if request.storage_enabled else None
    board = selectors.leaderboard(period=period, now=timezone.now(), player=player)
    return render(
        request,
        "poker/leaderboard.html",
        {"board": board, "periods": PERIODS, "period": period},
    )


@require_GET
def daily_table(request: PlayerRequest) -> HttpResponse:
    today = daily_date(timezone.now())
    try:
        day = date.fromisoformat(request.GET["day"]) if "day" in request.GET else today
    except ValueError:
        raise Http404 from None
    if day > today:
        raise Http404
    player = request.player if request.storage_enabled else None
    table = selectors.daily_table(day=day, player=player)
    coach_score = None
    own = table["own"]
    challenge = DailyChallenge.objects.filter(day=day).first()
    # Beside the table: the coach's score on the day's numbers -- for a day
    # that is over, or today after the viewer's own attempt (never a spoiler).
    if challenge is not None and (day < today or (own is not None and own.finished_at)):
        coach_score = selectors.coach_daily_score(
            day=day, table=challenge.table, secret=daily_secret()
        )
    context = {
        "coach_score": coach_score,
        "table": table,
        "day": day,
        "today": today,
        "previous": date.fromordinal(day.toordinal() - 1),
        "next": date.fromordinal(day.toordinal() + 1) if day < today else None,
    }
    return render(request, "poker/daily_table.html", context)


@require_GET
def scoresheet(request: PlayerRequest) -> HttpResponse:
    return render(request, "poker/scoresheet.html", page_context(request))


@require_GET
def picker(request: PlayerRequest) -> HttpResponse:
    return render(request, "poker/picker.html", page_context(request))


@require_GET
def rules(request: PlayerRequest) -> HttpResponse:
    return render(request, "poker/rules.html", page_context(request))


@require_GET
def print_board(request: PlayerRequest) -> HttpResponse:
    context = page_context(request)
    chosen = request.GET.get("table", DEFAULT_TABLE)
    context["chosen"] = next(
        (table for table in context["tables"] if table["name"] == chosen), context["tables"][0]
    )
    return render(request, "poker/print_board.html", context)


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a poker page it has not cached."""
    return render(request, "poker/offline.html")


@require_safe
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": _("Mathematical poker"),
        "short_name": _("Poker"),
        "description": _("Place numbers into a 5×5 grid and score rows, columns and diagonals."),
        "start_url": reverse("poker:index"),
        "scope": reverse("poker:index"),
        "display": "standalone",
        "background_color": "#f6f7fb",
        "theme_color": "#2457c5",
        "icons": [
            {"src": static("poker/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static("poker/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("poker/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("poker/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
@cache_control(no_cache=True)
def service_worker(request: PlayerRequest) -> HttpResponse:
    """Rendered (not a static file) so its scope is /poker/ and it lists the
    hashed static URLs of this deployment -- exactly what the offline pages
    load, followed through their module imports (games/poker/offline.py)."""
    pages, assets = offline_assets.precache(request)
    context = {
        "pages": pages,
        "assets": assets,
        "offline_url": reverse("poker:offline"),
        # Changes with the deployment's hashed static names, so clients refresh the cache.
        "version": hashlib.sha256("|".join(assets).encode()).hexdigest()[:12],
    }
    return render(request, "poker/sw.js", context, content_type="text/javascript")


# --- the JSON API ---------------------------------------------------------------


@lean  # a start (a homework's too): the lean chain (config/handlers.py, issue 41)
@require_POST
def api_games(request: PlayerRequest) -> JsonResponse:
    now = time.time()
    try:
        data = _body(request)
        if data.get("mode") == "assignment":
            return _start_assignment(request, data, now)
        game = start_solo_game(
            player=request.player,
            storage_enabled=request.storage_enabled,
            mode=data.get("mode"),
            table=data.get("table"),
            seconds_per_card=data.get("seconds_per_card"),
            difficulty=data.get("difficulty"),
            replay=data.get("replay") is True,
            level=data.get("level"),
            now=now,
            browser=request.browser,
        )
    except PokerError as error:
        return _error(error)
    return JsonResponse(
        {"game": selectors.solo_game_view(game, now=now), "events": [], "now": now}, status=201
    )


def _start_assignment(request: PlayerRequest, data: dict[str, Any], now: float) -> JsonResponse:
    """A class homework game (games/poker/assignments.py): 201 new, 200 continued."""
    from .assignments import start_assignment_game

    game, new = start_assignment_game(
        player=request.player,
        storage_enabled=request.storage_enabled,
        assignment=data.get("assignment"),
        now=now,
    )
    return JsonResponse(
        {"game": selectors.solo_game_view(game, now=now), "events": [], "now": now},
        status=201 if new else 200,
    )


@require_GET
def api_game(request: PlayerRequest, game_id: str) -> JsonResponse:
    now = time.time()
    try:
        game = selectors.solo_game(game_id=game_id, player=request.player)
    except PokerError as error:
        return _error(error)
    payload: dict[str, Any] = {"game": selectors.solo_game_view(game, now=now), "now": now}
    if game.finished_at is not None and not game.replay and game.day is not None:
        payload["daily"] = selectors.daily_result(player=game.player, day=game.day)
    return JsonResponse(payload)


@lean  # a placement: answered through the lean chain (config/handlers.py, issue 41)
@require_http_methods(["POST"])
def api_actions(request: PlayerRequest, game_id: str) -> JsonResponse:
    now = time.time()
    try:
        game, events = act_in_solo_game(
            game_id=game_id, player=request.player, action=_body(request), now=now
        )
    except PokerError as error:
        response = _error(error)
        if error.status == 409:
            game = selectors.solo_game(game_id=game_id, player=request.player)
            body = json.loads(response.content)
            body["game"] = selectors.solo_game_view(game, now=now)
            body["now"] = now
            response = JsonResponse(body, status=409)
        return response
    payload: dict[str, Any] = {
        "game": selectors.solo_game_view(game, now=now),
        "events": events,
        "now": now,
    }
    if game.finished_at is not None and not game.replay and game.day is not None:
        payload["daily"] = selectors.daily_result(player=game.player, day=game.day)
        if payload["daily"] is not None:
            payload["daily"]["coach_score"] = selectors.coach_daily_score(
                day=game.day, table=game.table, secret=daily_secret()
            )
    return JsonResponse(payload)


@require_POST
def api_hint(request: PlayerRequest, game_id: str) -> JsonResponse:
    """The coach's hint for the card in hand of the player's easy game."""
    try:
        advice = hint_for_game(game_id=game_id, player=request.player)
    except PokerError as error:
        return _error(error)
    return JsonResponse({"hint": advice})


def board_hints() -> limits.Limit:
    """Hints for sent boards, counted per browser (thirty pupils share a school's
    address); requests without an identity share their address's higher ceiling."""
    rates = getattr(settings, "MATIKA_LIMITS", {})
    return limits.Limit(
        "poker-board-hints",
        rates.get("poker_board_hints_browser", "60/10m"),
        rates.get("poker_board_hints_address", "600/10m"),
        per_browser=True,
    )


def _caller_player_ids(request: PlayerRequest) -> set[int]:
    """The selected profile and every profile the browser holds: switching
    profiles must not open the coach to another profile's ranked game."""
    ids = {request.player.pk} if request.player is not None else set()
    if request.browser is not None:
        ids.update(request.browser.profiles.values_list("pk", flat=True))
    return ids


@require_POST
def api_board_hint(request: PlayerRequest) -> JsonResponse:
    """The coach's hint for a board the browser sends (scoresheet, browser-led
    easy game); never for a board of the caller's unfinished competitive game."""
    limit, client = board_hints(), limits.client_of(request)
    if limits.blocked(limit, client):
        return _error(
            PokerError(
                "hint_rate_limited",
                _("You have asked the coach very often. Wait a few minutes and try again."),
                429,
            )
        )
    limits.count(limit, client)
    try:
        advice = selectors.board_hint(_body(request), player_ids=_caller_player_ids(request))
    except PokerError as error:
        return _error(error)
    return JsonResponse({"hint": advice})


@require_GET
def review(request: PlayerRequest, game_id: str) -> HttpResponse:
    """The coach's review of a finished server-led game: a shareable page a
    teacher can project (move by move, the costliest moves, the coach's score)."""
    player = request.player if request.storage_enabled else None
    try:
        game = selectors.reviewable_game(
            game_id=game_id, viewer=player, today=daily_date(timezone.now())
        )
    except PokerError:
        raise Http404 from None
    if game.mode == game.Mode.HOMEWORK:
        # Its numbers are the whole class's homework: only its player, once the
        # teacher allows it (teachers read it through the homework pages).
        from .assignments import pupil_may_review

        if player is None or player.pk != game.player_id or not pupil_may_review(game):
            raise Http404
    return render_review(request, game)
