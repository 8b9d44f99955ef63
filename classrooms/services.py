"""Write operations on classes: one function per user intent, one transaction each.

Every refusal raises :class:`ClassroomError` before anything is written, so
bad input changes nothing. Rows an intent changes are locked with
``select_for_update``: the class row for the teacher's class-wide changes, only
the member row when a student claims a roster name (so two students picking
the same name cannot both win, and a class joining at once does not queue);
a double-submitted join meets the one-membership-per-player constraint and
answers with the membership already made.
"""

import secrets
import unicodedata
from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import limits, nicknames, trust
from accounts import services as account_services
from accounts.errors import AccountsError
from accounts.models import PlayerProfile, User
from classrooms.errors import ClassroomError
from classrooms.models import Classroom, Membership
from core import registry as game_registry

# Class codes share the profile codes' alphabet: no 0/O or 1/I/L to misread.
CLASS_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CLASS_CODE_LENGTH = 6
MAX_MEMBERS = 200
# Joins by a typed name waiting for the teacher's approval, at most (more than a class).
MAX_PENDING = 60
MAX_ROSTER_NAME = 80
MAX_CO_TEACHERS = 10
# Per-pupil claim codes (printed by the teacher), from the class codes' alphabet.
CLAIM_CODE_LENGTH = 6


def new_class_code() -> str:
    while True:
        code = "".join(secrets.choice(CLASS_CODE_ALPHABET) for _ in range(CLASS_CODE_LENGTH))
        if not Classroom.objects.filter(join_code=code).exists():
            return code


def normalise_code(raw: str) -> str:
    return "".join(ch for ch in (raw or "").upper() if ch.isalnum())[:16]


def normalise_roster_name(raw: str) -> str:
    """Trimmed, single-spaced, NFC, without control characters; refused when empty or too long."""
    text = unicodedata.normalize("NFC", raw or "")
    name = " ".join("".join(ch for ch in text if unicodedata.category(ch)[0] != "C").split())
    if not name:
        raise ClassroomError("name_empty", _("Enter a name."))
    if len(name) > MAX_ROSTER_NAME:
        raise ClassroomError("name_too_long", _("A name can have at most 80 characters."))
    return name


def _clean_class_fields(*, name: str, school_year: str, subject: str) -> dict:
    name = " ".join((name or "").split())
    if not name:
        raise ClassroomError("class_name_empty", _("Give the class a name."))
    if len(name) > 80:
        raise ClassroomError(
            "class_name_too_long", _("A class name can have at most 80 characters.")
        )
    school_year = " ".join((school_year or "").split())
    if len(school_year) > 9:
        raise ClassroomError("school_year_too_long", _("Write the school year like 2026/27."))
    subject = " ".join((subject or "").split())
    if len(subject) > 80:
        raise ClassroomError("subject_too_long", _("The subject can have at most 80 characters."))
    return {"name": name, "school_year": school_year, "subject": subject}


def parse_roster(text: str) -> list[str]:
    """One name a line (a pasted column from a spreadsheet); blanks and repeats dropped."""
    names: list[str] = []
    seen: set[str] = set()
    for line in (text or "").splitlines():
        if not line.strip():
            continue
        name = normalise_roster_name(line.split("\t")[0])
        if name.casefold() not in seen:
            seen.add(name.casefold())
            names.append(name)
    return names


def _lock(classroom: Classroom) -> Classroom:
    return Classroom.objects.select_for_update().get(pk=classroom.pk)


def class_full_message() -> str:
    """Why a class takes nobody more: at most ``MAX_MEMBERS`` members."""
    return ngettext(
        "A class can have at most %(count)s member.",
        "A class can have at most %(count)s members.",
        MAX_MEMBERS,
    ) % {"count": MAX_MEMBERS}


