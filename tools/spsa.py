#!/usr/bin/env python3
"""SPSA for Squall's search constants: game pairs through python-chess, OpenBench's update rule.

The engine is a `tune` build (`cargo build --release --features tune --target-dir target/tune`),
which lists every constant of engine/src/search/params.rs and time.rs as a UCI spin option with
its range; floating-point constants are options in hundredths (LMR_BASE 0.75 is 75). This
driver treats every parameter as such an integer option and moves it by simultaneous
perturbation stochastic approximation (SPSA), exactly as OpenBench does:

  setup (per parameter i, N = --iterations, A = --a-ratio * N, alpha = 0.602, gamma = 0.101)
      c_i = c_end_i * N^gamma
      a_i = r_end_i * c_end_i^2 * (A + N)^alpha
  iteration k = 1 .. N
      c_ki = max(c_i / k^gamma, 0.5)          (0.5: OpenBench's floor for integer parameters)
      R_ki = a_i / (A + k)^alpha / c_ki^2
      D_i  = +1 or -1, a fair coin per parameter
      theta+_i = clamp(floor(theta_i + c_ki * D_i + u_i))
      theta-_i = clamp(floor(theta_i - c_ki * D_i + u_i))
                 u_i uniform in [0, 1), one draw shared by both sides (OpenBench's stochastic
                 rounding: the expected option values are theta_i +- c_ki exactly)
      play P game pairs (--pairs-per-iteration) theta+ against theta-, each pair one opening with
      colours swapped; result = wins - losses of theta+ over those games
                               (= score(theta+) - score(theta-), in points)
      theta_i <- clamp(theta_i + R_ki * c_ki * result * D_i)
              =  clamp(theta_i + a_i / (A + k)^alpha * result / (c_ki * D_i))

clamp() is the parameter's [min, max]. At k = N the step is r_end * c_end per point of result,
so r_end is the learning rate at the end, in units of c_end. This is the published form of
OpenBench (AndyGrant/OpenBench: OpenBench/workloads/create_workload.py computes c, a_end and a;
OpenBench/spsa_utils.py the per-assignment c, r, flips and rounding; Client/worker.py
delta = r * c * (W - L) * flip; the server adds the deltas and clamps). One difference: OpenBench
numbers iterations per workload (all runners of a machine share k); here every iteration has
its own k.

Iterations are played in batches of --batch iterations (default: enough to keep --concurrency
workers busy). All perturbations of a batch are drawn from theta at the batch's start, as
OpenBench draws a workload's perturbations from the server's values; the updates are applied
when the whole batch is in. After each batch the state file is replaced atomically (temporary
file + os.replace): iteration, pairs, games, W/D/L of theta+, the pair-score counts, problems,
theta (floats) and the settings. The perturbation of iteration k and the opening of pair j come
from generators seeded by (--seed, k) and (--seed), so the state needs no generator state and
rerunning the same command continues where the last finished batch left off.

Usage (from the repository root; parameters in tools/spsa/params.json):

    cargo build --release --features tune --target-dir target/tune
    python3 tools/spsa.py --params tools/spsa/params.json --state spsa-state.json \\
        --history spsa-history.csv --iterations 30000 --nodes 20000 --concurrency 15
    python3 tools/spsa.py --state spsa-state.json --write-params     # theta into the Rust source

The parameter file is JSON: {"r_end": 0.002, "parameters": [{"name": "LMR_BASE", "c_end": 8},
...]}. Per parameter: name (a UCI option of the engine), start (default: the engine's default),
min and max (default: the option's range; narrower is allowed), c_end (default: (max - min) / 20)
and r_end (default: the top-level r_end, else 0.002). --r-end R replaces the top-level r_end
(not a parameter's own); it is part of the run, so a resume gives it again.

Only python-chess (1.11) beside the standard library.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import math
import multiprocessing
import multiprocessing.util
import os
import random
import re
import shlex
import signal
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import chess
import chess.engine
import chess.pgn

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ENGINE = REPO / "target" / "tune" / "release" / "squall"
DEFAULT_OPENINGS = REPO.parent / "shared" / "openings" / "8moves_v3.pgn"
DEFAULT_SOURCE_DIR = REPO / "engine" / "src" / "search"
STATE_VERSION = 1
# Pair scores of theta+ (0, 0.5, 1, 1.5, 2 points) as W - L: -2 .. +2.
PAIR_KEYS = ["-2", "-1", "0", "+1", "+2"]


# ----------------------------------------------------------------------------------------------
# Parameters and the SPSA schedule
# ----------------------------------------------------------------------------------------------
@dataclass
class Param:
    name: str
    start: float
    min: int
    max: int
    c_end: float
    r_end: float


@dataclass
class Schedule:
    iterations: int
    a_ratio: float = 0.1
    alpha: float = 0.602
    gamma: float = 0.101

    @property
    def big_a(self) -> float:
        return self.a_ratio * self.iterations

    def c_k(self, p: Param, k: int) -> float:
        c = p.c_end * self.iterations ** self.gamma
        return max(c / k ** self.gamma, 0.5)

    def a_k(self, p: Param, k: int) -> float:
        a = p.r_end * p.c_end ** 2 * (self.big_a + self.iterations) ** self.alpha
        return a / (self.big_a + k) ** self.alpha


def clamp(x: float, p: Param) -> float:
    return min(max(x, p.min), p.max)


def perturbation(params: List[Param], theta: Dict[str, float], schedule: Schedule, seed: int,
                 k: int) -> Tuple[Dict[str, int], Dict[str, int], Dict[str, int]]:
    """Iteration k's flips D and option values theta+ and theta-, from a generator seeded by (seed, k)."""
    rng = random.Random(f"spsa/{seed}/{k}")
    flips, plus, minus = {}, {}, {}
    for p in params:
        flip = rng.choice((-1, 1))
        u = rng.random()
        c = schedule.c_k(p, k)
        flips[p.name] = flip
        plus[p.name] = int(clamp(math.floor(theta[p.name] + c * flip + u), p))
        minus[p.name] = int(clamp(math.floor(theta[p.name] - c * flip + u), p))
    return flips, plus, minus


