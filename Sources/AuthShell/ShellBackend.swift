import AuthCrypto
import AuthFlow
import AuthFlowFirebase
import AuthFlowGoTrue
import AuthFlowHTTP
import AuthFlowSupabase
import Clocks
import GoTrueEngine
import PrivateFiles
import SavedSessions

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The backend a shell runs on: the app's service, and what the shell may do with it beyond
/// the app (read its outbox, move its clock), which only some backends offer.
enum ShellBackend {
  /// The engine on a local store.
  case embedded(Embedded)
  /// A Supabase project.
  case supabase(Supabase)
  /// A Firebase project, or the Firebase Auth emulator.
  case firebase(Firebase)

  /// The embedded engine with its clock and the store it runs on.
  struct Embedded {
    let engine: EmbeddedGoTrue
    let clock: AdjustableClock
    let store: StoreLocation
    let service: GoTrueAuthService
    let random: any RandomSource
    let restoresSession: Bool
  }

  /// A Supabase project.
  struct Supabase {
    let project: SupabaseProject
    let service: GoTrueAuthService
    let restoresSession: Bool
    /// The mail catcher its emails can be read from (`--mailbox`).
    let mailbox: MailpitMailbox?
    /// The shell's own clock when seeded (the server's stays its own).
    let clock: AdjustableClock?
    let random: any RandomSource
  }

  /// A Firebase project (seed 003's backend).
  struct Firebase {
    let project: FirebaseProject
    let service: FirebaseAuthService
    let restoresSession: Bool
    /// The emulator's list of codes and links, when the project is emulated.
    let mailbox: FirebaseEmulatorMailbox?
    /// The shell's own clock when seeded.
    let clock: AdjustableClock?
    let random: any RandomSource
  }

  /// Where seeded clocks start: 2025-01-01T00:00:00Z.
  static let fixedEpoch = Date(timeIntervalSince1970: 1_735_689_600)

  /// The embedded engine at `store`, with sessions kept under `stateDirectory`.
  ///
  /// A `seed` makes every secret the engine draws predictable (its JWT secret, code key,
  /// tokens and codes), so it is refused for any store but a throw-away `:memory:` one, whose
  /// secrets and sessions die with the process and never touch a file.
  static func embedded(
    store: StoreLocation, configuration: EngineConfiguration, seed: UInt64?, stateDirectory: String,
    savesSession: Bool = true
  ) throws(ShellError) -> ShellBackend {
    if seed != nil, store != .memory { throw .seedNeedsMemoryStore }
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
    let sessions: any SessionStore
    switch store {
    case .memory:
      sessions = MemorySessionStore()
    case .file where !savesSession:
      sessions = MemorySessionStore()
    case .file(let path):
      let file = SealedSessionFile(
        directory: stateDirectory, identity: "embedded:" + absolute(path), random: random)
      do {
        try file.checkKey()
      } catch {
        throw .backendUnavailable(error.description)
      }
      sessions = file
    }
    return .embedded(
      Embedded(
        engine: engine, clock: clock, store: store,
        service: GoTrueAuthService(api: engine, sessions: sessions, clock: clock), random: random,
        restoresSession: sessions.hasSavedSession()))
  }

