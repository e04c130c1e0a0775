"""Calibrate the fair-play review: players that see the computer's advice and players that do
not play whole deals, and each win goes through :mod:`engine.fairplay`'s review.

    nice -n 10 python bench/fairplay.py --jobs 2 --cache fairplay-decisions.jsonl
    python bench/fairplay.py --cache fairplay-decisions.jsonl --rejudge --agreement 0.9
    python bench/fairplay.py --seeds 0-9 --players best,greedy,lookahead

Deal ``s`` is :meth:`Game.from_seed` of ``s``. Each player sees the public view alone (the
players that search it through :func:`engine.player.advise`, the others through a board built
from the view, whose stock order is a guess). A won game is reviewed placement by placement
with :func:`engine.fairplay.decide` and judged with :func:`engine.fairplay.judge`, which is what
:func:`engine.fairplay.review_game` does (and the service's runner, one step at a time).

The players (:data:`PLAYERS`), in two groups:

* **advised**, who play the computer's advice: the shipped levels ``best`` (10,000
  placements) and ``good`` (100); ``best`` at budgets the service does not ship (300, 1,000
  and 3,000); ``best`` with 10 % and with 25 % of its placements replaced by a random legal
  one (a script that hides behind noise).
* **unadvised**, who never see it: ``random``; ``greedy`` (also the computer's ``beginner``
  level, which is greedy and does not search); and stand-ins for people:
  ``greedy-ties``, a player who counts the face-down piles a placement leaves, as anyone
  learning the game does, and picks among equally good placements on a whim rather than by
  the engine's fixed order; ``greedy-slips``, the same careful counting with one placement in
  ten made carelessly (a random legal one), a tired or hurried person; ``lookahead``, a
  thoughtful player who looks one card further: for each placement, what the next card could
  be (each rank still unseen, weighted by how many of it are left) and where it would then go
  best, keeping the placement with the fewest face-down piles expected. It is the strongest
  play a person can plausibly do in their head, and it is not the search (no model of the
  position's value, no rollouts, no third placement), so it is the unadvised player most like
  the computer.

It prints, per player: games played, won, flagged, the share of wins flagged, and the figures
the rule reads over the wins (decisions; agreement with each level and the mean loss per
decision, min / median / max), then the review's CPU per game (``time.process_time``) and
whether the goals of issue 50 are met.

``--cache PATH`` keeps every game played as one JSON line (a won game with its placements and
its decisions): a run skips the games already there and appends the new ones as they finish,
so an interrupted run resumes, and ``--rejudge`` reads the file alone and judges its decisions
again under the thresholds given (``--min-decisions``, ``--agreement``, ``--close-loss``,
``--close-agreement``; :data:`engine.fairplay.RULE` for the others) in a moment.

A deal is one task: a worker plays it with every player, so the deals finish in order and a
partial run covers every player on its first deals. Within a game, the advice at 10,000
placements that ``best`` played from a position is the advice its review asks for at that
position, so it is kept (see :func:`_memo_advise`) and reused; a review that reused any is left
out of the CPU figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results import add_json_option, write_json
from engine import fairplay
from engine.board import Board
from engine.cards import CARDS
from engine.fairplay import RULE, Decision, Rule, Verdict, decide, judge
from engine.game import Game, PublicView
from engine.grid import POSITION, Position, cells_of
from engine.player.advice import DEFAULT_PLACEMENTS, GOOD_PLACEMENTS, Advice, Budget, Policy
from engine.player.advice import advise as _advise
from engine.player.policies import greedy_cell
from engine.rules import Status

_WON = Status.WON
_LOST = Status.LOST
_TOO_MANY = 5  # face-down piles that lose the game

# --- advice, kept for the game being played --------------------------------------------------

_MEMO: dict[tuple[PublicView, Policy, Budget], Advice] = {}
_hits = 0


def _memo_advise(
    view: PublicView,
    *,
    policy: Policy | str = Policy.BEST,
    seed: int = 0,
    budget: Budget | None = None,
) -> Advice:
    """:func:`engine.player.advise` for ``best``, kept per (view, budget) until the next game.

    ``best`` is deterministic (it ignores the seed), so the advice a player got from a
    position is the advice the review asks for there: with the player ``best`` that is every
    decision of its game, 1-2 s of CPU per game. The review looks it up through
    ``engine.fairplay.advise``, which this module replaces by this function (a benchmark's
    shortcut: the service reviews without it)."""
    global _hits
    policy = Policy(policy)
    if policy is not Policy.BEST:
        return _advise(view, policy=policy, seed=seed, budget=budget)
    key = (view, policy, budget or Budget(placements=DEFAULT_PLACEMENTS))
    found = _MEMO.get(key)
    if found is None:
        found = _MEMO[key] = _advise(view, policy=policy, budget=key[2])
    else:
        _hits += 1
    return found


fairplay.advise = _memo_advise  # type: ignore[attr-defined]  # see _memo_advise


# --- the players ------------------------------------------------------------------------------

Chooser = Callable[[PublicView, random.Random], Position]


def _board(view: PublicView) -> Board:
    """The view's grid and current card with the unseen cards in card order (never the real
    stock), as the computer player builds it."""
    return Game.from_view(view, view.unseen_cards()).board()


def _position(cell: int) -> Position:
    position = POSITION[cell]
    assert position is not None
    return position


def searcher(placements: int) -> Chooser:
    budget = Budget(placements=placements)

    def choose(view: PublicView, rng: random.Random) -> Position:
        return _memo_advise(view, budget=budget).placement

    return choose


def noisy(base: Chooser, share: float) -> Chooser:
    """``base``, with ``share`` of the placements replaced by a random legal one."""

    def choose(view: PublicView, rng: random.Random) -> Position:
        if rng.random() < share:
            return rng.choice(view.legal_placements)
        return base(view, rng)

    return choose


def random_choice(view: PublicView, rng: random.Random) -> Position:
    return rng.choice(view.legal_placements)


def greedy(view: PublicView, rng: random.Random) -> Position:
    return _position(greedy_cell(_board(view)))


def _face_down_after(board: Board, cell: int) -> int:
    """Face-down piles after placing the current card at ``cell`` (-1 a win, 5 a loss)."""
    child = board.copy()
    status = child.place(cell)
    if status is _WON:
        return -1
    return _TOO_MANY if status is _LOST else child.face_down_count


def greedy_ties(view: PublicView, rng: random.Random) -> Position:
    """The fewest face-down piles after the placement; a random one among equals."""
    board = _board(view)
    outcomes = [(_face_down_after(board, cell), cell) for cell in cells_of(board.legal_mask())]
    fewest = min(down for down, _ in outcomes)
    return _position(rng.choice([cell for down, cell in outcomes if down == fewest]))


def _lookahead_value(board: Board, cell: int) -> float:
    """Face-down piles expected after this placement and the next card's best placement,
    the next card's rank drawn from the unseen cards (-1 a win, 5 a loss)."""
    child = board.copy()
    status = child.place(cell)
    if status is _WON:
        return -1.0
    if status is _LOST:
        return float(_TOO_MANY)
    unseen = child.unseen()
    ranks = Counter(CARDS[card].rank for card in unseen)
    one_of = {CARDS[card].rank: card for card in unseen}
    total = 0.0
    for rank, count in ranks.items():
        after = child.with_next_card(one_of[rank])
        replies = [_face_down_after(after, reply) for reply in cells_of(after.legal_mask())]
        total += count * (min(replies) if replies else _TOO_MANY)
    return total / len(unseen)


