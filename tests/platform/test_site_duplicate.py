"""Duplicate ladder matches played for real: the bridge plays each deal once per seat rotation
in the sandbox, as one runner match (each bot started afresh for each rotation, so that no
process is dealt a deal twice), and reports it (replays in the games' order, points per deal,
ranks over all games, one log per bot)."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from core import storage
from django.conf import settings
from django.test import Client
from django.urls import reverse
from matches import bridge
from nimmt_site_testing import program_bot, runner_match

from arena.bots.heuristic import HeuristicBot
from arena.bots.random import RandomBot
from arena.local import series_game
from arena.runner.results import Ranking, match_ranks

# The bot kit's first log line, once per program start.
STARTED = "nimmt.botkit INFO in the match"


def _entrants(names: list[str]) -> list[bridge.Entrant]:
    folder = Path(settings.HOUSE_BOTS_DIR) / "quick"
    return [bridge.Entrant(name, folder) for name in names]


def _replay(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


def test_a_duplicate_match_deals_each_deal_to_every_seat_once(tmp_path: Path) -> None:
    names = ["ann", "ben", "cat"]
    out = tmp_path / "match"
    outcome = bridge.play_match(
        variant="basic", seed=41, games=6, entrants=_entrants(names), out_dir=out, duplicate=True
    )
    assert outcome.replays == [f"game-0000{n}.json" for n in range(1, 7)]
    replays = [_replay(out / name) for name in outcome.replays]
    plan = [(g.seats, g.deal) for g in (series_game(41, i, 3, duplicate=True) for i in range(6))]
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for replay, (seats, deal) in zip(replays, plan, strict=True):
        assert replay["seed"] == 41 + deal  # the deal
        assert [p["name"] for p in replay["players"]] == [names[e] for e in seats]
        by_deal.setdefault(deal, []).append(replay)
    for deal, games in by_deal.items():
        assert len(games) == 3
        # The same cards every time; each bot held each seat's hand once.
        assert all(g["setup"] == games[0]["setup"] for g in games)
        for seat in range(3):
            assert {g["players"][seat]["name"] for g in games} == set(names), deal
    # Points per deal, totals and ranks as the site stores them.
    for entry, name in enumerate(names):
        seat_outcome = outcome.seats[entry]
        per_deal = [0, 0]
        for replay, (_, deal) in zip(replays, plan, strict=True):
            seat = [p["name"] for p in replay["players"]].index(name)
            per_deal[deal] += replay["result"]["scores"][seat]
        assert seat_outcome.deal_scores == per_deal
        assert seat_outcome.score == sum(per_deal)
        log = (out / seat_outcome.log_file).read_text("utf-8")
        assert seat_outcome.log_file == f"logs/{name}.log"
        assert log.count(STARTED) == 3, log  # one program per seat rotation
    ranks = [
        [r["result"]["ranks"][[p["name"] for p in r["players"]].index(n)] for r in replays]
        for n in names
    ]
    # Every bot held every hand: the total decides, the mean rank only breaks ties.
    totals = [s.score for s in outcome.seats]
    assert [s.rank for s in outcome.seats] == match_ranks(ranks, Ranking.TOTAL_SCORE, totals)
    for a, b in ((a, b) for a in outcome.seats for b in outcome.seats):
        if a.score > b.score:
            assert a.rank < b.rank
    settings_ = json.loads((out / "match.json").read_text("utf-8"))
    assert settings_["duplicate"] is True and settings_["games"] == 6
    assert settings_["ranked_by"] == "total_score"
    assert [b["rank"] for b in settings_["bots"]] == [s.rank for s in outcome.seats]
    assert [r["series"]["deal"] for r in replays] == [1, 1, 1, 2, 2, 2]


def test_a_single_match_reports_its_points_per_game(tmp_path: Path) -> None:
    outcome = bridge.play_match(
        variant="basic", seed=7, games=2, entrants=_entrants(["ann", "ben"]), out_dir=tmp_path
    )
    assert len(outcome.replays) == 2
    for seat in outcome.seats:
        assert len(seat.deal_scores) == 2 and sum(seat.deal_scores) == seat.score


def test_a_duplicate_match_needs_whole_rotations(tmp_path: Path) -> None:
    with pytest.raises(bridge.ArenaError, match="needs a multiple of 3 games"):
        bridge.play_match(
            variant="basic",
            seed=1,
            games=4,
            entrants=_entrants(["ann", "ben", "cat"]),
            out_dir=tmp_path,
            duplicate=True,
        )


@pytest.mark.django_db
def test_a_duplicate_match_ranks_by_total_score_alike_on_its_page_in_the_api_and_match_json(
    client: Client,
) -> None:
    bots = [program_bot(name) for name in ("ann", "ben", "cat")]
    match = runner_match(
        bots, [HeuristicBot, RandomBot, RandomBot], seed=5, games=6, duplicate=True
    )
    seats = list(match.seats.select_related("bot").order_by("seat"))
    stored = json.loads(storage.read_bytes(f"{match.result_dir}/match.json"))
    assert stored["ranked_by"] == "total_score"
    # The totals decide: a higher total is always the better rank (basic: higher is better).
    for a in seats:
        for b in seats:
            assert a.score is not None and b.score is not None
            if a.score > b.score:
                assert a.rank is not None and b.rank is not None and a.rank < b.rank
    assert [b["rank"] for b in stored["bots"]] == [s.rank for s in seats]
    assert [b["score"] for b in stored["bots"]] == [s.score for s in seats]
    # The API carries the same ranks, and says what they mean.
    api = client.get(reverse("api-match", args=[match.uuid])).json()["match"]
    assert api["ranked_by"] == "total_score" and api["duplicate"] is True
    assert {s["bot"]["name"]: s["rank"] for s in api["seats"]} == {
        b["name"]: b["rank"] for b in stored["bots"]
    }
    # The page lists the bots best first, totals falling, and says how it ranked them.
    page = client.get(match.get_absolute_url()).content.decode()
    rows = re.findall(r'<td class="num rank">(\d+).*?<strong>(-?\d+)</strong>', page, re.S)
    assert [int(rank) for rank, _ in rows] == sorted(s.rank or 0 for s in seats)
    assert [int(score) for _, score in rows] == sorted((s.score or 0 for s in seats), reverse=True)
    assert "by the total score: every bot held every hand" in page
    assert "mean of the places in the games" in page


@pytest.mark.django_db
def test_a_single_deal_match_says_its_rank_is_the_mean_of_its_games_ranks(client: Client) -> None:
    bots = [program_bot(name) for name in ("ann", "ben")]
    match = runner_match(bots, [HeuristicBot, RandomBot], seed=3, games=3)
    stored = json.loads(storage.read_bytes(f"{match.result_dir}/match.json"))
    assert stored["ranked_by"] == "mean_rank"
    assert (
        client.get(reverse("api-match", args=[match.uuid])).json()["match"]["ranked_by"]
        == "mean_rank"
    )
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Rank: by the mean of the places in the games, each game a deal of its own" in page
    one = runner_match(bots, [HeuristicBot, RandomBot], seed=4)
    assert "Rank: the place in the game" in client.get(one.get_absolute_url()).content.decode()
