import AccountStore
import AuthCrypto
import Clocks
import EngineSettings
import FirebaseEmulator
import GoTrueEngine
import HTTPServer
import UserSeeds

/// A server built from a checked plan: listening, its store open and seeded, its responder
/// installed, not yet running. What could not be built is one line (exit status 1).
struct BuiltServer {
  /// The HTTP server, bound.
  let server: HTTPServer
  /// The engine over the store.
  let engine: EmbeddedGoTrue
  /// The server's own URL.
  let baseURL: String
  /// The store it serves.
  let store: StoreLocation
  /// The Firebase surface, with `--firebase-project`.
  let firebase: FirebaseEmulation?
  /// What it answered, for the line when it stops.
  let tally: RequestTally
  /// The options it was built with.
  let options: ServeOptions

  /// Why a server could not be built: one line.
  struct Failure: Error {
    /// The line.
    let text: String
  }

  /// Binds, opens the store and seeds it, as `plan` says; `logs: false` writes no line per
  /// request or on the clock (the server is in someone else's process).
  init(_ plan: ServePlan, version: String, logs: Bool) throws(Failure) {
    let options = plan.options
    let store = plan.store
    // A bad users file refuses to start before anything listens.
    var seeds: [SeedAccount]?
    if let users = options.settings.users {
      do {
        seeds = try UsersFile.read(path: users)
      } catch {
        throw Failure(text: error.description)
      }
    }
    let slot = ResponderSlot()
    let tally = RequestTally()
    let server: HTTPServer
    do {
      var http = options.http
      // A request waiting on PostgreSQL leaves its core to another (WorkThreads).
      http.workThreads = store.networkWaits
      server = try HTTPServer(configuration: http, responder: slot) { entry in
        tally.count(status: entry.status)
        if !options.quiet { AccessLog.write(entry) }
      }
    } catch {
      throw Failure(text: error.description)
    }
    let baseURL =
      "http://\(ServeMain.urlHost(options.http.hosts.first ?? "127.0.0.1")):\(server.port)"
    var configuration = options.settings.engine
    // The file's accounts are the store's fixtures: a new store gets no demo accounts beside.
    if seeds != nil { configuration.seedsDemoAccounts = false }
    configuration.emailLinks =
      options.appLinkScheme.map { .app(scheme: $0) }
      ?? .server(externalURL: options.externalURL ?? baseURL)
    // One clock for the engine, the Firebase surface and the request limits, which the clock
    // route moves where time travelled reaches no store other processes share.
    let seed = options.settings.seed
    let clock = AdjustableClock(fixedAt: seed.map { _ in ServeMain.fixedEpoch })
    // A seed makes codes, ids and the clock reproducible, never the keys: the signing secret
    // (and so the service_role key), refresh tokens and TOTP secrets stay the system's, drawn
    // in step with the seed's stream so that every code is where the seed puts it.
    let random = seed.map { SeededRandom(seed: $0) as any RandomSource } ?? SystemRandom()
    let engine: EmbeddedGoTrue
    do {
      engine = try EmbeddedGoTrue(
        location: store, configuration: configuration, clock: clock, random: random,
        secretRandom: seed.map { _ in UnpredictableRandom(inStepWith: random) },
        hooks: plan.hookTargets.isEmpty
          ? nil
          : HTTPHookDispatcher.throughHelper(
            plan.hookTargets,
            log: { line in
              if !options.quiet { ServeMain.say("authflow serve: warning: \(line)\n", to: 2) }
            }))
    } catch {
      throw Failure(text: error.description)
    }
    for warning in engine.warnings { ServeMain.say("authflow serve: warning: \(warning)\n", to: 2) }
    if let seeds, let users = options.settings.users {
      do {
        let outcome = try engine.seed(seeds, file: users)
        ServeMain.say(
          "authflow serve: users from \(users): \(outcome.added) added, \(outcome.updated) "
            + "updated, \(outcome.unchanged) unchanged\n", to: 2)
      } catch {
        throw Failure(text: error.description)
      }
    }
    let exposed = server.addresses.filter { !ServeMain.isLoopback($0) }
    Self.warn(options, store: store, exposed: exposed)
    let firebase = options.firebaseProject.map { project in
      FirebaseEmulation(
        engine: engine, projectID: project, linkBase: options.externalURL ?? baseURL)
    }
    let movable = store == .memory || options.allowsClock
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
            if logs { ServeMain.say("authflow serve: \(line)\n", to: 2) }
          })))
    self.server = server
    self.engine = engine
    self.baseURL = baseURL
    self.store = store
    self.firebase = firebase
    self.tally = tally
    self.options = options
  }

  /// The warnings of what the options ask for: settings that are unsafe or half-served.
  private static func warn(_ options: ServeOptions, store: StoreLocation, exposed: [String]) {
    if !exposed.isEmpty {
      ServeMain.say(
        "authflow serve: warning: listening on \(exposed.joined(separator: ", ")): anyone who "
          + "can reach it can sign up and sign in; the outbox stays loopback-only"
          + (options.firebaseProject == nil
            ? "" : ", as do Firebase's Bearer owner and the emulator's own routes") + "\n",
        to: 2)
    }
    if options.allowsClock, store != .memory {
      ServeMain.say(
        "authflow serve: warning: --allow-clock: POST /authflow/v1/clock moves this server's "
          + "clock, and the times it stamps in \(store) (sessions, codes, users) with it\n",
        to: 2)
    }
    let testCodes = options.settings.engine.testCodes
    if !testCodes.isEmpty {
      let count = testCodes.count
      ServeMain.say(
        "authflow serve: fixed codes (--test-otp) for \(count) address\(count == 1 ? "" : "es")"
          + "; never for real use\n", to: 2)
    }
  }

  /// The lines scripts read on standard output: where it listens, the store and the keys.
  func announce() {
    ServeMain.say(
      "authflow serve: \(baseURL) (\(server.addresses.joined(separator: " "))) store \(store) "
        + "anon key \(engine.apiKey(role: "anon")) "
        + "service_role key \(engine.apiKey(role: "service_role"))\n", to: 1)
    if let keys = options.settings.engine.jwtKeys {
      let signing = keys.signing.id.isEmpty ? "" : " " + keys.signing.id
      ServeMain.say(
        "authflow serve: tokens signed with \(keys.signing.algorithm.rawValue) key\(signing); "
          + "public keys at \(baseURL)/.well-known/jwks.json\n", to: 1)
    }
    if let firebase {
      // A line of its own: scripts parse the first one.
      let host = baseURL.dropFirst("http://".count)
      ServeMain.say(
        "authflow serve: Firebase Auth emulator for project \(firebase.projectID) at \(baseURL) "
          + "(FIREBASE_AUTH_EMULATOR_HOST=\(host))\n", to: 1)
    }
  }
}
