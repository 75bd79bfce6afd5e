#!/usr/bin/env python3
"""One verdict per target of SPEC section 6: its figure, the target, pass or MISS.

Each benchmark calls `verdict(...)` under the figure it printed; the line goes to standard output
and, when `AUTHFLOW_BENCH_VERDICTS` names a file, to that file as one JSON line, which
`scripts/bench` reads at the end for the summary table and the exit status (non-zero when any
target missed). Also a command, for the figures the shell script computes itself:

    bench_verdict.py record NAME VALUE KIND LIMIT [UNIT]
    bench_verdict.py summary FILE

KIND is `at-least`, `at-most` or `near-one` (a ratio within LIMIT of 1).
"""

import json
import os
import sys


def verdict(name, value, kind, limit, unit=""):
    """Prints and records whether `value` meets the target `kind` `limit`; returns whether."""
    if kind == "at-least":
        met, wanted = value >= limit, f">= {limit:g}{unit}"
    elif kind == "at-most":
        met, wanted = value <= limit, f"<= {limit:g}{unit}"
    elif kind == "near-one":
        met, wanted = abs(value - 1) <= limit, f"within {limit:.0%} of 1"
    else:
        raise ValueError(f"unknown kind {kind}")
    shown = f"{value:.3g}{unit}"
    print(f"   verdict: {name}: {shown} (target {wanted}): {'pass' if met else 'MISS'}",
          flush=True)
    path = os.environ.get("AUTHFLOW_BENCH_VERDICTS")
    if path:
        with open(path, "a") as file:
            file.write(json.dumps({"name": name, "value": shown, "target": wanted, "met": met})
                       + "\n")
    return met


def summary(path):
    """The table of every verdict in `path`; exit status 1 when any missed."""
    rows = [json.loads(line) for line in open(path) if line.strip()]
    width = max((len(row["name"]) for row in rows), default=10)
    print("== Verdicts")
    for row in rows:
        print(f"   {row['name']:<{width}}  {row['value']:>10}  target {row['target']:<16}"
              f"  {'pass' if row['met'] else 'MISS'}")
    missed = [row["name"] for row in rows if not row["met"]]
    print(f"   {len(rows) - len(missed)} of {len(rows)} targets met"
          + (f"; missed: {', '.join(missed)}" if missed else ""))
    return 1 if missed or not rows else 0


if __name__ == "__main__":
    if len(sys.argv) >= 6 and sys.argv[1] == "record":
        name, value, kind, limit = sys.argv[2], float(sys.argv[3]), sys.argv[4], float(sys.argv[5])
        verdict(name, value, kind, limit, sys.argv[6] if len(sys.argv) > 6 else "")
    elif len(sys.argv) == 3 and sys.argv[1] == "summary":
        sys.exit(summary(sys.argv[2]))
    else:
        sys.exit(__doc__)
