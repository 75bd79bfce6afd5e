import Foundation

/// A program run to its end, its standard output and error together.
struct ShellRun {
  let status: Int32
  let output: String

  /// Runs `program` with `arguments` in `folder` (default: the current one).
  static func run(_ program: String, _ arguments: [String], in folder: String? = nil) throws
    -> ShellRun
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ShellRun(
      status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
  }

  /// A fresh folder with `files` (empty) and a folder `dir`, removed by the caller.
  static func folder(with files: [String]) throws -> String {
    let folder = NSTemporaryDirectory() + "authflow-completion-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: folder + "/dir", withIntermediateDirectories: true)
    for file in files {
      _ = FileManager.default.createFile(atPath: folder + "/" + file, contents: nil)
    }
    return folder
  }
}
