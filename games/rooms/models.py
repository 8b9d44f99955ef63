"""Rooms: where every multiplayer game is played, whatever the game.

A room is a lobby that becomes a table when the host starts it. Everything
needed to rebuild a room lives here in PostgreSQL: the game state (JSON), the
seats, and an append-only event log numbered by a per-room ``seq``. Redis only
carries notifications; losing it loses nothing.
"""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import PlayerProfile


class Room(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", _("waiting for players")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        EXPIRED = "expired", _("expired")

    LIVE_STATUSES = (Status.LOBBY, Status.RUNNING)

    code = models.CharField(_("join code"), max_length=6)
    game = models.CharField(_("game"), max_length=16)
    mode = models.CharField(_("mode"), max_length=24)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    host = models.ForeignKey(
        PlayerProfile,
        verbose_name=_("host"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="hosted_rooms",
    )
    classroom = models.ForeignKey(
        "classrooms.Classroom",
        verbose_name=_("class"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rooms",
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.LOBBY
    )
    locked = models.BooleanField(_("joining locked"), default=False)
    state = models.JSONField(_("game state"), default=dict, blank=True)
    seq = models.PositiveIntegerField(_("last event number"), default=0)
    rng_seed = models.BigIntegerField(_("random seed"))
    next_tick_at = models.DateTimeField(_("next time-based check"), null=True, blank=True)
    record = models.ForeignKey(
        "games.GameRecord",
        verbose_name=_("played game"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    expires_at = models.DateTimeField(_("expires"))

    class Meta:
        verbose_name = _("room")
        verbose_name_plural = _("rooms")
        constraints = [
            # A code is reused only after its room is over: short codes stay short.
            models.UniqueConstraint(
                "code",
                condition=models.Q(status__in=["lobby", "running"]),
                name="rooms_unique_live_code",
            )
        ]
        indexes = [
            models.Index(fields=["code", "status"]),
            models.Index(
                fields=["expires_at"],
                condition=models.Q(status__in=["lobby", "running"]),
                name="rooms_live_expiry",
            ),
            models.Index(
                fields=["next_tick_at"],
                condition=models.Q(status="running"),
                name="rooms_running_tick",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} · {self.game}/{self.mode} · {self.status}"

    @property
    def is_live(self) -> bool:
        return self.status in self.LIVE_STATUSES


class Seat(models.Model):
    """A player's place in a room. Identity (the profile), not the nickname, owns it."""

    class Role(models.TextChoices):
        HOST = "host", _("host")
        PLAYER = "player", _("player")
        SPECTATOR = "spectator", _("spectator")

    class Status(models.TextChoices):
        JOINED = "joined", _("joined")
        LEFT = "left", _("left")
        KICKED = "kicked", _("kicked")

    room = models.ForeignKey(
        Room, verbose_name=_("room"), on_delete=models.CASCADE, related_name="seats"
    )
    player = models.ForeignKey(
        PlayerProfile, verbose_name=_("player"), on_delete=models.CASCADE, related_name="seats"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.PLAYER)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.JOINED
    )
    # Per-seat game state for games whose players act independently (see
    # docs/protocol.md, "Locking"): a move then locks this row, not the room.
    state = models.JSONField(_("seat state"), default=dict, blank=True)
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)
    left_at = models.DateTimeField(_("left"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["room", "player"], name="rooms_one_seat_per_player")
        ]
        ordering = ["joined_at", "pk"]

    def __str__(self) -> str:
        return f"{self.player} in {self.room.code} ({self.role}, {self.status})"


class RoomEvent(models.Model):
    """One step of a room's history, append-only.

    Public steps carry the room's ``seq`` (unique per room, gap-free); steps
    that only a single seat hears of (per-seat moves) have ``seq`` NULL and are
    ordered by ``id``. ``action`` is the accepted input, so the state can be
    replayed from ``Room.rng_seed`` and the log alone.
    """

    # No index of its own: ``rooms_unique_seq_per_room`` (room, seq) serves every
    # lookup by room, and a placement writes one index entry fewer (issue 41).
    # The log's foreign keys are not checked by PostgreSQL (``db_constraint=False``):
    # each check was one more query per placement (four with the answer's); every
    # row is written under a lock on its room (the step's own ``FOR KEY SHARE`` or
    # ``FOR UPDATE``) and for a joined seat, and Django's deletions cascade as
    # before (issue 41, bench/RESULTS-placement-cpu.md).
    room = models.ForeignKey(
        Room,
        verbose_name=_("room"),
        on_delete=models.CASCADE,
        related_name="events",
        db_index=False,
        db_constraint=False,
    )
    seq = models.PositiveIntegerField(_("event number"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=16)
    actor = models.ForeignKey(
        PlayerProfile,
        verbose_name=_("actor"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_constraint=False,
    )
    action = models.JSONField(_("action"), default=dict, blank=True)
    public = models.JSONField(_("public events"), default=list, blank=True)
    private = models.JSONField(_("private events"), default=dict, blank=True)
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("room event")
        verbose_name_plural = _("room events")
        constraints = [
            models.UniqueConstraint(fields=["room", "seq"], name="rooms_unique_seq_per_room")
        ]
        ordering = ["room", "id"]

    def __str__(self) -> str:
        return f"{self.room_id}#{self.seq} {self.kind}"


class ProcessedMessage(models.Model):
    """A client message id already applied, with the answer it got (idempotency)."""

    # Served by ``rooms_unique_client_message`` (room, player, client_id): no index
    # of its own, one index entry fewer per placement (issue 41).
    # Not checked by PostgreSQL either (see ``RoomEvent.room``).
    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    player = models.ForeignKey(
        PlayerProfile, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    client_id = models.CharField(max_length=64)
    response = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("processed message")
        verbose_name_plural = _("processed messages")
        constraints = [
            models.UniqueConstraint(
                fields=["room", "player", "client_id"], name="rooms_unique_client_message"
            )
        ]

    def __str__(self) -> str:
        return f"{self.room_id}/{self.player_id}/{self.client_id}"
