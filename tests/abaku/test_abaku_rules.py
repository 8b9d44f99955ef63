"""The rules of one move (spec sections 1, 3 and 4), one test per rule."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.abaku.rules import (
    LAYOUTS,
    OPERATIONS,
    Board,
    IllegalMove,
    all_readings,
    evaluate_move,
    read_example,
)
from games.abaku.rules.moves import counted_stretches

from .test_abaku_seed_example import seed_board


def texts(board: Board, placements: list) -> list[str]:
    return sorted(e.text for e in evaluate_move(board, placements).examples)


def code_of(board: Board, placements: list) -> str:
    with pytest.raises(IllegalMove) as caught:
        evaluate_move(board, placements)
    return caught.value.code


# --- reading a run of digits -------------------------------------------------


@pytest.mark.parametrize(
    ("digits", "text"),
    [
        ("1243", "12:4=3"),
        ("64248", "6+42=48"),
        ("835", "8-3=5"),
        ("236", "2×3=6"),
        ("632", "6:3=2"),
        ("24", "2²=4"),
        ("28", "2³=8"),
        ("93", "√9=3"),
        ("82", "∛8=2"),
        ("2054", "20:5=4"),
    ],
)
def test_each_operation_reads_and_prints_as_people_write_it(digits: str, text: str) -> None:
    assert read_example(digits).text == text


@pytest.mark.parametrize(
    "digits",
    ["10", "303", "550", "0112", "1012", "125", "7"],
    ids=[
        "zero-result",
        "zero-added",
        "zero-difference",
        "leading-zero",
        "zero-term",
        "none",
        "one",
    ],
)
def test_runs_that_are_no_example(digits: str) -> None:
    assert read_example(digits) is None


def test_ambiguous_run_shows_the_simplest_operation() -> None:
    assert [r.text for r in all_readings("981")] == ["9-8=1", "9²=81"]
    assert read_example("224").text == "2+2=4"
    assert read_example("11").text == "1²=1"


# --- where stones may go -----------------------------------------------------


def test_new_stones_in_two_lines_are_refused() -> None:
    assert code_of(Board.empty(), [(7, 7, 2), (8, 8, 4)]) == "not_in_line"


def test_first_move_must_cover_the_centre() -> None:
    assert code_of(Board.empty(), [(0, 0, 2), (0, 1, 4)]) == "off_centre"


def test_first_move_needs_two_stones() -> None:
    assert code_of(Board.empty(), [(7, 7, 1)]) == "first_move_too_short"


def test_empty_square_between_new_stones_is_a_gap() -> None:
    assert code_of(Board.empty(), [(7, 7, 2), (7, 9, 4)]) == "gap"


def test_old_stones_may_fill_the_gap_between_new_ones() -> None:
    assert texts(seed_board(1), [(7, 6, 1), (7, 9, 3)]) == ["12:4=3"]


def test_move_must_touch_the_old_stones() -> None:
    assert code_of(seed_board(1), [(0, 0, 2), (0, 1, 4)]) == "not_connected"


def test_new_stones_must_form_an_example() -> None:
    assert code_of(seed_board(1), [(7, 9, 5)]) == "no_example"


def test_contact_with_an_old_stone_must_be_part_of_an_example() -> None:
    # 3 over 9 is √9=3, but the 3 also lands right of the old 4: "2 4 3" is nothing
    assert code_of(seed_board(1), [(7, 9, 3), (8, 9, 9)]) == "contact_without_example"


def test_square_taken_or_off_board_or_twice_is_refused() -> None:
    board = seed_board(1)
    assert code_of(board, [(7, 7, 2), (7, 6, 1)]) == "occupied"
    assert code_of(board, [(7, 15, 2)]) == "off_board"
    assert code_of(board, [(6, 7, 2), (6, 7, 3)]) == "duplicate_cell"
    assert code_of(board, [(6, 7, 12)]) == "bad_digit"
    assert code_of(board, []) == "no_stones"


# --- zero ----------------------------------------------------------------------


def test_new_zero_touching_old_stone_needs_no_example() -> None:
    result = evaluate_move(seed_board(4), [(8, 5, 1), (8, 6, 0), (8, 7, 5)])
    assert result.score == 22  # the 0 under the old 1 reads "1 0": nothing, no points


def test_lone_zero_between_two_stones_joining_them_into_an_example() -> None:
    board = Board.empty("plain").place([(7, 5, 2), (7, 7, 5), (7, 8, 4)])
    assert texts(board, [(7, 6, 0)]) == ["20:5=4"]


def test_lone_zero_between_two_stones_must_join_them() -> None:
    # the column reads 5×2=10 through the 0, but "2 0 5 3" joins nothing
    board = Board.empty("plain").place(
        [(7, 5, 2), (7, 7, 5), (7, 8, 3), (4, 6, 5), (5, 6, 2), (6, 6, 1)]
    )
    assert code_of(board, [(7, 6, 0)]) == "zero_between"


# --- which stretches count -------------------------------------------------------


def test_stretch_with_old_stones_counts_beside_a_longer_one() -> None:
    assert texts(seed_board(2), [(6, 8, 6), (8, 8, 2)]) == ["6-4=2", "√4=2"]


SAME_NUMBERS_NOTE = (
    "Pokud se položí kombinace 9-8=1, systém nezapočítá odmocninu 9, protože čísla už "
    "byla jednou použita. Je to to samé, jako u operace 2+2=4 systém neuzná mocninu 4. "
    "Princip je v tom, že početní operaci složenou ze stejných čísel hra započítá pouze "
    'jednu a to vždy tu s "jednodušší" matematickou operací'
)


@pytest.mark.parametrize(
    ("digits", "shown"),
    # 4 4 1 6 also holds 4:4=1, built from other numbers (4 and 1), which counts
    [("224", ["2+2=4"]), ("981", ["9-8=1"]), ("4416", ["4:4=1", "4×4=16"])],
)
def test_the_same_numbers_count_once_with_the_simpler_operation(
    digits: str, shown: list[str]
) -> None:
    """Seed note: "Pokud se položí kombinace 9-8=1, systém nezapočítá odmocninu 9,
    protože čísla už byla jednou použita. Je to to samé, jako u operace 2+2=4
    systém neuzná mocninu 4. Princip je v tom, že početní operaci složenou ze
    stejných čísel hra započítá pouze jednu a to vždy tu s "jednodušší"
    matematickou operací". 9 8 1 is one stretch (9-8=1, not also 9²=81); in 2 2 4
    the stretch 2 4 (2²=4) uses the same numbers as 2+2=4."""
    assert "ze stejných čísel hra započítá pouze jednu" in SAME_NUMBERS_NOTE
    placements = [(7, 7 + k, int(d)) for k, d in enumerate(digits)]
    result = evaluate_move(Board.empty("plain"), placements)
    assert sorted(e.text for e in result.examples) == shown
    assert "²" not in "".join(shown)


def test_same_numbers_with_an_old_stone_count_once_too() -> None:
    # issue 19: "4 4 1 6" with the 1 on the board counted 4×4=16 and 4²=16
    board = Board.empty("plain").place([(7, 9, 1), (6, 9, 1), (8, 9, 2)])
    result = evaluate_move(board, [(7, 7, 4), (7, 8, 4), (7, 10, 6)])
    assert sorted(e.text for e in result.examples) == ["4:4=1", "4×4=16"]
    assert result.score == (4 + 4 + 1 + 6) + (4 + 4 + 1)


def test_examples_of_different_numbers_inside_a_longer_one_each_count() -> None:
    # 7 4 9 under the seed's 6 4 2 (column 8): 42+7=49 and 7²=49 are built from
    # different numbers, so both count (the old rule dropped 7²=49)
    result = evaluate_move(seed_board(3), [(9, 8, 7), (10, 8, 4), (11, 8, 9)])
    assert sorted(e.text for e in result.examples) == ["42+7=49", "7²=49"]
    assert result.score == (4 + 2 + 7 + 4 + 9) + (7 + 4 + 9)


def test_fresh_examples_of_different_numbers_each_count() -> None:
    # 7 3 2 1: 7×3=21 and, inside it, 3-2=1 (numbers 3, 2, 1, not 7, 3, 21)
    placements = [(7, 7 + k, int(d)) for k, d in enumerate("7321")]
    assert texts(Board.empty("plain"), placements) == ["3-2=1", "7×3=21"]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789", min_size=2, max_size=9), st.data())
def test_a_stretch_is_dropped_only_for_a_longer_one_of_the_same_numbers(
    digits: str, data: st.DataObject
) -> None:
    new = data.draw(st.lists(st.booleans(), min_size=len(digits), max_size=len(digits)))
    counted = counted_stretches(digits, new)
    readable = [
        (i, j, reading)
        for i in range(len(digits))
        for j in range(i + 1, len(digits))
        if any(new[i : j + 1]) and (reading := read_example(digits[i : j + 1])) is not None
    ]
    kept = {(i, j) for i, j, _ in counted}
    for i, j, reading in readable:
        outers = [
            other
            for other in readable
            if other[0] <= i
            and j <= other[1]
            and (other[0], other[1]) != (i, j)
            and set(other[2].numbers) == set(reading.numbers)
        ]
        assert ((i, j) in kept) == (not outers)
        for other in outers:  # the one kept has the simpler operation
            assert OPERATIONS.index(other[2].op) < OPERATIONS.index(reading.op)


def test_stones_shared_by_examples_score_in_each() -> None:
    result = evaluate_move(seed_board(3), [(9, 7, 7), (9, 8, 4), (9, 9, 9)])
    assert sorted(e.points for e in result.examples) == [6, 16, 20]
    assert result.score == 42


# --- premiums and jokers ---------------------------------------------------------


def test_centre_doubles_the_first_example() -> None:
    assert evaluate_move(Board.empty(), [(7, 7, 2), (7, 8, 4)]).score == 12


def test_digit_and_example_premiums_multiply_together() -> None:
    # 10+2=12 over the centre (example ×2) and (7, 11) (digit ×2 on the last 2)
    placements = [(7, 7, 1), (7, 8, 0), (7, 9, 2), (7, 10, 1), (7, 11, 2)]
    assert LAYOUTS["standard"][7][11] == "d"
    result = evaluate_move(Board.empty(), placements)
    # 2×1=2 inside it is built from other numbers and counts too, off the centre
    assert sorted(e.points for e in result.examples) == [2 + 1 + 2 * 2, (1 + 0 + 2 + 1 + 2 * 2) * 2]


def test_example_triple_counts_for_every_example_through_the_square() -> None:
    # a stone on the T square (0, 7) of a column 4 / 2 above ... makes "2 4": 2²=4
    board = Board.empty().place([(1, 7, 4), (1, 8, 2)])
    result = evaluate_move(board, [(0, 7, 2)])
    assert [(e.text, e.points) for e in result.examples] == [("2²=4", 18)]


def test_premiums_are_used_up_once_covered() -> None:
    board = Board.empty().place([(7, 7, 2), (7, 8, 4)])
    assert board.premium(7, 7) == "."
    assert Board.empty().premium(7, 7) == "*"
    result = evaluate_move(board, [(7, 9, 8)])  # "2 4 8": 2×4=8, no premium left
    assert result.score == 14


def test_joker_scores_nothing_but_shows_its_digit() -> None:
    result = evaluate_move(Board.empty("plain"), [(7, 7, 2), (7, 8, 4, True)])
    assert result.score == 2
    assert [e.text for e in result.examples] == ["2²=4"]


def test_joker_keeps_its_digit_on_the_board_and_stays_worthless() -> None:
    board = Board.empty("plain").place([(7, 7, 2), (7, 8, 4, True)])
    assert board.stone(7, 8).digit == 4 and board.stone(7, 8).value == 0
    assert evaluate_move(board, [(7, 9, 8)]).score == 10  # 2×4=8 with the 4 worth 0


# --- the board -------------------------------------------------------------------


def test_place_returns_a_new_board_and_leaves_the_old_one_alone() -> None:
    empty = Board.empty()
    placed = empty.place([(7, 7, 2), (7, 8, 4)])
    assert empty.is_empty and len(placed) == 2
    assert Board.from_dict(placed.to_dict()) == placed


def test_plain_layout_has_no_premiums() -> None:
    assert all(set(row) == {"."} for row in LAYOUTS["plain"])
    assert evaluate_move(Board.empty("plain"), [(7, 7, 2), (7, 8, 4)]).score == 6


# --- rule 4: a new example joins new and old stones ------------------------------

RULE_4 = (
    "Člověk musí své kameny přiložit ke kamenům položeným v minulosti tak, aby "
    "alespoň jeden z nových a jeden ze starých utvořil nový příklad."
)
# 1+1=2 at (7,7)-(7,9); 1 0 5 2 down column 10 reads 10:5=2, and only its 0
# touches the old 2 ("1 1 2 0" reads as nothing, which the zero rule allows).
ONE_PLUS_ONE = [(7, 7, 1), (7, 8, 1), (7, 9, 2)]
ONLY_ZERO_TOUCHES = [(6, 10, 1), (7, 10, 0), (8, 10, 5), (9, 10, 2)]


def test_rule_4_a_move_touching_old_stones_only_through_a_new_zero_is_refused() -> None:
    """Seed rule 4: "Člověk musí své kameny přiložit ke kamenům položeným v
    minulosti tak, aby alespoň jeden z nových a jeden ze starých utvořil nový
    příklad." The zero rule waives the examples a 0's neighbours would form, not
    this: the issue's move (accepted for 8 points before) has no example with an
    old stone."""
    assert "jeden z nových a jeden ze starých" in RULE_4
    board = Board.empty("plain").place(ONE_PLUS_ONE)
    assert code_of(board, ONLY_ZERO_TOUCHES) == "no_old_stone_in_example"


def test_rule_4_the_same_zero_contact_is_fine_when_another_example_holds_old_stones() -> None:
    # seed turn 5: the new 0 under the old 1 forms nothing, but 10:5=2 ends in the old 2
    result = evaluate_move(seed_board(4), [(8, 5, 1), (8, 6, 0), (8, 7, 5)])
    assert any(
        any(cell not in {(8, 5), (8, 6), (8, 7)} for cell in e.cells) for e in result.examples
    )


def test_rule_4_a_single_stone_joins_the_old_ones_through_its_example() -> None:
    board = Board.empty("plain").place(ONE_PLUS_ONE)
    # a 4 under the old 2: "2 4" reads 2²=4 with the old 2
    assert texts(board, [(8, 9, 4)]) == ["2²=4"]


def test_rule_4_the_generator_does_not_offer_the_zero_only_contact() -> None:
    from games.abaku.rules import all_moves

    from .abaku_helpers import key

    board = Board.empty("plain").place(ONE_PLUS_ONE)
    moves = {key(m.placements) for m in all_moves(board, [1, 0, 5, 2])}
    assert key(ONLY_ZERO_TOUCHES) not in moves
    assert key([(8, 9, 1), (9, 9, 2)]) in moves  # 2:1=2 down from the old 2


def test_rule_4_holds_for_every_generated_move() -> None:
    from games.abaku.rules import JOKER, all_moves

    from .abaku_helpers import random_position

    for seed in range(6):
        board = random_position(seed, 4)
        for move in all_moves(board, [0, 1, 2, 5, JOKER]):
            new = {(p.row, p.col) for p in move.placements}
            examples = evaluate_move(board, move.placements).examples
            assert any(any(c not in new for c in e.cells) for e in examples)
