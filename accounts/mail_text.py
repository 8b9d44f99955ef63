"""User text inside the mails Matika sends: never a link (issue 27 §4).

Co-teacher invitations quote the inviting teacher's name and the class name,
both typed by the sender, to an address the sender chooses: "Maths — claim
your prize at https://evil.example" as a class name turned the invitation into
the attacker's mail with Matika's sender. Mail programs turn web addresses,
bare domains and e-mail addresses into links, so those are *defanged* (the
usual ``example[.]org`` spelling: still readable, never clickable) and the
text is kept to one short line.
"""

import re

MAX_LENGTH = 80
# A scheme (any before "://", the known ones before ":"), "www.", an e-mail address or a bare domain ending in a letter TLD
# (class names such as "6.A" or "7.B" stay as they are).
_LINK_LIKE = re.compile(
    r"(?:[a-z][a-z0-9+.-]*://|(?:https?|ftp|mailto|file|tel|sms|data|javascript):)\S*"
    r"|www\.\S*|\S+@\S+|[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b\S*",
    re.IGNORECASE,
)


def _defang(match: re.Match[str]) -> str:
    text = match.group(0)
    return text.replace(".", "[.]").replace(":", "[:]").replace("@", "[at]").replace("/", "[/]")


def neutralised(text: str) -> str:
    """``text`` as it may appear in a mail: one line, at most MAX_LENGTH
    characters, with everything a mail program would link defanged."""
    line = " ".join((text or "").split())
    if len(line) > MAX_LENGTH:
        line = line[: MAX_LENGTH - 1] + "…"
    return _LINK_LIKE.sub(_defang, line)
