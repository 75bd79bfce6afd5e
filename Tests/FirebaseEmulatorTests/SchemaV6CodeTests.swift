import AuthCrypto
import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import AccountStore
@testable import GoTrueEngine

/// Schema version 6 moves Firebase's codes out of GoTrue's `one_time_tokens` into `oob_codes`:
/// a store made before keeps its accounts, and a code in flight across the upgrade is lost
/// (asked again, it is a new one that works).
struct SchemaV6CodeTests {
  @Test func aVersion5StoreMigratesAndACodeInFlightIsAskedAgain() async throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/auth.db"
    let codeKey = [UInt8](repeating: 7, count: 32)
    let hash = try Bcrypt.hash("Password123", cost: 4, random: SeededRandom(seed: 3))
    let decoy = try Bcrypt.hash("decoy-password", cost: 4, random: SeededRandom(seed: 4))
    let id = "55555555-5555-4555-8555-555555555555"
    let inFlight = String(repeating: "A", count: 54)
    do {
      let database = try SQLiteDatabase(path: path, create: true)
      try database.execute(Schema.migrations[0..<5].joined(separator: "\n"))
      try database.execute(
        "PRAGMA user_version = 5; PRAGMA application_id = \(StoreOpener.applicationID)")
      for (key, value) in [
        ("jwt_secret", [UInt8](repeating: 9, count: 32)), ("code_key", codeKey),
        ("decoy_hash:4", Array(decoy.utf8)),
      ] {
        try database.run("INSERT INTO meta VALUES (?, ?)", .text(key), .blob(value))
      }
      try database.run(
        """
        INSERT INTO users (id, email, encrypted_password, email_confirmed_at, created_at,
          updated_at) VALUES (?, 'old@example.com', ?, 0, 0, 0)
        """, .text(id), .text(hash))
      // A Firebase reset code as version 5 kept it: a GoTrue recovery row found by its hash.
      try database.run(
        """
        INSERT INTO one_time_tokens (user_id, kind, token_hash, link_hash, created_at, expires_at)
        VALUES (?, 'recovery', ?, ?, ?, ?)
        """, .text(id),
        .blob(HMAC.sha256(key: codeKey, message: Array("recovery:\(id):\(inFlight)".utf8))),
        .blob(HMAC.sha256(key: codeKey, message: Array("oob:\(inFlight)".utf8))),
        .integer(Int64(testEpoch.timeIntervalSince1970 * 1_000)),
        .integer(Int64(testEpoch.timeIntervalSince1970 * 1_000) + 86_400_000))
    }

    let engine = try makeEngine(location: .file(path))
    #expect(try engine.column("PRAGMA user_version") == ["\(Schema.currentVersion)"])
    #expect(try engine.column("PRAGMA integrity_check") == ["ok"])
    let emulation = FirebaseEmulation(
      engine: engine, projectID: "demo-app", linkBase: "http://127.0.0.1:9099")
    #expect(
      await firebaseFailure { try emulation.inspect(code: inFlight) }
        == .badRequest(.invalidOOBCode))
    let again = try emulation.resetCode("old@example.com")
    _ = try await emulation.resetPassword(code: again.code, newPassword: "Password456")
    let session = try await emulation.signIn(email: "old@example.com", password: "Password456")
      .signedIn()
    #expect(session.account.id == id && !session.account.emailLinkSignin)
    #expect(try engine.column("SELECT ifnull(initial_email, '-') FROM users") == ["-"])
  }
}
