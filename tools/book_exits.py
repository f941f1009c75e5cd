#!/usr/bin/env python3
"""Where the book side of a book-vs-no-book match left its book.

usage: book_exits.py MATCH.pgn BOOK.bin [BOOK_SIDE_NAME]

For every game, finds the first move of the side named BOOK_SIDE_NAME (default `book`, as
`match.py --new-name book` writes it) that is not in BOOK.bin, using python-chess's own
PolyGlot reader (an independent check of Squall's), and prints the distribution of that
half-move index (0-based) and the book side's score.
"""
import collections
import sys

import chess
import chess.pgn
import chess.polyglot


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    name = sys.argv[3] if len(sys.argv) > 3 else "book"
    exits = collections.Counter()
    points = 0.0
    games = 0
    with chess.polyglot.open_reader(sys.argv[2]) as book, open(sys.argv[1]) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            side = chess.WHITE if game.headers.get("White") == name else chess.BLACK
            result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(game.headers.get("Result"))
            if result is not None:
                points += result if side == chess.WHITE else 1.0 - result
            board = game.board()
            exit_ply = "never"
            for ply, move in enumerate(game.mainline_moves()):
                if board.turn == side and all(e.move != move for e in book.find_all(board)):
                    exit_ply = ply
                    break
                board.push(move)
            exits[exit_ply] += 1
    print(f"{games} games, {name} scored {points}/{games}")
    for ply in sorted(exits, key=lambda x: (isinstance(x, str), x)):
        print(f"  first non-book move at half-move {ply}: {exits[ply]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
