import AccountStore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Why the tests' PostgreSQL server could not be had: a test that needs it fails with this line.
package struct PostgresTestServerError: Error, Sendable, CustomStringConvertible {
  /// What went wrong and what would put it right.
  package let description: String
}

/// A throw-away PostgreSQL server for this test process: a new cluster in a temporary folder,
/// listening on a free loopback port only, fast rather than durable (no fsync), started on first
/// use and shared by every suite; each test makes a database of its own in it.
///
/// PostgreSQL refuses to run as root, so under root (as in CI) the cluster belongs to the
/// `postgres` user that Debian's package makes, and its programs run as that user. A watchdog
/// process stops the server and removes the folder when this process ends, however it ends.
package final class PostgresTestServer: Sendable {
  /// The port the server listens on, at 127.0.0.1.
  package let port: Int
  /// The server's folder (its data and log), removed when the process ends.
  package let folder: String
  private let admin: PostgresPool

  /// The server of this test process, started by the first test that asks.
  package static func shared() throws(PostgresTestServerError) -> PostgresTestServer {
    try started.get()
  }

  private static let started = Result { () throws(PostgresTestServerError) in
    try PostgresTestServer()
  }

  private init() throws(PostgresTestServerError) {
    let programs = try PostgresPrograms.find()
    let folder = try programs.makeFolder()
    self.folder = folder
    try Watchdog.start(folder: folder, programs: programs)
    do {
      try programs.run(
        "initdb", "--pgdata=\(folder)/data", "--username=postgres", "--auth=trust",
        "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions")
      port = try Self.start(programs, folder: folder)
    } catch {
      Watchdog.finish()
      throw error
    }
    do {
      admin = PostgresPool(url: try Self.url(port: port, database: "postgres"), size: 2)
    } catch {
      throw PostgresTestServerError(description: error.description)
    }
  }

  /// The URL of `database` on this server, as the superuser `postgres`.
  package func url(database: String) throws(AccountStoreError) -> PostgresURL {
    try Self.url(port: port, database: database)
  }

  /// A new empty database (copied from `template1`) for one test, and its URL.
  package func makeDatabase() throws -> PostgresURL {
    let name = "t_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    try admin.withConnection { connection throws(AccountStoreError) in
      try connection.execute("CREATE DATABASE \(name)")
    }
    return try url(database: name)
  }

  /// A loopback port nothing listens on (at the moment it was asked).
  package static func unusedPort() -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 ? getsockname(socket, $0, &length) : -1
      }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  private static func url(port: Int, database: String) throws(AccountStoreError) -> PostgresURL {
    try PostgresURL("postgresql://postgres@127.0.0.1:\(port)/\(database)")
  }

  /// Starts the server on a free port (another, when a process took it meanwhile) and waits
  /// until it accepts connections: at most 30 s and 3 000 tries.
  private static func start(
    _ programs: PostgresPrograms, folder: String
  ) throws(PostgresTestServerError) -> Int {
    var lastLog = ""
    for _ in 1...3 {
      let port = unusedPort()
      let server = try programs.launch(
        "postgres", "-D", "\(folder)/data", "-c", "listen_addresses=127.0.0.1", "-p", "\(port)",
        "-c", "unix_socket_directories=", "-c", "fsync=off", "-c", "synchronous_commit=off",
        "-c", "full_page_writes=off", "-c", "max_connections=150", log: "\(folder)/server.log")
      guard let address = try? url(port: port, database: "postgres") else { break }
      let deadline = Date().addingTimeInterval(30)
      for _ in 0..<3_000 where Date() < deadline && server.isRunning {
        if PostgresPing(address) == .accepting { return port }
        usleep(10_000)
      }
      lastLog = (try? String(contentsOfFile: "\(folder)/server.log", encoding: .utf8)) ?? ""
      if server.isRunning {
        server.terminate()
        break
      }
    }
    let tail = lastLog.split(separator: "\n").suffix(3).joined(separator: " | ")
    throw PostgresTestServerError(
      description: "the tests' PostgreSQL server did not start; its log ends: \(tail)")
  }
}
