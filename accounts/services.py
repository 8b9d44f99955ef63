"""Write operations on player profiles; each user intent is one transaction."""

import random

from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import consent, identity, limits, nicknames, privacy
from accounts.errors import AccountsError
from accounts.models import Browser, PlayerProfile, PublicationConsent, User
from core import registry as game_registry


def _nickname_taken_error(nickname: str = "") -> AccountsError:
    free = suggest_free_nicknames(nickname) if nickname else []
    if free:
        # ``suggestions``: the forms show each as a button that fills the field.
        return nicknames.NicknameError(
            "taken",
            _("This nickname is already taken. Free ones: %(nicknames)s.")
            % {"nicknames": ", ".join(free)},
            extra={"suggestions": free},
        )
    return nicknames.NicknameError(
        "taken", _("This nickname is already taken. Try another one or add a number.")
    )


def _skeleton_taken(value: str, exclude_profile_id: int | None = None) -> bool:
    taken = PlayerProfile.objects.filter(is_active=True, nickname_skeleton=value)
    if exclude_profile_id is not None:
        taken = taken.exclude(pk=exclude_profile_id)
    return taken.exists()


def suggest_free_nicknames(nickname: str, count: int = 3) -> list[str]:
    """Up to ``count`` free variants of a taken nickname ("Ema 7", "Ema 23")."""
    base = nicknames.normalise(nickname)[: nicknames.MAX_LENGTH - 3].strip()
    rng = random.SystemRandom()
    free: list[str] = []
    for number in rng.sample(range(2, 100), 40):
        candidate = f"{base} {number}"
        try:
            nicknames.check_characters(candidate)
        except AccountsError:
            return free
        if candidate not in free and not _skeleton_taken(nicknames.skeleton(candidate)):
            free.append(candidate)
            if len(free) == count:
                break
    return free


def validate_nickname(raw: str, *, exclude_profile_id: int | None = None) -> str:
    """A nickname that may be used: allowed characters and words, and unlike
    every active nickname (case-insensitive and by its look-alike skeleton)."""
    nickname = nicknames.normalise(raw)
    nicknames.check_characters(nickname)
    taken = PlayerProfile.objects.annotate(lower=Lower("nickname")).filter(
        is_active=True, lower=nickname.lower()
    )
    if exclude_profile_id is not None:
        taken = taken.exclude(pk=exclude_profile_id)
    if taken.exists() or _skeleton_taken(nicknames.skeleton(nickname), exclude_profile_id):
        raise _nickname_taken_error(nickname)
    return nickname


def browser_for(token: str | None) -> tuple[Browser, str]:
    """The browser of the cookie's ``token``, else a new one: (browser, its token)."""
    if token:
        browser = Browser.objects.filter(token_hash=identity.hash_token(token)).first()
        if browser is not None:
            return browser, token
    token = identity.new_token()
    return Browser.objects.create(token_hash=identity.hash_token(token)), token


def _unique_code() -> str:
    while True:
        code = identity.new_profile_code()
        if not PlayerProfile.objects.filter(code=code).exists():
            return code


def add_profile(*, nickname: str) -> PlayerProfile:
    """A profile in no browser yet (a teacher's own, the demo class's pupils),
    with a fresh profile code; the caller has checked ``nickname``. Raises
    ``IntegrityError`` when a concurrent request took the nickname first."""
    with transaction.atomic():
        return PlayerProfile.objects.create(nickname=nickname, code=_unique_code())


# At most this many teachers' names are read per check: any one that matches refuses.
LOOK_ALIKE_READ = 20


def _check_not_like_a_teacher(nickname: str, exclude_profile_id: int | None = None) -> None:
    """A pupil's nickname must not pass for an active teacher's name or own nickname.

    Only teachers sharing a look-alike key with the nickname are read (the GIN
    index of ``User.name_keys``), at most ``LOOK_ALIKE_READ`` of them: the cost
    does not grow with the number of teachers. Their current names are checked
    again, so a key left over from an old name refuses nothing."""
    keys = nicknames.look_alike_keys(nickname)
    if not keys:
        return
    teachers = User.objects.filter(is_active=True, name_keys__overlap=keys)
    if exclude_profile_id is not None:  # a teacher renaming their own profile
        teachers = teachers.exclude(player_id=exclude_profile_id)
    pairs = list(teachers.values_list("name", "player__nickname")[:LOOK_ALIKE_READ])
    nicknames.check_not_like_a_teacher(nickname, [value for pair in pairs for value in pair])


@transaction.atomic
def create_profile(*, browser_token: str | None, nickname: str) -> tuple[PlayerProfile, str]:
    """Create a profile, attach it to the browser (creating one) and select it.

    Returns the profile and the browser token the response must store.
    """
    nickname = validate_nickname(nickname)
    _check_not_like_a_teacher(nickname)
    browser, token = browser_for(browser_token)
    try:
        with transaction.atomic():
            profile = PlayerProfile.objects.create(nickname=nickname, code=_unique_code())
    except IntegrityError as exc:  # a concurrent request took the nickname first
        raise _nickname_taken_error(nickname) from exc
    browser.profiles.add(profile)
    browser.selected = profile
    browser.save(update_fields=["selected"])
    return profile, token


@transaction.atomic
def rename_profile(*, profile: PlayerProfile, nickname: str) -> PlayerProfile:
    nickname = validate_nickname(nickname, exclude_profile_id=profile.pk)
    _check_not_like_a_teacher(nickname, exclude_profile_id=profile.pk)
    profile = PlayerProfile.objects.select_for_update().get(pk=profile.pk)
    profile.nickname = nickname
    try:
        with transaction.atomic():
            profile.save(update_fields=["nickname"])
    except IntegrityError as exc:
        raise _nickname_taken_error(nickname) from exc
    return profile