def update(params: List[Param], theta: Dict[str, float], schedule: Schedule, k: int,
           flips: Dict[str, int], result: int) -> None:
    """theta_i += a_k * result / (c_k * D_i), clamped (OpenBench's r * c * result * flip)."""
    for p in params:
        c = schedule.c_k(p, k)
        theta[p.name] = clamp(theta[p.name] + schedule.a_k(p, k) * result / (c * flips[p.name]), p)


def engine_options(argv: List[str]) -> Tuple[Dict[str, Tuple[int, int, int]], set]:
    """The engine's spin options (name -> (default, min, max)) and the names of all its options."""
    engine = chess.engine.SimpleEngine.popen_uci(argv)
    try:
        spins = {o.name: (int(o.default), int(o.min), int(o.max))
                 for o in engine.options.values() if o.type == "spin"}
        return spins, {o.name for o in engine.options.values()}
    finally:
        engine.quit()


def load_params(path: Path, spins: Dict[str, Tuple[int, int, int]],
                r_end: Optional[float] = None) -> List[Param]:
    with open(path, encoding="utf-8") as f:
        config = json.load(f)
    r_end_default = r_end if r_end is not None else float(config.get("r_end", 0.002))
    params = []
    for entry in config["parameters"]:
        name = entry["name"]
        if name not in spins:
            raise SystemExit(f"{path}: {name} is not a spin option of the engine "
                             "(is it a `--features tune` build?)")
        default, lo, hi = spins[name]
        p = Param(name=name, start=float(entry.get("start", default)), min=int(entry.get("min", lo)),
                  max=int(entry.get("max", hi)), c_end=0.0, r_end=float(entry.get("r_end", r_end_default)))
        p.c_end = float(entry.get("c_end", (p.max - p.min) / 20))
        if not lo <= p.min <= p.start <= p.max <= hi:
            raise SystemExit(f"{path}: {name} needs {lo} <= min {p.min} <= start {p.start} "
                             f"<= max {p.max} <= {hi}")
        if p.c_end <= 0 or p.r_end <= 0:
            raise SystemExit(f"{path}: {name} needs c_end > 0 and r_end > 0")
        params.append(p)
    if len({p.name for p in params}) != len(params):
        raise SystemExit(f"{path}: a parameter is listed twice")
    return params


