import AuthCrypto
import AuthFlow
import Clocks
import Foundation
import GoTrue
import PrivateFiles
import SavedSessions
import Testing

/// 2025-01-01T00:00:00Z: where test clocks start.
private let epoch = Date(timeIntervalSince1970: 1_735_689_600)

/// Saved sessions: sealed, private, and forgotten when damaged.
struct SessionStoreTests {
  let folder = NSTemporaryDirectory() + "authflow-sessions-" + UUID().uuidString
  let session = AuthSession(
    user: AuthUser(id: "u1", email: "test@example.com", emailConfirmedAt: epoch),
    accessToken: "eyJhbGciOiJIUzI1NiJ9.payload.signature-part",
    refreshToken: "refresh-token-secret-value", expiresAt: epoch)

  @Test func roundTripsSeed004sExpiresInAndTokenType() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = SealedSessionFile(directory: folder + "/authflow", identity: "firebase:demo")
    var firebase = session
    firebase.expiresIn = 900
    firebase.tokenType = "Bearer"
    store.save(firebase)
    #expect(store.load()?.expiresIn == 900)
    #expect(store.load()?.tokenType == "Bearer")
  }

  @Test func aFileWrittenBeforeSeed004sShapeStillLoads() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let identity = "embedded:/x/auth.db"
    let store = SealedSessionFile(directory: folder + "/authflow", identity: identity)
    store.save(session)
    let key = try #require(try PrivateFile.read(folder + "/authflow/session.key"))
    // The JSON of a file saved before `expiresIn` and `tokenType` were kept.
    let json =
      #"{"userID":"u1","email":"test@example.com","accessToken":"a.b.c","#
      + #""refreshToken":"r","expiresAt":757382400}"#
    let box = try Sealing.seal(
      Array(json.utf8), key: key, context: Array("authflow-session-v1|\(identity)".utf8),
      random: SystemRandom())
    try PrivateFile.write(Array(Base64URL.encode(box).utf8), to: store.path)
    let loaded = try #require(store.load())
    #expect(loaded.refreshToken == "r")
    #expect(loaded.expiresIn == 3_600)
    #expect(loaded.tokenType == "bearer")
  }

  @Test func roundTripsSealedAndPrivate() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = SealedSessionFile(directory: folder + "/authflow", identity: "embedded:/x/auth.db")
    #expect(store.load() == nil)
    store.save(session)
    #expect(store.load() == session)

    #expect(PrivateFile.permissions(of: store.path) == 0o600)
    #expect(PrivateFile.permissions(of: folder + "/authflow/session.key") == 0o600)
    #expect(PrivateFile.permissions(of: folder + "/authflow") == 0o700)
    let text = String(decoding: try #require(try PrivateFile.read(store.path)), as: UTF8.self)
    #expect(!text.contains("refresh-token-secret-value"))
    #expect(!text.contains("signature-part"))
    #expect(!text.contains("test@example.com"))

    store.clear()
    #expect(store.load() == nil)
    #expect(PrivateFile.permissions(of: store.path) == nil)
  }

  @Test func eachIdentityHasItsOwnSession() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let a = SealedSessionFile(directory: folder, identity: "embedded:/a.db")
    let b = SealedSessionFile(directory: folder, identity: "supabase:https://x.supabase.co")
    a.save(session)
    #expect(b.load() == nil)
    #expect(a.path != b.path)
    // A file copied under another identity's name does not open.
    try PrivateFile.write(try #require(try PrivateFile.read(a.path)), to: b.path)
    #expect(b.load() == nil)
    #expect(PrivateFile.permissions(of: b.path) == nil, "a foreign file is removed")
  }

  @Test func damagedFilesReadAsNoSession() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = SealedSessionFile(directory: folder, identity: "id")
    store.save(session)
    var bytes = try #require(try PrivateFile.read(store.path))
    bytes[bytes.count / 2] =
      bytes[bytes.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
    try PrivateFile.write(bytes, to: store.path)
    #expect(store.load() == nil)

    store.save(session)
    try PrivateFile.remove(folder + "/session.key")
    #expect(store.load() == nil, "without its key a session cannot be read")
    store.save(session)
    #expect(store.load() == session, "a new key is made")
  }

  @Test func memoryStore() {
    let store = MemorySessionStore()
    store.save(session)
    #expect(store.load() == session)
    store.clear()
    #expect(store.load() == nil)
  }
}
