import AccountStore
import AuthCrypto
import Clocks
import CommandLineOptions
import FirebaseEmulator
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
  /// its `host:port`.
  private static func launch(
    arguments: [String], environment: [String: String], version: String,
    inBackground: ((String) -> Void)?
  ) -> Int32 {
    let started = ContinuousClock.now
    let options: ServeOptions
    do {
      var parsed = try ServeOptions.parse(arguments, environment: environment)
      // NB: libevent takes SIGINT for one event base only; the shell's Ctrl-C stays the shell's.
      if inBackground != nil { parsed.http.handlesSignals = false }
      options = parsed
    } catch {
      return fail(error.text(program: "authflow serve"), status: 2)
    }
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
    // GoTrue reads its database from GOTRUE_DB_DATABASE_URL (the option's variable), else
    // DATABASE_URL.
    let named = options.store ?? environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    let store: StoreLocation
    do throws(OptionValueError) {
      store =
        try named.map(ServeOptions.storeLocation)
        ?? StoreLocation.defaultStore(environment: environment)
    } catch {
      return fail("DATABASE_URL takes \(error.expected)", status: 2)
    }
    if options.seed != nil, store != .memory {
      return fail(
        "--seed makes every secret, code and token predictable, so it only runs on a throw-away "
          + "store; add --store :memory:", status: 2)
    }
    if !options.engine.testCodes.isEmpty,
      let exposed = options.http.hosts.first(where: { !isLoopbackHost($0) })
    {
      return fail(
        "--test-otp makes the codes emailed to its addresses known to whoever reads the "
          + "command line, so it only runs on loopback; --host \(exposed) listens beyond it",
        status: 2)
    }
    if options.seed != nil, let exposed = options.http.hosts.first(where: { !isLoopbackHost($0) }) {
      return fail(
        "--seed makes every emailed code predictable to whoever knows the seed, so it only runs "
          + "on loopback; --host \(exposed) listens beyond it", status: 2)
    }
    // A bad users file refuses to start before anything listens.
    var seeds: [SeedAccount]?
    if let users = options.users {
      do {
        seeds = try UsersFile.read(path: users)
      } catch {
        return fail(error.description, status: 1)
      }
    }

    let hookTargets: [AuthHook: HTTPHookDispatcher.Target]
    do {
      hookTargets = try options.hooks.targets()
    } catch {
      return fail(error.text, status: 2)
    }

    let slot = ResponderSlot()
    let tally = RequestTally()
    let server: HTTPServer
    do {
      server = try HTTPServer(configuration: options.http, responder: slot) { entry in
        tally.count(status: entry.status)
        if !options.quiet { AccessLog.write(entry) }
      }
    } catch {
      return fail(error.description, status: 1)
    }
    let baseURL = "http://\(urlHost(options.http.hosts.first ?? "127.0.0.1")):\(server.port)"
    var configuration = options.engine
    // The file's accounts are the store's fixtures: a new store gets no demo accounts beside.
    if seeds != nil { configuration.seedsDemoAccounts = false }
    configuration.emailLinks =
      options.appLinkScheme.map { .app(scheme: $0) }
      ?? .server(externalURL: options.externalURL ?? baseURL)
    // One clock for the engine, the Firebase surface and the request limits, which the clock
    // route moves where time travelled reaches no store other processes share.
    let clock = AdjustableClock(fixedAt: options.seed.map { _ in fixedEpoch })
    // A seed makes codes, ids and the clock reproducible, never the keys: the signing secret
    // (and so the service_role key), refresh tokens and TOTP secrets stay the system's, drawn
    // in step with the seed's stream so that every code is where the seed puts it.
    let random = options.seed.map { SeededRandom(seed: $0) as any RandomSource } ?? SystemRandom()
    let engine: EmbeddedGoTrue
    do {
      engine = try EmbeddedGoTrue(
        location: store, configuration: configuration, clock: clock, random: random,
        secretRandom: options.seed.map { _ in UnpredictableRandom(inStepWith: random) },
        hooks: hookTargets.isEmpty
          ? nil
          : HTTPHookDispatcher.throughHelper(
            hookTargets,
            log: { line in
              if !options.quiet { say("authflow serve: warning: \(line)\n", to: 2) }
            }))
    } catch {
      return fail(error.description, status: 1)
    }
    for warning in engine.warnings { say("authflow serve: warning: \(warning)\n", to: 2) }
    if let seeds, let users = options.users {
      do {
        let outcome = try engine.seed(seeds, file: users)
        say(
          "authflow serve: users from \(users): \(outcome.added) added, \(outcome.updated) "
            + "updated, \(outcome.unchanged) unchanged\n", to: 2)
      } catch {
        return fail(error.description, status: 1)
      }
    }
    if options.engine.phoneProvider {
      say(
        "authflow serve: warning: the phone provider is on but authflow serve has no SMS "
          + "provider: what would send an SMS answers 500 \"Unable to get SMS provider\", as "
          + "GoTrue does without one\n", to: 2)
    }
    let exposed = server.addresses.filter { !isLoopback($0) }
    if !exposed.isEmpty {
      say(
        "authflow serve: warning: listening on \(exposed.joined(separator: ", ")): anyone who "
          + "can reach it can sign up and sign in; the outbox stays loopback-only"
          + (options.firebaseProject == nil
            ? "" : ", as do Firebase's Bearer owner and the emulator's own routes") + "\n",
        to: 2)
    }
    let firebase = options.firebaseProject.map { project in
      FirebaseEmulation(
        engine: engine, projectID: project, linkBase: options.externalURL ?? baseURL)
    }
    let movable = store == .memory || options.allowsClock
    if options.allowsClock, store != .memory {
      say(
        "authflow serve: warning: --allow-clock: POST /authflow/v1/clock moves this server's "
          + "clock, and the times it stamps in \(store) (sessions, codes, users) with it\n",
        to: 2)
    }
    if !options.engine.testCodes.isEmpty {
      let count = options.engine.testCodes.count
      say(
        "authflow serve: fixed codes (--test-otp) for \(count) address\(count == 1 ? "" : "es")"
          + "; never for real use\n", to: 2)
    }
    // A server in someone else's process (the shell's) writes no log lines.
    let logs = inBackground == nil
    var limits = options.requestLimits
    // Beyond loopback the clients are other machines, told apart by their addresses.
    limits.byPeerAddress = !exposed.isEmpty
    slot.install(
      AuthResponder(
        engine: engine, version: "authflow-\(version)", firebase: firebase,
        externalURL: options.externalURL,
        limiter: RequestLimiter(limits, clock: MonotonicClock(following: clock)),
        clock: ServerClock(
          movable: movable ? clock : nil,
          announce: { line in
            if logs { say("authflow serve: \(line)\n", to: 2) }
          })))
    if let inBackground {
      LoopThread.start { server.run() }
      inBackground(String(baseURL.dropFirst("http://".count)))
      return 0
    }
    say(
      "authflow serve: \(baseURL) (\(server.addresses.joined(separator: " "))) store \(store) "
        + "anon key \(engine.apiKey(role: "anon")) "
        + "service_role key \(engine.apiKey(role: "service_role"))\n", to: 1)
    if let keys = options.engine.jwtKeys {
      let signing = keys.signing.id.isEmpty ? "" : " " + keys.signing.id
      say(
        "authflow serve: tokens signed with \(keys.signing.algorithm.rawValue) key\(signing); "
          + "public keys at \(baseURL)/.well-known/jwks.json\n", to: 1)
    }
    if let firebase {
      // A line of its own: scripts parse the first one.
      let host = baseURL.dropFirst("http://".count)
      say(
        "authflow serve: Firebase Auth emulator for project \(firebase.projectID) at \(baseURL) "
          + "(FIREBASE_AUTH_EMULATOR_HOST=\(host))\n", to: 1)
    }
    let ready = readyLine(after: ContinuousClock.now - started, quiet: options.quiet)
    say("authflow serve: \(ready)\n", to: 2)
    server.run()
    // At a terminal, what it answered; a log read by a program keeps its last line.
    let summary = isatty(2) == 1 ? ": " + tally.summary : ""
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
  private static func urlHost(_ address: String) -> String {
    switch address {
    case "0.0.0.0": "127.0.0.1"
    case "::": "[::1]"
    default: address.contains(":") ? "[\(address)]" : address
    }
  }

  private static func isLoopback(_ address: String) -> Bool {
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

/// A thread of its own for a server's event loop, which blocks it for as long as it runs (a
/// thread of Dispatch's or of the concurrency pool would be taken from their work).
enum LoopThread {
  /// Starts `body` on a new detached thread.
  static func start(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
        body.run()
        return nil
      }, box)
    if started == 0 {
      pthread_detach(thread)
    } else {
      Unmanaged<Body>.fromOpaque(box).release()
    }
  }

  private final class Body: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
}