# ----------------------------------------------------------------------------------------------
# Openings
# ----------------------------------------------------------------------------------------------
class Openings:
    """The main lines of a PGN in an order shuffled by the seed; games are parsed when first used."""

    def __init__(self, path: Path, seed: int):
        self.file = open(path, encoding="utf-8-sig", errors="replace")
        self.offsets = []
        while True:
            offset = self.file.tell()
            if not chess.pgn.skip_game(self.file):
                break
            self.offsets.append(offset)
        if not self.offsets:
            raise SystemExit(f"no games in {path}")
        self.order = list(range(len(self.offsets)))
        random.Random(seed).shuffle(self.order)

    def get(self, j: int) -> Tuple[Optional[str], List[str]]:
        """Opening of pair j: (start FEN or None, UCI moves). Unusable games are skipped."""
        n = len(self.order)
        for step in range(n):
            self.file.seek(self.offsets[self.order[(j + step) % n]])
            game = chess.pgn.read_game(self.file)
            if game is None or game.errors:
                continue
            board = game.board()
            fen = None if board.fen() == chess.STARTING_FEN else board.fen()
            moves = list(game.mainline_moves())
            for m in moves:
                board.push(m)
            if not board.is_game_over():
                return fen, [m.uci() for m in moves]
        raise SystemExit("no usable opening")


# ----------------------------------------------------------------------------------------------
# Games (inside the worker processes)
# ----------------------------------------------------------------------------------------------
@dataclass
class GameSettings:
    argv: List[str]
    options: Dict[str, object]
    nodes: Optional[int]
    base: float             # clock seconds (tc mode)
    inc: float
    margin: float           # overrun allowed before a time loss
    stall: float            # seconds without a move before the engine counts as hung
    max_moves: int
    resign: Optional[Tuple[int, int]]
    draw: Optional[Tuple[int, int, int]]


class Player:
    """One engine process of a worker, started when needed and restarted after a crash or stall."""

    def __init__(self, settings: GameSettings):
        self.settings = settings
        self.protocol: Optional[chess.engine.UciProtocol] = None
        self.transport = None

    async def ready(self, values: Dict[str, int]) -> chess.engine.UciProtocol:
        if self.protocol is not None and self.protocol.returncode.done():
            await self.kill()
        if self.protocol is None:
            self.transport, self.protocol = await chess.engine.popen_uci(self.settings.argv)
            await self.protocol.configure(self.settings.options)
        await self.protocol.configure(values)
        return self.protocol

    async def kill(self) -> None:
        if self.transport is not None:
            try:
                self.transport.kill()
            except ProcessLookupError:
                pass
            self.transport.close()
        self.transport = self.protocol = None

    async def quit(self) -> None:
        if self.protocol is not None and not self.protocol.returncode.done():
            try:
                await asyncio.wait_for(self.protocol.quit(), 2)
            except (asyncio.TimeoutError, chess.engine.EngineError):
                pass
        await self.kill()


def rules_outcome(board: chess.Board, max_moves: int) -> Optional[str]:
    """The result when the game is over by the rules (repetition and 50 moves as they happen)."""
    outcome = board.outcome()
    if outcome is not None:
        return outcome.result()
    if board.is_repetition(3) or board.is_fifty_moves() or board.fullmove_number > max_moves:
        return "1/2-1/2"
    return None


def adjudicate(history: List[Optional[int]], board: chess.Board, s: GameSettings) -> Optional[str]:
    """Resign and draw adjudication on both engines' scores (White's view, one per move)."""
    if s.resign:
        moves, cp = s.resign
        last = history[-2 * moves:]
        if len(last) == 2 * moves and None not in last:
            if all(v >= cp for v in last):
                return "1-0"
            if all(v <= -cp for v in last):
                return "0-1"
    if s.draw:
        from_move, moves, cp = s.draw
        last = history[-2 * moves:]
        if (board.fullmove_number >= from_move and len(last) == 2 * moves and None not in last
                and all(abs(v) <= cp for v in last)):
            return "1/2-1/2"
    return None


