import AccountStore
import AuthCrypto
import AuthFlow
import AuthFlowFirebase
import AuthFlowGoTrue
import Clocks
import GoTrue
import GoTrueEngine
import HTTPClient
import PrivateFiles
import SavedSessions
import SupabaseREST
import UserSeeds

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The backend a shell runs on: the app's service, and what the shell may do with it beyond
/// the app (read its outbox, move its clock), which only some backends offer. Each kind is made
/// by its factory (``embedded(store:configuration:seed:stateDirectory:savesSession:)``,
/// ``supabase(project:transport:stateDirectory:savesSession:mailbox:seed:)``,
/// ``firebase(project:transport:stateDirectory:savesSession:seed:)``); the rest of the shell
/// reads only these capabilities.
struct ShellBackend {
  /// Which kind it is.
  let kind: BackendKind
  /// The app-facing service.
  let service: any AuthService
  /// Where it lives: the store path or the project URL.
  let location: String
  /// What `show` calls it, when it is not the default embedded store.
  let label: String?
  /// What the prompt calls it: ``label`` without an emulator's address, which `show` gives
  /// (a prompt of `firebase:demo-authflow@127.0.0.1:37913 choice> ` hid the screen's name).
  var promptLabel: String? {
    guard kind == .firebase, let label, let at = label.firstIndex(of: "@") else { return label }
    return String(label[..<at])
  }
  /// Whether a session saved by an earlier run may exist.
  let restoresSession: Bool
  /// Randomness for suggested passwords.
  let random: any RandomSource
  /// Where the shell reads the emails the backend sent, if it can.
  let mailbox: (any ShellMailbox)?
  /// The backend's clock, where the shell may move it: a throw-away store's only (travelled
  /// time would otherwise reach a store other processes share), or the clock of the
  /// `authflow serve` a Supabase backend may be (the server decides).
  let clock: BackendClock?
  /// The clock the shell tells time by: the backend's, or a seeded run's fixed one.
  let shellClock: AdjustableClock?
  /// What opening it changed to keep it safe (permissions made private), for the user.
  let warnings: [String]
  /// Lines an interactive session starts with, after the banner (the demo accounts).
  let greeting: [String]
  /// Puts the demo accounts back as a new store has them, where the backend keeps its own.
  let restoreDemoAccounts: (@Sendable () throws(AuthError) -> Void)?
  /// Opens the emails' links to the server as a phone's browser would, when the app asked for
  /// its links back into it (`--app-scheme`).
  let browser: (any LinkBrowser)?

  private init(
    kind: BackendKind, service: any AuthService, location: String, label: String?,
    restoresSession: Bool, random: any RandomSource, mailbox: (any ShellMailbox)?,
    clock: BackendClock?, shellClock: AdjustableClock?, warnings: [String], greeting: [String],
    restoreDemoAccounts: (@Sendable () throws(AuthError) -> Void)? = nil,
    browser: (any LinkBrowser)? = nil
  ) {
    self.kind = kind
    self.service = service
    self.location = location
    self.label = label
    self.restoresSession = restoresSession
    self.random = random
    self.mailbox = mailbox
    self.clock = clock
    self.shellClock = shellClock
    self.warnings = warnings
    self.greeting = greeting
    self.restoreDemoAccounts = restoreDemoAccounts
    self.browser = browser
    var features: Set<BackendFeature> = []
    if mailbox != nil { features.insert(.outbox) }
    if clock != nil { features.insert(.clock) }
    if restoreDemoAccounts != nil { features.insert(.demoAccounts) }
    self.features = features
  }

  /// `embedded`, `supabase` or `firebase`.
  var name: String { kind.rawValue }

  /// What the backend offers beyond the app's service (worked out once: every command asks).
  let features: Set<BackendFeature>

  /// The current time as the backend sees it.
  var now: Date { shellClock?.now ?? Date() }

  /// Where seeded clocks start: 2025-01-01T00:00:00Z.
  static let fixedEpoch = Date(timeIntervalSince1970: 1_735_689_600)

