import AuthCrypto
import AuthFlow
import AuthFlowEmbedded
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The backend a shell runs on, and what the shell may do with it beyond the app's service.
public struct ShellBackend: Sendable {
  /// `embedded` or `supabase`.
  public var name: String
  /// Where it lives: the store path or the project URL.
  public var location: String
  /// What the prompt and `show` call it, when it is not the default embedded store.
  public var label: String?
  /// The app-facing service.
  public var service: any AuthService
  /// The engine, for `mail`, `open` and `clock` (embedded only).
  public var engine: EmbeddedGoTrue?
  /// The engine's clock, for `clock advance` (embedded only).
  public var clock: AdjustableClock?
  /// Randomness for suggested passwords.
  public var random: any RandomSource
  /// Whether a session saved by an earlier run may exist.
  public var restoresSession: Bool

  /// A backend with the given parts.
  public init(
    name: String, location: String, label: String? = nil, service: any AuthService,
    engine: EmbeddedGoTrue? = nil, clock: AdjustableClock? = nil,
    random: any RandomSource = SystemRandom(), restoresSession: Bool
  ) {
    self.name = name
    self.location = location
    self.label = label
    self.service = service
    self.engine = engine
    self.clock = clock
    self.random = random
    self.restoresSession = restoresSession
  }

  /// The embedded engine at `store`, with sessions kept under `stateDirectory`.
  public static func embedded(
    store: StoreLocation, configuration: EngineConfiguration, seed: UInt64?, stateDirectory: String
  ) throws(EmbeddedStoreError) -> ShellBackend {
    let random: any RandomSource = seed.map { SeededRandom(seed: $0) } ?? SystemRandom()
    // A seeded run also starts its clock at a fixed time, so transcripts repeat exactly.
    let clock = AdjustableClock(fixedAt: seed.map { _ in fixedEpoch })
    let engine = try EmbeddedGoTrue(
      location: store, configuration: configuration, clock: clock, random: random)
    let sessions: any SessionStore
    switch store {
    case .memory:
      sessions = MemorySessionStore()
    case .file(let path):
      sessions = SealedSessionFile(
        directory: stateDirectory, identity: "embedded:" + absolute(path), random: random)
    }
    return ShellBackend(
      name: "embedded", location: store.description,
      service: GoTrueAuthService(api: engine, sessions: sessions, clock: clock), engine: engine,
      clock: clock, random: random, restoresSession: sessions.hasSavedSession())
  }

  /// Where seeded clocks start: 2025-01-01T00:00:00Z.
  public static let fixedEpoch = Date(timeIntervalSince1970: 1_735_689_600)

  private static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let directory = FileManager.default.currentDirectoryPath
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
  }
}