async def play_game(players: Dict[bool, Player], values: Dict[bool, Dict[str, int]], fen: Optional[str],
                    moves: List[str], s: GameSettings, problems: Dict[str, int]) -> str:
    """One game; players and values are keyed by colour. Returns the PGN result."""
    board = chess.Board(fen) if fen else chess.Board()
    for m in moves:
        board.push_uci(m)
    game_key = object()
    engines = {}
    for color in (chess.WHITE, chess.BLACK):
        try:
            engines[color] = await asyncio.wait_for(players[color].ready(values[color]), 30)
        except (asyncio.TimeoutError, chess.engine.EngineError, OSError):
            await players[color].kill()
            problems["crash"] += 1
            return "0-1" if color == chess.WHITE else "1-0"
    clocks = {chess.WHITE: s.base, chess.BLACK: s.base}
    history: List[Optional[int]] = []
    while True:
        result = rules_outcome(board, s.max_moves) or adjudicate(history, board, s)
        if result:
            return result
        color = board.turn
        loss = "0-1" if color == chess.WHITE else "1-0"
        if s.nodes:
            limit = chess.engine.Limit(nodes=s.nodes)
            deadline = s.stall
        else:
            limit = chess.engine.Limit(white_clock=max(clocks[chess.WHITE], 0.001),
                                       black_clock=max(clocks[chess.BLACK], 0.001),
                                       white_inc=s.inc, black_inc=s.inc)
            deadline = max(clocks[color], 0.0) + s.margin + s.stall
        t0 = time.monotonic()
        try:
            played = await asyncio.wait_for(
                engines[color].play(board, limit, game=game_key, info=chess.engine.INFO_SCORE), deadline)
        except asyncio.TimeoutError:
            await players[color].kill()
            problems["stall"] += 1
            return loss
        except chess.engine.EngineError as err:   # an illegal move, or the engine died
            await players[color].kill()
            illegal = bool(err.args) and isinstance(err.args[0], ValueError)
            problems["illegal" if illegal else "crash"] += 1
            return loss
        elapsed = time.monotonic() - t0
        if not s.nodes:
            clocks[color] -= elapsed
            if clocks[color] < -s.margin:
                problems["time"] += 1
                return "1/2-1/2" if board.has_insufficient_material(not color) else loss
            clocks[color] += s.inc
        if played.move is None or played.move not in board.legal_moves:
            problems["illegal"] += 1
            return loss
        board.push(played.move)
        score = played.info.get("score")
        history.append(score.white().score(mate_score=100_000) if score else None)


_WORKER: Dict[str, object] = {}


def worker_init(settings: GameSettings) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the main process's to handle
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    players = {"plus": Player(settings), "minus": Player(settings)}
    _WORKER.update(settings=settings, loop=loop, players=players)

    def close() -> None:
        for player in players.values():
            loop.run_until_complete(player.quit())

    multiprocessing.util.Finalize(None, close, exitpriority=10)


def play_pair(job: dict) -> dict:
    """Two games of theta+ against theta- on one opening, theta+ White first. W/D/L from theta+'s side."""
    s: GameSettings = _WORKER["settings"]
    loop: asyncio.AbstractEventLoop = _WORKER["loop"]
    plus, minus = _WORKER["players"]["plus"], _WORKER["players"]["minus"]
    problems = {"time": 0, "illegal": 0, "crash": 0, "stall": 0}
    w = d = l = 0
    for plus_color in (chess.WHITE, chess.BLACK):
        players = {plus_color: plus, not plus_color: minus}
        values = {plus_color: job["plus"], not plus_color: job["minus"]}
        result = loop.run_until_complete(play_game(players, values, job["fen"], job["moves"], s, problems))
        if result == "1/2-1/2":
            d += 1
        elif (result == "1-0") == (plus_color == chess.WHITE):
            w += 1
        else:
            l += 1
    return {"k": job["k"], "w": w, "d": d, "l": l, "problems": problems}


