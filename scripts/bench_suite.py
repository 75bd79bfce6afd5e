#!/usr/bin/env python3
"""`authflow test` against the same scripts run one process at a time, side by side.

usage: bench_suite.py [PATH/TO/authflow]   (default: .build-release/release/authflow, which
                                            `make release` builds)

- suite: `authflow test examples --jobs 2`, each script in its own process, two at a time;
- one at a time: a loop of `authflow --seed 1 --hash-cost 4 --echo FILE` over the same
  scripts (the options the suite gives each one; the #! line brings --store :memory:).
Target: the suite takes at most 0.55 x the loop's time. The two run in turn, round after round,
and each figure is the median of its rounds, so a busy neighbour slows both alike.
"""

import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_verdict import verdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = os.path.join(ROOT, ".build-release", "release", "authflow")
AUTHFLOW = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT)
ROUNDS = 9


def timed(action):
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main():
    if not os.access(AUTHFLOW, os.X_OK):
        sys.exit(f"bench: no authflow at {AUTHFLOW}; run make release, or pass its path")
    probe = subprocess.run([AUTHFLOW, "test", "--tap", "--help"], capture_output=True)
    if probe.returncode != 0:
        sys.exit(f"bench: {AUTHFLOW} has no test command; rebuild it (make release)")
    os.chdir(ROOT)
    scripts = sorted(glob.glob("examples/*.authflow"))
    folder = tempfile.mkdtemp(prefix="authflow-bench-")
    env = dict(os.environ, XDG_DATA_HOME=os.path.join(folder, "data"),
               XDG_STATE_HOME=os.path.join(folder, "state"))

    def suite():
        run = subprocess.run([AUTHFLOW, "test", "examples", "--jobs", "2"],
                             stdout=subprocess.DEVNULL, env=env)
        if run.returncode != 0:
            sys.exit("bench: authflow test examples failed")

    def one_at_a_time():
        for script in scripts:
            run = subprocess.run([AUTHFLOW, "--seed", "1", "--hash-cost", "4", "--echo", script],
                                 stdout=subprocess.DEVNULL, env=env)
            if run.returncode != 0:
                sys.exit(f"bench: {script} failed")

    print(f"== authflow test examples --jobs 2 vs {len(scripts)} scripts one at a time"
          " (target: <= 0.55 x)")
    ours, theirs = [], []
    try:
        for _ in range(ROUNDS):
            ours.append(timed(suite))
            theirs.append(timed(one_at_a_time))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"   suite {a * 1000:7.1f} ms   one at a time {b * 1000:7.1f} ms   ratio {a / b:.2f}")
    verdict("authflow test --jobs 2, x one at a time", a / b, "at-most", 0.55)


if __name__ == "__main__":
    main()
