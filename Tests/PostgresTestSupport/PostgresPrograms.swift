import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// PostgreSQL's server programs (Debian's `/usr/lib/postgresql/<version>/bin`, the newest
/// version there) and how to run them: as the `postgres` user when this process is root.
struct PostgresPrograms {
  /// The folder of `initdb`, `postgres`, `pg_ctl`.
  let folder: String
  /// The user they run as, when not this process's own: its user and group ids.
  let user: (uid: uid_t, gid: gid_t)?

  private static let root = "/usr/lib/postgresql"

  /// The newest installed version's programs; a missing one is a failure naming the package.
  static func find() throws(PostgresTestServerError) -> PostgresPrograms {
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
      .compactMap(Int.init)
      .filter { FileManager.default.isExecutableFile(atPath: "\(root)/\($0)/bin/initdb") }
    guard let version = versions.max() else {
      throw PostgresTestServerError(
        description: "PostgreSQL's server programs are missing (no \(root)/*/bin/initdb); "
          + "install Debian's package postgresql (make test installs it)")
    }
    var user: (uid_t, gid_t)?
    if geteuid() == 0 {
      guard let entry = getpwnam("postgres") else {
        throw PostgresTestServerError(
          description: "PostgreSQL does not run as root and there is no user postgres to run "
            + "it as; install Debian's package postgresql, which makes that user")
      }
      user = (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }
    return PostgresPrograms(folder: "\(root)/\(version)/bin", user: user)
  }

  /// A new folder `authflow-postgres-…` in the temporary folder, owned by the user the server
  /// runs as; in `/tmp` when that user cannot reach the temporary folder (one inside a home
  /// folder only root may enter).
  func makeFolder() throws(PostgresTestServerError) -> String {
    let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
    for base in [temporary ?? "/tmp", "/tmp"] {
      var template = Array("\(base)/authflow-postgres-XXXXXX".utf8CString)
      guard let made = mkdtemp(&template) else { continue }
      let folder = String(cString: made)
      guard let user else { return folder }
      if chown(folder, user.uid, user.gid) == 0, (try? run("/usr/bin/test", "-w", folder)) != nil {
        return folder
      }
      rmdir(folder)
    }
    throw PostgresTestServerError(
      description:
        "no temporary folder the user postgres may write was found (tried $TMPDIR and /tmp)")
  }

  /// Runs a program to its end; a failure says how it ended and the end of what it printed.
  @discardableResult
  func run(_ program: String, _ arguments: String...) throws(PostgresTestServerError) -> String {
    let process = makeProcess(program, arguments)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    do { try process.run() } catch {
      throw PostgresTestServerError(description: "\(program) could not start: \(error)")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0 else {
      let tail = text.split(separator: "\n").suffix(3).joined(separator: " | ")
      throw PostgresTestServerError(
        description: "\(program) failed (status \(process.terminationStatus)): \(tail)")
    }
    return text
  }

  /// Starts a program that keeps running, its output going to the file `log`.
  func launch(
    _ program: String, _ arguments: String..., log: String
  ) throws(PostgresTestServerError) -> Process {
    let process = makeProcess(program, arguments)
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    if let user { chown(log, user.uid, user.gid) }
    guard let output = FileHandle(forWritingAtPath: log) else {
      throw PostgresTestServerError(description: "cannot write \(log)")
    }
    defer { try? output.close() }
    process.standardOutput = output
    process.standardError = output
    do { try process.run() } catch {
      throw PostgresTestServerError(description: "\(program) could not start: \(error)")
    }
    return process
  }

  /// The command line that runs `program` (a name in `folder`, or a path) as the server's user.
  func commandLine(_ program: String, _ arguments: [String]) -> [String] {
    let path = program.hasPrefix("/") ? program : "\(folder)/\(program)"
    guard let user else { return [path] + arguments }
    return [
      "/usr/bin/setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--",
    ]
      + [path] + arguments
  }

  private func makeProcess(_ program: String, _ arguments: [String]) -> Process {
    let command = commandLine(program, arguments)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.standardInput = FileHandle.nullDevice
    return process
  }
}
