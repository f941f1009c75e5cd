#!/usr/bin/env python3
"""Relabel a `squall-lab datagen` file with another engine's search score.

Each position line `FEN c9 "RESULT"; ce SCORE;` is searched by a UCI engine (Debian's
Stockfish by default) for a fixed number of nodes, one thread, and written again with the
engine's score (centipawns, side to move) in `ce` and Squall's own score kept as `c8`:
`FEN c9 "RESULT"; ce ENGINE_SCORE; c8 "SQUALL_SCORE";`. `# game` lines pass through, so the
games stay whole. A mate score is written as +-MATE_CP.

The engine's centipawns are not Squall's: `fit` finds, on a relabelled file, the factor that
makes sigma(K * scale * score) predict the results best for the K the tuner fits, and
`rescale IN OUT --scale C` writes a copy with the factor applied.

Resumable: PART of N (contiguous slices of the position lines) appends to OUT.partP and skips
the lines it already wrote; `join` concatenates the parts into OUT when all are complete.
A single-threaded engine with fixed nodes gives the same labels on every run, resumed or not:
the engine's hash is cleared (`ucinewgame`) at each `# game` line (datagen ends every game with
one), so a label depends only on the positions of its own game before it, and a resume first
cuts its part back to the last `# game` line it wrote and goes on from there.

  tools/sf_relabel.py label IN OUT --part 0 --parts 2 --nodes 1000 &
  tools/sf_relabel.py label IN OUT --part 1 --parts 2 --nodes 1000 &
  tools/sf_relabel.py join IN OUT --parts 2
  tools/sf_relabel.py label IN OUT --parts 2 --nodes 1000 --all   # the three lines above
  tools/sf_relabel.py fit OUT --k 1.07
  tools/sf_relabel.py rescale OUT SCALED --scale 0.75
  tools/sf_relabel.py label IN OUT --parts 2 --all --engine /usr/games/ethereal-chess --depth 9 \
      --option ContemptDrawPenalty=0 --option ContemptComplexity=0   # Ethereal 12: no `go nodes`
"""

import argparse
import math
import os
import subprocess
import sys
import time

MATE_CP = 3000
# Ethereal 12 hangs after about 32,700 searches, both sides of the pipe waiting; its address space
# grows by a thread stack (8 MB) each `go`, apparently a thread never joined, and 32,765 is half
# the kernel's map limit (65,530), two maps a stack.
# A fresh engine every this many searches, at a game's end where the hash is cleared anyway,
# keeps the labels the same as one engine would give.
RESTART_AFTER = 10000


