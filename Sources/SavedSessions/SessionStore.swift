import AuthCrypto
import AuthFlow
import PrivateFiles
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where a backend keeps the signed-in session between runs ("automatic sign-in").
public protocol SessionStore: Sendable {
  /// The saved session, or `nil` when there is none or it cannot be read.
  func load() -> AuthSession?
  /// Saves `session`, replacing any other.
  func save(_ session: AuthSession)
  /// Forgets the saved session.
  func clear()
  /// Whether a session may be saved, checked without reading or decrypting it.
  func hasSavedSession() -> Bool
  /// Runs `body` while no other process works on the saved session, so that loading it,
  /// refreshing it and saving the result is one step.
  func exclusively<T: Sendable>(_ body: () async throws(AuthError) -> T) async throws(AuthError)
    -> T
}

extension SessionStore {
  /// Whether a session is saved, by loading it.
  public func hasSavedSession() -> Bool { load() != nil }

  /// Runs `body`: a store in one process has no one else to wait for.
  public func exclusively<T: Sendable>(_ body: () async throws(AuthError) -> T)
    async throws(AuthError) -> T
  {
    try await body()
  }
}

/// A store that forgets everything when the process ends (`--store :memory:`).
public final class MemorySessionStore: SessionStore {
  private let session = Mutex<AuthSession?>(nil)

  /// An empty store.
  public init() {}

  /// The session saved in this process.
  public func load() -> AuthSession? { session.withLock { $0 } }
  /// Keeps `session` in memory.
  public func save(_ session: AuthSession) { self.session.withLock { $0 = session } }
  /// Forgets the session.
  public func clear() { session.withLock { $0 = nil } }
}

/// A session saved in a 0600 file, sealed with AES-256-GCM under a key in a separate 0600 file.
///
/// The tokens are never on disk in plaintext: copying, sharing or grepping the session file
/// reveals nothing without the key. (Anyone who can read both files as the user can still use
/// the session, as with any command-line tool without a system keyring.)
public final class SealedSessionFile: SessionStore {
  /// The session file.
  public let path: String
  private let keyPath: String
  private let context: [UInt8]
  private let random: any RandomSource

  /// A store for the session of `identity` (a store path or project URL) under `directory`.
  public init(directory: String, identity: String, random: any RandomSource = SystemRandom()) {
    path = "\(directory)/sessions/\(Self.fileName(for: identity)).session"
    keyPath = "\(directory)/session.key"
    context = Array("authflow-session-v1|\(identity)".utf8)
    self.random = random
  }

  /// The saved session; a damaged or foreign file reads as none and is removed.
  public func load() -> AuthSession? {
    guard let text = try? PrivateFile.read(path) else { return nil }
    guard let key = try? readKey(),
      let box = Base64URL.decode(String(decoding: text, as: UTF8.self)),
      let json = try? Sealing.open(box, key: key, context: context),
      let stored = try? JSONDecoder().decode(StoredSession.self, from: Data(json))
    else {
      clear()
      return nil
    }
    return stored.session
  }

  /// Seals and writes `session`; a failure to write only costs the automatic sign-in.
  public func save(_ session: AuthSession) {
    guard let json = try? JSONEncoder().encode(StoredSession(session)) else { return }
    do {
      try PrivateFile.ensureDirectory("\(directory)/sessions")
      let key = try readKey() ?? createKey()
      let box = try Sealing.seal(Array(json), key: key, context: context, random: random)
      try PrivateFile.write(Array(Base64URL.encode(box).utf8), to: path)
    } catch {
      clear()
    }
  }

  /// Removes the session file.
  public func clear() {
    try? PrivateFile.remove(path)
  }

  /// Throws when the key file is there but is not a key, which would otherwise quietly cost
  /// every saved session; a missing key is fine (one is made with the first session).
  public func checkKey() throws(SessionKeyError) {
    let bytes: [UInt8]?
    do {
      bytes = try PrivateFile.read(keyPath)
    } catch {
      throw .unreadable(path: keyPath, reason: error.reason)
    }
    if let bytes, bytes.count != Sealing.keyByteCount {
      throw .wrongSize(path: keyPath, bytes: bytes.count)
    }
  }

  /// Whether the session file exists (it may still turn out unreadable).
  public func hasSavedSession() -> Bool {
    PrivateFile.permissions(of: path) != nil
  }

  /// Runs `body` holding a lock beside the session file, so two processes starting at once do
  /// not both refresh the same saved session.
  public func exclusively<T: Sendable>(_ body: () async throws(AuthError) -> T)
    async throws(AuthError) -> T
  {
    try? PrivateFile.ensureDirectory("\(directory)/sessions")
    return try await FileLock.withExclusiveLock(at: path + ".lock", body)
  }

  /// The identity escaped into a readable file name (`embedded%3A%2Fhome%2F…`), so people can
  /// tell which file is whose; very long identities are hashed instead.
  static func fileName(for identity: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var name: [UInt8] = []
    for byte in identity.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"):
        name.append(byte)
      default:
        name += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    guard name.count <= 200 else { return "sha256-" + SHA256.hash(identity).prefix(16).hexString }
    return String(decoding: name, as: UTF8.self)
  }

  private var directory: String { String(keyPath.dropLast("/session.key".count)) }

  private func readKey() throws -> [UInt8]? {
    guard let key = try PrivateFile.read(keyPath), key.count == Sealing.keyByteCount else {
      return nil
    }
    return key
  }

  private func createKey() throws -> [UInt8] {
    // Two processes may race to create the key: the first file wins and both use it.
    try PrivateFile.writeIfMissing(random.bytes(Sealing.keyByteCount), to: keyPath)
    guard let key = try readKey() else {
      throw PrivateFile.Failure(path: keyPath, reason: "not a session key")
    }
    return key
  }
}

/// Why the key that seals saved sessions cannot be used.
public enum SessionKeyError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The key file has the wrong length.
  case wrongSize(path: String, bytes: Int)
  /// The key file cannot be read.
  case unreadable(path: String, reason: String)

  /// One line saying what is wrong and what would be right.
  public var description: String {
    switch self {
    case .wrongSize(let path, let bytes):
      "the session key \(path) is \(bytes) bytes, not \(Sealing.keyByteCount): it was changed or "
        + "damaged; remove it to start afresh (saved sessions are then forgotten)"
    case .unreadable(let path, let reason):
      "the session key \(path) cannot be read: \(reason)"
    }
  }
}

/// The JSON inside a sealed session file.
private struct StoredSession: Codable {
  var userID: String
  var email: String
  var emailConfirmedAt: Date?
  /// Absent in files written before Firebase (then: whether a confirmation time is known).
  var emailVerified: Bool?
  var accessToken: String
  var refreshToken: String
  var expiresAt: Date
  /// Absent in files written before seed 004's session shape (then: an hour).
  var expiresIn: Int?
  /// Absent in files written before seed 004's session shape (then: `bearer`).
  var tokenType: String?

  init(_ session: AuthSession) {
    userID = session.user.id
    email = session.user.email
    emailConfirmedAt = session.user.emailConfirmedAt
    emailVerified = session.user.emailVerified
    accessToken = session.accessToken
    refreshToken = session.refreshToken
    expiresAt = session.expiresAt
    expiresIn = session.expiresIn
    tokenType = session.tokenType
  }

  var session: AuthSession {
    AuthSession(
      user: AuthUser(
        id: userID, email: email, emailConfirmedAt: emailConfirmedAt,
        emailVerified: emailVerified),
      accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt,
      expiresIn: expiresIn ?? AuthSession.defaultLifetime, tokenType: tokenType ?? "bearer")
  }
}