  /// The Supabase project `project`, reached through `transport`, with its session kept under
  /// `stateDirectory` (one sealed file per project URL).
  ///
  /// A `seed` is for golden transcripts against a server seeded the same way: the shell's clock
  /// stands at the seeded epoch and its randomness is the seed's, and nothing is saved.
  static func supabase(
    project: SupabaseProject, transport: any HTTPTransport, stateDirectory: String,
    savesSession: Bool = true, mailbox: MailpitMailbox? = nil, seed: UInt64? = nil
  ) throws(ShellError) -> ShellBackend {
    let client = SupabaseGoTrueClient(project: project, transport: transport)
    if !savesSession, seed == nil {
      return .supabase(
        Supabase(
          project: project,
          service: GoTrueAuthService(api: client, sessions: MemorySessionStore()),
          restoresSession: false, mailbox: mailbox, clock: nil, random: SystemRandom()))
    }
    if let seed {
      let clock = AdjustableClock(fixedAt: fixedEpoch)
      let service = GoTrueAuthService(api: client, sessions: MemorySessionStore(), clock: clock)
      return .supabase(
        Supabase(
          project: project, service: service, restoresSession: false, mailbox: mailbox,
          clock: clock, random: SeededRandom(seed: seed)))
    }
    let sessions = SealedSessionFile(directory: stateDirectory, identity: "supabase:" + project.url)
    do {
      try sessions.checkKey()
    } catch {
      throw .backendUnavailable(error.description)
    }
    return .supabase(
      Supabase(
        project: project, service: GoTrueAuthService(api: client, sessions: sessions),
        restoresSession: sessions.hasSavedSession(), mailbox: mailbox, clock: nil,
        random: SystemRandom()))
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
    return .firebase(
      Firebase(
        project: project, service: service, restoresSession: sessions.hasSavedSession(),
        mailbox: mailbox, clock: clock, random: random))
  }

  /// The app-facing service.
  var service: any AuthService {
    switch self {
    case .embedded(let embedded): embedded.service
    case .supabase(let supabase): supabase.service
    case .firebase(let firebase): firebase.service
    }
  }

  /// `embedded`, `supabase` or `firebase`.
  var name: String {
    switch self {
    case .embedded: "embedded"
    case .supabase: "supabase"
    case .firebase: "firebase"
    }
  }

  /// Where it lives: the store path or the project URL.
  var location: String {
    switch self {
    case .embedded(let embedded): embedded.store.description
    case .supabase(let supabase): supabase.project.url
    case .firebase(let firebase): firebase.project.emulatorURL ?? firebase.project.projectID
    }
  }

  /// What the prompt and `show` call it, when it is not the default embedded store.
  var label: String? {
    switch self {
    case .embedded: nil
    case .supabase(let supabase): "supabase:\(supabase.project.name)"
    case .firebase(let firebase): "firebase:\(firebase.project.name)"
    }
  }

  /// Whether a session saved by an earlier run may exist.
  var restoresSession: Bool {
    switch self {
    case .embedded(let embedded): embedded.restoresSession
    case .supabase(let supabase): supabase.restoresSession
    case .firebase(let firebase): firebase.restoresSession
    }
  }

  /// Randomness for suggested passwords.
  var random: any RandomSource {
    switch self {
    case .embedded(let embedded): embedded.random
    case .supabase(let supabase): supabase.random
    case .firebase(let firebase): firebase.random
    }
  }

  /// Where the shell reads the emails the backend sent, if it can.
  var mailbox: (any ShellMailbox)? {
    switch self {
    case .embedded(let embedded): OutboxMailbox(outbox: embedded.engine.outbox)
    case .supabase(let supabase): supabase.mailbox.map { RemoteMailbox($0) }
    case .firebase(let firebase): firebase.mailbox.map { RemoteMailbox($0) }
    }
  }

  /// The backend's clock, where the shell can move it.
  var clock: AdjustableClock? {
    if case .embedded(let embedded) = self { embedded.clock } else { nil }
  }

  /// The clock the shell tells time by: the backend's, or a seeded run's fixed one.
  var shellClock: AdjustableClock? {
    switch self {
    case .embedded(let embedded): embedded.clock
    case .supabase(let supabase): supabase.clock
    case .firebase(let firebase): firebase.clock
    }
  }

  /// What the backend offers beyond the app's service. Only a throw-away store lets its clock
  /// be moved: travelled time would otherwise reach a store other processes share (rate limits
  /// stamped in the future, sessions valid for centuries).
  var features: Set<BackendFeature> {
    switch self {
    case .embedded(let embedded): embedded.store == .memory ? [.outbox, .clock] : [.outbox]
    case .supabase(let supabase): supabase.mailbox == nil ? [] : [.outbox]
    case .firebase(let firebase): firebase.mailbox == nil ? [] : [.outbox]
    }
  }

  /// The current time as the backend sees it.
  var now: Date { shellClock?.now ?? Date() }

  private static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let directory = FileManager.default.currentDirectoryPath
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
  }
}
