"""Every visible string exists in Czech and Slovak (and the .po files compile).

The extraction here is deliberately simple and needs no GNU gettext: it reads
``{% translate %}`` / ``{% blocktranslate %}`` in templates and ``_()`` /
``gettext*()`` calls in Python source, and checks each against the catalogues.
"""

import ast
import re
from pathlib import Path

import polib
import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ["accounts", "classrooms", "games", "config", "templates"]
TRANSLATE_TAG = re.compile(r"""{%\s*(?:translate|trans)\s+(["'])(.+?)\1""")
BLOCK_TAG = re.compile(
    r"{%\s*blocktranslate(?P<args>[^%]*)%}(?P<body>.*?){%\s*endblocktranslate\s*%}", re.S
)
GETTEXT_NAMES = {"_", "gettext", "gettext_lazy", "pgettext", "ngettext"}


def _source_files(suffixes: tuple[str, ...]):
    for folder in SOURCE_DIRS:
        for path in (BASE_DIR / folder).rglob("*"):
            if path.suffix in suffixes and "migrations" not in path.parts:
                yield path


def _block_msgid(body: str, args: str) -> str:
    # Django escapes a literal % in blocktranslate bodies as %% in the msgid.
    text = re.sub(r"{{\s*(\w+)\s*}}", r"%(\1)s", body.replace("%", "%%"))
    if "trimmed" in args:
        text = " ".join(line.strip() for line in text.strip().splitlines())
    return text


def template_messages() -> set[str]:
    found = set()
    for path in _source_files((".html", ".txt")):
        text = path.read_text(encoding="utf-8")
        found.update(match.group(2) for match in TRANSLATE_TAG.finditer(text))
        found.update(
            _block_msgid(match.group("body"), match.group("args"))
            for match in BLOCK_TAG.finditer(text)
        )
    return found


def python_messages() -> set[str]:
    found = set()
    for path in _source_files((".py",)):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in GETTEXT_NAMES
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    return found


JS_GETTEXT = re.compile(r"""\bgettext\(\s*(["'])((?:\\.|(?!\1).)*)\1\s*\)""")


def javascript_messages() -> set[str]:
    found = set()
    for path in (BASE_DIR / "static" / "js").rglob("*.js"):
        code = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
        code = re.sub(r"^\s*//.*$", "", code, flags=re.M)
        for match in JS_GETTEXT.finditer(code):
            found.add(match.group(2).replace("\\'", "'").replace('\\"', '"'))
    return found


def _catalogue(language: str, domain: str = "django") -> dict[str, str]:
    po = polib.pofile(str(BASE_DIR / "locale" / language / "LC_MESSAGES" / f"{domain}.po"))
    return {
        entry.msgid: entry.msgstr
        for entry in po
        if not entry.obsolete and "fuzzy" not in entry.flags
    }


@pytest.mark.parametrize("language", ["cs", "sk"])
def test_every_visible_string_is_translated(language):
    catalogue = _catalogue(language)
    messages = template_messages() | python_messages()
    assert len(messages) > 50
    missing = sorted(message for message in messages if not catalogue.get(message))
    assert missing == [], f"{len(missing)} strings lack a {language} translation"


@pytest.mark.parametrize("language", ["cs", "sk"])
def test_every_javascript_string_is_translated(language):
    catalogue = _catalogue(language, "djangojs")
    missing = sorted(message for message in javascript_messages() if not catalogue.get(message))
    assert missing == [], f"{len(missing)} JavaScript strings lack a {language} translation"


@pytest.mark.parametrize("language", ["cs", "sk"])
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_translations_keep_their_placeholders(language, domain):
    for msgid, msgstr in _catalogue(language, domain).items():
        if not msgstr:
            continue
        assert sorted(re.findall(r"%\(\w+\)s", msgid)) == sorted(
            re.findall(r"%\(\w+\)s", msgstr)
        ), msgid
