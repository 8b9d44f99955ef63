"""Writes after a valid launch: one transaction per launch.

An instructor becomes (or is) a Matika teacher account bound to (iss, sub) --
no password, no e-mail; a learner a player profile with a generated nickname,
member of the course's class (the LMS name, if sent, is the teacher-only roster
name). The course maps to one class per (deployment, context id).
"""

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import identity, nicknames
from accounts import services as account_services
from accounts.models import Browser, PlayerProfile, User
from classrooms import lms_services
from classrooms.models import Membership
from core import registry
from core.registry import Assignable
from homework import services as homework_services
from homework.errors import HomeworkError
from homework.models import Assignment

from . import launch, net
from .launch import Refused, Validated
from .models import Course, DeepLinkRequest, Deployment, Person, ResourceLink

#: The custom parameter a deep-linked resource link carries: the assignment id.
CUSTOM_ASSIGNMENT = "matika_assignment"
#: Days a deep-linked homework is open for by default (the teacher can change it).
DEFAULT_DAYS = 14
ROSTER_REFRESH = timedelta(minutes=10)
DEEP_LINK_MINUTES = 60


def _hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def source_id(sub: str) -> str:
    """A learner's roster entry in an LMS class is found by this (NRPS and launches)."""
    return f"lti:{sub}"[:255]


@dataclass
class Outcome:
    role: str
    course: Course
    person: Person
    user: User | None = None
    player: PlayerProfile | None = None
    assignment: Assignment | None = None
    deep_link: DeepLinkRequest | None = None
    deep_link_token: str = ""
    refresh_roster: bool = False

    @property
    def destination(self) -> str:
        classroom_id = self.course.classroom_id
        if self.assignment is None:
            return reverse("classrooms:detail", args=[classroom_id])
        if self.role == "instructor":
            return reverse("homework:detail", args=[classroom_id, self.assignment.pk])
        spec = registry.get(self.assignment.game)
        if spec is not None and spec.assignable is not None and spec.assignable.play_url:
            return spec.assignable.play_url(self.assignment.pk)
        return reverse("classrooms:detail", args=[classroom_id])


def _teacher(person: Person, name: str) -> User:
    known = person.user
    if known is not None:
        if name and known.name != name[:100]:
            known.name = name[:100]
            known.save(update_fields=["name"])
        return known
    # No e-mail is asked of the LMS: the address is a placeholder that cannot
    # receive mail (.invalid), unique per person, never shown as a contact.
    email = f"lti-{person.platform_id}-{_hash(person.sub)[:20]}@lti.invalid"
    user = User(email=email, name=name[:100])
    user.set_unusable_password()
    user.save()
    person.user = user
    person.save(update_fields=["user"])
    return user


def _player(person: Person, language: str) -> PlayerProfile:
    player = person.player
    if player is not None and player.is_active:
        return player
    for _attempt in range(50):
        nickname = nicknames.generate(language=language)
        try:
            player = account_services.add_profile(nickname=nickname)
        except IntegrityError:
            continue
        person.player = player
        person.save(update_fields=["player"])
        return player
    raise Refused("no_nickname", gettext_lazy("Please try again in a moment."), 503)


def _course_title(claims: dict) -> str:
    context = claims.get(launch.CONTEXT) or {}
    title = context.get("title") or context.get("label") or ""
    title = " ".join(str(title).split())[:80]
    return title or _("Class from the LMS")


def _claimed_id(claims: dict, claim: str, refusal: Refused) -> str:
    """The ``id`` of an object claim (context, resource link), or the refusal."""
    value = claims.get(claim)
    found = value.get("id") if isinstance(value, dict) else None
    if not isinstance(found, str) or not found or len(found) > 255:
        raise refusal
    return found


