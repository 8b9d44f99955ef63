"""Demo data for development: a teacher with one class of students and a few played games.

Idempotent: running it again changes nothing that exists. The demo password is
for local development only and the command refuses to run with DEBUG off.
"""

import random
from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from accounts.identity import new_profile_code
from accounts.models import PlayerProfile, User
from classrooms.models import Classroom, Membership
from classrooms.services import new_class_code
from games.models import GameRecord, GameResult

DEMO_EMAIL = "teacher@demo.matika"
DEMO_PASSWORD = "matika-demo"
DEMO_CLASS = "6.A (demo)"
DEMO_STUDENTS = [
    ("Adam K.", "Rychlý Sokol 7"),
    ("Bára N.", "Chytrá Liška 3"),
    ("Cyril P.", "Veselý Ježek 12"),
    ("Dana S.", "Tichá Myška 5"),
    ("Emil V.", "Statečný Lev 21"),
    ("Fanny Z.", "Moudrá Želva 9"),
]


class Command(BaseCommand):
    help = "Create a demo teacher with a class of students (development only)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="run even with DEBUG off")

    @transaction.atomic
    def handle(self, *args, force: bool = False, **options):
        if not settings.DEBUG and not force:
            raise CommandError("load_demo is for development (DEBUG=True); use --force to insist.")
        teacher = User.objects.filter(email=DEMO_EMAIL).first()
        if teacher is None:
            teacher = User.objects.create_user(
                DEMO_EMAIL, DEMO_PASSWORD, name="Demo Teacher", is_staff=True, is_superuser=True
            )
        classroom, created = Classroom.objects.get_or_create(
            teacher=teacher,
            name=DEMO_CLASS,
            defaults={"school_year": "2026/27", "join_code": new_class_code()},
        )
        if created:
            for roster_name, nickname in DEMO_STUDENTS:
                player = PlayerProfile.objects.filter(nickname=nickname, is_active=True).first()
                if player is None:
                    player = PlayerProfile.objects.create(
                        nickname=nickname, code=new_profile_code()
                    )
                Membership.objects.create(
                    classroom=classroom, player=player, roster_name=roster_name
                )
            self._played_games(classroom)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo login: {DEMO_EMAIL} / {DEMO_PASSWORD}  "
                f"(class {classroom.name}, code {classroom.join_code}, "
                f"{classroom.members.count()} students)"
            )
        )

    def _played_games(self, classroom: Classroom) -> None:
        """Three finished poker group games, so the results pages have something to show."""
        rng = random.Random(2026)
        players = [member.player for member in classroom.members.all()]
        for days_ago in (14, 7, 1):
            started = timezone.now() - timedelta(days=days_ago, hours=1)
            record = GameRecord.objects.create(
                game="poker",
                mode="group",
                classroom=classroom,
                started_at=started,
                finished_at=started + timedelta(minutes=25),
            )
            scores = sorted(((rng.randint(20, 90), p) for p in players), key=lambda x: -x[0])
            for rank, (score, player) in enumerate(scores, start=1):
                GameResult.objects.create(
                    record=record,
                    player=player,
                    score=score,
                    rank=rank,
                    details={"board": [rng.randint(1, 13) for _ in range(25)]},
                    finished_at=record.finished_at,
                )