def lookahead(view: PublicView, rng: random.Random) -> Position:
    """Two steps over the next card's ranks; ties to the lower pile, then row-then-column."""
    board = _board(view)
    scored = [
        (_lookahead_value(board, cell), board.pile_height(cell), cell)
        for cell in cells_of(board.legal_mask())
    ]
    return _position(min(scored)[2])


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    advised: bool  # plays the computer's advice (the goals differ)
    choose: Chooser


PLAYERS: dict[str, Player] = {
    player.name: player
    for player in [
        Player("best", True, searcher(DEFAULT_PLACEMENTS)),
        Player("good", True, searcher(GOOD_PLACEMENTS)),
        Player("best-3000", True, searcher(3_000)),
        Player("best-1000", True, searcher(1_000)),
        Player("best-300", True, searcher(300)),
        Player("best-10%random", True, noisy(searcher(DEFAULT_PLACEMENTS), 0.10)),
        Player("best-25%random", True, noisy(searcher(DEFAULT_PLACEMENTS), 0.25)),
        Player("random", False, random_choice),
        Player("greedy", False, greedy),
        Player("greedy-ties", False, greedy_ties),
        Player("greedy-slips", False, noisy(greedy, 0.10)),
        Player("lookahead", False, lookahead),
    ]
}


# --- playing and reviewing --------------------------------------------------------------------