# ----------------------------------------------------------------------------------------------
# State, history and progress
# ----------------------------------------------------------------------------------------------
def write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent or ".", prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def new_state(params: List[Param], schedule: Schedule, args) -> dict:
    return {
        "version": STATE_VERSION,
        "settings": {"iterations": schedule.iterations, "a_ratio": schedule.a_ratio,
                     "alpha": schedule.alpha, "gamma": schedule.gamma,
                     "pairs_per_iteration": args.pairs_per_iteration, "seed": args.seed},
        "params": [asdict(p) for p in params],
        "iteration": 0, "pairs": 0, "games": 0,
        "wdl": [0, 0, 0],
        "pair_results": {key: 0 for key in PAIR_KEYS},
        "problems": {"time": 0, "illegal": 0, "crash": 0, "stall": 0},
        "theta": {p.name: p.start for p in params},
        "elapsed": 0.0,
    }


def check_resume(state: dict, fresh: dict, path: Path) -> None:
    """The saved run must be the one this command describes."""
    if state.get("version") != STATE_VERSION:
        raise SystemExit(f"{path}: state version {state.get('version')}, expected {STATE_VERSION}")
    differ = [key for key in fresh["settings"] if state["settings"].get(key) != fresh["settings"][key]]
    if state["params"] != fresh["params"]:
        differ.append("params")
    if differ:
        raise SystemExit(f"{path} holds another run ({', '.join(differ)} differ); "
                         "give the same settings, or a new --state file")


class History:
    """One CSV row per iteration: iteration, games, then theta per parameter."""

    def __init__(self, path: Optional[Path], names: List[str], done: int):
        self.path, self.names = path, names
        if path is None:
            return
        header = ",".join(["iteration", "games"] + names)
        if path.exists() and path.stat().st_size > 0:
            lines = path.read_text(encoding="utf-8").splitlines()
            if lines[0] != header:
                raise SystemExit(f"{path}: another run's history (its header is not {header})")
            # Rows past the saved state come from a batch that did not finish: it is played again.
            kept = [lines[0]] + [row for row in lines[1:] if int(row.split(",")[0]) <= done]
            if len(kept) != len(lines):
                write_atomic(path, "\n".join(kept) + "\n")
        else:
            write_atomic(path, header + "\n")

    def append(self, rows: List[str]) -> None:
        if self.path is not None and rows:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write("".join(row + "\n" for row in rows))


def format_value(x: float) -> str:
    return f"{x:.1f}" if abs(x) < 1000 else f"{x:.0f}"


def progress_line(state: dict, params: List[Param], batch_elapsed: float, show: int) -> str:
    s = state
    n = s["settings"]["iterations"]
    pr = " ".join(f"{key}:{s['pair_results'][key]}" for key in PAIR_KEYS)
    w, d, l = s["wdl"]
    problems = " ".join(f"{kind} {n}" for kind, n in s["problems"].items() if n)
    moved = sorted(params, key=lambda p: -abs(s["theta"][p.name] - p.start) / p.c_end)
    if show >= 0:
        moved = moved[:show]
    values = " ".join(f"{p.name}={format_value(s['theta'][p.name])}({s['theta'][p.name] - p.start:+.1f})"
                      for p in moved)
    return (f"iter {s['iteration']}/{n} games {s['games']} pairs {pr} W-D-L {w}-{d}-{l}"
            f"{f' problems: {problems}' if problems else ''} batch {batch_elapsed:.1f}s "
            f"total {s['elapsed'] / 60:.1f}m | {values}")


# ----------------------------------------------------------------------------------------------
# Writing theta into the Rust source
# ----------------------------------------------------------------------------------------------
TUNE_RE = re.compile(r"^\s*#\[tune\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)\]\s*$")
CONST_RE = re.compile(r"^(\s*pub const (\w+): (\w+) = )(.+);(\s*)$")


@dataclass
class Tunable:
    file: Path
    line: int          # index of the `pub const` line
    name: str
    ty: str
    min: int
    max: int
    expr: str


