#!/usr/bin/env python3
"""Where each lost game turned, from a match PGN's `{score/depth time}` comments: for every game
Squall lost, the Squall move after which the opponent's score for Squall first fell to -1.0 or
below; Stockfish at fixed nodes scores the position before and after that move (how much the
move itself lost), and Squall replays the position at growing node counts (whether a deeper
search would still play it). One JSON line per game.

Usage: tools/loss_onset.py [--games N] [--stockfish CMD] [--stockfish-nodes N] PGN NAME SQUALL
  NAME: the start of Squall's player name in the PGN; SQUALL: the engine binary to replay with
"""
import argparse
import json
import re

import chess
import chess.engine
import chess.pgn

# Pawns, or a mate in N (`+M5`, `-M3`) read as a score of ±100 pawns.
SCORE = re.compile(r"\s*([+-]?)(M?)(\d+(?:\.\d+)?)/\d+")
THRESHOLD = -1.0
SQUALL_NODES = (300_000, 1_200_000, 4_800_000)


def score(comment):
    m = SCORE.match(comment or "")
    if not m:
        return None
    value = 100.0 if m.group(2) else float(m.group(3))
    return -value if m.group(1) == "-" else value


def onset(game, side):
    """The position before Squall's move that the opponent's first score at or below
    THRESHOLD (from Squall's side) answered, without the game's history (Squall replays it
    from its FEN), with that move and its score comment; None if none."""
    board, last = game.board(), None
    for node in game.mainline():
        if board.turn == side:
            m = SCORE.match(node.comment or "")
            last = (board.copy(stack=False), node.move, m.group(0) if m else "")
        else:
            s = score(node.comment)
            if s is not None and -s <= THRESHOLD and last:
                return last
        board.push(node.move)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=999, help="stop after this many losses (999)")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--stockfish-nodes", type=int, default=3_000_000)
    ap.add_argument("pgn")
    ap.add_argument("name")
    ap.add_argument("squall")
    args = ap.parse_args()
    with chess.engine.SimpleEngine.popen_uci(args.stockfish) as sf, \
            chess.engine.SimpleEngine.popen_uci(args.squall) as sq, open(args.pgn) as f:
        sf.configure({"Hash": 64, "Threads": 1})
        sq.configure({"Hash": 64, "OwnBook": False})

        def judge(board):
            info = sf.analyse(board, chess.engine.Limit(nodes=args.stockfish_nodes))
            return info["score"].pov(board.turn).score(mate_score=3000), info.get("pv", [None])[0]

        done = 0
        while done < args.games and (game := chess.pgn.read_game(f)) is not None:
            h = game.headers
            if h["White"].startswith(args.name):
                side = chess.WHITE
            elif h["Black"].startswith(args.name):
                side = chess.BLACK
            else:
                continue
            if h["Result"] != ("0-1" if side == chess.WHITE else "1-0"):
                continue
            found = onset(game, side)
            if found is None:
                continue
            board, move, note = found
            before, best = judge(board)
            board.push(move)
            after = -judge(board)[0]
            board.pop()
            picks = {}
            for nodes in SQUALL_NODES:
                if "Clear Hash" in sq.options:
                    sq.configure({"Clear Hash": None})
                picks[nodes] = board.san(sq.play(board, chess.engine.Limit(nodes=nodes)).move)
            row = dict(round=h["Round"], fen=board.fen(), played=board.san(move), note=note,
                       sf_before=before, sf_after=after, loss=before - after,
                       sf_best=board.san(best) if best else None, squall=picks)
            print(json.dumps(row), flush=True)
            done += 1


if __name__ == "__main__":
    main()
