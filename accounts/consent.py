"""The publication-consent question: its text and version live here, once.

Bump ``VERSION`` whenever the meaning of ``question()`` changes; stored answers
keep the version and the exact text that was shown.
"""

from django.utils.translation import gettext as _

VERSION = "1"


def question() -> str:
    return _(
        "May Matika show your nickname with your score, difficulty and game time on the "
        "public leaderboards and the daily challenge table? Nothing else is published: no "
        "e-mail, no IP address, no class. Without your consent you play on and nothing is "
        "published. You can change your answer at any time in your profile."
    )
