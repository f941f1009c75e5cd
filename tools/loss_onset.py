#!/usr/bin/env python3
"""Usage: tools/loss_onset.py PGN NAME SQUALL_BINARY [MAX_GAMES]

For each game NAME lost: find the Squall move after which the opponent's score for Squall
first fell to <= -1.0; ask Stockfish (fixed nodes) how much that move lost; ask Squall at
growing node counts whether it would still play it."""
import chess, chess.pgn, chess.engine, re, sys, json
pgn, me, squall = sys.argv[1], sys.argv[2], sys.argv[3]
limit = int(sys.argv[4]) if len(sys.argv) > 4 else 999
sf = chess.engine.SimpleEngine.popen_uci('/usr/games/stockfish')
sf.configure({'Hash': 64, 'Threads': 1})
sq = chess.engine.SimpleEngine.popen_uci(squall)
sq.configure({'Hash': 64, 'OwnBook': False})
def sfscore(board, nodes=3_000_000):
    i = sf.analyse(board, chess.engine.Limit(nodes=nodes))
    return i['score'].pov(board.turn).score(mate_score=3000), i.get('pv', [None])[0]
f = open(pgn); out = []
while True:
    g = chess.pgn.read_game(f)
    if g is None or len(out) >= limit: break
    h = g.headers
    if not (h['White'].startswith(me) or h['Black'].startswith(me)): continue
    side = chess.WHITE if h['White'].startswith(me) else chess.BLACK
    if h['Result'] != ('0-1' if side == chess.WHITE else '1-0'): continue
    last_mine = None; onset = None
    for node in g.mainline():
        b = node.parent.board()
        m = re.match(r'\s*([+-]?\d+\.\d+|[+-]?M\d+)/(\d+)', node.comment or '')
        if b.turn == side:
            last_mine = (b.fen(), node.move, m.group(0) if m else '')
            continue
        if not m: continue
        s = m.group(1)
        v = (100.0 if not s.startswith('-') else -100.0) if 'M' in s else float(s)
        if -v <= -1.0 and last_mine:
            onset = last_mine; break
    if not onset: continue
    fen, move, note = onset
    board = chess.Board(fen)
    before, sfbest = sfscore(board)
    board.push(move); after = -sfscore(board)[0]; board.pop()
    picks = {}
    for n in (300_000, 1_200_000, 4_800_000):
        sq.configure({'Clear Hash': None}) if 'Clear Hash' in sq.options else None
        r = sq.play(board, chess.engine.Limit(nodes=n))
        picks[n] = board.san(r.move)
    row = dict(round=h['Round'], fen=fen, played=board.san(move), note=note, sf_before=before,
               sf_after=after, loss=before - after, sf_best=board.san(sfbest) if sfbest else None, squall=picks)
    out.append(row); print(json.dumps(row), flush=True)
sf.quit(); sq.quit()
