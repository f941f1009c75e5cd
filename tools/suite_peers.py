#!/usr/bin/env python3
"""Score a UCI engine on EPD test suites the way `squall suite` scores Squall.

A position counts as solved when the engine's final `bestmove` at `go movetime MS` is in `bm`
(when there is one) and not in `am`; with `dm N` the reported score must also be a mate in at
most N. Each position starts with `ucinewgame`. Malformed lines are reported and skipped.

Setup (Debian):
    apt-get install -y toga2 ethereal-chess
    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install chess

Examples (single thread, 64 MB hash, as the figures in suites/README.md):
    /tmp/venv/bin/python tools/suite_peers.py --engine /usr/games/toga2 --movetime 1000 suites/wac.epd
    /tmp/venv/bin/python tools/suite_peers.py --engine /usr/games/ethereal-chess --movetime 5000 \\
        suites/ecm.epd --report reports/ethereal-ecm-5000.json

Threads are set to 1 (`Threads`, or Toga's `Number of Threads`), `Hash` to 64 and `OwnBook` to
false wherever the engine has such options; `--option NAME=VALUE` sets others. `--report` writes
a JSON file that `squall suite --compare` can read (per-position `file`, `id`, `solved`).
"""

import argparse
import json
import os
import sys
import time

import chess
import chess.engine


def parse_selection(text):
    """`1..30,45,WAC.29` -> (list of (a, b) ranges, list of id prefixes)."""
    ranges, prefixes = [], []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if ".." in part:
            a, b = part.split("..", 1)
            ranges.append((int(a) if a else 1, int(b) if b else sys.maxsize))
        elif part[0].isdigit():
            ranges.append((int(part), int(part)))
        else:
            prefixes.append(part)
    return ranges, prefixes


def selected(selection, index, ident):
    if selection is None:
        return True
    ranges, prefixes = selection
    return any(a <= index <= b for a, b in ranges) or any(ident.startswith(p) for p in prefixes)


def read_epd(path):
    """Yields (index, line number, board, operations) or (index, line number, None, error)."""
    index = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            index += 1
            try:
                board, ops = chess.Board.from_epd(text)
                if not board.is_valid():
                    raise ValueError(f"illegal position ({board.status()!r})")
                yield index, number, board, ops
            except ValueError as e:
                yield index, number, None, str(e)


def configure(engine, threads, hash_mb, extra):
    opts = {}
    names = {name.lower(): name for name in engine.options}
    for wanted, value in (("threads", threads), ("number of threads", threads),
                          ("hash", hash_mb), ("ownbook", False)):
        if wanted in names:
            opts[names[wanted]] = value
    for item in extra:
        name, _, value = item.partition("=")
        opts[names.get(name.lower(), name)] = value
    engine.configure(opts)
    return opts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="EPD files")
    ap.add_argument("--engine", required=True, help="UCI engine command")
    ap.add_argument("--movetime", type=int, default=1000, help="milliseconds per position")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=64, help="hash table MB")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE, repeatable")
    ap.add_argument("--ids", help="1-based index ranges A..B and/or id prefixes, comma-separated")
    ap.add_argument("--report", help="write per-position results as JSON")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per position")
    args = ap.parse_args()
    selection = parse_selection(args.ids) if args.ids else None

    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    opts = configure(engine, args.threads, args.hash, args.option)
    name = engine.id.get("name", os.path.basename(args.engine))
    print(f"{name}: go movetime {args.movetime}, options {opts}")
    limit = chess.engine.Limit(time=args.movetime / 1000)
    positions, grand = [], [0, 0]
    try:
        for path in args.files:
            solved = total = 0
            failed, malformed = [], []
            started = time.time()
            for index, number, board, ops in read_epd(path):
                if board is None:
                    malformed.append(number)
                    print(f"{path}: skipped malformed line {number}: {ops}")
                    continue
                ident = str(ops.get("id", f"#{index}"))
                if not selected(selection, index, ident):
                    continue
                bm, am, dm = ops.get("bm", []), ops.get("am", []), ops.get("dm")
                # A fresh game object makes python-chess send ucinewgame.
                result = engine.play(board, limit, game=object(), info=chess.engine.INFO_SCORE)
                move = result.move
                ok = move is not None and (not bm or move in bm) and move not in am
                if ok and dm is not None:
                    score = result.info.get("score")
                    mate = score.pov(board.turn).mate() if score is not None else None
                    ok = mate is not None and 0 < mate <= int(dm)
                total += 1
                solved += ok
                if not ok:
                    failed.append(ident)
                san = board.san(move) if move is not None else "-"
                if args.verbose:
                    expected = " ".join(board.san(m) for m in bm)
                    print(f"{index:5} {ident:12} {'solved' if ok else 'FAILED'}  {san:8} bm {expected}")
                else:
                    print(f"\r[{total}] {path} solved {solved}", end="", file=sys.stderr, flush=True)
                positions.append({"file": path, "index": index, "line": number, "id": ident,
                                  "solved": ok, "solution_ms": None, "best": san,
                                  "best_uci": move.uci() if move else "-"})
            if not args.verbose:
                print("", file=sys.stderr)
            pct = 100.0 * solved / total if total else 0.0
            print(f"-- {path}: {solved}/{total} solved ({pct:.1f}%) at movetime {args.movetime} ms"
                  f" in {time.time() - started:.0f} s")
            print(f"   failed ({len(failed)}): {' '.join(failed)}")
            if malformed:
                print(f"   malformed lines skipped ({len(malformed)}): "
                      f"{' '.join(map(str, malformed))}")
            grand[0] += solved
            grand[1] += total
    finally:
        engine.quit()
    if len(args.files) > 1:
        print(f"== total: {grand[0]}/{grand[1]} solved")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump({"engine": name, "limit": {"movetime": args.movetime},
                       "threads": args.threads, "hash_mb": args.hash,
                       "positions": positions}, f, indent=1)


if __name__ == "__main__":
    main()
