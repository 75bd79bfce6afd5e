/// A suite's outcomes as JUnit XML, the report CI servers read: one `<testsuite>`, one
/// `<testcase>` per script with its time, `<failure>` with what went wrong and the transcript,
/// `<skipped>` with the reason.
package enum JUnitReport {
  /// The XML document for `outcomes`, which took `seconds` in all.
  package static func xml(_ outcomes: [ScriptOutcome], seconds: Double, name: String = "authflow")
    -> String
  {
    let failures = outcomes.filter { $0.verdict == .failed }.count
    let skipped = outcomes.filter { if case .skipped = $0.verdict { true } else { false } }.count
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuite name="\#(escape(name))" tests="\#(outcomes.count)" failures="\#(failures)""#
        + #" errors="0" skipped="\#(skipped)" time="\#(ScriptOutcome.format(seconds))">"#,
    ]
    for outcome in outcomes {
      let script = outcome.script
      let folder = script.path.split(separator: "/").dropLast().joined(separator: ".")
      let opening =
        #"  <testcase name="\#(escape(script.name))" classname="\#(escape(folder.isEmpty ? "." : folder))""#
        + #" time="\#(ScriptOutcome.format(outcome.seconds))""#
      switch outcome.verdict {
      case .passed:
        lines.append(opening + "/>")
      case .skipped(let reason):
        lines.append(opening + ">")
        lines.append(#"    <skipped message="\#(escape(reason))"/>"#)
        lines.append("  </testcase>")
      case .failed:
        lines.append(opening + ">")
        let message = outcome.problems.first ?? "failed"
        var body = outcome.problems
        if !outcome.tail.isEmpty {
          body += ["", "The transcript's last \(outcome.tail.count) lines:"] + outcome.tail
        }
        if !outcome.diff.isEmpty { body += [""] + outcome.diff }
        lines.append(
          #"    <failure message="\#(escape(message))" type="failure">"#
            + escape(body.joined(separator: "\n"), attribute: false) + "</failure>")
        lines.append("  </testcase>")
      }
    }
    lines.append("</testsuite>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` as XML character data or, with `attribute`, as an attribute value: markup
  /// characters as entities, line breaks in attributes as character references, and the
  /// characters XML 1.0 cannot hold at all as U+FFFD.
  package static func escape(_ text: String, attribute: Bool = true) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"" where attribute: escaped += "&quot;"
      case "'" where attribute: escaped += "&apos;"
      case "\n" where attribute: escaped += "&#10;"
      case "\r": escaped += "&#13;"
      case "\t" where attribute: escaped += "&#9;"
      case "\t", "\n": escaped.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value):
        escaped += "\u{FFFD}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}
