"""Print a one-time LTI Dynamic Registration link (its URL on the last line)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from lti import registration


class Command(BaseCommand):
    help = "Create a one-time LTI 1.3 dynamic registration link for an LMS administrator."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--base-url",
            default=settings.LTI_PUBLIC_URL,
            help="Matika's public address (default: LTI_PUBLIC_URL).",
        )

    def handle(self, *args: object, base_url: str, **options: object) -> None:
        token = registration.new_link()
        hours = settings.LTI_REGISTRATION_LINK_HOURS
        self.stdout.write(
            f"One-time registration link, valid {hours} h. Paste it into the LMS's "
            "tool registration (Moodle: Site administration > Plugins > External tool > "
            "Manage tools; Canvas: Developer Keys > LTI Registration):"
        )
        self.stdout.write(base_url.rstrip("/") + registration.link_path(token))
