"""Writes for server-led solo poker, one module per intent.

Each public function is one user intent in one transaction. The game row is
locked (``select_for_update``) while the engine applies the action, so two
requests of the same player cannot interleave; other players' rows are never
touched. Time comes in as ``now`` (epoch seconds) so hard-mode forfeits are
decided from stored timestamps, whichever process handles the request.

- ``solo``: start a game, act in it, save it and record its end;
- ``daily``: the day's deck, its one counted attempt and the calendar task;
- ``leaderboards``: the public tables -- publish, withdraw, moderate;
- ``results``: the finished game as a shared ``GameRecord``/``GameResult``;
- ``coach``: the hint for the card in hand and the stored review;
- ``cleanup``: abandoned games end or go;
- ``clock``: epoch seconds as an aware moment.
"""