def _course(validated: Validated, deployment: Deployment, role: str, user: User | None) -> Course:
    context = validated.claims.get(launch.CONTEXT)
    context_id = _claimed_id(
        validated.claims,
        launch.CONTEXT,
        Refused("no_course", gettext_lazy("Open Matika from a course in the LMS."), 400),
    )
    # Only the course row here (the class row is locked after it, by _membership),
    # the order the roster refresh takes them in too.
    course = (
        Course.objects.select_for_update(of=("self",))
        .select_related("classroom")
        .filter(deployment=deployment, context_id=context_id)
        .first()
    )
    if course is None:
        if role != "instructor" or user is None:  # an instructor's launch has its user
            raise Refused(
                "course_not_ready",
                gettext_lazy(
                    "Your teacher has not opened Matika in this course yet. Try again later."
                ),
                409,
            )
        classroom = lms_services.open_class(teacher=user, name=_course_title(validated.claims))
        course = Course.objects.create(
            deployment=deployment,
            context_id=context_id,
            title=str((context or {}).get("title") or "")[:255],
            classroom=classroom,
        )
    elif role == "instructor" and user is not None:  # an instructor always has one
        classroom = course.classroom
        if classroom.teacher_id != user.pk:
            lms_services.add_coteacher(classroom=classroom, user=user)
    nrps = validated.claims.get(launch.NRPS)
    url = nrps.get("context_memberships_url") if isinstance(nrps, dict) else None
    if net.acceptable_url(url) and course.memberships_url != url:
        course.memberships_url = url
        course.save(update_fields=["memberships_url"])
    return course


def _membership(course: Course, person: Person, player: PlayerProfile, name: str) -> Membership:
    return lms_services.enter_member(
        classroom=course.classroom, player=player, source_id=source_id(person.sub), name=name
    )


def _copy_assignment(original: Assignment, course: Course) -> Assignment:
    """A course copy's link: the same game and settings as a new homework of the new class."""
    now = timezone.now()
    due = original.due_at if original.due_at > now else now + timedelta(days=DEFAULT_DAYS)
    try:
        return homework_services.create_assignment(
            classroom=course.classroom,
            user=course.classroom.teacher,
            game=original.game,
            title=original.title,
            settings=original.settings,
            opens_at=None,
            due_at=due,
            attempts=original.attempts,
            late=original.late,
            language=original.language,
            now=now,
        )
    except HomeworkError:
        raise Refused(
            "unknown_link", gettext_lazy("This link does not lead to Matika homework."), 404
        ) from None


def _resource_link(validated: Validated, course: Course) -> ResourceLink:
    claims = validated.claims
    link_id = _claimed_id(
        claims,
        launch.RESOURCE_LINK,
        Refused("no_link", gettext_lazy("The LMS did not say which link was opened."), 400),
    )
    link = (
        ResourceLink.objects.select_for_update()
        .select_related("assignment")
        .filter(course=course, resource_link_id=link_id)
        .first()
    )
    if link is None:
        custom = claims.get(launch.CUSTOM)
        raw = custom.get(CUSTOM_ASSIGNMENT) if isinstance(custom, dict) else None
        try:
            assignment_id = int(str(raw))
        except ValueError:
            assignment_id = None
        # Only homework of a class this same platform registration maps (never
        # another platform's): its own class, or the class a course was copied from.
        original = (
            Assignment.objects.filter(
                pk=assignment_id,
                classroom__lti_course__deployment__platform=validated.platform,
            ).first()
            if assignment_id
            else None
        )
        if original is None:
            raise Refused(
                "unknown_link", gettext_lazy("This link does not lead to Matika homework."), 404
            )
        if original.classroom_id == course.classroom_id:
            assignment = original
        else:
            assignment = _copy_assignment(original, course)
        link = ResourceLink.objects.create(
            course=course, resource_link_id=link_id, assignment=assignment
        )
    ags = claims.get(launch.AGS_ENDPOINT)
    lineitem = ags.get("lineitem") if isinstance(ags, dict) else None
    if net.acceptable_url(lineitem) and link.lineitem_url != lineitem:
        link.lineitem_url = lineitem
        link.save(update_fields=["lineitem_url"])
    return link


