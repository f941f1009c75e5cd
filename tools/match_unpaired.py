#!/usr/bin/env python3
"""`match.py gauntlet` with one opening per game instead of one per colour-swapped pair.

Issue #49 asks for 100 Chess960 games "each from a different start position"; the shared
match.py plays every opening twice. This wrapper loads ../shared/tools/match/match.py
unchanged and only swaps the opening each game gets: game N (1-based) plays the N-th opening
of the seeded order, so 100 games use 100 different positions. All arguments are match.py's.
  python3 tools/match_unpaired.py gauntlet --engine E --anchors sf2400 --games 100 --chess960 \
      --openings ../shared/suites/perft960_startpos.epd ...
"""
import dataclasses
import importlib.util
import pathlib
import sys

MATCH = pathlib.Path(__file__).resolve().parent.parent.parent / "shared" / "tools" / "match" / "match.py"
spec = importlib.util.spec_from_file_location("match", MATCH)
match = importlib.util.module_from_spec(spec)
sys.modules["match"] = match
spec.loader.exec_module(match)

books = []
_OpeningBook = match.OpeningBook
_run_workers = match.run_workers


class OneBook(_OpeningBook):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        books.append(self)


def run_with_one_opening_per_game(specs, config, concurrency, jobs, on_result):
    # Game `no` gets the no-th opening and a pair number of its own, as no other game shares it.
    jobs = (dataclasses.replace(j, pair=j.no - 1, opening=books[-1].get(j.no - 1)) for j in jobs)
    return _run_workers(specs, config, concurrency, jobs, on_result)


match.OpeningBook = OneBook
match.run_workers = run_with_one_opening_per_game

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] != "gauntlet":
        sys.exit("match_unpaired.py: only the gauntlet command (sprt needs colour-swapped pairs)")
    sys.exit(match.main(sys.argv[1:]))
