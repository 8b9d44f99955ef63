"""The class on a class game's own pages (issue 40 §3): the host's room page and
the projector show who is waiting for approval and approve them there, so the
teacher need not leave the running game; the host's lobby names each pupil by
roster name beside the nickname. JSON, for the teacher of the class only (404
for anyone else, as every class page)."""

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET, require_POST

from classrooms import selectors, services
from classrooms.models import Membership

# A class is a few dozen pupils; a flood of junk joins is the class page's business.
SHOWN = 60


@login_required
@require_GET
def waiting(request: HttpRequest, pk: int) -> JsonResponse:
    """``{"count", "waiting": [{"id", "name"}], "roster": {player id: roster name}}``."""
    classroom = selectors.teacher_classroom(request.user, pk)
    members = list(selectors.roster(classroom))
    pending = sorted(
        (member for member in members if member.status == Membership.Status.PENDING),
        key=lambda member: (member.joined_at, member.pk),
    )
    return JsonResponse(
        {
            "count": len(pending),
            "waiting": [
                {
                    "id": member.pk,
                    "name": member.roster_name,
                    "nickname": member.player.nickname if member.player else "",
                }
                for member in pending[:SHOWN]
            ],
            "roster": {
                str(player_id): member.roster_name
                for player_id, member in selectors.names_of(members).items()
                if member.status != Membership.Status.PENDING
            },
        }
    )


def _member_ids(request: HttpRequest) -> list[int]:
    """The waiting joins the teacher saw (``{"members": [ids]}``): never an unseen one."""
    try:
        raw = json.loads(request.body or b"{}").get("members", [])
    except (ValueError, AttributeError):
        raw = []
    if not isinstance(raw, list):
        return []
    return [value for value in raw[:SHOWN] if isinstance(value, int) and 0 < value < 2**31]


@login_required
@require_POST
def approve(request: HttpRequest, pk: int) -> JsonResponse:
    """Approve one waiting join or all those shown: ``{"approved": n}``."""
    classroom = selectors.teacher_classroom(request.user, pk)
    ids = _member_ids(request)
    approved = services.approve_pending(classroom=classroom, member_ids=ids) if ids else 0
    return JsonResponse({"approved": approved})
