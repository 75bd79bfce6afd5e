import CommandLineOptions
import Foundation
import Testing

/// Each shell's completion script, loaded in that shell and asked to complete command lines:
/// options, a value from a list, a subcommand and its options, files of the right kind.
@Suite(.serialized)
struct CompletionScriptTests {
  /// Command lines and what each shell should offer (files: a.sample, b.txt, g.dot, dir/).
  static let cases: [(line: String, offered: Set<String>)] = [
    ("sample --", ["--backend", "--store", "--verbose", "--cache"]),
    ("sample -", ["--backend", "--store", "-v", "--verbose", "--cache"]),
    ("sample --backend ", ["local", "remote"]),
    ("sample d", ["draw", "dir"]),
    ("sample draw --", ["--scale", "--backend", "--store", "--verbose", "--cache"]),
    ("sample users ", ["export"]),
    ("sample users export --format ", ["plain", "json"]),
    ("sample draw ", ["g.dot", "dir"]),
  ]

  let folder: String

  init() throws {
    folder = try ShellRun.folder(with: ["a.sample", "b.txt", "g.dot"])
  }

  private func script(_ shell: CompletionShell, named name: String) throws -> String {
    let path = folder + "/" + name
    try shell.script(for: SampleProgram.program).write(
      toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  /// Words offered, without the `/` some shells add to folders.
  private func words(_ output: String) -> Set<String> {
    Set(
      output.split(separator: "\n").map { line in
        let word = line.split(separator: "\t").first.map(String.init) ?? ""
        return word.hasSuffix("/") ? String(word.dropLast()) : word
      })
  }

  @Test func bashCompletesWithCOMPWORDS() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try script(.bash, named: "sample.bash")
    for (line, offered) in Self.cases {
      var words = line.split(separator: " ").map(String.init)
      if line.hasSuffix(" ") { words.append("") }
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let run = try ShellRun.run(
        "/bin/bash",
        [
          "--norc", "-c",
          "source \(path); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _sample; "
            + "printf '%s\\n' \"${COMPREPLY[@]}\"",
        ], in: folder)
      #expect(self.words(run.output) == offered, "\(line)")
    }
    let registered = try ShellRun.run(
      "/bin/bash", ["--norc", "-c", "source \(path); complete -p sample"])
    #expect(registered.output == "complete -F _sample sample\n")
    // --name=value: bash splits the word at '='.
    let inline = try ShellRun.run(
      "/bin/bash",
      [
        "--norc", "-c",
        "source \(path); COMP_WORDS=(sample --backend = r); COMP_CWORD=3; _sample; echo ${COMPREPLY[@]}",
      ])
    #expect(inline.output == "remote\n")
  }

  @Test func fishCompletesWithCompleteC() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try script(.fish, named: "sample.fish")
    for (line, offered) in Self.cases {
      let run = try ShellRun.run(
        "/usr/bin/fish", ["--no-config", "-c", "source \(path); complete -C'\(line)'"], in: folder)
      let found = words(run.output)
      // fish lists other files after the matching ones, and folders only by name.
      #expect(offered.subtracting(["dir"]).isSubset(of: found), "\(line): \(found)")
    }
    let flags = try ShellRun.run(
      "/usr/bin/fish", ["--no-config", "-c", "source \(path); complete -C'sample --verb'"])
    #expect(flags.output == "--verbose\tsay more: much more\n")
  }

  @Test func zshCompletesThroughItsCompletionSystem() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let functions = folder + "-functions"
    defer { try? FileManager.default.removeItem(atPath: functions) }
    try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: true)
    try CompletionShell.zsh.script(for: SampleProgram.program).write(
      toFile: functions + "/_sample", atomically: false, encoding: .utf8)
    let capture = functions + "/capture.zsh"
    try ZshCapture.script.write(toFile: capture, atomically: false, encoding: .utf8)
    for (line, offered) in Self.cases {
      let run = try ShellRun.run("/usr/bin/zsh", ["-f", capture, functions, line], in: folder)
      #expect(words(run.output) == offered, "\(line): \(run.output)")
    }
  }
}