  /// The embedded engine at `store`, with sessions kept under `stateDirectory`.
  ///
  /// A `seed` makes every secret the engine draws predictable (its JWT secret, code key,
  /// tokens and codes), so it is refused for any store but a throw-away `:memory:` one, whose
  /// secrets and sessions die with the process and never touch a file.
  ///
  /// `users` names a users file whose accounts the store is brought to (in one transaction,
  /// idempotently); a store made then has no demo accounts.
  ///
  /// An `appScheme` makes the app ask for its confirmation links back into it
  /// (``EmailRedirects/app(scheme:)``); the engine then mails GoTrue's links to its own
  /// `GET /verify` at ``engineURL``, which the shell opens in process as a phone's browser would.
  static func embedded(
    store: StoreLocation, configuration: EngineConfiguration, seed: UInt64?, stateDirectory: String,
    savesSession: Bool = true, users: String? = nil, appScheme: String? = nil
  ) throws(ShellError) -> ShellBackend {
    if seed != nil, store != .memory { throw .seedNeedsMemoryStore }
    var configuration = configuration
    if appScheme != nil { configuration.emailLinks = .server(externalURL: engineURL) }
    var seeds: [SeedAccount] = []
    if let users {
      do {
        seeds = try UsersFile.read(path: users)
      } catch {
        throw .backendUnavailable(error.description)
      }
      configuration.seedsDemoAccounts = false
    }
    let random: any RandomSource = seed.map { SeededRandom(seed: $0) } ?? SystemRandom()
    // A seeded run also starts its clock at a fixed time, so transcripts repeat exactly.
    let clock = AdjustableClock(fixedAt: seed.map { _ in fixedEpoch })
    let engine: EmbeddedGoTrue
    do {
      engine = try EmbeddedGoTrue(
        location: store, configuration: configuration, clock: clock, random: random)
    } catch {
      throw .backendUnavailable(error.description)
    }
    if let users {
      do {
        _ = try engine.seed(seeds, file: users)
      } catch {
        throw .backendUnavailable(error.description)
      }
    }
    let sessions: any SessionStore
    switch store {
    case .memory:
      sessions = MemorySessionStore()
    case .file where !savesSession, .postgres where !savesSession:
      sessions = MemorySessionStore()
    case .file, .postgres:
      let place =
        if case .file(let path) = store { absolute(path) } else { store.description }
      let file = SealedSessionFile(
        directory: stateDirectory, identity: "embedded:" + place, random: random)
      do {
        try file.checkKey()
      } catch {
        throw .backendUnavailable(error.description)
      }
      sessions = file
    }
    let greeting = users.map { file in
      let emails = seeds.compactMap(\.email)
      let shown = emails.prefix(3).joined(separator: ", ") + (emails.count > 3 ? ", …" : "")
      return "Accounts from \(file): \(seeds.count)" + (shown.isEmpty ? "." : " (\(shown)).")
    }
    return embedded(
      engine: engine, clock: clock, random: random, sessions: sessions, greeting: greeting,
      redirects: appScheme.map(EmailRedirects.app(scheme:)) ?? EmailRedirects())
  }

  /// Where the embedded engine's server would be, for its links when the app asks for links
  /// back into it: GoTrue's default `API_EXTERNAL_URL`.
  static let engineURL = "http://localhost:9999"

  /// The embedded backend over an opened `engine` whose clock is `clock`.
  static func embedded(
    engine: EmbeddedGoTrue, clock: AdjustableClock, random: any RandomSource,
    sessions: any SessionStore, greeting: String? = nil,
    redirects: EmailRedirects = EmailRedirects()
  ) -> ShellBackend {
    ShellBackend(
      kind: .embedded,
      service: GoTrueAuthService(
        api: engine, sessions: sessions, clock: clock, redirects: redirects),
      location: engine.location.description, label: nil,
      restoresSession: sessions.hasSavedSession(), random: random,
      mailbox: OutboxMailbox(outbox: engine.outbox, sms: engine.smsOutbox),
      clock: engine.location == .memory ? .local(clock) : nil, shellClock: clock,
      warnings: engine.warnings,
      greeting: greeting.map { [$0] }
        ?? DemoAccountsText.greeting(inMemory: engine.location == .memory),
      restoreDemoAccounts: { () throws(AuthError) in
        do throws(GoTrueFailure) {
          try engine.restoreDemoAccounts()
        } catch {
          throw AuthError(error, during: .signUp)
        }
      },
      browser: redirects == EmailRedirects() ? nil : EngineLinkBrowser(engine: engine))
  }

