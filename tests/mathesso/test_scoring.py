"""Scoring: the seed's examples, and the spec's formula against an independent reading."""

from collections import defaultdict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.mathesso.rules import FACES, score_breakdown, score_pairs, sheldons

# --- the seed's examples (spec section 5, "Checks from the seed") ---------------


def test_seed_example_fibonacci_and_product_of_equal_value_score_eight():
    assert score_pairs(["fib:21", "mult:3x7"]) == (2 + 2) * 2 == 8


def test_seed_example_square_and_product_of_equal_value_score_ten():
    assert score_pairs(["square:4", "mult:2x8"]) == (3 + 2) * 2 == 10


def test_seed_example_zero_doubles_the_pairs_of_its_number():
    assert score_pairs(["mult:3x4", "zero:12a"]) == (2 + 0) * 2 == 4


def test_seed_example_a_sheldon_scores_twelve():
    assert score_pairs(["cjv:1", "cjv:3"]) == 12


# --- the rest of the formula, case by case ----------------------------------------


@pytest.mark.parametrize(
    ("face", "points"),
    [
        ("zero:21", 0),
        ("prime:7", 1),
        ("fib:8", 2),
        ("mult:2x9", 2),
        ("square:5", 3),
        ("fact:4", 4),
        ("cjv:2", 5),
    ],
)
def test_a_single_pair_scores_its_groups_points(face, points):
    assert score_pairs([face]) == points


def test_pairs_of_different_values_simply_add_up():
    assert score_pairs(["prime:7", "fib:8", "square:5"]) == 1 + 2 + 3


def test_both_twelve_zeros_multiply_both_twelve_products():
    faces = ["mult:3x4", "mult:2x6", "zero:12a", "zero:12b"]
    assert score_pairs(faces) == (2 + 2 + 0 + 0) * 4


def test_a_zero_alone_scores_nothing_and_another_numbers_zero_does_not_help():
    assert score_pairs(["zero:21"]) == 0
    assert score_pairs(["mult:3x4", "zero:21"]) == 2


def test_thirteen_as_prime_and_fibonacci_share_the_value_thirteen():
    assert score_pairs(["prime:13", "fib:13"]) == (1 + 2) * 2


def test_factorials_stay_out_of_the_value_groups():
    # 3! = 6 = 2x3 and 2! = 2, yet neither multiplies with the product or the prime.
    assert score_pairs(["fact:3", "mult:2x3"]) == 4 + 2
    assert score_pairs(["fact:2", "prime:2", "fib:2"]) == 4 + (1 + 2) * 2


def test_two_pairs_of_one_cjv_design_are_no_sheldon():
    assert score_pairs(["cjv:1", "cjv:2"]) == 10
    assert sheldons(["cjv:1", "cjv:2"]) == 0


def test_three_cjv_pairs_hold_one_sheldon_and_all_four_hold_two():
    assert score_pairs(["cjv:1", "cjv:2", "cjv:3"]) == 12 + 5
    assert score_pairs(["cjv:1", "cjv:2", "cjv:3", "cjv:4"]) == 24
    assert sheldons(["cjv:4", "cjv:2", "cjv:3", "cjv:1"]) == 2


def test_without_points_the_score_is_the_number_of_pairs():
    assert score_pairs(["cjv:1", "cjv:3", "mult:3x4", "zero:12a"], points=False) == 4
    assert score_pairs([], points=False) == 0
    assert score_pairs([]) == 0


def test_breakdown_itemises_the_total():
    b = score_breakdown(["fib:21", "mult:3x7", "cjv:1", "cjv:3", "fact:5", "prime:2"])
    assert b["keys"] == [
        {"key": 2, "faces": ["prime:2"], "sum": 1, "count": 1, "score": 1},
        {"key": 21, "faces": ["fib:21", "mult:3x7"], "sum": 4, "count": 2, "score": 8},
    ]
    assert b["flat"] == [
        {"face": "cjv:1", "points": 5},
        {"face": "cjv:3", "points": 5},
        {"face": "fact:5", "points": 4},
    ]
    assert (b["sheldons"], b["sheldon_bonus"], b["total"]) == (1, 2, 1 + 8 + 5 + 5 + 4 + 2)


@pytest.mark.parametrize("faces", [["mult:3x3"], ["zero:17"], ["prime:1"], [""], [12]])
def test_unknown_faces_raise(faces):
    with pytest.raises(ValueError):
        score_pairs(faces)


def test_owning_a_pair_twice_is_impossible():
    with pytest.raises(ValueError):
        score_pairs(["prime:2", "prime:2"])


# --- property: the engine agrees with a reading of the spec written apart ---------

POINTS = {"mult": 2, "square": 3, "prime": 1, "fib": 2, "fact": 4, "zero": 0, "cjv": 5}


def spec_score(faces: list[str]) -> int:
    """Section 5 of the spec, read straight from the face ids."""
    flat = 0
    designs = {1: 0, 2: 0}
    by_value: dict[int, list[int]] = defaultdict(list)
    for f in faces:
        group, rest = f.split(":")
        if group in ("fact", "cjv"):
            flat += POINTS[group]
            if group == "cjv":
                designs[1 if int(rest) <= 2 else 2] += 1
            continue
        if group == "mult":
            a, b = rest.split("x")
            value = int(a) * int(b)
        elif group == "square":
            value = int(rest) ** 2
        elif group == "zero":
            value = int(rest.rstrip("ab"))
        else:
            value = int(rest)
        by_value[value].append(POINTS[group])
    flat += (12 - 10) * min(designs[1], designs[2], 2)
    return flat + sum(sum(pts) * len(pts) for pts in by_value.values())


owned_faces = st.lists(st.sampled_from(sorted(FACES)), unique=True, max_size=40)


@given(owned_faces)
def test_score_follows_the_spec_formula(faces):
    assert score_pairs(faces) == spec_score(faces)


@given(owned_faces)
def test_score_without_points_counts_pairs(faces):
    assert score_pairs(faces, points=False) == len(faces)


@given(owned_faces, st.randoms(use_true_random=False))
def test_score_does_not_depend_on_the_order_pairs_were_taken(faces, rnd):
    shuffled = list(faces)
    rnd.shuffle(shuffled)
    assert score_pairs(shuffled) == score_pairs(faces)


@given(owned_faces, st.sampled_from(sorted(FACES)))
def test_taking_a_pair_never_lowers_a_score(faces, extra):
    if extra not in faces:
        assert score_pairs([*faces, extra]) >= score_pairs(faces)
