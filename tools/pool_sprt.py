#!/usr/bin/env python3
"""Pool the games of several `match.py sprt` runs of the same two engines under the same settings
(each run with its own --seed, so other openings) into one pentanomial count, Elo and LLR.

A run stopped by the end of a session can be continued by a second run; the pooled LLR decides
as one SPRT would have. Pairs are the two games of one opening within one PGN (match.py marks
the opening's number in the comment "end of opening FILE #N"); unpaired games are left out, as
match.py does. Statistics are match.py's own (`pentanomial`, `gsprt_llr`, `elo_text`).

A run whose PGN is gone (an earlier session's machine) still pools through the pair counts its
note recorded: --pairs N0,N1,N2,N3,N4 (pairs scoring 0, 1/2, 1, 3/2, 2 for the new engine),
repeatable.

A stop rule that fixes the number of pairs in advance takes --first N: the first N complete pairs,
counted over --pairs first and then the PGNs in the order given, each PGN's pairs in the order
they completed.

Usage: tools/pool_sprt.py [--match PATH/match.py (default ../shared/tools/match/match.py beside
       the repository)] [--pairs N0,..,N4]... [--first N] ELO0 ELO1 [RUN.pgn ...]
"""
import argparse
import collections
import importlib.util
import re
import sys
from pathlib import Path

# The repository root, from this script's place in it (tools/).
REPO = Path(__file__).resolve().parent.parent
# match.py's usual place: ../shared/tools/match/match.py beside the repository.
DEFAULT_MATCH = REPO.parent / "shared" / "tools" / "match" / "match.py"

POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def load_match(path):
    spec = importlib.util.spec_from_file_location("match", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["match"] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def pairs_of(path, new_name):
    """Pair scores (new's points, 0..2 in halves) of one PGN, in the order the pairs completed."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    games = collections.defaultdict(list)
    done = []
    players = set()
    for game in text.split("[Event ")[1:]:
        white = re.search(r'\[White "([^"]*)"', game)
        black = re.search(r'\[Black "([^"]*)"', game)
        result = re.search(r'\[Result "([^"]*)"', game)
        opening = re.search(r"end of opening \S+ #(\d+)", game)
        if not (white and black and result and opening) or result.group(1) not in POINTS:
            continue
        players.update((white.group(1), black.group(1)))
        if new_name not in (white.group(1), black.group(1)):
            continue
        pts = POINTS[result.group(1)]
        games[opening.group(1)].append(pts if white.group(1) == new_name else 1.0 - pts)
        if len(games[opening.group(1)]) == 2:
            done.append(sum(games[opening.group(1)]))
    if players and not games:
        # A wrong --new-name would otherwise count every game for the base engine.
        sys.exit(f"{path}: no game of {new_name!r}; its players are "
                 f"{', '.join(sorted(players))} (use --new-name)")
    return done


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--match", default=str(DEFAULT_MATCH),
                    help="match.py to take the statistics from (default: %(default)s)")
    ap.add_argument("--new-name", default="new")
    ap.add_argument("elo0", type=float)
    ap.add_argument("elo1", type=float)
    ap.add_argument("--pairs", action="append", default=[],
                    help="pentanomial counts of a run without its PGN: N0,N1,N2,N3,N4")
    ap.add_argument("--first", type=int, default=None,
                    help="pool only the first N complete pairs of all runs together, "
                         "--pairs counts first, then the PGNs in the order given")
    ap.add_argument("pgn", nargs="*")
    args = ap.parse_args()
    match = load_match(args.match)
    penta = [0] * 5
    for counts in args.pairs:
        try:
            extra = [int(x) for x in counts.split(",")]
        except ValueError:
            extra = []
        if len(extra) != 5 or min(extra) < 0:
            ap.error(f"--pairs wants five counts N0,N1,N2,N3,N4, not {counts!r}")
        penta = [a + b for a, b in zip(penta, extra)]
        print(f"--pairs {counts}: {sum(extra)} pairs")
    if not args.pgn and not args.pairs:
        ap.error("nothing to pool: give PGNs or --pairs")
    left = None
    if args.first is not None:
        left = args.first - sum(penta)
        if left < 0:
            ap.error(f"--first {args.first} is fewer than the {sum(penta)} pairs of --pairs")
    for path in args.pgn:
        runs = pairs_of(path, args.new_name)
        if left is not None:
            runs = runs[:left]
            left -= len(runs)
        for p in runs:
            penta[int(round(2 * p))] += 1
        print(f"{path}: {len(runs)} pairs")
    mean, var, n = match.pentanomial(penta)
    llr = match.gsprt_llr(penta, args.elo0, args.elo1)
    print(f"pooled: {2 * n} games in {n} pairs [0, 1/2, 1, 3/2, 2] = {penta}")
    print(f"Elo {match.elo_text(mean, var, n, 2 * n)} (95 %, pentanomial), "
          f"LLR {llr:.2f} (H0 {args.elo0:g}, H1 {args.elo1:g}, bounds +-2.94 at alpha = beta = 0.05)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
