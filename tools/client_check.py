#!/usr/bin/env python3
"""Plays complete games between Squall over UCI and Squall over xboard through python-chess
(strict about both protocols), with clocks, pondering on some games, and a short analysis
session in each protocol. Any protocol error or illegal move raises and fails the run.

usage: python3 tools/client_check.py [--engine ./target/release/squall] [--games 4] [--tc 2+0.02]
       [--margin 0.1]
"""
import argparse
import sys
import time

import chess
import chess.engine


def play_game(white, black, base, inc, ponder, margin, max_plies=400):
    board = chess.Board()
    clocks = {chess.WHITE: base, chess.BLACK: base}
    engines = {chess.WHITE: white, chess.BLACK: black}
    while not board.is_game_over(claim_draw=False) and board.ply() < max_plies:
        side = board.turn
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        t0 = time.monotonic()
        result = engines[side].play(board, limit, ponder=ponder, info=chess.engine.INFO_ALL)
        used = time.monotonic() - t0
        clocks[side] -= used
        if clocks[side] < -margin:
            raise RuntimeError(f"time forfeit by {'white' if side else 'black'} ({clocks[side]:.3f} s)")
        clocks[side] += inc
        if result.resigned:
            return ("0-1" if side == chess.WHITE else "1-0") + " (resigned)", board
        if result.move is None or result.move not in board.legal_moves:
            raise RuntimeError(f"illegal or missing move {result.move} in {board.fen()}")
        board.push(result.move)
    return board.result(claim_draw=False), board


def analyse(engine, name):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    info = engine.analyse(board, chess.engine.Limit(time=0.5))
    print(f"  {name} analyse: depth {info.get('depth')} score {info.get('score')} "
          f"pv {' '.join(m.uci() for m in info.get('pv', [])[:4])}")
    with engine.analysis(board) as a:
        for i, inf in enumerate(a):
            if i > 5:
                break
    if name == "uci":
        infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        print(f"  uci multipv: {len(infos)} lines")
        assert len(infos) == 3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="./target/release/squall")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--margin", type=float, default=0.1, help="overrun allowed, seconds (as match.py)")
    args = ap.parse_args()
    base, inc = (float(x) for x in args.tc.split("+"))
    uci = chess.engine.SimpleEngine.popen_uci(args.engine)
    xb = chess.engine.SimpleEngine.popen_xboard(args.engine)
    try:
        run(uci, xb, args, base, inc)
    finally:
        uci.close()
        xb.close()


def run(uci, xb, args, base, inc):
    uci.configure({"Hash": 16})
    print("uci id:", uci.id, "options:", sorted(uci.options))
    print("xboard id:", xb.id, "options:", sorted(xb.options))
    analyse(uci, "uci")
    analyse(xb, "xboard")
    for g in range(args.games):
        ponder = g % 2 == 1
        white, black = (uci, xb) if g % 2 == 0 else (xb, uci)
        names = ("uci", "xboard") if g % 2 == 0 else ("xboard", "uci")
        t0 = time.monotonic()
        result, board = play_game(white, black, base, inc, ponder, args.margin)
        print(f"game {g + 1}: {names[0]} (white) vs {names[1]} (black), ponder={ponder}: {result} "
              f"after {board.ply()} plies, {time.monotonic() - t0:.1f} s")
    uci.ping()
    xb.ping()
    print("all games complete, no protocol errors")


if __name__ == "__main__":
    sys.exit(main())
