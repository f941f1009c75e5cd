#!/usr/bin/env python3
"""Checks every search in the engine I/O logs of `match.py --debug-log FILE` (FILE.w1, FILE.w2, ...)
against issue #50's strict-mode rules, per engine:
  - an `info` line with a score before every `bestmove`;
  - `bestmove` is the first move of the last PV reported (multipv 1);
  - a `score mate N` PV of a finished line (2N-1 plies for N > 0) ends in checkmate;
  - how long after `go` the `bestmove` came, against the engine's own hard limit (Squall's
    formula, tools/clock_overrun.py, with its Move Overhead): the log's times are python-chess's,
    so they include the pipe and the runner's scheduling;
  - the lowest clock the engine was given (`wtime`/`btime` of its own side).
usage: python3 tools/game_log_check.py LOG.w1 [LOG.w2 ...] [--overhead 30] [--base MS]
(--base: the time control's base time; searches given less than a tenth of it are counted)
"""
import argparse
import datetime
import re
import sys
from collections import defaultdict
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clock_overrun import hard_ms  # noqa: E402

LINE = re.compile(r"^(\S+ \S+) <\w+ \(pid=(\d+)\)>: (<<|>>) (.*)$")


def stamp(text):
    return datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S,%f").timestamp()


def board_of(cmd, chess960):
    """The board of a UCI `position` command (None when it cannot be read)."""
    words = cmd.split()
    try:
        if words[1] == "startpos":
            board, rest = chess.Board(chess960=chess960), words[2:]
        else:
            end = words.index("moves") if "moves" in words else len(words)
            board, rest = chess.Board(" ".join(words[2:end]), chess960=chess960), words[end:]
        for uci in rest[1:]:
            board.push_uci(uci)
        return board
    except (ValueError, IndexError):
        return None


def go_field(words, name):
    return int(words[words.index(name) + 1]) if name in words else None


class Engine:
    def __init__(self):
        self.name = "?"
        self.chess960 = False
        self.position = None
        self.search = None           # (go time, board, clock ms, hard ms, info lines)


def check(paths, overhead, base):
    stats = defaultdict(lambda: defaultdict(int))
    overruns = defaultdict(list)
    examples = defaultdict(list)
    lowest = defaultdict(lambda: 10 ** 9)
    for path in paths:
        engines = defaultdict(Engine)
        for raw in open(path, encoding="utf-8", errors="replace"):
            m = LINE.match(raw.rstrip("\n"))
            if not m:
                continue
            t, e, way, text = stamp(m.group(1)), engines[m.group(2)], m.group(3), m.group(4).strip()
            if way == ">>" and text.startswith("id name "):
                e.name = text[8:]
            elif way == "<<" and text.startswith("setoption name UCI_Chess960 value"):
                e.chess960 = text.endswith("true")
            elif way == "<<" and text.startswith("position "):
                e.position = text
            elif way == "<<" and text.startswith("go"):
                words = text.split()
                board = board_of(e.position or "position startpos", e.chess960)
                white = board is None or board.turn == chess.WHITE
                clock = go_field(words, "wtime" if white else "btime")
                inc = go_field(words, "winc" if white else "binc") or 0
                hard = hard_ms(clock, inc, go_field(words, "movestogo"), overhead) if clock else None
                if clock is not None:
                    lowest[e.name] = min(lowest[e.name], clock)
                    if base and clock < base / 10:
                        stats[e.name]["given under a tenth of the base"] += 1
                e.search = (t, board, clock, hard, [])
            elif way == ">>" and text.startswith("info") and e.search:
                words = text.split()
                if "score" in words and ("multipv" not in words or go_field(words, "multipv") == 1):
                    e.search[4].append(words)
            elif way == ">>" and text.startswith("bestmove") and e.search:
                finish(e, t, text.split(), stats[e.name], overruns[e.name], examples[e.name])
                e.search = None
    return stats, overruns, examples, lowest


def finish(e, t, words, st, over, ex):
    t0, board, clock, hard, infos = e.search
    st["searches"] += 1
    move = words[1] if len(words) > 1 else "(none)"
    if not infos:
        st["no scored info"] += 1
        ex.append(f"no scored info before bestmove {move}")
    else:
        last = infos[-1]
        pv = last[last.index("pv") + 1:] if "pv" in last else []
        if not pv or pv[0] != move:
            st["bestmove not the PV's first move"] += 1
            ex.append(f"bestmove {move} after pv {' '.join(pv[:3])}")
        if "mate" in last and board is not None:
            n = go_field(last, "mate")
            if n > 0 and len(pv) == 2 * n - 1 and "lowerbound" not in last and "upperbound" not in last:
                st["mate PVs checked"] += 1
                b = board.copy()
                try:
                    for uci in pv:
                        b.push_uci(uci)
                    if not b.is_checkmate():
                        raise ValueError("no mate")
                except ValueError:
                    st["mate PVs that do not mate"] += 1
                    ex.append(f"mate {n} pv {' '.join(pv)} does not mate from {board.fen()}")
    if hard is not None:
        over.append((t - t0) * 1000 - hard)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("logs", nargs="+", type=Path)
    ap.add_argument("--overhead", type=int, default=30, help="the engine's Move Overhead (ms)")
    ap.add_argument("--base", type=int, default=0, help="base time of the time control (ms)")
    args = ap.parse_args()
    stats, overruns, examples, lowest = check(args.logs, args.overhead, args.base)
    for name, st in stats.items():
        print(f"{name}: {st['searches']} searches; lowest clock given {lowest[name]} ms")
        for key in ("given under a tenth of the base", "no scored info", "bestmove not the PV's first move", "mate PVs checked",
                    "mate PVs that do not mate"):
            print(f"  {key}: {st[key]}")
        o = sorted(overruns[name])
        if o and name.startswith("Squall"):
            q = lambda f: o[min(len(o) - 1, int(f * len(o)))]
            print(f"  bestmove after go, past Squall's hard limit (ms, runner's clock): median {q(0.5):.0f} "
                  f"p99 {q(0.99):.0f} max {o[-1]:.0f}; over 10 ms: {sum(x > 10 for x in o)}, "
                  f"over 50 ms: {sum(x > 50 for x in o)}")
        for line in examples[name][:5]:
            print(f"    {line}")
    bad = sum(st["no scored info"] + st["bestmove not the PV's first move"] + st["mate PVs that do not mate"]
              for name, st in stats.items() if name.startswith("Squall"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
