import Foundation
import Synchronization
import Testing

@testable import AuthShell

/// Writes `text` to an executable file at `path`; returns the path.
///
/// NB: written through a descriptor closed on exec. A descriptor open for writing that a process
/// spawned meanwhile by another test inherits keeps the file busy, and running it then fails
/// with ETXTBSY; Foundation's writers do not set close-on-exec.
@discardableResult
func writeProgram(atPath path: String, _ text: String) throws -> String {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
  guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
  defer { close(descriptor) }
  let bytes = Array(text.utf8)
  let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
  return path
}

/// A temporary folder of scripts for one suite test, removed by ``remove()``.
struct ScriptFolder {
  let path = NSTemporaryDirectory() + "authflow-suite-" + UUID().uuidString

  init() throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Copies `names` (scripts and their transcripts) from examples/.
  func copyExamples(_ names: [String]) throws {
    for name in names {
      for suffix in [".authflow", ".transcript"] {
        try FileManager.default.copyItem(
          atPath: packageRoot.appendingPathComponent("examples/\(name)\(suffix)").path,
          toPath: path + "/\(name)\(suffix)")
      }
    }
  }

  /// Writes `text` to the file `name` in the folder; returns its path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let file = path + "/" + name
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  /// Writes `text` to the program `name` in the folder, executable; returns its path.
  @discardableResult
  func writeProgram(_ name: String, _ text: String) throws -> String {
    try AuthShellTests.writeProgram(atPath: path + "/" + name, text)
  }

  /// The text of the file `name` in the folder.
  func read(_ name: String) throws -> String {
    try String(contentsOfFile: path + "/" + name, encoding: .utf8)
  }

  /// What the folder holds, at any depth.
  var contents: [String] {
    ((try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []).sorted()
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// What a suite printed and returned.
struct SuiteRun {
  var status: Int32
  var output: String
  var errors: String
}

/// Runs `authflow test ARGUMENTS` in this process, each script in the `authflow` built beside
/// the tests, with `environment` added to this process's; the temporary XDG folders go under
/// `temporary` when given.
func runSuite(
  _ arguments: [String], program: String = authflowBinary, temporary: String? = nil,
  terminal: Bool = false, state: String? = nil, environment added: [String: String] = [:]
) -> SuiteRun {
  var output: [UInt8] = []
  var errors: [UInt8] = []
  let sink = ShellOutput { stream, bytes in
    if stream == .standardOutput { output += bytes } else { errors += bytes }
  }
  var environment = ProcessInfo.processInfo.environment.merging(added) { $1 }
  if let temporary { environment["TMPDIR"] = temporary }
  // The scripts' durations go to a folder of the test's, never to the user's.
  let scratchState = NSTemporaryDirectory() + "authflow-suite-state-" + UUID().uuidString
  defer { try? FileManager.default.removeItem(atPath: scratchState) }
  environment["XDG_STATE_HOME"] = state ?? scratchState
  let status = SuiteMain.run(
    arguments: arguments, environment: environment, program: program, output: sink,
    terminal: terminal)
  sink.flush()
  return SuiteRun(
    status: status, output: String(decoding: output, as: UTF8.self),
    errors: String(decoding: errors, as: UTF8.self))
}

/// Runs a tool to its end or for `timeout` seconds at most; its exit status and output.
func runTool(_ path: String, _ arguments: [String], timeout: Double = 30) throws -> (
  status: Int32, output: String
) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  process.standardError = output
  try process.run()
  let finished = DispatchSemaphore(value: 0)
  let data = Mutex(Data())
  Thread {
    data.withLock { $0 = output.fileHandleForReading.readDataToEndOfFile() }
    finished.signal()
  }.start()
  if finished.wait(timeout: .now() + timeout) == .timedOut {
    process.terminate()
    finished.wait()
  }
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data.withLock { $0 }, as: UTF8.self))
}
