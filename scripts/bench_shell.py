#!/usr/bin/env python3
"""The shell's targets of SPEC section 6, each measured side by side with sqlite3 in one run.

usage: bench_shell.py PATH/TO/authflow

- throughput: a 100 000-line script of navigation and field commands against sqlite3 reading
  100 000 `select 1;` lines; target: authflow takes at most 0.45 of sqlite3's time.
- startup: `authflow -c show` on an existing default store against `sqlite3 :memory: 'select 1'`;
  target: within 2x.
- memory: peak RSS of the 10 000- and 100 000-line scripts; target: within 10 %.
- recording: the 100 000-line script with `--record` (the file written, then replayed on a
  fresh store) against the same script alone; no target, the cost is reported.

The two programs run in turn, round after round, and each figure is the median of its rounds,
so a busy neighbour on a shared machine slows both alike.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

from bench_verdict import verdict

AUTHFLOW = os.path.abspath(sys.argv[1])
SQLITE = "sqlite3"
PATTERN = [
    "signin", "set email user@example.com", "set password Password123", "back",
    "create", "consent on", "set email new@example.com", "set password Password123",
    "set confirm Password123", "consent off", "back", "show",
]


def run(arguments, stdin_path=None, env=None):
    """Wall seconds and peak RSS (KiB) of one run, output discarded."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    start = time.perf_counter()
    process = subprocess.Popen(arguments, stdin=stdin, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if stdin_path:
        stdin.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {' '.join(arguments)} failed with {status}")
    return elapsed, usage.ru_maxrss


def script(folder, lines):
    path = os.path.join(folder, f"nav-{lines}.authflow")
    with open(path, "w") as file:
        for index in range(lines):
            file.write(PATTERN[index % len(PATTERN)] + "\n")
    return path


def main():
    folder = tempfile.mkdtemp(prefix="authflow-bench-")
    env = dict(os.environ, XDG_DATA_HOME=os.path.join(folder, "data"),
               XDG_STATE_HOME=os.path.join(folder, "state"))
    # The default store, created once (its demo accounts cost three bcrypt hashes).
    run([AUTHFLOW, "-c", "show"], env=env)
    small, large = script(folder, 10_000), script(folder, 100_000)
    selects = os.path.join(folder, "select.sql")
    with open(selects, "w") as file:
        file.write("select 1;\n" * 100_000)

    print("== Script throughput: 100 000 lines (target: authflow <= 0.45 x sqlite3)")
    ours, theirs = [], []
    for _ in range(9):
        ours.append(run([AUTHFLOW, large], env=env)[0])
        theirs.append(run([SQLITE, ":memory:"], stdin_path=selects)[0])
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"   authflow {a * 1000:7.1f} ms   sqlite3 {b * 1000:7.1f} ms   ratio {a / b:.2f}")
    verdict("script throughput, x sqlite3", a / b, "at-most", 0.45)

    print("== Startup: authflow -c show vs sqlite3 :memory: 'select 1' (target: <= 2 x)")
    ours, theirs = [], []
    for _ in range(15):
        ours.append(statistics.mean(run([AUTHFLOW, "-c", "show"], env=env)[0] for _ in range(20)))
        theirs.append(statistics.mean(run([SQLITE, ":memory:", "select 1"])[0] for _ in range(20)))
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"   authflow {a * 1000:7.2f} ms   sqlite3 {b * 1000:7.2f} ms   ratio {a / b:.2f}")
    verdict("startup, x sqlite3", a / b, "at-most", 2)

    print("== Peak RSS: 10 000 vs 100 000 lines (target: within 10 %)")
    rss_small = statistics.median(run([AUTHFLOW, small], env=env)[1] for _ in range(3))
    rss_large = statistics.median(run([AUTHFLOW, large], env=env)[1] for _ in range(3))
    print(f"   10 000 lines {rss_small / 1024:6.1f} MiB   100 000 lines {rss_large / 1024:6.1f} MiB"
          f"   ratio {rss_large / rss_small:.3f}")
    verdict("peak RSS, 100 000 / 10 000 lines", rss_large / rss_small, "near-one", 0.10)

    print("== Recording: the 100 000-line script with --record (its replay included) vs without")
    recorded = os.path.join(folder, "recorded.authflow")
    ours, theirs = [], []
    for _ in range(3):
        ours.append(run([AUTHFLOW, "--record", recorded, large], env=env))
        theirs.append(run([AUTHFLOW, large], env=env))
    (a, rss_a), (b, rss_b) = (
        (statistics.median(t for t, _ in runs), statistics.median(m for _, m in runs))
        for runs in (ours, theirs))
    print(f"   recording {a * 1000:7.1f} ms {rss_a / 1024:6.1f} MiB   plain {b * 1000:7.1f} ms"
          f" {rss_b / 1024:6.1f} MiB   ratio {a / b:.2f} time, {rss_a / rss_b:.2f} memory")

    subprocess.run(["rm", "-rf", folder])


if __name__ == "__main__":
    main()