def eval_const(expr: str, consts: Dict[str, float]) -> float:
    """A constant's Rust expression: numbers, names of other constants, + - * / and parentheses."""
    def ev(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.Name) and node.id in consts:
            return consts[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if isinstance(node.op, ast.Div):
                return a / b if isinstance(a, float) or isinstance(b, float) else int(a / b)
        raise ValueError(f"cannot evaluate `{expr}`")
    return ev(ast.parse(expr, mode="eval").body)


def source_tunables(source_dir: Path) -> Tuple[Dict[str, Tunable], Dict[str, float]]:
    """Every `#[tune(min, max)]` constant of the .rs files in source_dir, and the plain constants."""
    tunables, consts = {}, {}
    for path in sorted(source_dir.glob("*.rs")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = CONST_RE.match(line)
            if m:
                try:
                    consts[m.group(2)] = eval_const(m.group(4), consts)
                except (ValueError, SyntaxError, ZeroDivisionError):
                    pass
            t = TUNE_RE.match(line)
            if t and i + 1 < len(lines) and (m := CONST_RE.match(lines[i + 1])):
                tunables[m.group(2)] = Tunable(path, i + 1, m.group(2), m.group(3), int(t.group(1)),
                                               int(t.group(2)), m.group(4))
    return tunables, consts


def rust_literal(value: int, t: Tunable, consts: Dict[str, float]) -> str:
    """value (option units) as the constant's new expression: hundredths for f64, ONE_PLY multiples
    kept in that form, digit groups kept."""
    if t.ty == "f64":
        whole, cents = divmod(abs(value), 100)
        text = f"{whole}.{cents:02d}".rstrip("0")
        return ("-" if value < 0 else "") + (text + "0" if text.endswith(".") else text)
    ply = int(consts.get("ONE_PLY", 0))
    if "ONE_PLY" in t.expr and ply and value % ply == 0 and value != 0:
        n = value // ply
        return {1: "ONE_PLY", -1: "-ONE_PLY"}.get(n, f"{n} * ONE_PLY")
    return f"{value:_}" if "_" in t.expr and abs(value) >= 1000 else str(value)


def write_params(state: dict, source_dir: Path) -> int:
    tunables, consts = source_tunables(source_dir)
    theta = state["theta"]
    changes, errors = [], []
    for name, x in theta.items():
        t = tunables.get(name)
        if t is None:
            errors.append(f"{name}: no #[tune] constant in {source_dir}/*.rs")
            continue
        value = math.floor(x + 0.5)
        if not t.min <= value <= t.max:
            errors.append(f"{name}: {value} is outside its #[tune({t.min}, {t.max})] range")
            continue
        try:
            old = eval_const(t.expr, consts)
        except (ValueError, SyntaxError, ZeroDivisionError) as err:
            errors.append(f"{name}: {err}")
            continue
        old_raw = round(old * 100) if t.ty == "f64" else int(old)
        if old_raw != value:
            changes.append((t, old_raw, value))
    if errors:
        print("--write-params: nothing written:\n  " + "\n  ".join(errors), file=sys.stderr)
        return 1
    by_file: Dict[Path, List[str]] = {}
    for t, old_raw, value in changes:
        lines = by_file.setdefault(t.file, t.file.read_text(encoding="utf-8").splitlines(keepends=True))
        m = CONST_RE.match(lines[t.line].rstrip("\n"))
        new = rust_literal(value, t, consts)
        lines[t.line] = f"{m.group(1)}{new};{m.group(5)}\n"
        print(f"{t.name}: {t.expr} -> {new}  ({t.file.name}:{t.line + 1}, option {old_raw} -> {value})")
    for path, lines in by_file.items():
        write_atomic(path, "".join(lines))
    print(f"{len(changes)} of {len(theta)} constants changed")
    return 0


# ----------------------------------------------------------------------------------------------
# The run
# ----------------------------------------------------------------------------------------------
def parse_tc(text: str) -> Tuple[float, float]:
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def ints(text: str, count: int) -> Tuple[int, ...]:
    parts = tuple(int(x) for x in text.split(":"))
    if len(parts) != count:
        raise argparse.ArgumentTypeError(f"expected {count} numbers separated by ':'")
    return parts


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog="The docstring at the top of this file gives the algorithm; "
                                       "docs/tuning.md (SPSA for the search) the use.")
    p.add_argument("--state", metavar="FILE", type=Path, required=True,
                   help="state file (JSON); resumed when it exists")
    p.add_argument("--params", metavar="FILE", type=Path, default=REPO / "tools" / "spsa" / "params.json",
                   help="parameters to tune (JSON; default tools/spsa/params.json)")
    p.add_argument("--engine", metavar="CMD", default=str(DEFAULT_ENGINE),
                   help="engine command, a tune build (default target/tune/release/squall)")
    p.add_argument("--iterations", metavar="N", type=int, help="SPSA iterations N (needed for a new run)")
    p.add_argument("--pairs-per-iteration", metavar="P", type=int, default=1,
                   help="game pairs per perturbation (1)")
    p.add_argument("--r-end", metavar="R", type=float,
                   help="learning rate at the end, in units of c_end, for every parameter without "
                        "its own (default: the file's r_end, else 0.002)")
    p.add_argument("--a-ratio", metavar="R", type=float, default=0.1,
                   help="A as a share of the iterations (0.1)")
    p.add_argument("--alpha", metavar="X", type=float, default=0.602)
    p.add_argument("--gamma", metavar="X", type=float, default=0.101)
    p.add_argument("--seed", metavar="S", type=int, default=1, help="perturbations and opening order (1)")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--nodes", metavar="N", type=int, help="fixed nodes per move")
    limit.add_argument("--tc", metavar="BASE+INC", help="clock BASE+INC in seconds, e.g. 5+0.05")
    p.add_argument("--concurrency", metavar="N", type=int, default=1, help="game pairs at once (1)")
    p.add_argument("--batch", metavar="K", type=int,
                   help="iterations per batch (default: concurrency / pairs per iteration, rounded up)")
    p.add_argument("--batches", metavar="B", type=int,
                   help="stop after this many batches (the run resumes later)")
    p.add_argument("--openings", metavar="PGN", type=Path, default=DEFAULT_OPENINGS,
                   help="PGN of openings (8moves_v3.pgn)")
    p.add_argument("--hash", metavar="MB", type=int, default=16, help="Hash MB (16)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="another engine option for both sides (repeatable)")
    p.add_argument("--max-moves", metavar="N", type=int, default=250, help="draw after this move number (250)")
    p.add_argument("--resign", type=lambda t: ints(t, 2), metavar="MOVES:CP",
                   help="win when both engines score >= CP for one side on their last MOVES moves (off)")
    p.add_argument("--draw", type=lambda t: ints(t, 3), metavar="FROM:MOVES:CP",
                   help="draw from move FROM when both score within CP on their last MOVES moves (off)")
    p.add_argument("--time-margin", metavar="MS", type=int, default=100,
                   help="ms over the clock before a time loss (100)")
    p.add_argument("--stall", metavar="SEC", type=float, default=30.0,
                   help="seconds past the flag (or per move at fixed nodes) before an engine is hung (30)")
    p.add_argument("--history", metavar="CSV", type=Path, help="append theta per iteration to this CSV")
    p.add_argument("--show", metavar="N", type=int, default=8,
                   help="values on the progress line, most moved first (8; -1: all)")
    p.add_argument("--write-params", action="store_true",
                   help="write the state's theta (rounded) into the Rust source as the defaults; plays nothing")
    p.add_argument("--source-dir", metavar="DIR", type=Path, default=DEFAULT_SOURCE_DIR,
                   help="where the #[tune] constants are (engine/src/search)")
    return p


def interrupted(signum, frame) -> None:
    # `pkill -f tools/spsa.py` signals the pool's workers too, and a second signal while the
    # pool is torn down would abort the clean stop with a traceback: the first one is enough.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    signal.signal(signal.SIGTERM, interrupted)   # kill PID stops like Ctrl-C: at the last saved batch
    if args.write_params:
        if not args.state.exists():
            raise SystemExit(f"{args.state}: no state file")
        return write_params(json.loads(args.state.read_text(encoding="utf-8")), args.source_dir)

    for path in (args.state, args.history):
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)   # e.g. reports/, git-ignored
    engine_argv = shlex.split(args.engine)
    spins, names = engine_options(engine_argv)
    params = load_params(args.params, spins, args.r_end)
    saved = json.loads(args.state.read_text(encoding="utf-8")) if args.state.exists() else None
    iterations = args.iterations or (saved["settings"]["iterations"] if saved else None)
    if not iterations or iterations < 1:
        raise SystemExit("a new run needs --iterations N")
    schedule = Schedule(iterations, args.a_ratio, args.alpha, args.gamma)
    state = new_state(params, schedule, args)
    if saved:
        check_resume(saved, state, args.state)
        state = saved
    if args.nodes is None and args.tc is None:
        raise SystemExit("give --nodes N or --tc BASE+INC")
    base, inc = parse_tc(args.tc) if args.tc else (0.0, 0.0)
    options: Dict[str, object] = {"Hash": args.hash, "Threads": 1}
    if "OwnBook" in names:
        options["OwnBook"] = False   # the openings come from --openings
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = value
    settings = GameSettings(argv=engine_argv, options=options, nodes=args.nodes, base=base, inc=inc,
                            margin=args.time_margin / 1000, stall=args.stall, max_moves=args.max_moves,
                            resign=args.resign, draw=args.draw)
    per = state["settings"]["pairs_per_iteration"]
    batch = args.batch or max(1, -(-args.concurrency // per))
    history = History(args.history, [p.name for p in params], state["iteration"])
    if state["iteration"] < iterations:
        limit_text = f"{args.nodes} nodes per move" if args.nodes else f"{args.tc} clock"
        print(f"spsa: {len(params)} parameters, iteration {state['iteration']}/{iterations}, {per} pair(s) "
              f"per iteration, batches of {batch}, {args.concurrency} at once, {limit_text}", flush=True)
        code = run_batches(state, params, schedule, settings, history, args, batch)
        if code:
            return code
    if state["iteration"] >= iterations:
        print(f"done: {iterations} iterations, {state['games']} games. theta (start -> now):")
        for p in params:
            print(f"  {p.name:28} {format_value(p.start):>8} -> {format_value(state['theta'][p.name]):>8}")
    return 0


def run_batches(state: dict, params: List[Param], schedule: Schedule, settings: GameSettings,
                history: History, args, batch: int) -> int:
    """Plays batches until the run is complete (or --batches are played), saving the state after each."""
    iterations = schedule.iterations
    seed = state["settings"]["seed"]
    per = state["settings"]["pairs_per_iteration"]
    openings = Openings(args.openings, seed)
    pool = multiprocessing.get_context("spawn").Pool(args.concurrency, worker_init, (settings,))
    batches = 0
    try:
        while state["iteration"] < iterations and (args.batches is None or batches < args.batches):
            t0 = time.monotonic()
            first = state["iteration"] + 1
            ks = range(first, min(first + batch, iterations + 1))
            flips, jobs = {}, []
            pair = state["pairs"]
            for k in ks:
                flips[k], plus, minus = perturbation(params, state["theta"], schedule, seed, k)
                for _ in range(per):
                    fen, moves = openings.get(pair)
                    jobs.append({"k": k, "plus": plus, "minus": minus, "fen": fen, "moves": moves})
                    pair += 1
            results: Dict[int, int] = {k: 0 for k in ks}
            for r in pool.imap_unordered(play_pair, jobs):
                results[r["k"]] += r["w"] - r["l"]
                state["wdl"] = [state["wdl"][0] + r["w"], state["wdl"][1] + r["d"], state["wdl"][2] + r["l"]]
                state["pair_results"][PAIR_KEYS[r["w"] - r["l"] + 2]] += 1
                for kind, n in r["problems"].items():
                    state["problems"][kind] += n
            rows = []
            for k in ks:
                update(params, state["theta"], schedule, k, flips[k], results[k])
                state["iteration"] = k
                state["pairs"] += per
                state["games"] = 2 * state["pairs"]
                rows.append(",".join([str(k), str(state["games"])] +
                                     [f"{state['theta'][p.name]:.4f}" for p in params]))
            elapsed = time.monotonic() - t0
            state["elapsed"] += elapsed
            history.append(rows)
            write_atomic(args.state, json.dumps(state, indent=1) + "\n")
            batches += 1
            print(progress_line(state, params, elapsed, args.show), flush=True)
    except KeyboardInterrupt:
        pool.terminate()
        print(f"\ninterrupted; {args.state} holds iteration {state['iteration']}: rerun the command to go on",
              file=sys.stderr)
        return 130
    pool.close()
    pool.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
