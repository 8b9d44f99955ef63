"""Rack-leave values of the strong Abaku robot: GENERATED, do not edit.

Regenerate with ``bench/abaku_fit_leave.py`` (see its docstring): a least-squares
fit of a player's next-move points on the stones they kept, over greedy
self-play (300 games from seed 900000, 5622 samples).
Keys are stone kinds (10 = joker), values points against a fresh stone.
"""

LEAVE_VALUES: dict[int, float] = {
    0: -30.36,
    1: -12.51,
    2: -7.47,
    3: -6.45,
    4: -4.47,
    5: 1.99,
    6: 6.01,
    7: 4.17,
    8: 10.13,
    9: 7.65,
    10: 4.57,
}
DUPLICATE_PENALTY = 4.38
GAMES = 300
FIRST_SEED = 900000
SAMPLES = 5622
