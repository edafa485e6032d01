"""Engine speed: random games per second in one process, and the mcs bot's time per decision.

    python benchmarks/engine.py [--seconds S] [--mcs-games N] [--hand-rounds R]

**One random hand of the card game, 4 players** (deal, ten tricks, penalty points), four ways
side by side in one run, in ``R`` rounds that take turns block by block (so that other work on
the machine slows all alike), on this process's CPU clock:

- **core, one call**: :func:`arena.engine.playout.random_game_scores` (``classic``, 4), what a
  caller gets, against **Python**: :func:`reference_hand`, a tuned pure-Python loop of the same
  work (the deal by ``random.sample``, rows by ``bisect``). Target: at least 5x.
- **core, whole hands**: the compiled core's whole-game loop playing a batch of hands
  (``random_games``, as ``random_game_scores`` plays one), against **plain C**:
  ``benchmarks/plain_hand.c``, an 80-line loop of the same work with nothing else (compiled
  here with ``cc -O2`` into a temporary folder and called through ``ctypes``). Target: within
  0.8x.

Then, for every variant at 2, 4 and 6 players (the card game also at 10) it plays uniformly random
games for ``S`` seconds each way and prints games per second:

- **lean**: :func:`arena.engine.playout.random_game_scores` (deal and play on the lean path);
- **API**: :meth:`Game.new` and ``game.apply(seat, rng.choice(game.legal(seat)))`` to the end.

Then the ``mcs`` bot at its default budget plays ``N`` four-player games per variant against
random bots, and the wall-clock time of each of its decisions is summed up (mean, 95th
percentile, maximum). The load average is printed first: other work on the machine slows
everything down.
"""

import argparse
import ctypes
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from bisect import bisect
from collections.abc import Callable
from functools import partial
from operator import add
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.bots.base import GameInfo
from arena.bots.registry import make_bot
from arena.engine import VARIANT_NAMES, Game, playout
from arena.engine.observation import observe
from arena.engine.playout import random_game_scores
from arena.engine.tiles import CARD_BULLHEADS

#: The issue's targets, in games per second of the lean path at four players.
TARGETS = {"basic": 15_000, "classic": 25_000}
#: One hand: the core's call against the pure-Python reference, its loop against plain C.
HAND_TARGETS = {"python": 5.0, "plain C": 0.8}
PLAIN_C = Path(__file__).with_name("plain_hand.c")


def reference_hand(rng: random.Random) -> list[int]:
    """One random hand of the card game at 4 players in tuned pure Python: the yardstick of
    :func:`random_game_scores`. The cards dealt at C speed by ``random.sample`` (4 rows, then
    ten cards a seat, each seat playing its cards in the order dealt); every card of the hand
    coded ``trick << 12 | card << 4 | seat`` and sorted once, so the hand is one loop; the rows
    kept sorted by their last card (a card's row is one ``bisect`` away), each as one int,
    cards << 6 | bullheads (a row of five is ``>= 320``)."""
    cards = rng.sample(_DECK, 44)
    ends = sorted(cards[:4])
    inc = _INC
    state = [inc[e] for e in ends]
    scores = [0, 0, 0, 0]
    for c in sorted(map(add, map(_SHIFTED.__getitem__, cards[4:44]), _OFFSETS)):
        t = (c >> 4) & 255
        i = bisect(ends, t) - 1
        if i >= 0:
            ends[i] = t
            x = state[i]
            if x >= 320:  # the sixth card takes the row
                scores[c & 15] += x & 63
                state[i] = inc[t]
            else:
                state[i] = x + inc[t]
        else:  # lower than every row: a random row
            j = rng.getrandbits(2)
            scores[c & 15] += state[j] & 63
            del ends[j], state[j]
            ends.insert(0, t)
            state.insert(0, inc[t])
    return scores


