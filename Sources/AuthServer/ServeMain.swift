import AccountStore
import AuthCrypto
import Clocks
import CommandLineOptions
import FirebaseEmulator
import GoTrue
import GoTrueEngine
import HTTPServer
import Synchronization
import UserSeeds

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// `authflow serve`: binds, opens the store, prints where it listens and the keys to use, logs
/// one line per request, and stops cleanly on SIGINT or SIGTERM.
public enum ServeMain {
  /// Where seeded clocks stand: 2025-01-01T00:00:00Z, as in the shell's seeded runs.
  static let fixedEpoch = Date(timeIntervalSince1970: 1_735_689_600)

  /// Runs the server with `arguments` (after `serve`); returns the exit status: 0 after a
  /// clean stop, 1 when it cannot start, 2 for a bad command line.
  public static func run(arguments: [String], environment: [String: String], version: String)
    -> Int32
  {
    launch(arguments: arguments, environment: environment, version: version, inBackground: nil)
  }

  /// Starts the server of `arguments` on a thread of its own, without a line on standard
  /// output, per request or on signals (the process is someone else's: the shell's local
  /// emulator); returns its `host:port`, or why it could not start.
  public static func startInBackground(arguments: [String], version: String) -> Result<
    String, ServeStartFailure
  > {
    let started = Mutex<String?>(nil)
    let status = launch(
      arguments: arguments + ["--quiet"], environment: [:], version: version,
      inBackground: { host in started.withLock { $0 = host } })
    guard status == 0, let host = started.withLock({ $0 }) else {
      return .failure(ServeStartFailure(status: status))
    }
    return .success(host)
  }

  /// Runs the server, or with `inBackground` starts it on a thread of its own and hands over
  /// its `host:port`: parse, validate, build, run.
  private static func launch(
    arguments: [String], environment: [String: String], version: String,
    inBackground: ((String) -> Void)?
  ) -> Int32 {
    let started = ContinuousClock.now
    var options: ServeOptions
    do {
      options = try ServeOptions.parse(arguments, environment: environment)
    } catch {
      return fail(error.text(program: "authflow serve"), status: 2)
    }
    // NB: libevent takes SIGINT for one event base only; the shell's Ctrl-C stays the shell's.
    if inBackground != nil { options.http.handlesSignals = false }
    if options.help {
      say(ServeOptions.usage + "\n", to: 1)
      return 0
    }
    if options.version {
      say("authflow \(version)\n", to: 1)
      return 0
    }
    if let config = options.projectConfig {
      say("authflow serve: options from \(config.file)\n", to: 2)
      if let warning = config.warning { say("authflow serve: warning: \(warning)\n", to: 2) }
    }
    if let warning = IgnoredVariables.warning(environment) {
      say("authflow serve: warning: \(warning)\n", to: 2)
    }
    let plan: ServePlan
    do {
      plan = try options.validate(environment: environment)
    } catch {
      return fail(error.text(program: "authflow serve"), status: 2)
    }
    let built: BuiltServer
    do {
      // A server in someone else's process (the shell's) writes no log lines.
      built = try BuiltServer(plan, version: version, logs: inBackground == nil)
    } catch {
      return fail(error.text, status: 1)
    }
    if let inBackground {
      LoopThread.start { built.server.run() }
      inBackground(String(built.baseURL.dropFirst("http://".count)))
      return 0
    }
    built.announce()
    let ready = readyLine(after: ContinuousClock.now - started, quiet: options.quiet)
    say("authflow serve: \(ready)\n", to: 2)
    built.server.run()
    // At a terminal, what it answered; a log read by a program keeps its last line.
    let summary = isatty(2) == 1 ? ": " + built.tally.summary : ""
    say("authflow serve: stopped\(summary)\n", to: 2)
    return 0
  }

  /// The status line once it listens with its engine open: how long that took, and how to
  /// stop it. (The first line, on standard output, carries what scripts read.)
  static func readyLine(after elapsed: Duration, quiet: Bool) -> String {
    let (seconds, attoseconds) = elapsed.components
    let millis = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    let logging = quiet ? "no line per request (--quiet)" : "one line per request below"
    return "ready in \(millis) ms; \(logging); Ctrl-C stops it"
  }

  /// The host part of a URL for a listening address (`[::1]`, and loopback for a wildcard).
  static func urlHost(_ address: String) -> String {
    switch address {
    case "0.0.0.0": "127.0.0.1"
    case "::": "[::1]"
    default: address.contains(":") ? "[\(address)]" : address
    }
  }

  static func isLoopback(_ address: String) -> Bool {
    address.hasPrefix("127.") || address.hasPrefix("[::1]")
  }

  /// Whether a `--host` address is a loopback one (`127.0.0.1`, `::1`); the wildcards are not.
  static func isLoopbackHost(_ host: String) -> Bool {
    host.hasPrefix("127.") || host == "::1" || host.lowercased().hasPrefix("::ffff:127.")
  }

  private static func fail(_ text: String, status: Int32) -> Int32 {
    say("authflow serve: \(text)\n", to: 2)
    return status
  }

  /// Writes `text` straight to a descriptor: unbuffered, so the ready line reaches a pipe at
  /// once.
  static func say(_ text: String, to descriptor: Int32) {
    var text = text
    _ = text.withUTF8 { write(descriptor, $0.baseAddress, $0.count) }
  }
}

/// Why ``ServeMain/startInBackground(arguments:version:)`` could not start a server: what it
/// wrote on standard error says, and the status `authflow serve` would have exited with.
public struct ServeStartFailure: Error, Sendable {
  /// 1 when it could not start, 2 for bad arguments.
  public let status: Int32
}

/// The responder the server is built with before the engine opens (the engine's links need the
/// port the server got): until the engine is installed it answers 503.
final class ResponderSlot: HTTPResponder {
  private let responder = Mutex<AuthResponder?>(nil)

  func install(_ installed: AuthResponder) {
    responder.withLock { $0 = installed }
  }

  func route(_ request: HTTPRequest) -> HTTPRoute {
    guard let current = responder.withLock({ $0 }) else { return .answer(Self.starting) }
    return current.route(request)
  }

  func refusal(_ refusal: ServerRefusal, path: String?) -> HTTPResponse {
    guard let current = responder.withLock({ $0 }) else {
      return AuthResponder.goTrueRefusal(refusal, path: path)
    }
    return current.refusal(refusal, path: path)
  }

  func draining() {
    responder.withLock { $0 }?.draining()
  }

  private static let starting = Answer.error(
    .init(status: 503, code: nil, message: "authflow serve is starting"),
    for: HTTPRequest(method: .get, path: "/"))
}

/// One line per request on standard error: time, method, path (never the query, which can
/// carry a token), status and milliseconds.
enum AccessLog {
  static func write(_ entry: AccessLogEntry) {
    let millis =
      Double(entry.duration.components.attoseconds) / 1e15
      + Double(entry.duration.components.seconds) * 1_000
    let time = Date().formatted(.iso8601)
    let tenths = Int((millis * 10).rounded())
    var line = "\(time) \(entry.method) \(visible(entry.path)) \(entry.status) "
    line += "\(tenths / 10).\(tenths % 10)ms"
    if let problem = entry.problem { line += " (\(visible(problem)))" }
    ServeMain.say(line + "\n", to: 2)
  }

  /// `text` with control characters and spaces escaped, so a path cannot forge log lines.
  static func visible(_ text: String) -> String {
    var shown = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x21 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
        shown += "\\x" + String(scalar.value, radix: 16, uppercase: true)
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }
}
