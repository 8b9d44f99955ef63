"""Score preview: exactly the change of the board total, only where it gains."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.poker.rules import TABLE_NAMES, preview, score_board


def test_preview_on_an_empty_board_is_empty():
    assert preview([None] * 25, 7, "contiguous") == {}


def test_preview_lists_only_cells_that_gain():
    cells: list[int | None] = [None] * 25
    cells[0] = 7
    gains = preview(cells, 7, "contiguous")
    # Next to the 7 in row 0 / column 0 / the main diagonal: a contiguous pair.
    assert gains[1] == 15
    assert gains[5] == 15
    assert gains[6] == 15
    # Same line but not adjacent: a scattered pair.
    assert gains[2] == 10
    assert gains[24] == 10
    # Cells sharing no line with cell 0 gain nothing and are not listed.
    assert 7 not in gains
    assert all(gain > 0 for gain in gains.values())


def test_preview_counts_every_line_through_the_cell():
    cells: list[int | None] = [None] * 25
    cells[10], cells[2], cells[0], cells[4] = 3, 3, 3, 3
    # Cell 12 is in row 2 (3 at cell 10), column 2 (cell 2), both diagonals
    # (cells 0 and 4): four scattered pairs.
    assert preview(cells, 3, "school")[12] == 40
    # Matematico adds the +10 bonus to each diagonal that starts scoring.
    assert preview(cells, 3, "matematico")[12] == 60


def test_preview_skips_filled_cells():
    cells: list[int | None] = [5] * 24 + [None]
    assert set(preview(cells, 5, "contiguous")) <= {24}


def test_preview_rejects_a_bad_value():
    with pytest.raises(ValueError, match="value"):
        preview([None] * 25, 14, "contiguous")
    with pytest.raises(ValueError, match="value"):
        preview([None] * 25, None, "contiguous")  # type: ignore[arg-type]


boards = st.lists(st.one_of(st.none(), st.integers(1, 13)), min_size=25, max_size=25)


@settings(max_examples=150)
@given(boards, st.integers(1, 13), st.sampled_from(TABLE_NAMES))
def test_preview_equals_the_change_of_score_board(cells, value, table):
    before = score_board(cells, table).total
    gains = preview(cells, value, table)
    for cell, occupant in enumerate(cells):
        if occupant is not None:
            assert cell not in gains
            continue
        after = score_board([*cells[:cell], value, *cells[cell + 1 :]], table).total
        assert gains.get(cell, 0) == after - before
