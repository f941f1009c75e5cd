#!/usr/bin/env python3
"""Tablebase games of issue #48: Squall with Syzygy tables against Stockfish with the same tables,
from the endgame starts of tools/endgame_starts.epd, each start played with both colours through
../shared/tools/match/match.py; then a report per start: the outcome the tables give the side
Squall played (win, draw or loss) against the game's result.

Squall passes when it wins every game it starts on the winning side of a won position and draws
every drawn one (a loss from a lost start is expected).

    python3 tools/tb_games.py --engine target/release/squall [--tc 10+0.1] [--pgn tb.pgn]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/squall")
    ap.add_argument("--match", default=os.path.join(HERE, "../../shared/tools/match/match.py"))
    ap.add_argument("--starts", default=os.path.join(HERE, "endgame_starts.epd"))
    ap.add_argument("--syzygy", default=os.path.join(HERE, "../../shared/syzygy"))
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--concurrency", default="1")
    ap.add_argument("--pgn", default="tb-games.pgn")
    ap.add_argument("--report-only", action="store_true", help="only read an existing --pgn")
    args = ap.parse_args()
    syzygy = os.path.abspath(args.syzygy)
    starts = {}
    with open(args.starts) as f:
        for line in f:
            if line.strip():
                board, ops = chess.Board.from_epd(line)
                words = ops["c0"].split()
                starts[board.epd()] = (words[0], int(words[2]))
    if not args.report_only:
        anchors = {"anchors": [{
            "name": "stockfish-tb", "protocol": "uci", "command": ["stockfish"],
            "options": {"Threads": 1, "Hash": 16, "SyzygyPath": syzygy},
            "notes": "Stockfish at full strength with the same Syzygy tables"}]}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as tmp:
            json.dump(anchors, tmp)
        games = 2 * len(starts)
        cmd = [sys.executable, args.match, "gauntlet", "--engine", os.path.abspath(args.engine),
               "--name", "squall", "--anchors", "stockfish-tb", "--anchors-file", tmp.name,
               "--openings", args.starts, "--games", str(games), "--tc", args.tc,
               "--concurrency", args.concurrency, "--option", "Hash=16",
               "--option", f"SyzygyPath={syzygy}", "--pgn", args.pgn]
        subprocess.run(cmd, check=False)
        os.unlink(tmp.name)
    report(args.pgn, starts)


def report(path, starts):
    failures, played = [], 0
    seen = {"win": [0, 0], "draw": [0, 0], "loss": [0, 0]}
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            key = board.epd()
            if key not in starts:
                continue
            name, wdl = starts[key]
            squall_white = game.headers.get("White") == "squall"
            # The table value is the side to move's; turn it to Squall's side.
            squall_to_move = board.turn == (chess.WHITE if squall_white else chess.BLACK)
            mine = wdl if squall_to_move else -wdl
            want = "win" if mine == 2 else "loss" if mine == -2 else "draw"
            result = game.headers.get("Result")
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
            if score is None:
                continue
            got = score if squall_white else 1.0 - score
            played += 1
            ok = (want == "win" and got == 1.0) or (want == "draw" and got >= 0.5) or want == "loss"
            seen[want][0] += 1
            seen[want][1] += ok
            if not ok:
                failures.append(f"{name} {key}: tables say {want} for Squall, got {result}"
                                f" ({game.headers.get('Termination', '')})")
    print(f"{played} games: won starts converted {seen['win'][1]}/{seen['win'][0]}, "
          f"drawn starts held {seen['draw'][1]}/{seen['draw'][0]}, lost starts {seen['loss'][0]}")
    for line in failures:
        print("  FAILED", line)
    return not failures


if __name__ == "__main__":
    main()
