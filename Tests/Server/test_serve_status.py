"""What `authflow serve` says about itself: the ready line scripts parse stays first on
standard output, a status line on standard error says it is ready, and a log read by a
program (not a terminal) ends with the plain stop line, no summary."""

import re
import unittest

from serve import Server

STATUS = re.compile(r"^authflow serve: ready in \d+ ms; (.*); Ctrl-C stops it$")


class ServeStatusTests(unittest.TestCase):
    def test_ready_status_line_on_standard_error(self):
        server = Server().start()
        self.addCleanup(server.stop)
        status, _, _ = server.request("GET", "/health")
        self.assertEqual(status, 200)
        self.assertEqual(server.stop(), 0)
        lines = [line.rstrip("\n") for line in server.log_lines() if line]
        ready = [line for line in lines if STATUS.match(line)]
        self.assertEqual(len(ready), 1, lines)
        self.assertEqual(STATUS.match(ready[0])[1], "one line per request below")
        self.assertLess(lines.index(ready[0]), [i for i, l in enumerate(lines) if "GET /health" in l][0])
        self.assertEqual(lines[-1], "authflow serve: stopped", "no summary when not a terminal")
        self.assertEqual(server.remaining_stdout(), [], "nothing after the ready line on stdout")

    def test_quiet_says_there_is_no_request_log(self):
        server = Server("--quiet").start()
        self.addCleanup(server.stop)
        self.assertEqual(server.stop(), 0)
        lines = [line.rstrip("\n") for line in server.log_lines() if line]
        self.assertEqual(
            [STATUS.match(line)[1] for line in lines if STATUS.match(line)],
            ["no line per request (--quiet)"])


    def test_a_stop_asked_right_after_the_ready_line_is_clean(self):
        # A test runner stops the server as soon as it said it was ready: the signal must wait
        # for the loop and drain, never kill the process (it did, about four times in five).
        for _ in range(20):
            server = Server("--quiet").start()
            self.assertEqual(server.stop(), 0)


if __name__ == "__main__":
    unittest.main()
