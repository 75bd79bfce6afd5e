import AuthCrypto
import AuthFlowGoTrue
import Clocks
import Foundation
import GoTrue
import GoTrueEngine
import PrivateFiles
import Synchronization
import Testing

@testable import AuthShell

/// The package's root folder.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The `authflow` binary built beside this test bundle.
let authflowBinary: String = {
  let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
  return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(
    "authflow"
  ).path
}()

/// What a run of the binary gave.
struct ProcessResult {
  var status: Int32
  var output: String
  var error: String
}

/// Runs the `authflow` binary with `arguments`, feeding `input` on standard input.
func runAuthflow(
  _ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
  mergeErrors: Bool = false
) throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: authflowBinary)
  process.arguments = arguments
  var env = ProcessInfo.processInfo.environment
  let scratch = NSTemporaryDirectory() + "authflow-xdg-" + UUID().uuidString
  env["XDG_DATA_HOME"] = scratch + "/data"
  env["XDG_STATE_HOME"] = scratch + "/state"
  for (key, value) in environment { env[key] = value }
  process.environment = env
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = mergeErrors ? stdout : Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  let writer = Thread {
    stdin.fileHandleForWriting.write(input)
    try? stdin.fileHandleForWriting.close()
  }
  writer.start()
  let errorData = Mutex(Data())
  // NB: `Thread.isExecuting` is false until the thread has started, so waiting on it races;
  // the reader signals when it has read to the end.
  let errorsRead = DispatchSemaphore(value: 0)
  let errorReader = Thread {
    if !mergeErrors {
      errorData.withLock { $0 = stderr.fileHandleForReading.readDataToEndOfFile() }
    }
    errorsRead.signal()
  }
  errorReader.start()
  let output = stdout.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  errorsRead.wait()
  try? FileManager.default.removeItem(atPath: scratch)
  return ProcessResult(
    status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
    error: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
}

/// A shell session on a throw-away embedded store, fed `lines`; returns what it printed to
/// each stream and its exit status.
@MainActor
func runShell(
  _ lines: [String], options: ShellRunner.Options = ShellRunner.Options(),
  style: RenderStyle = .script, autoconfirm: Bool = false, environment: [String: String] = [:]
) async throws -> (output: String, errors: String, status: Int32, history: [String]) {
  var configuration = EngineConfiguration()
  configuration.hashCost = Bcrypt.minimumCost
  configuration.autoconfirm = autoconfirm
  let backend = try ShellBackend.embedded(
    store: .memory, configuration: configuration, seed: 1, stateDirectory: "/nonexistent")
  let session = ShellSession(backend: backend, style: style)
  session.environment = environment
  var output = Data()
  var errors = Data()
  let sink = ShellOutput { stream, bytes in
    if stream == .standardOutput {
      output.append(contentsOf: bytes)
    } else {
      errors.append(contentsOf: bytes)
    }
  }
  let source = StringLineSource(lines)
  let status = await ShellRunner(
    session: session, source: source, output: sink, options: options
  ).run()
  return (
    String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self), status,
    source.remembered
  )
}
