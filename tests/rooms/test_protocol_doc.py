"""docs/protocol.md agrees with the schemas the server validates (Zulip's model: every
type in the schemas is documented with its fields, and every documented type exists).

Issue 15: "`docs/protocol.md` is generated from or checked against the schemas".
"""

from __future__ import annotations

import re

from games.rooms import protocol_doc, registry, schemas


def _doc() -> str:
    return protocol_doc.DOC.read_text()


def _hand_table(title: str) -> set[str]:
    """The types named in the first column of the hand-written table under ``title``."""
    part = _doc().split(f"### {title}\n", 1)[1].split("\n### ", 1)[0]
    names: set[str] = set()
    for row in re.findall(r"^\| ([^|]+) \|", part, flags=re.MULTILINE):
        names.update(re.findall(r"`([a-z_]+)`", row))
    return names


def test_the_generated_schema_section_is_up_to_date():
    section = protocol_doc.current_section(_doc())
    assert section is not None, "docs/protocol.md lacks the schema markers"
    assert section == protocol_doc.render(), (
        "docs/protocol.md is out of date: run python -m games.rooms.protocol_doc"
    )


def test_every_game_mode_of_the_project_is_in_the_generated_section():
    lines = protocol_doc.current_section(_doc()).splitlines()
    for game, mode, adapter in protocol_doc.project_adapters():
        headings = [line for line in lines if line.startswith(f"### {game}:")]
        assert any(mode in heading.split(":", 1)[1].strip().split(", ") for heading in headings)
        for kind, model in {**adapter.messages, **adapter.events}.items():
            rows = [line for line in lines if line.startswith(f"| `{kind}`")]
            fields = [name for name in model.model_fields if name != "type"]
            assert any(all(f"`{name}`" in row for name in fields) for row in rows), (mode, kind)


def test_the_hand_written_tables_name_exactly_the_runtime_types():
    assert _hand_table("Client → server") == set(schemas.MESSAGES)
    assert _hand_table("Server → client") == set(schemas.FRAMES)
    assert set(schemas.MESSAGES) == registry.RESERVED_TYPES


def test_the_check_command_notices_a_stale_section(tmp_path, monkeypatch):
    stale = tmp_path / "protocol.md"
    stale.write_text(protocol_doc.replace_section("# Rooms\n", "## Schemas (old)\n"))
    monkeypatch.setattr(protocol_doc, "DOC", stale)
    assert protocol_doc.main(["--check"]) == 1
    assert protocol_doc.main([]) == 0
    assert protocol_doc.main(["--check"]) == 0
    assert stale.read_text().startswith("# Rooms\n")