def position_lines(path):
    """How many position lines (not `# game` lines, not blank) `path` holds."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return sum(1 for line in f if line.strip() and not line.startswith("#"))


def fen_of(line):
    head = line.split(" c9", 1)[0].split(";", 1)[0].split()
    if len(head) < 4:
        return None
    if len(head) == 4:
        head += ["0", "1"]
    return " ".join(head[:6])


def ce_of(line):
    """The value of the `ce` operation of an EPD line, as written."""
    words = line.replace(";", " ").split()
    if "ce" in words:
        i = words.index("ce")
        if i + 1 < len(words):
            return words[i + 1]
    return None


class Engine:
    def __init__(self, path, hash_mb, go, options=()):
        self.go = go  # what follows `go`: `nodes N`, or `depth D` for Ethereal 12, which answers `go nodes` at depth 1
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.searches = 0
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send(f"setoption name Hash value {hash_mb}")
        for option in options:  # NAME=VALUE, e.g. Ethereal's contempt off: its score favours the side to move
            name, _, value = option.partition("=")
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            if line.startswith(token):
                return line

    def score(self, fen):
        self.searches += 1
        self.send(f"position fen {fen}")
        self.send(f"go {self.go}")
        last = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            if " score " in line:
                last = line
            if line.startswith("bestmove"):
                break
        if last is None:
            return None
        kind, value = last.split(" score ", 1)[1].split()[:2]
        v = int(value)
        if kind == "mate":
            return MATE_CP if v > 0 else -MATE_CP
        return v

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def back_to_game_start(path):
    """Cut `path` back to the start of its last `# game` line (to nothing when it has none, and
    so also past a line cut short), so that a resumed part labels the next game from its start
    with an empty hash, as an uninterrupted run did. Returns the lines left."""
    if not os.path.exists(path):
        return 0
    with open(path, "rb") as f:
        data = f.read()
    cut = data.rfind(b"\n#") + 1  # 0 when there is no `# game` line after the first
    with open(path, "r+b") as f:
        f.truncate(cut)
    return data[:cut].count(b"\n")


def label(args):
    total = position_lines(args.input)
    lo = total * args.part // args.parts
    hi = total * (args.part + 1) // args.parts
    out = f"{args.output}.part{args.part}"
    done = back_to_game_start(out)  # output lines: positions and game lines of this slice
    go = f"depth {args.depth}" if args.depth > 0 else f"nodes {args.nodes}"
    engine = Engine(args.engine, args.hash, go, args.option)
    started = time.time()
    written = 0  # positions labelled by this run
    index = -1
    with open(args.input, encoding="utf-8", errors="replace") as f, open(
        out, "a", encoding="utf-8"
    ) as w:
        emitted = 0
        for line in f:
            line = line.rstrip("\n")
            is_game = line.startswith("#")
            if not is_game and line.strip():
                index += 1
            # datagen writes a game's `# game` line after its positions: the line belongs to the
            # slice of the position before it.
            at = max(index, 0) if is_game else index
            if at >= hi:
                break
            if at < lo:
                continue
            if not line.strip():
                continue
            emitted += 1
            if emitted <= done:
                continue
            if is_game:
                if engine.searches >= RESTART_AFTER:
                    engine.close()
                    engine = Engine(args.engine, args.hash, go, args.option)
                engine.new_game()
                w.write(line + "\n")
                continue
            fen = fen_of(line)
            s = engine.score(fen) if fen else None
            if s is None:
                w.write(line + "\n")
            else:
                head = line.split("; ce", 1)[0].rstrip(";")
                own = ce_of(line)
                tail = f' c8 "{own}";' if own is not None else ""
                w.write(f"{head}; ce {s};{tail}\n")
            written += 1
            if written % 2000 == 0:
                w.flush()
                rate = written / (time.time() - started)
                positions = index + 1 - lo
                left = hi - 1 - index
                print(
                    f"part {args.part}: {positions}/{hi - lo} positions, "
                    f"{rate:.0f} pos/s, ETA {left / max(rate, 1e-9) / 60:.0f} min",
                    flush=True,
                )
    engine.close()
    print(f"part {args.part}: done, {written} positions labelled this run", flush=True)


def label_all(args):
    """Every part at once, one process each (one engine thread each), then `join`."""
    children = []
    for part in range(args.parts):
        cmd = [sys.executable, os.path.abspath(__file__), "label", args.input, args.output,
               "--engine", args.engine, "--nodes", str(args.nodes), "--depth", str(args.depth),
               "--hash", str(args.hash), *[x for o in args.option for x in ("--option", o)],
               "--part", str(part), "--parts", str(args.parts)]
        children.append(subprocess.Popen(cmd))
    failed = [i for i, c in enumerate(children) if c.wait() != 0]
    if failed:
        raise RuntimeError(f"parts {failed} failed; run the same command again to resume")
    join(args)


def join(args):
    parts = [f"{args.output}.part{i}" for i in range(args.parts)]
    tmp = args.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as w:
        for p in parts:
            with open(p, encoding="utf-8") as f:
                for line in f:
                    w.write(line)
    os.replace(tmp, args.output)
    print(f"joined {len(parts)} parts into {args.output}")


def read_labelled(path):
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.startswith("#") or '"' not in line:
            continue
        res = line.split('c9 "', 1)[1].split('"', 1)[0]
        r = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(res)
        s = ce_of(line)
        if r is None or s is None:
            continue
        black = line.split()[1] == "b"
        v = float(s)
        yield (r, -v if black else v)


def fit(args):
    data = [x for x in read_labelled(args.input) if abs(x[1]) < MATE_CP]
    k = args.k

    def err(c):
        return sum((r - 1.0 / (1.0 + 10 ** (-k * c * s / 400.0))) ** 2 for r, s in data) / len(data)

    lo, hi = 0.1, 3.0
    for _ in range(40):  # golden-section search on a unimodal error
        a = hi - (hi - lo) / 1.618
        b = lo + (hi - lo) / 1.618
        if err(a) < err(b):
            hi = b
        else:
            lo = a
    c = (lo + hi) / 2
    print(f"{len(data)} positions, K {k}: best scale {c:.4f}, E {err(c):.6f} (scale 1: {err(1.0):.6f})")


def rescale(args):
    tmp = args.output + ".tmp"
    with open(args.input, encoding="utf-8") as f, open(tmp, "w", encoding="utf-8") as w:
        for line in f:
            if line.startswith("#") or "; ce " not in line:
                w.write(line)
                continue
            head, rest = line.split("; ce ", 1)
            value, tail = rest.split(";", 1)
            v = int(value)
            v = round(v * args.scale) if abs(v) < MATE_CP else v
            w.write(f"{head}; ce {v};{tail}")
    os.replace(tmp, args.output)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("label")
    a.add_argument("input")
    a.add_argument("output")
    a.add_argument("--engine", default="/usr/games/stockfish")
    a.add_argument("--nodes", type=int, default=1000)
    a.add_argument("--depth", type=int, default=0, help="search to this depth instead (0: --nodes)")
    a.add_argument("--option", action="append", default=[], help="NAME=VALUE, a UCI option to set")
    a.add_argument("--hash", type=int, default=16)
    a.add_argument("--part", type=int, default=0)
    a.add_argument("--parts", type=int, default=1)
    a.add_argument("--all", action="store_true", help="run every part at once, then join")
    j = sub.add_parser("join")
    j.add_argument("input")
    j.add_argument("output")
    j.add_argument("--parts", type=int, default=1)
    f = sub.add_parser("fit")
    f.add_argument("input")
    f.add_argument("--k", type=float, required=True)
    r = sub.add_parser("rescale")
    r.add_argument("input")
    r.add_argument("output")
    r.add_argument("--scale", type=float, required=True)
    args = ap.parse_args()
    try:
        commands = {"label": label, "join": join, "fit": fit, "rescale": rescale}
        run = label_all if args.cmd == "label" and args.all else commands[args.cmd]
        run(args)
    except (OSError, RuntimeError, ValueError) as e:
        print(f"sf_relabel: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
