"""Pages of Matematici: the hub, the deck builder, the rules with the card gallery.

Views stay thin: parse, call a service or selector, render. Playing happens in
a room (games.rooms) over its WebSocket; the table screen is ``_table.html``.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import identity
from accounts import services as accounts_services
from accounts.requests import PlayerRequest
from core.errors import DomainError
from games.rooms import opening

from . import presentation, selectors, services
from .errors import TheoremsError
from .models import SavedDeck
from .rules import CATALOGUE, STARTER_DECKS

MAX_CHECK_BYTES = 4096


def _mathematicians() -> list[dict[str, Any]]:
    return [card for card in presentation.catalogue_cards() if card["kind"] == "mathematician"]


def _deck_cards() -> list[dict[str, Any]]:
    return [card for card in presentation.catalogue_cards() if card["kind"] != "mathematician"]


def _deck_summary(name: str, mathematician: str, cards: list[str]) -> dict[str, Any]:
    lang = presentation.language()
    return {
        "name": name,
        "mathematician": CATALOGUE[mathematician].name(lang),
        "count": len(cards),
        "stats": selectors.deck_statistics(mathematician, cards),
    }


def index(request: PlayerRequest) -> HttpResponse:
    lang = presentation.language()
    starters = [
        {"id": d.id, **_deck_summary(d.names[lang], d.mathematician, list(d.deck))}
        for d in STARTER_DECKS
    ]
    saved = [
        {"deck": d, **_deck_summary(d.name, d.mathematician, d.cards)}
        for d in selectors.decks_for(request.player)
    ]
    return render(
        request,
        "theorems/index.html",
        {"starters": starters, "saved": saved, "table_sizes": (2, 3, 4)},
    )


def _player_or_new(request: PlayerRequest) -> tuple[Any, str | None]:
    """The selected profile, or a new one with the nickname from the form."""
    if request.player is not None:
        return request.player, None
    if not request.storage_enabled:
        raise TheoremsError(
            "storage_off", _("Saving is switched off in this browser, so you cannot play here.")
        )
    player, token = accounts_services.create_profile(
        browser_token=identity.read_token(request),
        nickname=request.POST.get("nickname", ""),
    )
    request.player = player
    return player, token


@require_POST
def new_table(request: PlayerRequest) -> HttpResponse:
    try:
        size = int(request.POST.get("table_size", "2"))
    except ValueError:
        size = 0
    burn = request.POST.get("no_burn") != "on"
    try:
        services.check_table(table_size=size, burn=burn)  # before a profile is created
        opened = opening.open_from_request(
            request, game="theorems", mode="table", settings={"table_size": size, "burn": burn}
        )
    except DomainError as error:
        messages.error(request, error.message)
        return redirect("theorems:index")
    return opening.to_room(opened)


def _builder(
    request: HttpRequest,
    *,
    deck: SavedDeck | None,
    name: str,
    mathematician: str,
    cards: list[str],
    error: DomainError | None = None,
    status: int = 200,
) -> HttpResponse:
    chosen = set(cards)
    return render(
        request,
        "theorems/builder.html",
        {
            "deck": deck,
            "name": name,
            "mathematician": mathematician,
            "chosen": chosen,
            "mathematicians": _mathematicians(),
            "cards": _deck_cards(),
            "fields": presentation.fields(),
            "kinds": [k for k in presentation.kinds() if k["id"] != "mathematician"],
            "stats": _stats_context(mathematician, cards),
            "error": error,
        },
        status=status,
    )


def _stats_context(mathematician: str, cards: list[str]) -> dict[str, Any]:
    stats = selectors.deck_statistics(mathematician, cards)
    names = {f["id"]: f["name"] for f in presentation.fields()}
    kinds = {k["id"]: k["name"] for k in presentation.kinds()}
    top = max([1, *(row["count"] for row in stats["effective_curve"])])
    return {
        **stats,
        "field_rows": [
            {"id": key, "name": names[key], "count": count}
            for key, count in stats["fields"].items()
        ],
        "kind_rows": [
            {"id": key, "name": kinds[key], "count": count} for key, count in stats["kinds"].items()
        ],
        "curve_rows": [
            {"difficulty": p["difficulty"], "printed": p["count"], "effective": e["count"]}
            for p, e in zip(stats["difficulty_curve"], stats["effective_curve"], strict=True)
        ],
        "curve_max": top,
        "field_max": max([1, *stats["fields"].values()]),
    }


def builder(request: PlayerRequest, deck_id: int | None = None) -> HttpResponse:
    deck = None
    if deck_id is not None:
        deck = selectors.deck_for(request.player, deck_id)
        if deck is None:
            raise Http404(_("This deck does not exist."))
    if request.method == "POST":
        return _save(request, deck)
    if deck is not None:
        return _builder(
            request, deck=deck, name=deck.name, mathematician=deck.mathematician, cards=deck.cards
        )
    starter = {d.id: d for d in STARTER_DECKS}.get(request.GET.get("from", ""))
    if starter is not None:
        return _builder(
            request,
            deck=None,
            name=starter.names[presentation.language()],
            mathematician=starter.mathematician,
            cards=list(starter.deck),
        )
    return _builder(request, deck=None, name="", mathematician="", cards=[])


def _save(request: PlayerRequest, deck: SavedDeck | None) -> HttpResponse:
    name = request.POST.get("name", "")
    mathematician = request.POST.get("mathematician", "")
    cards = request.POST.getlist("cards")
    try:
        services.clean_deck(name=name, mathematician=mathematician, cards=cards)
        player, token = _player_or_new(request)  # only for a deck that can be saved
        saved = services.save_deck(
            player=player,
            name=name,
            mathematician=mathematician,
            cards=cards,
            deck_id=deck.pk if deck else None,
        )
    except DomainError as error:  # the deck's or the new profile's refusal
        return _builder(
            request,
            deck=deck,
            name=name,
            mathematician=mathematician,
            cards=cards,
            error=error,
            status=400,
        )
    messages.success(request, _("The deck %(name)s is saved.") % {"name": saved.name})
    response = redirect("theorems:index")
    if token:
        identity.write_token(response, token)
    return response


@require_POST
def delete_deck(request: PlayerRequest, deck_id: int) -> HttpResponse:
    if request.player is None:
        raise Http404(_("This deck does not exist."))
    try:
        services.delete_deck(player=request.player, deck_id=deck_id)
    except TheoremsError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The deck was deleted."))
    return redirect("theorems:index")


@require_POST
def check_deck(request: HttpRequest) -> JsonResponse:
    """Live statistics and the rules' verdict while a deck is being built (no saving)."""
    if len(request.body) > MAX_CHECK_BYTES:
        return JsonResponse(
            {"code": "too_large", "message": _("This deck is too long.")}, status=400
        )
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        return JsonResponse({"code": "bad_json", "message": _("This is not a deck.")}, status=400)
    chosen = body.get("mathematician")
    mathematician = chosen if isinstance(chosen, str) else ""
    cards = body.get("cards")
    cards = [c for c in cards if isinstance(c, str)] if isinstance(cards, list) else []
    error = None
    try:
        services.clean_deck(name="-", mathematician=mathematician, cards=cards)
    except TheoremsError as refused:
        error = refused.as_dict()
    html = render_to_string(
        "theorems/_stats.html", {"stats": _stats_context(mathematician, cards)}, request=request
    )
    return JsonResponse({"ok": error is None, "error": error, "html": html})


def rules(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "theorems/rules.html",
        {
            "cards": presentation.catalogue_cards(),
            "kinds": presentation.kinds(),
            "fields": presentation.fields(),
        },
    )
