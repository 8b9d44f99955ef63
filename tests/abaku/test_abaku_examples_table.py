"""The table of short examples agrees with reading every run digit by digit."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.abaku.rules.examples import (
    SHORT,
    SHORT_EXAMPLES,
    all_readings,
    is_example,
    read_example,
)


def test_table_holds_exactly_the_runs_of_up_to_five_digits_that_read() -> None:
    by_reading = {
        str(x) for n in range(2, 6) for x in range(10 ** (n - 1), 10**n) if all_readings(str(x))
    }
    assert {x for x in SHORT_EXAMPLES if len(x) <= 5} == by_reading


def test_table_has_the_six_digit_examples_and_nothing_longer() -> None:
    assert "111122" in SHORT_EXAMPLES  # 11+11=22
    assert "121110" not in SHORT_EXAMPLES  # 12+1=13 would be needed
    assert max(map(len, SHORT_EXAMPLES)) == SHORT == 6
    assert "1000100" not in SHORT_EXAMPLES  # seven digits are read, not looked up


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="0123456789", min_size=1, max_size=SHORT))
def test_table_and_reader_agree_on_short_runs(digits: str) -> None:
    assert (digits in SHORT_EXAMPLES) == bool(all_readings(digits))
    assert is_example(digits) == (read_example(digits) is not None)


@settings(max_examples=500, deadline=None)
@given(st.integers(1, 99), st.integers(1, 99))
def test_every_short_sum_and_product_is_in_the_table(a: int, b: int) -> None:
    for text in (f"{a}{b}{a + b}", f"{a}{b}{a * b}", f"{a * b}{b}{a}", f"{a + b}{b}{a}"):
        assert (text in SHORT_EXAMPLES) == (len(text) <= SHORT)
        assert is_example(text)


def test_long_runs_are_read() -> None:
    assert is_example("100100200")  # 100+100=200
    assert not is_example("1234567")