_DECK = range(1, 105)
_INC = tuple(64 + b for b in CARD_BULLHEADS)
_SHIFTED = tuple(c << 4 for c in range(len(CARD_BULLHEADS)))
#: Entry k of the dealt hands is seat k // 10's (k % 10)-th card, played in trick k % 10.
_OFFSETS = tuple((k % 10) << 12 | k // 10 for k in range(40))


def plain_c_hands(folder: Path) -> Callable[[int, int], int]:
    """``plain_hand.c`` compiled into ``folder``: ``run(n, seed)`` plays ``n`` hands."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("no C compiler (cc) to build benchmarks/plain_hand.c")
    lib = folder / "plain_hand.so"
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(lib), str(PLAIN_C)], check=True)
    plain = ctypes.CDLL(str(lib))
    plain.plain_hands.restype = ctypes.c_long
    plain.plain_hands.argtypes = [ctypes.c_long, ctypes.c_uint64]
    return plain.plain_hands


def hand_table(rounds: int) -> None:
    """The four ways to one random hand, side by side (module docstring)."""
    core = playout.CORE
    if core is None:
        raise SystemExit(f"the compiled core does not play here: {playout.BACKEND_NOTE}")
    with tempfile.TemporaryDirectory() as folder:
        plain = plain_c_hands(Path(folder))
        rng = random.Random(1)
        calls = 2_000  # hands per block of a Python-level way
        batch = 50_000  # hands per block of a loop in C

        def one_call() -> None:
            for _ in range(calls):
                random_game_scores("classic", 4, rng)

        def python() -> None:
            for _ in range(calls):
                reference_hand(rng)

        def whole() -> None:
            core.random_games(None, 4, 104, 10, False, rng, batch)

        def plain_c() -> None:
            plain(batch, rng.getrandbits(64))

        ways = {"core, one call": (one_call, calls), "python": (python, calls),
                "core, whole hands": (whole, batch), "plain C": (plain_c, batch)}  # fmt: skip
        cpu = {name: 0.0 for name in ways}
        for _ in range(rounds):
            for name, (run, _n) in ways.items():
                start = time.process_time()
                run()
                cpu[name] += time.process_time() - start
    rate = {name: rounds * n / cpu[name] for name, (_run, n) in ways.items()}
    print(f"one random hand of the card game, 4 players, {rounds} rounds (CPU clock)")
    print(f"{'way':<18} {'hands/s':>11}")
    for name in ways:
        print(f"{name:<18} {rate[name]:>11,.0f}")
    one = rate["core, one call"] / rate["python"]
    loop = rate["core, whole hands"] / rate["plain C"]
    print(f"core, one call / python      {one:5.2f}x  (target at least {HAND_TARGETS['python']}x)")
    print(
        f"core, whole hands / plain C  {loop:5.2f}x  (target at least {HAND_TARGETS['plain C']}x)"
    )


def rate(play: Callable[[], object], seconds: float) -> float:
    """Games per second of ``play`` over about ``seconds`` (after a short warm-up)."""
    for _ in range(3):
        play()
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(10):
            play()
        games += 10
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)


def api_game(variant: str, players: int, rng: random.Random) -> None:
    game = Game.new(variant, players, rng.getrandbits(32))
    while (pending := game.pending) is not None:
        for seat in pending.seats:
            game.apply(seat, rng.choice(game.legal(seat)))


def player_counts(variant: str) -> tuple[int, ...]:
    return (2, 4, 6, 10) if variant == "classic" else (2, 4, 6)


def speed_table(seconds: float) -> None:
    print(f"{'variant':<11} {'players':>7} {'lean games/s':>13} {'API games/s':>12} {'ratio':>6}")
    rng = random.Random(1)
    for variant in VARIANT_NAMES:
        for players in player_counts(variant):
            lean = rate(partial(random_game_scores, variant, players, rng), seconds)
            api = rate(partial(api_game, variant, players, rng), seconds)
            target = TARGETS.get(variant) if players == 4 else None
            note = f"  (target {target:,})" if target else ""
            print(
                f"{variant:<11} {players:>7} {lean:>13,.0f} {api:>12,.0f} {lean / api:>5.1f}x{note}"
            )


def mcs_times(variant: str, games: int, spec: str) -> dict[str, list[float]]:
    """Milliseconds per mcs decision, by decision kind, over ``games`` games vs random bots."""
    times: dict[str, list[float]] = {}
    for seed in range(games):
        game = Game.new(variant, 4, 1000 + seed)
        seat_of_mcs = seed % 4
        bots = [make_bot(spec if s == seat_of_mcs else "random") for s in range(4)]
        for s, bot in enumerate(bots):
            bot.start_game(GameInfo(variant, 4, s, seed * 10 + s))
        while (pending := game.pending) is not None:
            for view in [observe(game, s) for s in pending.seats]:
                start = time.perf_counter()
                decision = bots[view.seat].decide(view)
                elapsed = (time.perf_counter() - start) * 1000
                if view.seat == seat_of_mcs:
                    times.setdefault(pending.kind.value, []).append(elapsed)
                game.apply(view.seat, decision)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def mcs_table(games: int, spec: str) -> None:
    print(f"\n{spec} (default budget) vs 3 random bots, {games} games per variant, 4 players")
    print(
        f"{'variant':<11} {'decision':<9} {'count':>6} {'mean ms':>8} {'p95 ms':>7} {'max ms':>7}"
    )
    for variant in VARIANT_NAMES:
        times = mcs_times(variant, games, spec)
        every = [t for ts in times.values() for t in ts]
        for kind, ts in [*sorted(times.items()), ("all", every)]:
            print(
                f"{variant:<11} {kind:<9} {len(ts):>6} {statistics.mean(ts):>8.1f} "
                f"{percentile(ts, 0.95):>7.1f} {max(ts):>7.1f}"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement (1.0)")
    parser.add_argument("--mcs-games", type=int, default=4, help="games per variant (4)")
    parser.add_argument("--mcs", default="mcs", help="the bot spec to time (mcs)")
    parser.add_argument("--skip-speed", action="store_true", help="only time the mcs bot")
    parser.add_argument("--hand-rounds", type=int, default=10, help="hand rounds (10; 0: none)")
    args = parser.parse_args(argv)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load}\n")
    if args.hand_rounds > 0:
        hand_table(args.hand_rounds)
        print()
    if not args.skip_speed:
        speed_table(args.seconds)
    if args.mcs_games > 0:
        mcs_table(args.mcs_games, args.mcs)


if __name__ == "__main__":
    main()
