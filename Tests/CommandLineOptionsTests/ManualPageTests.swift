import CommandLineOptions
import Foundation
import Testing

/// The manual page written from a program's description: every option and subcommand on it,
/// text that roff cannot take for requests, and a page groff finds nothing wrong with.
struct ManualPageTests {
  let page = ManualPage(
    program: SampleProgram.program, version: "1.2",
    sections: [ManualSection("NOTES", paragraphs: ["A note."], entries: [ManualEntry("x", ["y"])])],
    environment: [ManualEntry("NO_COLOR", ["no colour"])],
    closingSections: [ManualSection("EXIT STATUS", paragraphs: ["0 when it worked."])]
  ).roff

  @Test func everyOptionAndSubcommandIsOnThePage() {
    let commands = [SampleProgram.program] + SampleProgram.program.subcommands
    for option in commands.flatMap(\.options) {
      for name in option.names {
        #expect(page.contains("\\fB" + name.replacingOccurrences(of: "-", with: "\\-") + "\\fR"))
      }
    }
    #expect(page.hasPrefix(".TH SAMPLE 1 \"\" \"sample 1.2\" \"User Commands\"\n.SH NAME\n"))
    #expect(page.contains(".SS \"sample draw\"\nDraw the sample's graph.\n"))
    #expect(page.contains(".B sample\ndraw [FILE.dot|FILE.svg]\n"))
    #expect(page.contains("It also takes the shell's options"))
    // A variable two options read is one entry naming both.
    #expect(
      page.contains(
        ".TP\n\\fBSAMPLE_STORE\\fR\nsets sample \\-\\-store\nsets sample users \\-\\-format\n"))
    #expect(page.contains(".SH \"NOTES\"\nA note.\n.TP\n\\fBx\\fR\ny\n"))
    #expect(page.contains("\\fBNO_COLOR\\fR\nno colour\n.SH \"EXIT STATUS\"\n0 when it worked.\n"))
  }

  @Test func textIsNeverTakenForARequest() {
    #expect(
      page.contains(
        "It reads FILE.\n\\&.dots and 'quotes' at a line's start stay text \\e .\\|.\\|.\n"))
    for line in page.split(separator: "\n") where line.hasPrefix("'") {
      Issue.record("a line starts with a quote: \(line)")
    }
  }

  @Test func groffFindsNothingWrong() throws {
    let file = NSTemporaryDirectory() + "authflow-manual-\(UUID().uuidString).1"
    try page.write(toFile: file, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let lint = try ShellRun.run("/usr/bin/groff", ["-ww", "-z", "-man", file])
    #expect(lint.status == 0 && lint.output.isEmpty, "\(lint.output)")
  }
}
