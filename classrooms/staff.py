"""The staff dashboard: how the platform is used right now and over the last weeks.

Read-only numbers with links into the admin, where staff act (moderation,
corrections). Only ``is_staff`` users see it, and those who enrolled a TOTP
device only after giving its code (the admin's own rule, issue 27 §5): the
password alone opened the dashboard's numbers and links.
"""

from collections.abc import Callable
from datetime import date, timedelta
from functools import wraps

from django.apps import apps
from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count
from django.db.models.functions import TruncDate
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from accounts.models import PlayerProfile, PublicationConsent, User
from classrooms.charts import Series, line_chart
from classrooms.models import Classroom, Membership
from core import registry as game_registry
from games.models import GameRecord
from games.rooms.models import Room
from games.rooms.selectors import live_rooms

DAYS = 14
# Where staff act, in the admin; a model shows up once its app registers it.
# Each game adds its own (``GameSpec.staff_models``) before the accounts.
PLATFORM_ADMIN_LINKS = (
    ("classrooms", "classroom"),
    ("classrooms", "membership"),
    ("rooms", "room"),
    ("games", "gamerecord"),
    ("accounts", "playerprofile"),
    ("accounts", "publicationconsent"),
)


def _admin_models() -> list[tuple[str, str]]:
    games = [model for spec in game_registry.games() for model in spec.staff_models]
    return [*PLATFORM_ADMIN_LINKS, *games, ("accounts", "user")]


def admin_links() -> list[tuple[str, str]]:
    """(label, URL) of the admin change lists that exist, for moderation and corrections."""
    links = []
    for app_label, model_name in _admin_models():
        try:
            model = apps.get_model(app_label, model_name)
        except LookupError:
            continue
        if admin.site.is_registered(model):
            url = reverse(f"admin:{app_label}_{model_name}_changelist")
            links.append((capfirst(model._meta.verbose_name_plural), url))
    return links


def games_per_day(today: date, days: int = DAYS) -> tuple[list[date], dict[str, list[int]]]:
    """Finished-or-not games started per local day and game, oldest day first."""
    first = today - timedelta(days=days - 1)
    counts = (
        GameRecord.objects.filter(started_at__date__gte=first)
        .annotate(day=TruncDate("started_at"))
        .values("day", "game")
        .annotate(count=Count("id"))
    )
    table = {(row["day"], row["game"]): row["count"] for row in counts}
    dates = [first + timedelta(days=offset) for offset in range(days)]
    return dates, {
        spec.slug: [table.get((day, spec.slug), 0) for day in dates]
        for spec in game_registry.games()
    }


def consent_rate() -> tuple[int, int]:
    """Players whose latest answer grants publication, out of players who answered."""
    latest: dict[int, bool] = {}
    for player_id, granted in PublicationConsent.objects.order_by(
        "player_id", "-created_at", "-pk"
    ).values_list("player_id", "granted"):
        latest.setdefault(player_id, granted)
    return sum(latest.values()), len(latest)


def staff_with_second_factor(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The admin site's own permission (accounts.admin_site: staff, and the
    TOTP code when a device is enrolled); otherwise the admin login, which asks
    for the code and comes back."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not admin.site.has_permission(request):
            return redirect_to_login(request.get_full_path(), reverse("admin:login"))
        return view(request, *args, **kwargs)

    return guarded


@staff_with_second_factor
def dashboard(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    today = timezone.localdate()
    week_ago = now - timedelta(days=7)
    dates, per_game = games_per_day(today)
    slugs = [spec.slug for spec in game_registry.games()]
    granted, answered = consent_rate()
    rooms_now = live_rooms()
    context = {
        "rooms_now": rooms_now.count(),
        "rooms_by_game": rooms_now.values("game", "mode")
        .annotate(count=Count("id"))
        .order_by("game", "mode"),
        "rooms_running": rooms_now.filter(status=Room.Status.RUNNING).count(),
        "players_total": PlayerProfile.objects.filter(is_active=True).count(),
        "players_week": PlayerProfile.objects.filter(
            is_active=True, last_seen_at__gte=week_ago
        ).count(),
        "players_new_week": PlayerProfile.objects.filter(created_at__gte=week_ago).count(),
        "teachers": User.objects.filter(is_active=True).count(),
        "classes_active": Classroom.objects.filter(archived_at__isnull=True).count(),
        "classes_archived": Classroom.objects.filter(archived_at__isnull=False).count(),
        "members": Membership.objects.filter(status=Membership.Status.APPROVED).count(),
        "games_today": GameRecord.objects.filter(started_at__date=today).count(),
        "consent_granted": granted,
        "consent_answered": answered,
        "consent_percent": round(100 * granted / answered) if answered else None,
        "day_labels": [date_format(day, "j. n.") for day in dates],
        "per_game_rows": [
            (date_format(day, "j. n."), [per_game[game][index] for game in slugs])
            for index, day in reversed(list(enumerate(dates)))
        ],
        "game_names": [game_registry.name(game) for game in slugs],
        "admin_links": admin_links(),
        "chart": line_chart(
            title=_("Games per day"),
            x_labels=[date_format(day, "j. n.") for day in dates],
            series=[Series(game_registry.name(game), per_game[game]) for game in slugs],
        ),
    }
    return render(request, "classrooms/staff_dashboard.html", context)