  /// The Supabase project `project`, reached through `transport`, with its session kept under
  /// `stateDirectory` (one sealed file per project URL).
  ///
  /// A `seed` is for golden transcripts against a server seeded the same way: the shell's clock
  /// stands at the seeded epoch and its randomness is the seed's, and nothing is saved.
  static func supabase(
    project: SupabaseProject, transport: any HTTPTransport, stateDirectory: String,
    savesSession: Bool = true, mailbox: MailpitMailbox? = nil, seed: UInt64? = nil,
    redirects: EmailRedirects = EmailRedirects()
  ) throws(ShellError) -> ShellBackend {
    let client = SupabaseGoTrueClient(project: project, transport: transport)
    let browser =
      redirects == EmailRedirects()
      ? nil : RemoteLinkBrowser(transport: transport, timeout: project.timeout)
    // The wall clock, or a seeded run's fixed one; `clock advance` moves it with the server's.
    let clock = AdjustableClock(fixedAt: seed.map { _ in fixedEpoch })
    let server = ServeClock(project: project, transport: transport)
    if !savesSession || seed != nil {
      let service = GoTrueAuthService(
        api: client, sessions: MemorySessionStore(), clock: clock, redirects: redirects)
      return supabase(
        project, service: service, restoresSession: false, mailbox: mailbox,
        clock: clock, server: server,
        random: seed.map { SeededRandom(seed: $0) as any RandomSource } ?? SystemRandom(),
        browser: browser)
    }
    let sessions = SealedSessionFile(directory: stateDirectory, identity: "supabase:" + project.url)
    do {
      try sessions.checkKey()
    } catch {
      throw .backendUnavailable(error.description)
    }
    return supabase(
      project,
      service: GoTrueAuthService(
        api: client, sessions: sessions, clock: clock, redirects: redirects),
      restoresSession: sessions.hasSavedSession(), mailbox: mailbox, clock: clock,
      server: server, random: SystemRandom(), browser: browser)
  }

  /// The Firebase project `project`, reached through `transport`, its session kept under
  /// `stateDirectory` per project (and emulator) unless `savesSession` is off.
  static func firebase(
    project: FirebaseProject, transport: any HTTPTransport, stateDirectory: String,
    savesSession: Bool = true, seed: UInt64? = nil
  ) throws(ShellError) -> ShellBackend {
    let client = FirebaseClient(project: project, transport: transport)
    let mailbox = try? FirebaseEmulatorMailbox(project: project, transport: transport)
    let clock = seed.map { _ in AdjustableClock(fixedAt: fixedEpoch) }
    let random: any RandomSource = seed.map { SeededRandom(seed: $0) } ?? SystemRandom()
    let sessions: any SessionStore
    if savesSession, seed == nil {
      let file = SealedSessionFile(directory: stateDirectory, identity: project.sessionIdentity)
      do {
        try file.checkKey()
      } catch {
        throw .backendUnavailable(error.description)
      }
      sessions = file
    } else {
      sessions = MemorySessionStore()
    }
    let service =
      if let clock {
        FirebaseAuthService(client: client, sessions: sessions, clock: clock)
      } else {
        FirebaseAuthService(client: client, sessions: sessions)
      }
    return ShellBackend(
      kind: .firebase, service: service,
      location: project.emulatorURL ?? project.projectID, label: "firebase:\(project.name)",
      restoresSession: sessions.hasSavedSession(), random: random,
      mailbox: mailbox.map { RemoteMailbox($0) }, clock: nil, shellClock: clock, warnings: [],
      greeting: [])
  }

  private static func supabase(
    _ project: SupabaseProject, service: GoTrueAuthService, restoresSession: Bool,
    mailbox: MailpitMailbox?, clock: AdjustableClock, server: ServeClock,
    random: any RandomSource, browser: RemoteLinkBrowser?
  ) -> ShellBackend {
    ShellBackend(
      kind: .supabase, service: service, location: project.url,
      label: "supabase:\(project.name)", restoresSession: restoresSession, random: random,
      mailbox: mailbox.map { RemoteMailbox($0) }, clock: .server(server, shell: clock),
      shellClock: clock, warnings: [], greeting: [], browser: browser)
  }

  private static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let directory = FileManager.default.currentDirectoryPath
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
  }
}
