"""A Python bot in the sandbox runs its playouts on the compiled core: the bot runtime's
install builds it (and the house bots' compiled rollout rule) for the system Python, and a bot
that searches with it passes the arena's bot check (it refuses to start if either is missing
there)."""

import shutil
from pathlib import Path

import pytest

from arena.cli import main as nimmt

BOT = '''"""A bot that picks each tile by playouts on the compiled core."""

import random
import sys

from arena.botkit import KitBot, run
from arena.bots.rollouts import POLICY
from arena.engine.decisions import PlayTile
from arena.engine.playout import BACKEND, BACKEND_NOTE
from arena.engine.sampling import Sampler

if BACKEND != "compiled":
    sys.exit(f"the compiled playout core does not play here: {BACKEND_NOTE}")
if POLICY is None:
    sys.exit("the house bots' compiled rule (arena.bots._policies) was not built here")


class Playouts(KitBot):
    name = "playouts"

    def choose_tile(self, view):
        rng = random.Random(view.turn)
        sign = -1 if view.variant == "classic" else 1
        options = [d for d in view.legal if isinstance(d, PlayTile)]
        totals = [0.0] * len(options)
        sampler = Sampler(view)
        for _ in range(4):
            results = sampler.position(rng).playouts(rng, view.seat, options, repeat=2)
            for k, scores in enumerate(results):
                totals[k % len(options)] += sign * scores[view.seat]
        return options[max(range(len(options)), key=totals.__getitem__)].tile


if __name__ == "__main__":
    run(Playouts())
'''


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
def test_a_python_bot_runs_its_playouts_compiled_in_the_sandbox(
    scratch: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = scratch / "playouts"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    (folder / "bot.py").write_text(BOT)
    (folder / "nimmt-bot.toml").write_text(
        'name = "playouts"\ncommand = ["python3", "bot.py"]\nlanguage = "python"\n'
    )
    assert nimmt(["bot", "check", str(folder), "--out", str(tmp_path / "out")]) == 0
    assert "PASS playouts is ready for the arena" in capsys.readouterr().out
