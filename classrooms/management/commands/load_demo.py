"""Demo data for development: a teacher with one class of students and a few played games.

Idempotent: running it again changes nothing that exists. The demo password is
for local development only and the command refuses to run with DEBUG off.
"""

import random

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from accounts import services as account_services
from accounts.models import PlayerProfile, User
from classrooms.models import Classroom, Membership
from classrooms.services import new_class_code
from core import registry as game_registry

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

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="run even with DEBUG off")

    @transaction.atomic
    def handle(self, *args: object, force: bool = False, **options: object) -> None:
        if not settings.DEBUG and not force:
            raise CommandError("load_demo is for development (DEBUG=True); use --force to insist.")
        teacher = User.objects.filter(email=DEMO_EMAIL).first()
        if teacher is None:
            teacher = User.objects.create_user(
                DEMO_EMAIL,
                DEMO_PASSWORD,
                name="Demo Teacher",
                is_staff=True,
                is_superuser=True,
                email_verified_at=timezone.now(),
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
                    player = account_services.add_profile(nickname=nickname)
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
        """Each game's demo results (``GameSpec.demo``), so the results pages have
        something to show."""
        for spec in game_registry.games():
            if spec.demo is not None:
                spec.demo(classroom, random.Random(2026))