def _add_roster_names(classroom: Classroom, names: list[str]) -> list[Membership]:
    existing = {name.casefold() for name in classroom.members.values_list("roster_name", flat=True)}
    new_names = [name for name in names if name.casefold() not in existing]
    if classroom.members.count() + len(new_names) > MAX_MEMBERS:
        raise ClassroomError("class_full", class_full_message())
    return Membership.objects.bulk_create(
        [
            Membership(classroom=classroom, roster_name=name, claim_code=new_claim_code())
            for name in new_names
        ]
    )


@transaction.atomic
def create_classroom(
    *, teacher: User, name: str, school_year: str = "", subject: str = "", roster: str = ""
) -> Classroom:
    """A new class of ``teacher``: only an account whose address is proved
    creates one (``accounts.trust``; pupils see the class and its teacher's name)."""
    trust.require_verified(teacher, ClassroomError)
    fields = _clean_class_fields(name=name, school_year=school_year, subject=subject)
    names = parse_roster(roster)
    classroom = Classroom.objects.create(teacher=teacher, join_code=new_class_code(), **fields)
    _add_roster_names(classroom, names)
    return classroom


@transaction.atomic
def update_classroom(
    *,
    classroom: Classroom,
    name: str,
    school_year: str,
    subject: str,
    public_publication: bool,
    user: User | None = None,
) -> Classroom:
    """Save the class's details. Only the class's owner may allow publication
    (``user`` is the teacher asking; None: the system itself)."""
    fields = _clean_class_fields(name=name, school_year=school_year, subject=subject)
    classroom = _lock(classroom)
    if (
        public_publication
        and not classroom.public_publication
        and user is not None
        and user.pk != classroom.teacher_id
    ):
        raise ClassroomError(
            "owner_only",
            _("Only the teacher who owns the class can allow publishing its results."),
        )
    for key, value in fields.items():
        setattr(classroom, key, value)
    classroom.public_publication = public_publication
    classroom.save(update_fields=[*fields, "public_publication"])
    if not public_publication:
        game_registry.withdraw_public_data(member_player_ids(classroom))
    return classroom


def member_player_ids(classroom: Classroom) -> set[int]:
    """Every profile that counts as a member of the class (merged ones included)."""
    members = Membership.objects.filter(classroom=classroom)
    ids = set(members.exclude(player=None).values_list("player_id", flat=True))
    return ids | set(members.values_list("other_players", flat=True)) - {None}


def _forbid_publication(classroom: Classroom, player_ids: Iterable[int | None]) -> None:
    """A class that forbids publication keeps its members off every public table."""
    if not classroom.public_publication:
        game_registry.withdraw_public_data(player_ids)


@transaction.atomic
def set_archived(*, classroom: Classroom, archived: bool) -> Classroom:
    classroom = _lock(classroom)
    classroom.archived_at = (classroom.archived_at or timezone.now()) if archived else None
    classroom.save(update_fields=["archived_at"])
    return classroom


def _require_owner(classroom: Classroom, user: User) -> None:
    """Co-teachers run the class; deleting it and choosing its teachers stay with its owner."""
    if classroom.teacher_id != user.pk:
        raise ClassroomError("not_owner", _("Only the teacher who created the class can do this."))


@transaction.atomic
def delete_classroom(*, classroom: Classroom, user: User) -> None:
    """Only the class's own teacher deletes it; its game records and results go with it."""
    _require_owner(classroom, user)
    _lock(classroom).delete()


@transaction.atomic
def regenerate_code(*, classroom: Classroom) -> Classroom:
    classroom = _lock(classroom)
    classroom.join_code = new_class_code()
    classroom.save(update_fields=["join_code"])
    return classroom


@transaction.atomic
def set_joining(*, classroom: Classroom, enabled: bool) -> Classroom:
    classroom = _lock(classroom)
    classroom.join_enabled = enabled
    classroom.save(update_fields=["join_enabled"])
    return classroom


@transaction.atomic
def add_roster(*, classroom: Classroom, text: str) -> list[Membership]:
    names = parse_roster(text)
    if not names:
        raise ClassroomError("roster_empty", _("Paste at least one name, one a line."))
    return _add_roster_names(_lock(classroom), names)


