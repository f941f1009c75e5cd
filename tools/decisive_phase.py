#!/usr/bin/env python3
"""Where decisive games were decided, from a match PGN's `{score/depth time}` comments: for every
game Squall won or lost, the first move of the winner after which the winner's own score stayed
at +1.0 or more to the end (the decisive point), classified by the game's phase there (move
number), whether queens are on and how much piece material is left, and, in middlegames with
queens, by the winner's material lead and how many squares of the loser's king zone the winner
attacks. Comparing the losses' rows with the wins' rows shows in which kind of position Squall
is outplayed rather than merely how often.

Usage: tools/decisive_phase.py [--name squall] PGN...   (--name: the start of Squall's player
       name in the PGNs)
"""
import argparse
import collections

import chess
import chess.pgn

# The `{score/depth time}` comment reader (mates as ±100 pawns), beside this script in tools/.
from loss_onset import score

THRESHOLD = 1.0
# Piece values for the material lead and the non-pawn material (queens 9, rooks 5, minors 3).
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
# Non-pawn material of both sides at or above which a position counts as a middlegame (both
# queens and a rook each are 28; add a minor and it is 31).
MIDDLEGAME_NPM = 30


def decisive_point(game, winner):
    """The board after the winner's first move from which its own scores stay >= THRESHOLD,
    with that move's ply; None if the winner's last score is below it."""
    # One board walked along the main line: a node's `board()` and `ply()` climb to the root
    # each time; only the chosen node's board is built.
    board, points = game.board(), []
    for node in game.mainline():
        mover = board.turn
        board.push(node.move)
        s = score(node.comment)
        if mover == winner and s is not None:
            points.append((board.ply(), s, node))
    start = None
    for i in range(len(points) - 1, -1, -1):
        if points[i][1] < THRESHOLD:
            break
        start = i
    if start is None:
        return None
    ply, _, node = points[start]
    return ply, node.board()


def material(board, colour, pawns=True):
    return sum(
        len(board.pieces(kind, colour)) * value
        for kind, value in VALUES.items()
        if pawns or kind != chess.PAWN
    )


def classify(board, ply, winner):
    rows = []
    phase = "moves 9-19" if ply < 40 else "moves 20-39" if ply < 80 else "moves 40+"
    rows.append(("phase", phase))
    queens = bool(board.pieces(chess.QUEEN, chess.WHITE) or board.pieces(chess.QUEEN, chess.BLACK))
    npm = material(board, chess.WHITE, False) + material(board, chess.BLACK, False)
    big = npm >= MIDDLEGAME_NPM
    rows.append(("queens, pieces", f"{'queens' if queens else 'no queens'}, npm {'>=' if big else '<'} {MIDDLEGAME_NPM}"))
    if queens and big:
        lead = material(board, winner) - material(board, not winner)
        rows.append(("middlegame: winner's lead", "ahead" if lead > 0 else "level" if lead == 0 else "behind"))
        king = board.king(not winner)
        zone = chess.SquareSet(chess.BB_KING_ATTACKS[king]) | chess.SquareSet.from_square(king)
        hits = sum(1 for sq in zone if board.is_attacked_by(winner, sq))
        rows.append(("middlegame: loser's king-zone squares attacked", str(min(hits, 4)) + ("+" if hits >= 4 else "")))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--name", default="squall")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    outcome = collections.Counter()
    table = collections.defaultdict(collections.Counter)
    for path in args.pgn:
        with open(path, encoding="utf-8", errors="replace") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                squall = chess.WHITE if game.headers.get("White", "").startswith(args.name) else chess.BLACK
                result = game.headers.get("Result", "*")
                if result not in ("1-0", "0-1"):
                    outcome["draw or unfinished"] += 1
                    continue
                winner = chess.WHITE if result == "1-0" else chess.BLACK
                kind = "won" if winner == squall else "lost"
                outcome[kind] += 1
                point = decisive_point(game, winner)
                if point is None:
                    outcome[f"{kind}, no decisive point"] += 1
                    continue
                ply, board = point
                for key, value in classify(board, ply, winner):
                    table[(key, value)][kind] += 1
    print("games:", ", ".join(f"{k} {v}" for k, v in sorted(outcome.items())))
    print(f"{'where decided':58} {'lost':>5} {'won':>5}")
    for (key, value), counts in sorted(table.items()):
        print(f"{key + ': ' + value:58} {counts['lost']:5} {counts['won']:5}")


if __name__ == "__main__":
    main()
