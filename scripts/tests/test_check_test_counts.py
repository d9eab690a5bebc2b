"""Tests of scripts/check-test-counts: GoogleTest XML reports in, the platforms compared by test name."""
import contextlib
import io
import pathlib
import tempfile
import unittest

import script_loader

ctc = script_loader.load("check-test-counts")


def report(cases):
    """A GoogleTest XML report (the form gtest 1.12 writes) of (suite, name, outcome) cases."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites tests="%d" name="AllTests">' % len(cases)]
    for suite, name, outcome in cases:
        if outcome == "skipped":
            lines.append(f'<testcase name="{name}" status="run" result="skipped" classname="{suite}">'
                         '<skipped message="no corpus"/></testcase>')
        elif outcome == "suppressed":
            lines.append(f'<testcase name="{name}" status="notrun" result="suppressed" classname="{suite}"/>')
        else:
            lines.append(f'<testcase name="{name}" status="run" result="completed" classname="{suite}"/>')
    lines.append("</testsuites>")
    return "\n".join(lines)


class CheckTestCounts(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def tree(self, name, *shards):
        results = self.root / name / "test-results"
        results.mkdir(parents=True)
        for i, cases in enumerate(shards):
            (results / f"shard{i}.xml").write_text(report(cases))
        return str(self.root / name)

    def run_main(self, *trees):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = ctc.main(["check-test-counts", *trees])
        return code, out.getvalue(), err.getvalue()

    def test_reads_every_shard_and_ignores_tests_of_other_shards_and_filters(self):
        tree = self.tree("a", [("S", "One", "ok"), ("S", "Two", "skipped")],
                         [("T", "Three", "ok"), ("T", "Off", "suppressed")])
        ran, skipped = ctc.read_results(tree)
        self.assertEqual(ran, {"S.One", "S.Two", "T.Three"})
        self.assertEqual(skipped, {"S.Two"})

    def test_same_tests_pass_and_windows_may_run_its_own(self):
        base = [("S", "One", "ok"), ("S", "Two", "ok")]
        d12 = self.tree("d12", base)
        win = self.tree("win", base + [("Paths", "WindowsDriveLettersAndBackslashes", "ok")])
        d13 = self.tree("d13", base)
        code, out, err = self.run_main(d12, win, d13, "-")
        self.assertEqual(code, 0, err)
        self.assertIn("Debian 12 2 ran, 0 skipped; Windows 3 ran, 0 skipped; Debian 13 2 ran, 0 skipped", out)

    def test_each_difference_is_named(self):
        d12 = self.tree("d12", [("S", "One", "ok"), ("S", "Two", "ok"), ("S", "Three", "ok")])
        sid = self.tree("sid", [("S", "One", "ok"), ("S", "Two", "skipped"), ("S", "Four", "ok")])
        win = self.tree("win", [("S", "One", "ok"), ("S", "Two", "ok"), ("S", "Three", "ok")])
        code, _, err = self.run_main(d12, win, "-", sid)
        self.assertEqual(code, 1)
        self.assertIn("Debian sid: S.Three did not run", err)
        self.assertIn("Debian sid: S.Four ran, but not on Debian 12", err)
        self.assertIn("Debian sid: S.Two skipped, but not on Debian 12", err)
        self.assertIn("Windows: Paths.WindowsDriveLettersAndBackslashes should run there but did not", err)

    def test_a_tree_without_reports_or_with_a_cut_report_is_an_error(self):
        empty = self.root / "empty"
        empty.mkdir()
        self.assertEqual(self.run_main(str(empty))[0], 2)
        cut = self.tree("cut", [("S", "One", "ok")])
        path = pathlib.Path(cut, "test-results", "shard0.xml")
        path.write_text(path.read_text()[:60])
        code, _, err = self.run_main(cut)
        self.assertEqual(code, 2)
        self.assertIn("not a complete report", err)


if __name__ == "__main__":
    unittest.main()