def _member(classroom: Classroom, member_id: int, *, lock: bool = True) -> Membership:
    members = Membership.objects.filter(classroom=classroom, pk=member_id)
    member = (members.select_for_update() if lock else members).first()
    if member is None:
        raise ClassroomError("unknown_member", _("This student is not in the class."))
    return member


def new_claim_code() -> str:
    return "".join(secrets.choice(CLASS_CODE_ALPHABET) for _ in range(CLAIM_CODE_LENGTH))


def _claim_code_matches(member: Membership, typed: str) -> bool:
    """Compared in constant time; a wrong code counts as a code miss
    (accounts.limits). A client past the limit is told to wait, whatever it
    typed: the right code is not compared then, and no answer tells it apart."""
    client = limits.current_client()
    misses = limits.code_misses()
    if client is not None and limits.blocked(misses, client):
        minutes = limits.wait_minutes(misses, client)
        raise ClassroomError(
            "too_many_tries",
            ngettext(
                "Too many tries. Wait %(minutes)s minute and try again.",
                "Too many tries. Wait %(minutes)s minutes and try again.",
                minutes,
            )
            % {"minutes": minutes},
        )
    ok = bool(member.claim_code) and secrets.compare_digest(
        normalise_code(typed), member.claim_code
    )
    if not ok and client is not None:
        limits.count(misses, client)
    return ok


@transaction.atomic
def approve_member(*, classroom: Classroom, member_id: int) -> Membership:
    """Confirm a waiting member. A claim of a roster name joins that name (its
    profile moves onto the roster entry, the claim row goes)."""
    member = _member(classroom, member_id)
    if member.claim_of_id is not None:
        return merge_members(classroom=classroom, source_id=member.pk, target_id=member.claim_of_id)
    member.status = Membership.Status.APPROVED
    member.save(update_fields=["status"])
    return member


@transaction.atomic
def remove_member(*, classroom: Classroom, member_id: int) -> None:
    _member(classroom, member_id).delete()


def _pending(classroom: Classroom, member_ids: list[int] | None) -> QuerySet:
    """The class's waiting joins: all of them, or those of ``member_ids`` (the ones
    the teacher saw: a wave, or the whole list as shown) that still wait."""
    pending = Membership.objects.filter(classroom=classroom, status=Membership.Status.PENDING)
    if member_ids is not None:
        pending = pending.filter(pk__in=member_ids)
    return pending


@transaction.atomic
def remove_pending(*, classroom: Classroom, member_ids: list[int] | None = None) -> int:
    """Remove the joins still waiting for approval (junk joins in one click): all
    of them, or only those of ``member_ids`` (one wave, so the real pupils of
    another stay); returns how many. Roster names and approved members stay."""
    removed, _by_model = _pending(classroom, member_ids).delete()
    return removed


@transaction.atomic
def approve_pending(*, classroom: Classroom, member_ids: list[int] | None = None) -> int:
    """Approve the waiting joins in one step: all of them, or only those of
    ``member_ids`` (a wave, or the list the teacher confirmed: a join that
    arrived after the page was shown is not approved unseen). A claim of a roster
    name joins that name, as in :func:`approve_member`, but only while nobody
    holds the name: a second claim of one name (one of them is not that pupil)
    stays waiting for the teacher's own decision. Returns how many."""
    _lock(classroom)
    pending = _pending(classroom, member_ids).order_by("joined_at", "pk")
    approved = 0
    for member_id, claim_of_id in list(pending.values_list("pk", "claim_of_id")):
        if claim_of_id is not None and (
            Membership.objects.filter(pk=claim_of_id, player__isnull=False).exists()
        ):
            continue
        approve_member(classroom=classroom, member_id=member_id)
        approved += 1
    return approved


@transaction.atomic
def rename_member(*, classroom: Classroom, member_id: int, roster_name: str) -> Membership:
    name = normalise_roster_name(roster_name)
    member = _member(classroom, member_id)
    member.roster_name = name
    member.save(update_fields=["roster_name"])
    return member