def play_and_review(name: str, seed: int, share: bool = False) -> dict[str, Any]:
    """Deal ``seed`` played by player ``name``; if won, its review. One cache record.

    The advice kept is this game's, or with ``share`` the deal's so far (the caller clears it
    between deals)."""
    global _hits
    if not share:
        _MEMO.clear()
    player = PLAYERS[name]
    rng = random.Random(f"{name}:{seed}")  # str seeds are hashed the same in every process
    game = Game.from_seed(seed)
    played: list[tuple[int, int]] = []
    cpu = time.process_time()
    while not game.is_over:
        position = player.choose(game.public_view(), rng)
        played.append((position.row, position.col))
        game.place(position)
    record: dict[str, Any] = {
        "player": name,
        "seed": seed,
        "won": game.score is not None,
        "score": game.score,
        "placements": played,
        "play_cpu_s": round(time.process_time() - cpu, 4),
    }
    if game.score is None:
        return record
    # engine.fairplay.review_game, one decision at a time so that the decisions are kept.
    _hits = 0
    cpu = time.process_time()
    replay = Game.from_seed(seed)
    decisions: list[Decision] = []
    for number, cell in enumerate(played, start=1):
        view = replay.public_view()
        made = replay.place(cell).position
        decision = decide(number, view, made)
        if decision is not None:
            decisions.append(decision)
    evidence = judge(decisions)
    record |= {
        "review_cpu_s": round(time.process_time() - cpu, 4),
        "reused_advice": _hits,
        "verdict": evidence.verdict.value,
        "decisions": [_decision_json(d) for d in decisions],
    }
    return record


def _decision_json(decision: Decision) -> dict[str, Any]:
    return {
        "number": decision.number,
        "legal": decision.legal,
        "played": list(decision.played),
        "chosen": {level: list(position) for level, position in decision.chosen.items()},
        "loss": decision.loss,
    }


def decision_of(data: dict[str, Any]) -> Decision:
    return Decision(
        number=data["number"],
        legal=data["legal"],
        played=Position(*data["played"]),
        chosen={level: Position(*cell) for level, cell in data["chosen"].items()},
        loss=data["loss"],
    )


def _play_deal(job: tuple[int, tuple[str, ...], bool]) -> list[dict[str, Any]]:
    seed, names, share = job
    _MEMO.clear()
    try:
        return [play_and_review(name, seed, share) for name in names]
    finally:
        _MEMO.clear()


def _run(
    todo: dict[int, tuple[str, ...]], jobs: int, share: bool
) -> Iterator[list[dict[str, Any]]]:
    work = [(seed, names, share) for seed, names in sorted(todo.items())]
    if jobs == 1:
        yield from map(_play_deal, work)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap_unordered(_play_deal, work)


def read_cache(path: Path | None) -> list[dict[str, Any]]:
    if path is None or not path.exists():
        return []
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


# --- the report -------------------------------------------------------------------------------


