"""Abaku benches with the move generator compiled by mypyc: the same moves, about 2x less CPU.

A robot game spends nearly all of its CPU in ``all_moves`` (examples, moves,
solver, movegen). mypyc (it comes with mypy in the dev lock) compiles those
four modules of a copy of the rules to C extensions; the product never uses
them, only benches do. Run from the project root:

    .venv/bin/python bench/abaku_native.py build /tmp/abaku-native
    .venv/bin/python bench/abaku_native.py check /tmp/abaku-native
    nice -n 19 .venv/bin/python bench/abaku_native.py run /tmp/abaku-native \\
        bench/abaku_robot_levels.py --log ... --paired ...

``build`` copies ``games/abaku/rules`` to DIR and compiles the four modules
(about 40 CPU-s). ``run`` refreshes the other rules modules (the level table
lives in ``robot.py``) from the tree, refuses if a compiled module's source
has changed since the build, and runs the bench script with the compiled
rules imported first. ``check`` plays three seeded games and hashes every
``all_moves`` list on the way (the racks on turn and a rack with a joker and
a repeated digit), in a child process for the pure and one for the compiled
rules: the hashes must be equal -- the move lists, their order included,
decide which move a robot plays, so equal hashes mean the same games.
"""

from __future__ import annotations

import filecmp
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "games" / "abaku" / "rules"
COMPILED = ("examples", "solver", "moves", "movegen")

CHECK = """
import hashlib, random, sys
native = sys.argv[1]
if native:
    sys.path.insert(0, native)
sys.path.insert(1, {root!r})
from games.abaku.rules import all_moves, apply, new_game, robot_action
import games.abaku.rules.movegen as movegen
assert movegen.__file__.endswith(".py") != bool(native), movegen.__file__
digest, positions, moves = hashlib.sha256(), 0, 0
for seed in (4299980, 4299981, 4299982):
    state = new_game(["a", "b"], seed=seed, turn_seconds=None)
    rng = random.Random(seed)
    while not state.finished:
        seat = state.turn
        rack = state.players[seat].rack
        listed = all_moves(state.board, rack)
        if positions % 3 == 0:
            listed += all_moves(state.board, [10, 3, 3, 7, 1][: len(rack) or 5])
        for move in listed:
            digest.update(repr((move.score, [tuple(p) for p in move.placements])).encode())
        positions, moves = positions + 1, moves + len(listed)
        level = "easy5" if seat else "medium3"
        state, _ = apply(state, robot_action(state, level, rng))
print(positions, moves, digest.hexdigest())
"""


def build(target: Path) -> None:
    package = target / "games" / "abaku"
    if package.exists():
        shutil.rmtree(target / "games")
    package.mkdir(parents=True)
    shutil.copy(ROOT / "games" / "__init__.py", target / "games")
    shutil.copy(ROOT / "games" / "abaku" / "__init__.py", package)
    shutil.copytree(RULES, package / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    sources = [f"games/abaku/rules/{name}.py" for name in COMPILED]
    mypyc = Path(sys.executable).with_name("mypyc")
    subprocess.run([str(mypyc), *sources], cwd=target, check=True)


def refresh(target: Path) -> None:
    """Copy the tree's uncompiled rules modules into ``target``; refuse if a
    compiled module's source is no longer the tree's."""
    copy = target / "games" / "abaku" / "rules"
    for source in RULES.glob("*.py"):
        if source.stem in COMPILED:
            if not filecmp.cmp(source, copy / source.name, shallow=False):
                sys.exit(f"{source.name} changed since the build: build again")
        else:
            shutil.copy(source, copy / source.name)


def run(target: Path, script: str, args: list[str]) -> None:
    refresh(target)
    sys.path.insert(0, str(target))
    import games.abaku.rules.movegen as movegen

    assert not movegen.__file__ or not movegen.__file__.endswith(".py"), movegen.__file__
    sys.argv = [script, *args]
    runpy.run_path(script, run_name="__main__")


def check(target: Path) -> None:
    refresh(target)
    code = CHECK.format(root=str(ROOT))
    results = [
        subprocess.run(
            [sys.executable, "-c", code, native], capture_output=True, text=True, check=True
        ).stdout.strip()
        for native in ("", str(target))
    ]
    print(f"pure:     {results[0]}\ncompiled: {results[1]}")
    if results[0] != results[1]:
        sys.exit("the compiled rules list other moves: do not use them")
    print("the same move lists, in the same order")


def main() -> None:
    if len(sys.argv) < 3 or sys.argv[1] not in ("build", "run", "check"):
        sys.exit(__doc__)
    target = Path(sys.argv[2]).resolve()
    if sys.argv[1] == "build":
        build(target)
    elif sys.argv[1] == "check":
        check(target)
    else:
        run(target, sys.argv[3], sys.argv[4:])


if __name__ == "__main__":
    main()
