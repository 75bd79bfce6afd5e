import Foundation
import ScriptSuites
import Testing

@testable import AuthShell

/// A suite's reports for CI: JUnit XML (read back by Python's parser), TAP version 13, and the
/// progress line at a terminal.
struct SuiteReportTests {
  /// A passing, a failing (its message full of XML's markup characters) and a skipped script.
  func mixedSuite() throws -> ScriptFolder {
    let folder = try ScriptFolder()
    try folder.write("a-pass.authflow", "signin\nexpect state login\n")
    try folder.write(
      "b-fail.authflow", "# <&> \"quoted\" 'single'\nexpect error \"<b> & 'c' \\\"d\\\"\"\n")
    try folder.write("c-skip.authflow", "#!/usr/bin/env -S authflow --backend supabase\nshow\n")
    return folder
  }

  @Test func junitXMLHasACasePerScriptAndPythonReadsItBack() throws {
    let folder = try mixedSuite()
    defer { folder.remove() }
    let report = folder.path + "/build/junit.xml"
    let run = runSuite([folder.path, "--junit", report], temporary: folder.path)
    #expect(run.status == 1)

    let reader = """
      import json, sys, xml.etree.ElementTree as ET
      root = ET.parse(sys.argv[1]).getroot()
      cases = []
      for case in root.iter("testcase"):
          failure = case.find("failure")
          cases.append({"name": case.get("name"), "time": float(case.get("time")),
              "failure": None if failure is None else failure.get("message"),
              "body": None if failure is None else failure.text,
              "skipped": None if case.find("skipped") is None else case.find("skipped").get("message")})
      print(json.dumps({"tag": root.tag, "tests": root.get("tests"), "failures": root.get("failures"),
          "skipped": root.get("skipped"), "cases": cases}))
      """
    let parsed = try runTool("/usr/bin/python3", ["-c", reader, report])
    #expect(parsed.status == 0, "\(parsed.output)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(parsed.output.utf8)) as? [String: Any])
    #expect(json["tag"] as? String == "testsuite")
    #expect(json["tests"] as? String == "3")
    #expect(json["failures"] as? String == "1")
    #expect(json["skipped"] as? String == "1")
    let cases = try #require(json["cases"] as? [[String: Any]])
    #expect(
      cases.map { $0["name"] as? String } == [
        "a-pass.authflow", "b-fail.authflow", "c-skip.authflow",
      ])
    #expect(cases.allSatisfy { ($0["time"] as? Double ?? -1) >= 0 })
    #expect(cases[0]["failure"] is NSNull)
    #expect(
      cases[1]["failure"] as? String
        == "\(folder.path)/b-fail.authflow:2: expected error \"<b> & 'c' \"d\"\", got no error")
    let body = try #require(cases[1]["body"] as? String)
    #expect(
      body.contains(
        "The transcript's last 2 lines:\n# <&> \"quoted\" 'single'\nchoice> expect error"))
    #expect(
      cases[2]["skipped"] as? String
        == "its #! line asks for the supabase backend; the suite runs embedded")
  }

  @Test func tapHasAPlanALinePerScriptAndAYAMLBlockForAFailure() throws {
    let folder = try mixedSuite()
    defer { folder.remove() }
    let run = runSuite([folder.path, "--tap"], temporary: folder.path)
    #expect(run.status == 1)
    let lines = run.output.split(separator: "\n").map {
      $0.replacing(/duration_ms: \d+/, with: "duration_ms: T")
    }
    #expect(
      lines == [
        "TAP version 13",
        "1..3",
        "ok 1 - a-pass.authflow",
        "not ok 2 - b-fail.authflow",
        "  ---",
        "  duration_ms: T",
        "  message: |2-",
        "    \(folder.path)/b-fail.authflow:2: expected error \"<b> & 'c' \"d\"\", got no error",
        "  transcript_tail: |2-",
        "    # <&> \"quoted\" 'single'",
        #"    choice> expect error "<b> & 'c' \"d\"""#,
        "  ...",
        "ok 3 - c-skip.authflow # SKIP its #! line asks for the supabase backend; the suite runs embedded",
        "# 1 passed, 1 failed, 1 skipped",
      ])
  }

  @Test func aTerminalGetsOneProgressLineAndOnlyTheFailures() throws {
    let folder = try mixedSuite()
    defer { folder.remove() }
    let run = runSuite([folder.path, "--jobs", "1"], temporary: folder.path, terminal: true)
    #expect(run.status == 1)
    let clear = "\r\u{1B}[K"
    // The longer script starts first; the skipped one never runs. The next one starts as
    // soon as the first ends, before its failure is told, and the line then shows it again.
    #expect(
      run.output.hasPrefix(
        clear + "[1/2] running b-fail.authflow" + clear + "[2/2] running a-pass.authflow" + clear
          + "FAIL b-fail.authflow ("))
    #expect(
      run.output.hasSuffix(
        "\n[2/2] running a-pass.authflow" + clear + "1 passed, 1 failed, 1 skipped\n"))
    #expect(!run.output.contains("ok a-pass"))
  }

  @Test func xmlEscapingCoversMarkupLineBreaksAndForbiddenCharacters() {
    #expect(
      JUnitReport.escape("<a href=\"x\">'&'</a>")
        == "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;")
    #expect(JUnitReport.escape("one\ntwo\tthree\r") == "one&#10;two&#9;three&#13;")
    #expect(JUnitReport.escape("one\ntwo\t\"", attribute: false) == "one\ntwo\t\"")
    #expect(
      JUnitReport.escape("bell\u{07} esc\u{1B} \u{FFFE} ok→")
        == "bell\u{FFFD} esc\u{FFFD} \u{FFFD} ok→")
  }
}
