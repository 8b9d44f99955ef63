"""Scoring: every row of every table, the spec's worked checks, boards and properties."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.poker.rules import (
    COMBINATIONS,
    LINE_NAMES,
    LINES,
    LINES_THROUGH_CELL,
    TABLE_NAMES,
    TABLES,
    TABLES_FILE,
    holding_combinations,
    score_board,
    score_line,
)

_ = None

# One line per table row: the line's best combination is exactly that row.
ROW_EXAMPLES = {
    "contiguous": {
        "five_of_a_kind": ([7, 7, 7, 7, 7], 125),
        "four_contiguous": ([9, 3, 3, 3, 3], 100),
        "sorted_straight": ([8, 7, 6, 5, 4], 75),
        "four_of_a_kind": ([3, 3, 9, 3, 3], 70),
        "straight": ([6, 4, 8, 5, 7], 50),
        "full_house_contiguous": ([3, 3, 3, 9, 9], 50),
        "full_house": ([5, 5, 8, 8, 5], 40),
        "two_pairs_contiguous": ([4, 4, 6, 6, 2], 35),
        "two_pairs": ([4, 6, 4, 6, 2], 30),
        "three_contiguous": ([2, 7, 7, 7, _], 25),
        "three_of_a_kind": ([7, 2, 7, _, 7], 20),
        "pair_contiguous": ([4, 11, 11, 2, _], 15),
        "pair": ([4, 11, 2, 11, _], 10),
    },
    "school": {
        "five_of_a_kind": ([7, 7, 7, 7, 7], 125),
        "four_of_a_kind": ([9, 3, 3, 3, 3], 70),
        "straight": ([8, 7, 6, 5, 4], 50),
        "full_house": ([3, 3, 3, 9, 9], 40),
        "two_pairs": ([4, 4, 6, 6, 2], 30),
        "three_of_a_kind": ([2, 7, 7, 7, _], 20),
        "pair": ([4, 11, 11, 2, _], 10),
    },
    "matematico": {
        "pair": ([5, 5, _, _, _], 10),
        "two_pairs": ([5, 5, 6, 6, _], 20),
        "three_of_a_kind": ([5, 5, 5, _, 2], 40),
        "straight": ([6, 4, 8, 5, 7], 50),
        "full_house": ([13, 13, 13, 1, 1], 80),
        "three_ones_two_thirteens": ([1, 13, 1, 13, 1], 100),
        "one_and_ten_to_thirteen": ([13, 1, 11, 10, 12], 150),
        "four_of_a_kind": ([7, 7, 7, 7, 2], 160),
        "four_ones": ([1, 5, 1, 1, 1], 200),
    },
}


def test_every_table_row_has_an_example():
    for name, table in TABLES.items():
        assert [row.combination for row in table.rows] == list(ROW_EXAMPLES[name])


@pytest.mark.parametrize(
    ("table", "combination", "values", "points"),
    [
        (table, combination, values, points)
        for table, rows in ROW_EXAMPLES.items()
        for combination, (values, points) in rows.items()
    ],
)
def test_each_table_row_scores_its_points(table, combination, values, points):
    row_points = {row.combination: row.points for row in TABLES[table].rows}
    assert row_points[combination] == points
    assert combination in holding_combinations(values)
    assert score_line(values, table) == points


@pytest.mark.parametrize(
    ("values", "points"),
    [
        ([5, 5, 8, 8, 5], 40),
        ([3, 3, 9, 3, 3], 70),
        ([9, 3, 3, 3, 3], 100),
        ([3, 3, 3, 9, 9], 50),
        ([8, 7, 6, 5, 4], 75),
        ([6, 4, 8, 5, 7], 50),
        ([4, 11, 11, 2, _], 15),
        ([_, _, _, _, _], 0),
    ],
)
def test_spec_worked_checks_for_contiguous(values, points):
    assert score_line(values, "contiguous") == points


@pytest.mark.parametrize(
    ("values", "points"),
    [
        ([1, 1, 1, 13, 13], 100),
        ([13, 13, 13, 1, 1], 80),
        ([1, 10, 11, 12, 13], 150),
        ([12, 13, 1, 2, 3], 0),
    ],
)
def test_spec_worked_checks_for_matematico(values, points):
    assert score_line(values, "matematico") == points


@pytest.mark.parametrize(
    ("values", "points"),
    [
        ([3, 3, _, 3, 3], 70),  # an empty cell breaks the run: scattered four, not contiguous
        ([3, 3, 3, 3, _], 100),  # a contiguous four needs no full line
        ([1, 2, 3, 4, 5], 75),  # 1 is low
        ([10, 11, 12, 13, 1], 0),  # no wrap-around
        ([1, 2, 3, 4, _], 0),  # a straight needs five cells
        ([9, 9, 3, 3, 3], 50),  # AABBB is a contiguous full house too
        ([4, 4, _, 6, 6], 35),  # two adjacent pairs across an empty cell
        ([6, 6, 6, 6, 6], 125),
    ],
)
def test_contiguous_edge_cases(values, points):
    assert score_line(values, "contiguous") == points


def test_matematico_five_of_a_kind_scores_as_four():
    assert score_line([7, 7, 7, 7, 7], "matematico") == 160
    assert score_line([1, 1, 1, 1, 1], "matematico") == 200


def test_school_ignores_adjacency_and_sorting():
    assert score_line([9, 3, 3, 3, 3], "school") == score_line([3, 9, 3, 3, 3], "school") == 70
    assert score_line([8, 7, 6, 5, 4], "school") == 50


def test_tables_json_is_the_loaded_data():
    data = json.loads(TABLES_FILE.read_text(encoding="utf-8"))
    assert tuple(data["tables"]) == TABLE_NAMES
    for name, table in TABLES.items():
        assert [(r.combination, r.points) for r in table.rows] == [
            (r["combination"], r["points"]) for r in data["tables"][name]["rows"]
        ]
        assert all(row.combination in COMBINATIONS for row in table.rows)


def test_lines_are_in_canonical_order():
    assert LINES[0] == (0, 1, 2, 3, 4)
    assert LINES[4] == (20, 21, 22, 23, 24)
    assert LINES[5] == (0, 5, 10, 15, 20)
    assert LINES[9] == (4, 9, 14, 19, 24)
    assert LINES[10] == (0, 6, 12, 18, 24)
    assert LINES[11] == (4, 8, 12, 16, 20)
    assert LINE_NAMES[10:] == ("main_diagonal", "anti_diagonal")
    assert LINES_THROUGH_CELL[12] == (2, 7, 10, 11)
    assert LINES_THROUGH_CELL[1] == (0, 6)


def test_board_lines_land_in_their_canonical_slots():
    cells: list[int | None] = [None] * 25
    cells[20], cells[21] = 9, 9  # row 4, contiguous pair
    cells[3], cells[13] = 2, 2  # column 3, scattered pair
    cells[8], cells[16] = 5, 5  # anti-diagonal, scattered pair
    score = score_board(cells)
    assert score.lines == [0, 0, 0, 0, 15, 0, 0, 0, 10, 0, 0, 10]
    assert score.total == 35


def test_matematico_diagonals_get_ten_on_top_only_when_they_score():
    cells: list[int | None] = [None] * 25
    cells[0], cells[6] = 5, 5  # main diagonal pair
    cells[1], cells[2] = 7, 7  # row 0 pair (not a diagonal)
    score = score_board(cells, "matematico")
    assert score.lines[0] == 10
    assert score.lines[10] == 20
    assert score.lines[11] == 0
    assert score.total == 30
    assert score_line([5, 5, _, _, _], "matematico", diagonal=True) == 20
    assert score_line([5, 6, _, _, _], "matematico", diagonal=True) == 0
    assert score_line([5, 5, _, _, _], "contiguous", diagonal=True) == 15


def test_full_board_example():
    cells = [
        *(1, 2, 3, 4, 5),  # sorted straight 75
        *(7, 7, 7, 7, 2),  # four contiguous 100
        *(9, 9, 9, 4, 4),  # contiguous full house 50
        *(1, 6, 1, 6, 13),  # two pairs 30
        *(12, 3, 11, 8, 10),  # nothing
    ]
    score = score_board(cells)
    assert score.lines[:5] == [75, 100, 50, 30, 0]
    assert score.total == sum(score.lines)
    assert score.to_dict() == {"total": score.total, "lines": score.lines}


@pytest.mark.parametrize(
    ("cells", "table", "message"),
    [
        ([None] * 24, "contiguous", "exactly 25 cells"),
        ([None] * 26, "contiguous", "exactly 25 cells"),
        ([0] + [None] * 24, "contiguous", "cell 0"),
        ([None] * 24 + [14], "contiguous", "cell 24"),
        ([True] + [None] * 24, "contiguous", "cell 0"),
        (["5"] + [None] * 24, "contiguous", "cell 0"),
        ([5.0] + [None] * 24, "contiguous", "cell 0"),
        ("x" * 25, "contiguous", "must be a list"),
        ([None] * 25, "poker", "unknown scoring table"),
    ],
)
def test_invalid_boards_raise_value_error(cells, table, message):
    with pytest.raises(ValueError, match=message):
        score_board(cells, table)


def test_invalid_lines_raise_value_error():
    with pytest.raises(ValueError, match="exactly 5 cells"):
        score_line([1, 2, 3], "contiguous")
    with pytest.raises(ValueError, match="unknown scoring table"):
        score_line([1, 2, 3, 4, 5], "nope")


# --- properties --------------------------------------------------------------

values = st.one_of(st.none(), st.integers(1, 13))
lines = st.lists(values, min_size=5, max_size=5)
full_lines = st.lists(st.integers(1, 13), min_size=5, max_size=5)
narrow_lines = st.integers(1, 9).flatmap(
    lambda low: st.lists(st.one_of(st.none(), st.integers(low, low + 4)), min_size=5, max_size=5)
)
any_line = st.one_of(lines, full_lines, narrow_lines)
boards = st.lists(values, min_size=25, max_size=25)
tables = st.sampled_from(TABLE_NAMES)


@settings(max_examples=300)
@given(any_line, tables)
def test_compiled_scoring_equals_the_definitions(line, table):
    definition = max(
        (row.points for row in TABLES[table].rows if COMBINATIONS[row.combination][1](line)),
        default=0,
    )
    assert score_line(line, table) == definition


@settings(max_examples=300)
@given(any_line, tables)
def test_reversing_a_line_keeps_its_score(line, table):
    assert score_line(line[::-1], table) == score_line(line, table)


@settings(max_examples=300)
@given(any_line, st.sampled_from(["school", "matematico"]), st.randoms(use_true_random=False))
def test_order_free_tables_ignore_order(line, table, rng):
    shuffled = list(line)
    rng.shuffle(shuffled)
    assert score_line(shuffled, table) == score_line(line, table)


@settings(max_examples=200)
@given(boards, tables)
def test_total_is_the_sum_of_the_lines(cells, table):
    score = score_board(cells, table)
    assert len(score.lines) == 12
    assert score.total == sum(score.lines)
    for index, line in enumerate(LINES):
        values_ = [cells[cell] for cell in line]
        assert score.lines[index] == score_line(values_, table, diagonal=index >= 10)


ALWAYS_FULL = {
    "straight",
    "sorted_straight",
    "full_house",
    "full_house_contiguous",
    "three_ones_two_thirteens",
    "one_and_ten_to_thirteen",
}


@settings(max_examples=300)
@given(any_line, st.integers(0, 4))
def test_a_line_with_an_empty_cell_never_holds_a_straight_or_full_house(line, hole):
    line = list(line)
    line[hole] = None
    assert not ALWAYS_FULL & set(holding_combinations(line))


@settings(max_examples=300)
@given(any_line, st.integers(0, 4), st.integers(1, 13), tables)
def test_filling_a_cell_never_lowers_a_line(line, cell, value, table):
    line = list(line)
    line[cell] = None
    before = score_line(line, table)
    line[cell] = value
    assert score_line(line, table) >= before
