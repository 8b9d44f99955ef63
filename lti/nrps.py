"""The class roster from the LMS (Names and Role Provisioning Services 2.0).

Every page of the course's memberships is read (``Link: <...>; rel="next"``);
each active learner becomes (or stays) a roster entry of the class, found
again by the LMS's user id (``Membership.source_id``). Names are roster names,
seen by the class's teachers only, never a public nickname. Nothing is deleted:
a learner who left keeps their results.
"""

import hashlib
import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from classrooms import roster_services

from . import net, tokens
from .launch import LEARNER_ROLES
from .models import Course
from .registration import SCOPE_NRPS
from .services import source_id

CONTAINER_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
MAX_PAGES = 200

logger = logging.getLogger(__name__)


def _name(member: dict) -> str:
    name = member.get("name")
    if not isinstance(name, str) or not name.strip():
        parts = [member.get("given_name"), member.get("family_name")]
        name = " ".join(p for p in parts if isinstance(p, str) and p.strip())
    return " ".join(str(name).split())[:80]


def fetch_members(course: Course) -> list[dict]:
    platform = course.deployment.platform
    token = tokens.access_token(platform, [SCOPE_NRPS])
    url: str | None = course.memberships_url
    members: list[dict] = []
    seen: set[str] = set()
    for _page in range(MAX_PAGES):
        if not url or url in seen:
            break
        seen.add(url)
        try:
            response = net.get(
                url, headers={"Authorization": f"Bearer {token}", "Accept": CONTAINER_TYPE}
            )
        except net.PlatformError as error:
            raise tokens.ServiceError(error.code, error.detail, transient=True) from None
        if response.status_code == 429 or response.status_code >= 500:
            raise tokens.ServiceError(
                "platform_busy", f"HTTP {response.status_code}", transient=True
            )
        if response.status_code != 200:
            raise tokens.ServiceError("roster_refused", f"HTTP {response.status_code}")
        body = net.json_of(response)
        page = body.get("members")
        if isinstance(page, list):
            members.extend(m for m in page if isinstance(m, dict))
        url = response.links.get("next", {}).get("url")
        if url and net.origin(url) != net.origin(course.memberships_url):
            break  # a next page elsewhere is not followed with our token
    return members


@transaction.atomic
def apply_members(course: Course, members: list[dict]) -> int:
    """Add or rename the course's active learners in the class; returns how many changed.

    The roster is written by ``classrooms.roster_services.sync_lms_members``, the
    classrooms' own rules (member cap, claim codes, names), never here."""
    classroom = course.classroom
    # The course row first, then the class row: the order a launch takes them in
    # (the other order deadlocked with a launch of the same course). Launches lock
    # the class row before adding a member: one entry per LMS user.
    Course.objects.select_for_update().filter(pk=course.pk).first()
    learners = []
    for member in members:
        user_id = member.get("user_id")
        listed = member.get("roles")
        roles = listed if isinstance(listed, list) else []
        if not isinstance(user_id, str) or not user_id or len(user_id) > 250:
            continue
        if not set(roles) & LEARNER_ROLES:
            continue
        if member.get("status", "Active") != "Active":
            continue
        fallback = _("Pupil") + " " + hashlib.sha256(user_id.encode()).hexdigest()[:4].upper()
        learners.append((source_id(user_id), _name(member), fallback))
    synced = roster_services.sync_lms_members(classroom=classroom, learners=learners)
    if synced.over_cap:
        logger.warning(
            "lti roster sync: class %s is full, %s learners not added",
            classroom.pk,
            synced.over_cap,
        )
    Course.objects.filter(pk=course.pk).update(roster_synced_at=timezone.now())
    return synced.changed


def refresh(course_id: int) -> int:
    course = Course.objects.select_related("deployment__platform", "classroom").get(pk=course_id)
    if not course.memberships_url:
        return 0
    return apply_members(course, fetch_members(course))
