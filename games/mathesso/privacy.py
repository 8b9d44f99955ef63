"""Where Mathesso's rooms and results hold players (``accounts.privacy.Places``).

The rules engine names players by their id as a string: the seat and turn
order, tie-breaking draws, each player's pairs, turns and extra turns, the
player on turn, the winners and those who left. Tile numbers are ints, so a
player id is only ever matched as a string here.
"""

from accounts.privacy import places

PLACES = places(
    text_ids={"player", "current", "you", "id"},
    id_lists={"seats", "order", "waiting", "gone", "players", "winners"},
    keyed_by_id={"draws", "lots", "pairs", "turns", "extra_taken", "scores"},
)