@transaction.atomic
def merge_members(*, classroom: Classroom, source_id: int, target_id: int) -> Membership:
    """Fold a duplicate into another member: the target keeps its roster name and
    gains the duplicate's profiles, so all results count for one student."""
    if source_id == target_id:
        raise ClassroomError("merge_same", _("Choose two different students to merge."))
    _lock(classroom)
    source = _member(classroom, source_id)
    target = _member(classroom, target_id)
    own = source.player
    players = [own] if own is not None else []
    players += list(source.other_players.all())
    source.delete()
    for player in players:
        if target.player_id is None:
            target.player = player
        elif player.pk != target.player_id:
            target.other_players.add(player)
    target.status = Membership.Status.APPROVED
    target.save(update_fields=["player", "status"])
    _forbid_publication(classroom, [player.pk for player in players])
    return target


def membership_of(*, classroom: Classroom, player: PlayerProfile) -> Membership | None:
    return (
        Membership.objects.filter(classroom=classroom)
        .filter(Q(player=player) | Q(other_players=player))
        .first()
    )


def check_code_attempt(
    *,
    code: str,
    client: limits.Client,
    player: PlayerProfile | None = None,
    link_key: str | None = None,
) -> Classroom:
    """The class for a typed code or a class link. Wrong codes are counted
    against the client (``accounts.limits``: its browser identity at its
    address, or the address); a client past the limit is refused every typed
    code until its window ends, valid or not (otherwise the refusal would tell
    valid codes apart), except the class it already belongs to. A right code is
    never counted.

    ``link_key`` is the key of the teacher's class link or QR
    (:func:`class_link_key`): correct, the visit is never counted and never
    refused; wrong, it is counted as a miss and otherwise treated as a typed code.
    """
    classroom = Classroom.objects.filter(join_code=normalise_code(code)).first()
    if classroom is not None and player is not None:
        if membership_of(classroom=classroom, player=player) is not None:
            return classroom
    if link_key and classroom is not None and class_link_key_valid(classroom, link_key):
        return classroom
    misses = limits.code_misses()
    if limits.blocked(misses, client):
        raise ClassroomError(
            "rate_limited", _("Too many wrong codes. Wait a few minutes and try again.")
        )
    if classroom is None or link_key:
        limits.count(misses, client)
    if classroom is None:
        raise ClassroomError("unknown_code", _("No class has this code. Check it and try again."))
    return classroom


def class_link_key(classroom: Classroom) -> str:
    """The key of the class's link and QR code (it changes with the code)."""
    return limits.link_key("class", classroom.pk, classroom.join_code)


def class_link_key_valid(classroom: Classroom, key: str) -> bool:
    return limits.link_key_valid("class", classroom.pk, classroom.join_code, key)


def _joined_a_moment_ago(classroom: Classroom, player: PlayerProfile) -> Membership:
    """The membership a twin request created: the unique (class, player)
    constraint is the only one a join can hit."""
    member = membership_of(classroom=classroom, player=player)
    assert member is not None, "refused by the unique (class, player) constraint"
    return member


