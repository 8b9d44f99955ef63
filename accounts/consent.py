"""The publication-consent question: its text and version live here, once.

Bump ``VERSION`` whenever the meaning of ``question()`` or ``age_statement()``
changes; stored answers keep the version, the exact text that was shown and
whether the player said they are old enough or have a parent's agreement.

GDPR Art. 8: below the age of digital consent a child's consent to an online
service needs a parent's agreement -- 15 in Czechia, 16 in Slovakia (and the
regulation's default elsewhere). The page language stands in for the country.
"""

from django.utils.translation import get_language
from django.utils.translation import gettext as _

VERSION = "2"
DIGITAL_CONSENT_AGE = {"cs": 15, "sk": 16}
DEFAULT_DIGITAL_CONSENT_AGE = 16


def consent_age(language: str | None = None) -> int:
    language = (language or get_language() or "").split("-")[0]
    return DIGITAL_CONSENT_AGE.get(language, DEFAULT_DIGITAL_CONSENT_AGE)


def question() -> str:
    return _(
        "May Matika show your nickname with your score, difficulty and game time on the "
        "public leaderboards and the daily challenge table? Anyone on the internet can see "
        "these tables. Nothing else about you is shown: no e-mail, no IP address, no class. "
        "If you say no, you play on and nothing is shown. You can change your answer at any "
        "time in your profile: then your places on the tables are deleted for good and "
        "cannot come back."
    )


def age_statement(language: str | None = None) -> str:
    return _("I am at least %(age)d years old, or my parent has said that I may do this.") % {
        "age": consent_age(language)
    }


def stored_text(*, granted: bool, language: str | None = None) -> str:
    """What the answer records: the question, and for a yes the age statement too."""
    if granted:
        return f"{question()}\n{age_statement(language)}"
    return question()
