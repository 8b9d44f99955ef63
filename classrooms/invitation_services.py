"""Co-teachers: inviting a colleague by e-mail (a signed link), accepting the
link, taking a co-teacher off the class. Writes, one transaction each, as in
:mod:`classrooms.services`; only the class's owner chooses its teachers."""

from collections.abc import Callable

from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import mail_limits, mail_text, trust
from accounts import tasks as mail_tasks
from accounts.models import User
from classrooms import services
from classrooms.errors import ClassroomError
from classrooms.models import Classroom, CoTeacher
from games.rooms import hostsessions
from games.rooms import selectors as room_selectors
from games.rooms import services as room_services

INVITE_SALT = "classrooms.co-teacher-invitation"
INVITE_MAX_AGE = 14 * 24 * 3600


def invitation_token(invite: CoTeacher) -> str:
    """Signed (with the time) for the invitation and its address: it only works
    for the address it was mailed to, and not after INVITE_MAX_AGE."""
    return signing.dumps({"i": invite.pk, "e": invite.email}, salt=INVITE_SALT, compress=True)


@transaction.atomic
def invite_co_teacher(
    *,
    classroom: Classroom,
    email: str,
    invited_by: User,
    accept_url: Callable[[str], str] | None = None,
    address: str | None = None,
) -> CoTeacher:
    """Invite a colleague by e-mail: they get a signed link, and see the class
    only after accepting it (``accept_url(token)`` builds the link's address).

    The mail goes to an address the sender chooses, so only a verified account
    invites, within its budgets per account, per invited address and per network
    ``address`` of the request (accounts.mail_limits), and the names it quotes
    never carry a link (accounts.mail_text; issue 27 §4)."""
    email = (email or "").strip().lower()
    try:
        validate_email(email)
    except ValidationError as exc:
        raise ClassroomError("bad_email", _("Enter a valid e-mail address.")) from exc
    classroom = services._lock(classroom)
    services._require_owner(classroom, invited_by)
    if email == classroom.teacher.email.lower():
        raise ClassroomError("already_teacher", _("This teacher already teaches the class."))
    if classroom.co_teachers.filter(email=email).exists():
        raise ClassroomError("already_invited", _("This colleague is already invited."))
    if classroom.co_teachers.count() >= services.MAX_CO_TEACHERS:
        raise ClassroomError("too_many_co_teachers", _("A class can have at most 10 co-teachers."))
    trust.require_verified(invited_by, ClassroomError)
    wait = mail_limits.take_invitation(
        account_id=invited_by.pk, recipient=email, address=address or "not-a-request"
    )
    if wait is not None:
        raise ClassroomError(
            "too_many_invitations",
            ngettext(
                "Too many invitations were sent. Try again in %(minutes)d minute.",
                "Too many invitations were sent. Try again in %(minutes)d minutes.",
                wait,
            )
            % {"minutes": wait},
            status=429,
        )
    invite = CoTeacher.objects.create(classroom=classroom, email=email, invited_by=invited_by)
    url = accept_url(invitation_token(invite)) if accept_url else invitation_token(invite)
    class_name = mail_text.neutralised(classroom.name)
    subject = _("Matika: you were invited to teach %(name)s") % {"name": class_name}
    body = _(
        "%(teacher)s invited you to teach the class %(name)s on Matika. "
        "To accept, open this link within 14 days and log in (or create a teacher "
        "account) with this e-mail address: %(url)s"
    ) % {
        "teacher": mail_text.neutralised(invited_by.get_full_name()),
        "name": class_name,
        "url": url,
    }
    # Queued after the commit and retried when SMTP fails (accounts.tasks).
    transaction.on_commit(lambda: mail_tasks.queue_mail(subject=subject, body=body, to=[email]))
    return invite


def invitation_for(token: str) -> CoTeacher:
    """The invitation a mailed link stands for; refused when forged, expired,
    withdrawn or made for an earlier invitation of the same address."""
    try:
        data = signing.loads(token, salt=INVITE_SALT, max_age=INVITE_MAX_AGE)
    except signing.BadSignature as exc:  # SignatureExpired is one
        raise ClassroomError(
            "bad_invitation", _("This invitation link is invalid or has expired.")
        ) from exc
    invite = (
        CoTeacher.objects.select_related("classroom", "classroom__teacher")
        .filter(pk=data.get("i"), email=str(data.get("e", "")))
        .first()
    )
    if invite is None:
        raise ClassroomError("bad_invitation", _("This invitation link is invalid or has expired."))
    return invite


@transaction.atomic
def accept_invitation(*, token: str, user: User) -> CoTeacher:
    """The invited colleague accepts: the link must be valid, and the account's
    address the invited one and verified (accounts.signup)."""
    invite = invitation_for(token)
    invite = CoTeacher.objects.select_for_update().get(pk=invite.pk)
    if invite.is_accepted:
        if invite.user_id == user.pk:
            return invite
        raise ClassroomError("bad_invitation", _("This invitation link is invalid or has expired."))
    if user.email.lower() != invite.email:
        raise ClassroomError(
            "wrong_account",
            _("This invitation is for another e-mail address. Log in with that address."),
        )
    if not user.email_verified:
        raise ClassroomError(
            "email_unverified",
            _("Confirm your e-mail address first: open the link we mailed to you."),
        )
    invite.user = user
    invite.accepted_at = timezone.now()
    invite.save(update_fields=["user", "accepted_at"])
    return invite


@transaction.atomic
def remove_co_teacher(*, classroom: Classroom, co_teacher_id: int, user: User) -> None:
    """The owner takes a colleague off the class. Their host rights over the
    class's rooms end at once: the rooms they host are ended (a group game keeps
    the results so far), and their session no longer makes them a teacher here."""
    services._require_owner(classroom, user)
    invite = CoTeacher.objects.filter(classroom=classroom, pk=co_teacher_id).first()
    if invite is None:
        raise ClassroomError("unknown_co_teacher", _("This co-teacher is not in the class."))
    invite.delete()
    colleague = invite.user
    host = colleague.player if colleague is not None else None
    if host is None:
        return
    for room in room_selectors.live_rooms_for_classroom(classroom).filter(host_id=host.pk):
        room_services.end_room(room=room, actor=host)
    # Their open sockets in the class's rooms are told and closed at once.
    hostsessions.class_rights_ended(classroom_id=classroom.pk, player_id=host.pk)