@transaction.atomic
def accept(validated: Validated, *, language: str = "cs") -> Outcome:
    """Everything a valid launch creates, in one transaction (a refusal rolls it all back)."""
    deployment = launch.spend_nonce(validated)
    claims = validated.claims
    role = launch.roles_of(claims)
    if role is None:
        raise Refused(
            "bad_role", gettext_lazy("Matika is for the course's teachers and pupils."), 403
        )
    if validated.message_type == launch.DEEP_LINKING_REQUEST and role != "instructor":
        raise Refused("bad_role", gettext_lazy("Only teachers can add Matika homework."), 403)
    name = launch.name_of(claims)
    person, _created = Person.objects.get_or_create(platform=validated.platform, sub=claims["sub"])
    person = (
        Person.objects.select_for_update(of=("self",))
        .select_related("user", "player")
        .get(pk=person.pk)
    )
    user = _teacher(person, name) if role == "instructor" else None
    course = _course(validated, deployment, role, user)
    outcome = Outcome(role=role, course=course, person=person, user=user)
    if role == "learner":
        outcome.player = _player(person, language)
        _membership(course, person, outcome.player, name)
    # (a deep-linking request comes from an instructor, refused above otherwise)
    if validated.message_type == launch.DEEP_LINKING_REQUEST and user is not None:
        settings_claim = claims.get(launch.DEEP_LINKING_SETTINGS)
        return_url = (
            settings_claim.get("deep_link_return_url") if isinstance(settings_claim, dict) else None
        )
        if not net.acceptable_url(return_url):
            raise Refused(
                "bad_deep_link", gettext_lazy("The LMS did not say where to return."), 400
            )
        token = secrets.token_urlsafe(32)
        outcome.deep_link = DeepLinkRequest.objects.create(
            token_hash=_hash(token),
            course=course,
            user=user,
            return_url=return_url,
            data=str((settings_claim or {}).get("data") or "")[:4000],
        )
        outcome.deep_link_token = token
    else:
        try:
            outcome.assignment = _resource_link(validated, course).assignment
        except Refused as refusal:
            # A link added by hand (no homework behind it): a teacher lands on
            # the class and can set homework there; a pupil cannot go anywhere.
            if role != "instructor" or refusal.code != "unknown_link":
                raise
    stale = (
        course.roster_synced_at is None or course.roster_synced_at < timezone.now() - ROSTER_REFRESH
    )
    outcome.refresh_roster = bool(course.memberships_url) and stale
    return outcome


def select_player(token: str | None, player: PlayerProfile) -> str:
    """The learner's browser (the cookie's, or a new one) holds and selects the
    player; returns the token the response must store. Whoever was signed in
    here before through an LMS or a claimed roster entry is signed out: on a
    shared classroom computer their profile never stays in the switcher."""
    browser = (
        Browser.objects.filter(token_hash=identity.hash_token(token)).first() if token else None
    )
    if browser is None:
        browser, token = account_services.browser_for(None)
    identity.end_bound_sessions(browser, keep_id=player.pk)
    browser.profiles.add(player)
    browser.selected = player
    browser.save(update_fields=["selected"])
    assert token is not None  # the cookie's token found the browser, or a new one was made
    return token


def end_pupil_sessions(token: str | None) -> None:
    """A teacher signed in through the LMS: no pupil's bound profile stays in the browser."""
    if token:
        browser = Browser.objects.filter(token_hash=identity.hash_token(token)).first()
        identity.end_bound_sessions(browser)


# --- deep linking -------------------------------------------------------------------


def open_deep_link(token: object) -> DeepLinkRequest | None:
    if not isinstance(token, str) or not token or len(token) > 200:
        return None
    return (
        DeepLinkRequest.objects.select_related(
            "course__classroom", "course__deployment__platform", "user"
        )
        .filter(
            token_hash=_hash(token),
            used_at__isnull=True,
            created_at__gt=timezone.now() - timedelta(minutes=DEEP_LINK_MINUTES),
        )
        .first()
    )


def default_settings(assignable: Assignable) -> dict:
    return {name: default for name, _label, _choices, default in assignable.setting_fields()}


@transaction.atomic
def create_linked_assignment(
    *, token: object, game: object, language: str
) -> tuple[DeepLinkRequest, Assignment]:
    """The instructor's pick: a homework with default settings for the course's class."""
    request = open_deep_link(token)
    if request is not None:
        request = (
            DeepLinkRequest.objects.select_for_update()
            .filter(pk=request.pk, used_at__isnull=True)
            .select_related("course__classroom", "course__deployment__platform", "user")
            .first()
        )
    if request is None:
        raise Refused(
            "bad_deep_link",
            gettext_lazy("This choice has expired or was already made. Start again in the LMS."),
            403,
        )
    spec = registry.get(game) if isinstance(game, str) else None
    if spec is None or spec.assignable is None:
        raise Refused("bad_game", gettext_lazy("This game cannot be given as homework."), 400)
    now = timezone.now()
    try:
        assignment = homework_services.create_assignment(
            classroom=request.course.classroom,
            user=request.user,
            game=spec.slug,
            title=str(spec.name),
            settings=default_settings(spec.assignable),
            opens_at=None,
            due_at=now + timedelta(days=DEFAULT_DAYS),
            language=language,
            now=now,
        )
    except HomeworkError as error:
        raise Refused(error.code, error.message, 400) from None
    request.used_at = now
    request.save(update_fields=["used_at"])
    return request, assignment
