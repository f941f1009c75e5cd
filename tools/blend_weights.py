#!/usr/bin/env python3
"""Blend two evaluation weight files: every weight becomes round(base + t * (other - base)).

Usage: tools/blend_weights.py BASE.rs OTHER.rs T > engine/src/eval/weights.rs

BASE and OTHER are `engine/src/eval/weights.rs` as `squall-lab tune --out` writes them, with the
same structure (the same `Params` fields in the same order); T is in [0, 1]. A cheap stand-in for
a tune that mixes two labels (#46): OTHER tuned on Ethereal 12's scores went too far in games
(`EVAL_ETH9`), a step part of the way toward it is what `EI30` plays. The header keeps the
provenance of both files. A weight is an integer, so the blend of two valid files is valid:
every weight lies between its two values.
"""
import re
import sys

NUMBER = re.compile(r"-?\d+")


def blend(base, other, t):
    a, b = base.split("\n"), other.split("\n")
    if len(a) != len(b):
        sys.exit("blend_weights: the files differ in length; were they written by the same tuner?")
    header_a = [line for line in a if line.startswith("//!")]
    header_b = [line for line in b if line.startswith("//!")]
    out = []
    for la, lb in zip(a, b):
        if la.startswith("//!"):
            continue
        if la.lstrip().startswith("//") or la.startswith("use "):
            out.append(la)
            continue
        if NUMBER.sub("#", la) != NUMBER.sub("#", lb):
            sys.exit(f"blend_weights: the files differ in structure:\n{la}\n{lb}")
        values = iter(
            round(int(x) + t * (int(y) - int(x)))
            for x, y in zip(NUMBER.findall(la), NUMBER.findall(lb))
        )
        out.append(NUMBER.sub(lambda _: str(next(values)), la))
    header = (
        header_a[:3]
        + [f"//! Blended by `tools/blend_weights.py`: base + {t} (other - base), weight by weight."]
        + ["//! Base:"] + header_a[3:]
        + ["//! Other:"] + header_b[3:]
    )
    return "\n".join(header + out)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    try:
        t = float(sys.argv[3])
    except ValueError:
        sys.exit(f"blend_weights: T must be a number, not {sys.argv[3]!r}")
    if not 0.0 <= t <= 1.0:
        sys.exit("blend_weights: T must lie in [0, 1]")
    with open(sys.argv[1]) as f:
        base = f.read()
    with open(sys.argv[2]) as f:
        other = f.read()
    sys.stdout.write(blend(base, other, t))


if __name__ == "__main__":
    main()
