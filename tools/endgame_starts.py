#!/usr/bin/env python3
"""Endgame start positions for the tablebase games of issue #48, with their table values.

Draws random legal 3-4-piece positions of the classes below (seeded: the same file every run),
probes each with python-chess's own Syzygy reader (an independent reader of the same files),
and keeps, per class, won positions whose winner needs many moves (|DTZ| >= --min-dtz plies,
so the conversion is a real test) and drawn ones. Each EPD line carries its WDL and DTZ from
White's side of the board as the side to move sees them:

    FEN; c0 "KBNvK wdl 2 dtz 57";

    python3 tools/endgame_starts.py --syzygy ../shared/syzygy -o tools/endgame_starts.epd
"""
import argparse
import random
import sys

import chess
import chess.syzygy

# (white pieces besides the king, black pieces besides the king, won wanted, drawn wanted);
# pawn endings are short by DTZ (a pawn move zeroes it), so they take --min-dtz / 2.
CLASSES = [
    ("Q", "R", 3, 1),
    ("BN", "", 3, 0),
    ("BB", "", 2, 0),
    ("R", "N", 1, 2),
    ("R", "B", 0, 2),
    ("Q", "N", 2, 0),
    ("Q", "P", 2, 2),
    ("R", "P", 2, 2),
    ("P", "", 2, 2),
    ("P", "P", 2, 2),
    ("NN", "", 0, 1),
]


def random_position(rng, white, black):
    """A random legal position with the given material, either side to move, or None."""
    board = chess.Board(None)
    squares = list(range(64))
    rng.shuffle(squares)
    men = [(chess.KING, True), (chess.KING, False)]
    men += [(chess.Piece.from_symbol(s).piece_type, True) for s in white]
    men += [(chess.Piece.from_symbol(s).piece_type, False) for s in black]
    for (kind, colour), sq in zip(men, squares):
        if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
            return None
        board.set_piece_at(sq, chess.Piece(kind, colour))
    board.turn = rng.random() < 0.5
    if not board.is_valid() or board.is_game_over():
        return None
    return board


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--syzygy", default="../shared/syzygy")
    ap.add_argument("-o", "--output", default="tools/endgame_starts.epd")
    ap.add_argument("--seed", type=int, default=48)
    ap.add_argument("--min-dtz", type=int, default=20, help="least |DTZ| (plies) of a won start")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lines = []
    with chess.syzygy.open_tablebase(args.syzygy) as tb:
        for white, black, won_wanted, drawn_wanted in CLASSES:
            name = f"K{white}vK{black}"
            won, drawn = [], []
            tries = 0
            while (len(won) < won_wanted or len(drawn) < drawn_wanted) and tries < 20000:
                tries += 1
                board = random_position(rng, white, black)
                if board is None:
                    continue
                wdl = tb.probe_wdl(board)
                dtz = tb.probe_dtz(board)
                least = args.min_dtz // 2 if "P" in white + black else args.min_dtz
                if wdl in (2, -2) and abs(dtz) >= least and len(won) < won_wanted:
                    won.append((board, wdl, dtz))
                elif wdl == 0 and len(drawn) < drawn_wanted:
                    # A draw worth playing: the stronger material is not simply lost at once.
                    if any(board.is_capture(m) for m in board.legal_moves):
                        continue
                    drawn.append((board, wdl, dtz))
            if len(won) < won_wanted or len(drawn) < drawn_wanted:
                sys.exit(f"{name}: found only {len(won)} won and {len(drawn)} drawn starts")
            print(f"{name}: {len(won)} won, {len(drawn)} drawn ({tries} tries)", file=sys.stderr)
            for board, wdl, dtz in won + drawn:
                lines.append(f'{board.epd()} c0 "{name} wdl {wdl} dtz {dtz}";')
    with open(args.output, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(f"{len(lines)} positions in {args.output}")


if __name__ == "__main__":
    main()
