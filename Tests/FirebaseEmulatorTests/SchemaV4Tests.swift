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

/// Schema version 4: the Firebase surface's columns on a store made before them.
struct SchemaV4Tests {
  @Test func aVersion3StoreMigratesAndItsAccountsWorkOnBothSurfaces() async throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/auth.db"
    let hash = try Bcrypt.hash("Password123", cost: 4, random: SeededRandom(seed: 3))
    let decoy = try Bcrypt.hash("decoy-password", cost: 4, random: SeededRandom(seed: 4))
    let id = "33333333-3333-4333-8333-333333333333"
    do {
      let database = try SQLiteDatabase(path: path, create: true)
      try database.execute(Schema.migrations[0..<3].joined(separator: "\n"))
      try database.execute(
        "PRAGMA user_version = 3; PRAGMA application_id = \(StoreOpener.applicationID)")
      for (key, value) in [
        ("jwt_secret", [UInt8](repeating: 9, count: 32)),
        ("code_key", [UInt8](repeating: 7, count: 32)), ("decoy_hash:4", Array(decoy.utf8)),
      ] {
        try database.run("INSERT INTO meta VALUES (?, ?)", .text(key), .blob(value))
      }
      try database.run(
        """
        INSERT INTO users (id, email, encrypted_password, email_confirmed_at, created_at,
          updated_at, banned_until) VALUES (?, 'old@example.com', ?, 0, 0, 0, NULL)
        """, .text(id), .text(hash))
    }

    let engine = try makeEngine(location: .file(path))
    #expect(try engine.rows("PRAGMA user_version")[0][0] == "\(Schema.currentVersion)")
    #expect(try engine.rows("PRAGMA integrity_check")[0][0] == "ok")
    let columns = try engine.rows("SELECT name FROM pragma_table_info('users')").map { $0[0] }
    for column in ["display_name", "photo_url", "valid_since", "password_updated_at"] {
      #expect(columns.contains(column))
    }
    let emulation = FirebaseEmulation(
      engine: engine, projectID: "demo-app", linkBase: "http://127.0.0.1:9099")
    let session = try await emulation.signIn(email: "old@example.com", password: "Password123")
      .signedIn()
    #expect(session.account.id == id)
    #expect(session.account.emailVerified)
    #expect(session.account.displayName == nil && session.account.validSince == nil)
    #expect(session.account.hasPassword)
    _ = try await engine.signIn(email: "old@example.com", password: "Password123")
    var changes = FirebaseAccountChanges()
    changes.displayName = "Old"
    #expect(try await emulation.update(id: id, changes).displayName == "Old")

    let reopened = try makeEngine(location: .file(path))
    #expect(try reopened.rows("SELECT display_name FROM users WHERE id = '\(id)'")[0][0] == "Old")
  }

  @Test(.readsSQLiteTables) func aNewStoreIsAtTheNewestVersion() throws {
    #expect(Schema.currentVersion == 14)
    let engine = try makeEngine()
    #expect(try engine.rows("PRAGMA user_version")[0][0] == "\(Schema.currentVersion)")
  }
}