def _spread(values: Sequence[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def summarise(records: Iterable[dict[str, Any]], rule: Rule) -> dict[str, dict[str, Any]]:
    """Per player: games, wins, flagged, and the rule's figures over the wins."""
    by_player: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        by_player.setdefault(record["player"], []).append(record)
    summary: dict[str, dict[str, Any]] = {}
    for name in [*PLAYERS, *sorted(set(by_player) - set(PLAYERS))]:
        games = by_player.get(name)
        if not games:
            continue
        wins = [g for g in games if g["won"]]
        evidence = [judge([decision_of(d) for d in g["decisions"]], rule=rule) for g in wins]
        flagged = [
            g["seed"] for g, e in zip(wins, evidence, strict=True) if e.verdict is Verdict.FLAGGED
        ]
        summary[name] = {
            "advised": PLAYERS[name].advised if name in PLAYERS else None,
            "games": len(games),
            "won": len(wins),
            "flagged": len(flagged),
            "share_flagged": len(flagged) / len(wins) if wins else None,
            "flagged_seeds": flagged,
            "decisions": _spread([e.decisions for e in evidence]),
            "agreement": {
                level: _spread([e.agreement[level] for e in evidence]) for level in fairplay.LEVELS
            },
            "mean_loss": _spread([e.mean_loss for e in evidence if e.mean_loss is not None]),
            "mean_score": statistics.fmean(g["score"] for g in wins) if wins else None,
        }
    return summary


def review_cpu(records: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The review's CPU over the reviews that computed all their advice themselves."""
    own = [r for r in records if r["won"] and r["reused_advice"] == 0]
    if not own:
        return None
    seconds = [r["review_cpu_s"] for r in own]
    per_decision = [r["review_cpu_s"] / len(r["decisions"]) for r in own if r["decisions"]]
    return {
        "reviews": len(own),
        "median_s": statistics.median(seconds),
        "max_s": max(seconds),
        "per_decision_median_s": statistics.median(per_decision) if per_decision else None,
        "per_decision_max_s": max(per_decision) if per_decision else None,
    }


def goals(summary: dict[str, dict[str, Any]]) -> list[tuple[str, bool]]:
    """Issue 50's goals for the players in the summary, each met or not."""

    def share(name: str) -> float | None:
        figures = summary.get(name)
        return figures["share_flagged"] if figures else None

    found: list[tuple[str, bool]] = []
    for name in ("best", "good"):
        if share(name) is not None:
            found.append((f"{name}: every win flagged", share(name) == 1.0))
    noisy = share("best-10%random")
    if noisy is not None:
        found.append(("best-10%random: 95 % of wins flagged or more", noisy >= 0.95))
    for name in ("random", "greedy"):
        figures = summary.get(name)
        if figures:
            found.append((f"{name}: no win flagged", figures["flagged"] == 0))
    for name, figures in summary.items():
        if figures["advised"] is False and figures["won"]:
            found.append(
                (
                    f"{name}: at most 1 % of wins flagged",
                    figures["flagged"] <= 0.01 * figures["won"],
                )
            )
    return found


def _cell(spread: dict[str, float] | None, percent: bool = False) -> str:
    if spread is None:
        return "-"
    if percent:
        return "/".join(f"{100 * spread[k]:.0f}" for k in ("min", "median", "max"))
    return "/".join(f"{spread[k]:.2f}" for k in ("min", "median", "max"))


def print_report(
    out: TextIO,
    summary: dict[str, dict[str, Any]],
    cpu: dict[str, Any] | None,
    rule: Rule,
    seeds: str,
) -> None:
    settings = ", ".join(f"{f.name}={getattr(rule, f.name)}" for f in fields(rule))
    print(f"deals {seeds}; rule: {settings}", file=out)
    print("agreement (%) and mean loss per decision: min/median/max over the wins", file=out)
    head = (
        f"{'player':<15} {'games':>5} {'won':>4} {'flagged':>7} {'share':>6}  "
        f"{'decisions':>9}  {'good %':>10}  {'best %':>10}  {'mean loss':>15}"
    )
    print(head, file=out)
    print("-" * len(head), file=out)
    for name, f in summary.items():
        share = "-" if f["share_flagged"] is None else f"{100 * f['share_flagged']:.1f}%"
        decisions = f["decisions"]
        span = "-" if decisions is None else f"{decisions['min']:.0f}-{decisions['max']:.0f}"
        print(
            f"{name:<15} {f['games']:>5} {f['won']:>4} {f['flagged']:>7} {share:>6}  "
            f"{span:>9}  {_cell(f['agreement']['good'], True):>10}  "
            f"{_cell(f['agreement']['best'], True):>10}  {_cell(f['mean_loss']):>15}",
            file=out,
        )
    if cpu is not None:
        print(
            f"review CPU per game over {cpu['reviews']} reviews that computed all their "
            f"advice: median {cpu['median_s']:.2f} s, max {cpu['max_s']:.2f} s; per decision "
            f"median {cpu['per_decision_median_s']:.3f} s, max {cpu['per_decision_max_s']:.3f} s",
            file=out,
        )
    for goal, met in goals(summary):
        print(f"goal {'met   ' if met else 'MISSED'} {goal}", file=out)


# --- the command ------------------------------------------------------------------------------


def _seeds(text: str) -> list[int]:
    """``0-199`` or ``3,5,8-9``."""
    seeds: list[int] = []
    try:
        for part in text.split(","):
            first, _, last = part.strip().partition("-")
            seeds.extend(range(int(first), int(last or first) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds are like 0-199 or 3,5,8-9, not {text!r}") from None
    if not seeds:
        raise argparse.ArgumentTypeError("no seeds")
    return seeds


def _players(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in PLAYERS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown players {unknown}; the players are {', '.join(PLAYERS)}"
        )
    return names


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="Play deals with players that see the computer's advice and players that "
        "do not, review each win for fair play, and report what the rule flags."
    )
    parser.add_argument("--seeds", type=_seeds, default=_seeds("0-199"), help="deals (0-199)")
    parser.add_argument(
        "--players",
        type=_players,
        default=list(PLAYERS),
        help="comma-separated, of: " + ", ".join(PLAYERS).replace("%", "%%") + " (all)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument(
        "--cache",
        type=Path,
        metavar="PATH",
        help="JSON lines of every game played: reused, and new games appended",
    )
    parser.add_argument(
        "--share-advice",
        action="store_true",
        help="keep the search's advice for a whole deal, not a game: the players' games "
        "share positions (their first ones at least; good and best-300 often play the same "
        "game), so this saves CPU, but fewer reviews then count in the CPU figures",
    )
    parser.add_argument(
        "--rejudge",
        action="store_true",
        help="play nothing: judge the games in --cache again (under the thresholds given)",
    )
    for threshold in fields(Rule):  # one option per threshold, whatever the rule's are
        name = threshold.name
        parser.add_argument(
            f"--{name.replace('_', '-')}", type=type(getattr(RULE, name)), dest=name,
            default=None, metavar="X", help=f"the rule's {name} (engine.fairplay.RULE: "
            f"{getattr(RULE, name)})",
        )  # fmt: skip
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress line on stderr (default: when stderr is a terminal)",
    )
    add_json_option(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.rejudge and args.cache is None:
        parser.error("--rejudge reads --cache PATH")
    if args.jobs < 1:
        parser.error("--jobs is at least 1")
    rule = replace(
        RULE,
        **{
            f.name: getattr(args, f.name)
            for f in fields(Rule)
            if getattr(args, f.name, None) is not None
        },
    )
    wanted = set(args.seeds)
    players = set(args.players)
    records = [r for r in read_cache(args.cache) if r["seed"] in wanted and r["player"] in players]
    if not args.rejudge:
        done = {(r["player"], r["seed"]) for r in records}
        todo = {
            seed: names
            for seed in args.seeds
            if (names := tuple(n for n in args.players if (n, seed) not in done))
        }
        progress = args.progress if args.progress is not None else sys.stderr.isatty()
        start = time.perf_counter()
        cache = args.cache.open("a", encoding="utf-8") if args.cache is not None else None
        try:
            for count, deal in enumerate(_run(todo, args.jobs, args.share_advice), start=1):
                records.extend(deal)
                if cache is not None:
                    cache.writelines(json.dumps(record) + "\n" for record in deal)
                    cache.flush()
                if progress:
                    elapsed = time.perf_counter() - start
                    sys.stderr.write(f"\r{count}/{len(todo)} deals, {elapsed:.0f} s ")
                    sys.stderr.flush()
        finally:
            if cache is not None:
                cache.close()
        if progress:
            sys.stderr.write("\n")
    records.sort(key=lambda r: (r["seed"], r["player"]))
    summary = summarise(records, rule)
    cpu = review_cpu(records)
    seeds = sorted({r["seed"] for r in records})
    described = f"{seeds[0]}-{seeds[-1]} ({len(seeds)} deals)" if seeds else "none"
    print_report(sys.stdout, summary, cpu, rule, described)
    write_json(
        args.json,
        {
            "rule": {f.name: getattr(rule, f.name) for f in fields(rule)},
            "seeds": seeds,
            "players": summary,
            "review_cpu": cpu,
            "goals": [{"goal": goal, "met": met} for goal, met in goals(summary)],
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
