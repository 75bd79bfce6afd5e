import Foundation
import ScriptSuites
import Testing

@testable import AuthShell

/// `authflow test` reads only what it was asked to: a golden transcript is a regular file
/// beside its script, and a folder's linked script is refused, so a shared suite cannot put
/// another file's bytes in the report.
struct SuiteGoldenTests {
  /// A file outside the suite's folder holding a marker no output may show; its path.
  private func secret(_ marker: String) throws -> (path: String, folder: String) {
    let folder = NSTemporaryDirectory() + "authflow-secret-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/id_rsa"
    try "# \(marker)\nexpect state choice\n".write(toFile: path, atomically: true, encoding: .utf8)
    return (path, folder)
  }

  @Test func aGoldenThatIsASymbolicLinkIsNotReadAndFailsTheScriptNamingIt() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let marker = "MARKER-" + UUID().uuidString
    let (target, outside) = try secret(marker)
    defer { try? FileManager.default.removeItem(atPath: outside) }
    try folder.write("x.authflow", "expect state choice\n")
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/x.transcript", withDestinationPath: target)
    let report = folder.path + "/junit.xml"

    let run = runSuite([folder.path, "--junit", report], temporary: folder.path)
    #expect(run.status == 1)
    let junit = try String(contentsOfFile: report, encoding: .utf8)
    #expect(
      run.output.contains(
        "\n  x.transcript is a symbolic link; a golden transcript must be a regular file beside "
          + "its script\n"), "\(run.output)")
    #expect(junit.contains("x.transcript is a symbolic link"))
    for text in [run.output, run.errors, junit] { #expect(!text.contains(marker)) }
  }

  @Test func aGoldenThatIsAFIFOFailsTheScriptWithoutWaitingForAWriter() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    try folder.write("x.authflow", "expect state choice\n")
    #expect(mkfifo(folder.path + "/x.transcript", 0o600) == 0)
    // A process of its own, stopped at the deadline: a runner that waited would never end.
    let run = try runTool(
      "/usr/bin/env",
      [
        "XDG_STATE_HOME=\(folder.path)/state", "TMPDIR=\(folder.path)", authflowBinary, "test",
        folder.path + "/x.authflow",
      ], timeout: 60)
    #expect(run.status == 1, "\(run.output)")
    #expect(
      run.output.contains(
        "  x.transcript is a FIFO; a golden transcript must be a regular file beside its script\n"
      ), "\(run.output)")
  }

  @Test func updateRefusesToWriteThroughASymbolicLinkAndLeavesItsTargetAsItWas() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let marker = "MARKER-" + UUID().uuidString
    let (target, outside) = try secret(marker)
    defer { try? FileManager.default.removeItem(atPath: outside) }
    let before = try String(contentsOfFile: target, encoding: .utf8)
    try folder.write("x.authflow", "expect state choice\n")
    let golden = folder.path + "/x.transcript"
    try FileManager.default.createSymbolicLink(atPath: golden, withDestinationPath: target)

    let run = runSuite([folder.path, "--update"], temporary: folder.path)
    #expect(run.status == 1)
    #expect(run.output.contains("  x.transcript is a symbolic link;"), "\(run.output)")
    #expect(!run.output.contains(marker) && !run.errors.contains(marker))
    #expect(try String(contentsOfFile: target, encoding: .utf8) == before)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: golden) == target)
  }

  @Test func aLinkedScriptInAFolderIsRefusedNamingItAndRunsWhenNamedItself() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let marker = "MARKER-" + UUID().uuidString
    let (target, outside) = try secret(marker)
    defer { try? FileManager.default.removeItem(atPath: outside) }
    try folder.write("ok.authflow", "expect state choice\n")
    let linked = folder.path + "/linked.authflow"
    try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: target)

    let run = runSuite([folder.path, "--jobs", "1"], temporary: folder.path)
    #expect(run.status == 1)
    let lines = run.output.split(separator: "\n").map {
      $0.replacing(/\(\d+\.\d\d s\)/, with: "(T)")
    }
    #expect(
      lines == [
        "FAIL linked.authflow (T)",
        "  linked.authflow is a symbolic link; a suite runs the regular files it finds in a "
          + "folder, and a linked script only when named on the command line",
        "ok ok.authflow (T)", "1 passed, 1 failed",
      ])
    #expect(!run.output.contains(marker) && !run.errors.contains(marker))

    let named = runSuite([linked], temporary: folder.path)
    #expect(named.status == 0, "\(named.output)")
  }

  @Test func readingAGoldenTakesARegularFileOrNothingAndRefusesTheRest() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let regular = try folder.write("regular.transcript", "choice> show\n")
    #expect(try GoldenTranscript.read(regular) == Array("choice> show\n".utf8))
    #expect(try GoldenTranscript.read(folder.path + "/missing.transcript") == nil)

    let link = folder.path + "/link.transcript"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: regular)
    #expect(throws: GoldenTranscript.Refusal.symbolicLink) { try GoldenTranscript.read(link) }
    let subfolder = folder.path + "/folder.transcript"
    try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: true)
    #expect(throws: GoldenTranscript.Refusal.notRegular("a folder")) {
      try GoldenTranscript.read(subfolder)
    }
    // Sparse: 17 MiB that take no disk.
    let large = try folder.write("large.transcript", "")
    #expect(truncate(large, 17 << 20) == 0)
    #expect(throws: GoldenTranscript.Refusal.tooLarge) { try GoldenTranscript.read(large) }
    #expect(
      GoldenTranscript.Refusal.tooLarge.text("large.transcript")
        == "large.transcript is larger than 16 MiB, which no script's --echo output is; remove "
        + "it, or write it again with --update")
  }
}
