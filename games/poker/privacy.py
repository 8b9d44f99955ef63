"""Where poker's rooms and results hold players (``accounts.privacy.Places``).

A duel or group game keeps ``players`` as ``[player id, nickname, role]``
rows, each board (and a duel's progress) under its player's id, the dealing
host's id, who quit a duel, and a duel result names the ``opponent``. Poker's own tables (solo games, leaderboard
entries, daily attempts) hold the player by foreign key and go by cascade.
"""

from accounts.privacy import places

PLACES = places(
    ids={"host_id", "opponent", "player_id", "quit_by"},
    seat_rows={"players"},
    keyed_by_id={"boards", "progress"},
)
