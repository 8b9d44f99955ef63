"""The poker board is one server-rendered fragment: every page's cells carry
their row and column for screen readers, in the page's language."""

import re

import pytest

pytestmark = pytest.mark.django_db

CELL = re.compile(r'<(button|span|input) [^>]*class="poker-cell[^"]*"[^>]*>')


def _cells(html: str) -> list[str]:
    return [match.group(0) for match in CELL.finditer(html)]


@pytest.mark.parametrize(
    ("url", "tag"),
    [("/poker/play/", "button"), ("/poker/scoresheet/", "input"), ("/poker/rules/print/", "span")],
)
def test_every_board_cell_is_named_by_its_row_and_column(client, url, tag):
    cells = _cells(client.get(url).content.decode())
    assert len(cells) == 25
    for index, cell in enumerate(cells):
        row, column = divmod(index, 5)
        assert cell.startswith(f"<{tag} ")
        assert f'data-cell="{index}"' in cell
        assert f'aria-label="Row {row + 1}, column {column + 1}"' in cell
        assert f'data-label="Row {row + 1}, column {column + 1}"' in cell


def test_board_labels_come_in_the_page_language(client):
    client.cookies["matika_lang"] = "cs"
    cells = _cells(client.get("/poker/play/").content.decode())
    assert 'aria-label="Řádek 5, sloupec 4"' in cells[23]


def test_printed_cells_are_pictures_not_buttons(client):
    html = client.get("/poker/rules/print/").content.decode()
    assert all('role="img"' in cell for cell in _cells(html))
    assert '<button type="button" class="poker-cell"' not in html