def select_profile(*, browser: Browser, profile_id: int) -> PlayerProfile:
    profile = browser.profiles.filter(pk=profile_id, is_active=True).first()
    if profile is None:
        raise AccountsError("unknown_profile", _("This profile is not available in this browser."))
    browser.selected = profile
    browser.save(update_fields=["selected"])
    return profile


@transaction.atomic
def forget_profile(*, browser: Browser, profile_id: int) -> None:
    """Remove a profile from this browser only; it stays reachable by its code."""
    profile = browser.profiles.filter(pk=profile_id).first()
    if profile is None:
        raise AccountsError("unknown_profile", _("This profile is not available in this browser."))
    browser.profiles.remove(profile)
    if browser.selected_id == profile.pk:
        browser.selected = browser.profiles.filter(is_active=True).first()
        browser.save(update_fields=["selected"])


@transaction.atomic
def continue_with_code(
    *,
    browser_token: str | None,
    code: str,
    client: limits.Client | None = None,
    limit_key: str | None = None,
) -> tuple[PlayerProfile, str]:
    """Bring an existing profile to this browser by its profile code.

    Wrong codes are counted against ``client`` (``accounts.limits``; a bare
    ``limit_key`` is taken as an address); a client past the limit is refused
    until its window ends. A right code is never counted."""
    if client is None:
        client = limits.Client(identity=None, address=limit_key or "unknown")
    misses = limits.code_misses()
    if limits.blocked(misses, client):
        raise AccountsError(
            "rate_limited", _("Too many wrong codes. Wait a few minutes and try again.")
        )
    normalised = identity.normalise_profile_code(code)
    # A teacher's own profile is reached through the teacher's login only: its
    # code never brings it to another browser.
    profile = PlayerProfile.objects.filter(
        code=normalised, is_active=True, user__isnull=True
    ).first()
    if profile is None:
        limits.count(misses, client)
        raise AccountsError("unknown_code", _("No profile has this code. Check it and try again."))
    browser, token = browser_for(browser_token)
    browser.profiles.add(profile)
    browser.selected = profile
    browser.save(update_fields=["selected"])
    return profile, token


@transaction.atomic
def end_account_capabilities(*, browser: Browser | None, user: object) -> None:
    """At logout: nothing the teacher's account gave this browser stays in it.

    The teacher's own profile acts from the session only, but a browser may
    still list it (before host rights came from the session, starting a class
    game selected it in the browser): take it out and deselect it."""
    player_id = getattr(user, "player_id", None)
    if browser is None or player_id is None:
        return
    browser.profiles.remove(player_id)
    if browser.selected_id == player_id:
        browser.selected = browser.profiles.filter(is_active=True).first()
        browser.save(update_fields=["selected"])


@transaction.atomic
def renew_profile_code(*, player: PlayerProfile) -> PlayerProfile:
    """A new profile code: the old one no longer brings the profile anywhere."""
    player = PlayerProfile.objects.select_for_update().get(pk=player.pk)
    player.code = _unique_code()
    player.save(update_fields=["code"])
    return player


@transaction.atomic
def sign_out_other_browsers(*, player: PlayerProfile, browser: Browser) -> int:
    """Take the profile out of every other browser that holds it; returns how many."""
    others = list(
        Browser.objects.select_for_update().filter(profiles=player).exclude(pk=browser.pk)
    )
    for other in others:
        other.profiles.remove(player)
        if other.selected_id == player.pk:
            other.selected = other.profiles.filter(is_active=True).first()
            other.save(update_fields=["selected"])
    return len(others)


def touch(*, browser: Browser) -> None:
    """Record activity at most once an hour per browser (cheap on every request)."""
    now = timezone.now()
    if (now - browser.last_seen_at).total_seconds() < 3600:
        return
    Browser.objects.filter(pk=browser.pk).update(last_seen_at=now)
    if browser.selected_id:
        PlayerProfile.objects.filter(pk=browser.selected_id).update(last_seen_at=now)


@transaction.atomic
def record_consent(
    *, player: PlayerProfile, granted: bool, language: str, age_confirmed: bool | None = None
) -> PublicationConsent:
    """Store an answer to the publication question (with the exact text shown).

    A yes needs the player's statement that they are old enough or that a parent
    agreed (GDPR Art. 8, ``consent.age_statement``); a no never does."""
    if granted and not age_confirmed:
        raise AccountsError(
            "needs_age",
            _("Tick the sentence about your age first, or ask your parent and come back."),
        )
    PlayerProfile.objects.select_for_update().filter(pk=player.pk).first()
    answer = PublicationConsent.objects.create(
        player=player,
        granted=granted,
        age_confirmed=bool(age_confirmed) if granted else None,
        text_version=consent.VERSION,
        language=language,
        text=consent.stored_text(granted=granted, language=language),
    )
    if not granted:
        game_registry.withdraw_public_data([player.pk])
    return answer


@transaction.atomic
def reset_stats(*, player: PlayerProfile) -> int:
    """Detach the player's results: their stats start from zero; class reports
    keep the rows anonymised. Public entries go too. Returns the number detached."""
    PlayerProfile.objects.select_for_update().filter(pk=player.pk).first()
    game_registry.withdraw_public_data([player.pk])
    return sum(
        hooks.reset_stats(player) for hooks in privacy.registered() if hooks.reset_stats is not None
    )


def delete_profile(*, player: PlayerProfile) -> None:
    """Remove the profile and every trace of it (``accounts.erasure``). Results
    stay, anonymised, so class statistics remain consistent; roster names are
    personal and go."""
    from accounts import erasure

    erasure.erase_profile(player)
