#!/usr/bin/env python3
"""Checks Squall's PolyGlot book code against python-chess (used by engine/tests/book.rs).

usage: polyglot_check.py keys FILE        lines `FEN<TAB>KEY-HEX`: every key must equal
                                          chess.polyglot.zobrist_hash; prints `ok N`
       polyglot_check.py moves BOOK FILE  lines of FENs: prints `FEN<TAB>uci:weight ...` with
                                          every entry python-chess finds (weight 0 included)
"""
import sys

import chess
import chess.polyglot


def keys(path):
    bad = 0
    n = 0
    with open(path) as f:
        for line in f:
            fen, key = line.rstrip("\n").split("\t")
            board = chess.Board(fen)
            want = chess.polyglot.zobrist_hash(board)
            n += 1
            if want != int(key, 16):
                bad += 1
                if bad <= 10:
                    print(f"mismatch: {fen}: squall {key}, python-chess {want:016x}")
    print(f"ok {n - bad} of {n}")
    return 1 if bad else 0


def moves(book, path):
    with chess.polyglot.open_reader(book) as reader, open(path) as f:
        for line in f:
            fen = line.rstrip("\n")
            board = chess.Board(fen)
            found = [f"{e.move.uci()}:{e.weight}" for e in reader.find_all(board, minimum_weight=0)]
            print(fen + "\t" + " ".join(sorted(found)))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "keys":
        sys.exit(keys(sys.argv[2]))
    if len(sys.argv) == 4 and sys.argv[1] == "moves":
        sys.exit(moves(sys.argv[2], sys.argv[3]))
    print(__doc__)
    sys.exit(2)
