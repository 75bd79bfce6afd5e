#!/usr/bin/env python3
"""`make install` and `make uninstall` (scripts/install) on a build folder: exactly the listed
files under DESTDIR/PREFIX, a manual page man renders and groff finds nothing wrong with,
completion scripts each shell loads, and nothing left after uninstall. The build folder is the
debug build's (the release build's is made the same way by make install), so this stays fast.

usage: test_install.py PATH/TO/authflow
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

AUTHFLOW = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else ".build/debug/authflow"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INSTALL = os.path.join(ROOT, "scripts", "install")
INSTALLED = [
    "bin/authflow",
    "bin/authflow-http",
    "share/bash-completion/completions/authflow",
    "share/fish/vendor_completions.d/authflow.fish",
    "share/man/man1/authflow.1",
    "share/zsh/site-functions/_authflow",
]


def files_under(folder):
    found = []
    for parent, _, names in os.walk(folder):
        found += [os.path.relpath(os.path.join(parent, name), folder) for name in names]
    return sorted(found)


class InstallTests(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="authflow-install-")
        self.addCleanup(shutil.rmtree, self.home, ignore_errors=True)
        self.build = os.path.join(self.home, "build")
        os.mkdir(self.build)
        for program in ("authflow", "authflow-http"):
            shutil.copy2(os.path.join(os.path.dirname(AUTHFLOW), program), self.build)
        self.destdir = os.path.join(self.home, "stage")
        self.prefix = self.destdir + "/usr"

    def run_install(self, *arguments):
        return subprocess.run([INSTALL, *arguments], capture_output=True, text=True, timeout=60)

    def test_install_writes_exactly_the_listed_files_and_uninstall_removes_them(self):
        done = self.run_install(self.build, self.prefix)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(files_under(self.destdir), ["usr/" + path for path in INSTALLED])
        for path in INSTALLED:
            mode = os.stat(os.path.join(self.prefix, path)).st_mode & 0o777
            self.assertEqual(mode, 0o755 if path.startswith("bin/") else 0o644, path)
        version = subprocess.run([os.path.join(self.prefix, "bin", "authflow"), "--version"],
                                 capture_output=True, text=True, timeout=30)
        self.assertTrue(version.stdout.startswith("authflow "), version.stdout)

        done = self.run_install("--uninstall", self.prefix)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(files_under(self.destdir), [])
        self.assertEqual(os.listdir(self.destdir), ["usr"], "the folders it made go too")

    def test_uninstall_leaves_files_it_did_not_install(self):
        self.assertEqual(self.run_install(self.build, self.prefix).returncode, 0)
        other = os.path.join(self.prefix, "share", "man", "man1", "other.1")
        with open(other, "w") as file:
            file.write(".TH OTHER 1\n")
        self.assertEqual(self.run_install("--uninstall", self.prefix).returncode, 0)
        self.assertEqual(files_under(self.destdir), ["usr/share/man/man1/other.1"])

    def test_the_installed_manual_renders_without_a_warning(self):
        self.assertEqual(self.run_install(self.build, self.prefix).returncode, 0)
        page = os.path.join(self.prefix, "share", "man", "man1", "authflow.1")
        lint = subprocess.run(["groff", "-ww", "-z", "-man", page], capture_output=True,
                              text=True, timeout=60)
        self.assertEqual((lint.returncode, lint.stderr), (0, ""))
        shown = subprocess.run(["man", "-l", page], capture_output=True, text=True, timeout=60,
                               env=dict(os.environ, MANWIDTH="100", MANPAGER="cat", PAGER="cat"))
        self.assertEqual((shown.returncode, shown.stderr), (0, ""))
        self.assertIn("authflow serve", shown.stdout)
        # man finds it by name below the prefix, as `man authflow` does with PREFIX/bin on PATH.
        found = subprocess.run(["man", "-w", "authflow"], capture_output=True, text=True,
                               timeout=60, env=dict(os.environ, MANPATH=self.prefix + "/share/man"))
        self.assertEqual(found.stdout.strip(), page)

    def test_a_build_folder_without_the_programs_is_refused_in_one_line(self):
        os.remove(os.path.join(self.build, "authflow-http"))
        done = self.run_install(self.build, self.prefix)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stderr.count("\n"), 1)
        self.assertIn("run make release first", done.stderr)
        self.assertFalse(os.path.exists(self.destdir))

    def test_make_install_honours_prefix_and_destdir(self):
        plan = subprocess.run(
            ["make", "-n", "-C", ROOT, "install", "uninstall", "DESTDIR=/stage", "PREFIX=/usr"],
            capture_output=True, text=True, timeout=60)
        self.assertEqual(plan.returncode, 0, plan.stderr)
        self.assertIn('scripts/install --uninstall "/stage/usr"', plan.stdout)
        self.assertIn('scripts/install ".build-release/release" "/stage/usr"', plan.stdout)
        # It installs what make run builds, and builds nothing else (not the benchmarks' lab).
        self.assertNotIn("authflow-lab", plan.stdout)
        with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as makefile:
            self.assertIn(
                "install: $(RELEASE_BIN)/authflow $(RELEASE_BIN)/authflow-http", makefile.read())


if __name__ == "__main__":
    unittest.main(verbosity=2)