@transaction.atomic
def join_classroom(
    *,
    classroom: Classroom,
    player: PlayerProfile | None,
    member_id: int | None = None,
    typed_name: str = "",
    browser_token: str | None = None,
    nickname: str = "",
    claim_code: str = "",
    client: limits.Client | None = None,
    keyed: bool = False,
) -> tuple[Membership, str | None]:
    """A student joins: claims a roster name or types one. A claim with the roster
    name's claim code (printed by the teacher) is in at once; a claim without it,
    like a typed name, waits for the teacher (a pending membership that points
    at the roster name, ``claim_of``). A browser without a profile gets one in
    the same step.

    Waiting joins are capped (``MAX_PENDING``), and each browser and address
    (``client``) has its own share of the cap (``limits.class_pending``), so one
    outsider with the code cannot fill the list. A join through the teacher's
    keyed link or QR (``keyed``) is never refused by either.

    Returns the membership and, when a profile was created, the browser token
    the response must store.
    """
    # Only the claimed roster row is locked, not the class: thirty students
    # joining at the same moment do not queue on one row. (The member cap is
    # therefore checked without a lock and may be passed by a few at once.)
    classroom = Classroom.objects.get(pk=classroom.pk)
    if classroom.archived_at is not None or not classroom.join_enabled:
        raise ClassroomError("joining_closed", _("This class is not accepting new students."))
    if player is not None:
        existing = membership_of(classroom=classroom, player=player)
        if existing is not None:
            return existing, None
    claimed = None
    if member_id is not None:
        claimed = _member(classroom, member_id)
        if claimed.player_id is not None or claimed.is_pending:
            raise ClassroomError(
                "name_taken", _("Someone has already picked this name. Ask your teacher.")
            )
        if claim_code and not _claim_code_matches(claimed, claim_code):
            raise ClassroomError(
                "bad_claim_code",
                _(
                    "This code is not right. Check it, or leave it empty and your teacher confirms you."
                ),
            )
    if claimed is None or not claim_code:
        name = claimed.short_name if claimed is not None else normalise_roster_name(typed_name)
        # Typed names wait for the teacher and have their own cap: joins nobody
        # approved cannot fill the class so that a real pupil is refused.
        members = classroom.members.exclude(status=Membership.Status.PENDING)
        if members.count() >= MAX_MEMBERS:
            raise ClassroomError("class_full", class_full_message())
        if not keyed:
            _check_pending_room(classroom, client)
    token = None
    if player is None:
        player, token = account_services.create_profile(
            browser_token=browser_token, nickname=nickname
        )
    if claimed is None or not claim_code:
        try:
            with transaction.atomic():
                member = Membership.objects.create(
                    classroom=classroom,
                    player=player,
                    roster_name=name,
                    status=Membership.Status.PENDING,
                    claim_of=claimed,
                )
        except IntegrityError:  # a double submit joined this player a moment ago
            return _joined_a_moment_ago(classroom, player), token
        if client is not None and not keyed:
            limits.count(limits.class_pending(), limits.for_object(client, "class", classroom.pk))
    else:
        member = claimed
        member.player = player
        member.joined_at = timezone.now()
        try:
            with transaction.atomic():
                member.save(update_fields=["player", "joined_at"])
        except IntegrityError:  # a double submit joined this player a moment ago
            return _joined_a_moment_ago(classroom, player), token
    _forbid_publication(classroom, [player.pk])
    return member, token


def _check_pending_room(classroom: Classroom, client: limits.Client | None) -> None:
    """Refuse a join that would wait for the teacher when the waiting list is full,
    or when this browser or address has used up its share of it."""
    full = classroom.members.filter(status=Membership.Status.PENDING).count() >= MAX_PENDING
    if full or (
        client is not None
        and limits.blocked(limits.class_pending(), limits.for_object(client, "class", classroom.pk))
    ):
        raise ClassroomError(
            "too_many_pending",
            _("Too many students are waiting for the teacher. Ask your teacher to confirm them."),
        )


def _teacher_nickname(user: User) -> str:
    base = nicknames.normalise(
        "".join(ch for ch in user.get_short_name() if ch.isalnum() or ch in " -_.")
    )[: nicknames.MAX_LENGTH - 3]
    try:
        nicknames.check_characters(base)
    except AccountsError:
        base = _("Teacher")
    return base


@transaction.atomic
def ensure_teacher_player(*, user: User) -> PlayerProfile:
    """The teacher's own player profile, created on first need (nickname from their name)."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.player is not None and user.player.is_active:
        return user.player
    base = _teacher_nickname(user)
    for number in range(1, 1000):
        nickname = base if number == 1 else f"{base} {number}"
        try:
            account_services.validate_nickname(nickname)
        except AccountsError:
            continue
        try:
            player = account_services.add_profile(nickname=nickname)
        except IntegrityError:
            continue
        user.player = player
        user.save(update_fields=["player"])
        return player
    raise ClassroomError("no_nickname", _("No free nickname was found. Set a name first."))
