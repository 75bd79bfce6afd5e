import AuthCrypto
import Clocks
import Foundation
import GoTrue
import PrivateFiles
import TestSupport
import Testing

@testable import AccountStore
@testable import GoTrueEngine

/// The store file: where it goes, its permissions, its schema and its demo accounts.
struct StoreTests {
  @Test func newFileStoreIsPrivateVersionedAndSeeded() async throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/data/authflow/auth.db"
    let engine = try makeEngine(location: .file(path))
    _ = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")

    #expect(PrivateFile.permissions(of: path) == 0o600)
    #expect(PrivateFile.permissions(of: path + "-wal") == 0o600)
    #expect(PrivateFile.permissions(of: folder + "/data/authflow") == 0o700)
    #expect(try engine.rows("PRAGMA journal_mode")[0][0] == "wal")
    #expect(try engine.rows("PRAGMA user_version")[0][0] == "\(Schema.currentVersion)")
    #expect(try engine.rows("PRAGMA integrity_check")[0][0] == "ok")
    let accounts = try engine.rows(
      "SELECT email, email_confirmed_at IS NOT NULL FROM users ORDER BY email")
    #expect(
      accounts.map { Array($0.prefix(2)) } == [
        ["test@example.com", "1"], ["unverified@example.com", "0"],
      ])
  }

  @Test(.readsSQLiteTables) func aStoreClosedAfterWritingLeavesItsLogEmpty() async throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/auth.db"
    func size(_ file: String) throws -> Int {
      try #require(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
    }
    do {
      let engine = try makeEngine(location: .file(path))
      _ = try await engine.signUp(email: "kept@example.com", password: "Password123", data: [:])
      #expect(try size(path + "-wal") > 0)
    }
    // What it wrote is in the database file; the next process has no log to read through.
    #expect(try size(path + "-wal") == 0)
    #expect(try size(path) > 4096)
    let reopened = try makeEngine(location: .file(path))
    let kept = try reopened.rows("SELECT count(*) FROM users WHERE email = 'kept@example.com'")
    #expect(kept.map { $0[0] } == ["1"])
  }

  @Test func reopeningKeepsAccountsAndSecrets() async throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/auth.db"
    let first = try makeEngine(location: .file(path), seed: 1)
    _ = try await first.signUp(email: "new@example.com", password: "Password123", data: [:])
    let session = try await first.signIn(email: "test@example.com", password: "TestPassword123!")

    let second = try makeEngine(location: .file(path), seed: 2)
    #expect(try second.accountCount() == 3)
    #expect(second.secrets.jwt == first.secrets.jwt)
    _ = try await second.user(accessToken: session.accessToken)
    _ = try await second.refresh(refreshToken: session.refreshToken)
  }

  @Test func aVersion2StoreMigratesKeepingAccountsSessionsAndCodes() async throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/auth.db"
    // A store as authflow 0.2 wrote it: schema version 2, one account waiting for its code,
    // one signed in with a refresh token.
    let codeKey = [UInt8](repeating: 7, count: 32)
    let hash = try Bcrypt.hash("Password123", cost: 4, random: SeededRandom(seed: 3))
    let waiting = "11111111-1111-4111-8111-111111111111"
    let signedIn = "22222222-2222-4222-8222-222222222222"
    do {
      let database = try SQLiteDatabase(path: path, create: true)
      try database.execute(Schema.migrations[0] + Schema.migrations[1])
      try database.execute(
        "PRAGMA user_version = 2; PRAGMA application_id = \(StoreOpener.applicationID)")
      for (key, value) in [
        ("jwt_secret", [UInt8](repeating: 9, count: 32)), ("code_key", codeKey),
        ("decoy_hash:4", Array(hash.utf8)),
      ] {
        try database.run("INSERT INTO meta VALUES (?, ?)", .text(key), .blob(value))
      }
      for (id, email, confirmed) in [
        (waiting, "waiting@example.com", false), (signedIn, "in@example.com", true),
      ] {
        try database.run(
          """
          INSERT INTO users (id, email, encrypted_password, email_confirmed_at, user_metadata,
            created_at, updated_at) VALUES (?, ?, ?, ?, '{"plan":"pro"}', 0, 0)
          """, .text(id), .text(email), .text(hash), confirmed ? .integer(0) : .null)
      }
      try database.run(
        """
        INSERT INTO one_time_tokens (user_id, kind, token_hash, created_at, expires_at)
        VALUES (?, 'confirmation', ?, 0, ?)
        """, .text(waiting),
        .blob(HMAC.sha256(key: codeKey, message: Array("confirmation:\(waiting):123456".utf8))),
        .integer(Int64(testEpoch.timeIntervalSince1970 * 1_000) + 60_000))
      try database.run(
        "INSERT INTO sessions VALUES ('s1', ?, 0, 0)", .text(signedIn))
      try database.run(
        "INSERT INTO refresh_tokens (session_id, token_hash, created_at) VALUES ('s1', ?, 0)",
        .blob(SHA256.hash("old-refresh-token")))
    }

    let engine = try makeEngine(location: .file(path))
    #expect(try engine.rows("PRAGMA user_version")[0][0] == "\(Schema.currentVersion)")
    #expect(try engine.rows("PRAGMA integrity_check")[0][0] == "ok")
    let confirmed = try await engine.verify(
      type: .signup, email: "waiting@example.com", token: "123456")
    #expect(confirmed.user.userMetadata["plan"] == .string("pro"))
    #expect(confirmed.user.appMetadata["provider"] == .string("email"))
    #expect(confirmed.user.identities?.first?.identityId == waiting)
    let refreshed = try await engine.refresh(refreshToken: "old-refresh-token")
    #expect(refreshed.user.id == signedIn)
    _ = try await engine.signIn(email: "in@example.com", password: "Password123")
    // Version 5 rebuilt `users`: what refers to it still does, and foreign keys are on again.
    #expect(try engine.rows("PRAGMA foreign_keys")[0][0] == "1")
    #expect(try engine.rows("PRAGMA foreign_key_list(sessions)")[0][2] == "users")
    _ = try engine.rows("DELETE FROM users WHERE id = '\(signedIn)'")
    #expect(
      try engine.rows("SELECT count(*) FROM sessions WHERE user_id = '\(signedIn)'")[0][0] == "0")
  }

  @Test func memoryStoresAreSeparate() async throws {
    let a = try makeEngine()
    let b = try makeEngine()
    _ = try await a.signUp(email: "new@example.com", password: "Password123", data: [:])
    #expect(try a.accountCount() == 3)
    #expect(try b.accountCount() == 2)
  }

  @Test func thePrehashedPasswordsAreTheDemoPasswordsAtTheirCosts() throws {
    #expect(Set(DemoAccounts.prehashed.keys) == Set(EngineConfiguration.hashCosts))
    for (cost, hashes) in DemoAccounts.prehashed {
      // Checked up to the default cost; above it a check takes up to 1.5 s each, and those
      // hashes were made by the same bcrypt.
      let checked = cost <= Bcrypt.defaultCost
      for (hash, password) in [
        (hashes.confirmed, DemoAccounts.confirmed.password),
        (hashes.unconfirmed, DemoAccounts.unconfirmed.password),
      ] {
        #expect(Bcrypt.cost(of: hash) == cost)
        if checked { #expect(Bcrypt.verify(password, against: hash)) }
      }
      #expect(Bcrypt.cost(of: hashes.decoy) == cost)
      #expect(Set([hashes.confirmed, hashes.unconfirmed, hashes.decoy]).count == 3)
      if checked {
        #expect(!Bcrypt.verify("", against: hashes.decoy))
        #expect(!Bcrypt.verify(DemoAccounts.confirmed.password, against: hashes.decoy))
      }
    }
  }

  /// A new store at any cost (the default, the tests' lowest, 14) starts without bcrypt rounds,
  /// its demo accounts signing in, and a seeded one mails the same codes at every cost.
  @Test func aNewStoreAtTheDefaultCostIsReadyAtOnceWithTheSameSeededSecrets() async throws {
    let atDefault = try makeEngine { $0.hashCost = Bcrypt.defaultCost }
    let atMinimum = try makeEngine()
    let stored = try atDefault.withDatabase { accounts throws(GoTrueAPIError) in
      try accounts.user(email: "test@example.com")?.passwordHash
    }
    #expect(stored == DemoAccounts.prehashed[Bcrypt.defaultCost]?.confirmed, "no bcrypt round")
    let atMinimumStored = try atMinimum.withDatabase { accounts throws(GoTrueAPIError) in
      try accounts.user(email: "test@example.com")?.passwordHash
    }
    #expect(atMinimumStored == DemoAccounts.prehashed[Bcrypt.minimumCost]?.confirmed)
    let atHighest = try makeEngine { $0.hashCost = 14 }
    let highestStored = try atHighest.withDatabase { accounts throws(GoTrueAPIError) in
      try accounts.user(email: "test@example.com")?.passwordHash
    }
    #expect(highestStored == DemoAccounts.prehashed[14]?.confirmed, "no five seconds of bcrypt")
    for engine in [atDefault, atMinimum] {
      try await engine.recover(email: "test@example.com")
    }
    #expect(
      atDefault.outbox.newest(to: "test@example.com")?.code
        == atMinimum.outbox.newest(to: "test@example.com")?.code)
    _ = try await atDefault.signIn(email: "test@example.com", password: "TestPassword123!")
    // The right password of an unconfirmed account is told apart from a wrong one.
    let unconfirmed = await failure {
      try await atDefault.signIn(email: "unverified@example.com", password: "Test1234")
    }
    #expect(unconfirmed?.apiError?.code == .emailNotConfirmed)
  }

  @Test func demoAccountsCanBeLeftOut() throws {
    let engine = try makeEngine { $0.seedsDemoAccounts = false }
    #expect(try engine.accountCount() == 0)
  }

  @Test func aFileThatIsNotAStoreIsRefusedWithAReason() throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/notes.txt"
    try PrivateFile.write(Array(String(repeating: "not a database\n", count: 200).utf8), to: path)
    #expect {
      try makeEngine(location: .file(path))
    } throws: { error in
      guard case .unreadable(let where_, let reason)? = error as? EmbeddedStoreError else {
        return false
      }
      return where_ == path && reason.contains("not a database")
    }
    #expect(try PrivateFile.read(path)?.count == 3_000, "the file is left alone")
  }

  @Test func aStoreFromANewerAuthflowIsRefused() throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/auth.db"
    let engine = try makeEngine(location: .file(path))
    _ = try engine.rows("PRAGMA user_version = 99")
    #expect(throws: EmbeddedStoreError.newerSchema(found: 99, supported: Schema.currentVersion)) {
      try makeEngine(location: .file(path))
    }
  }

  @Test func anUncreatableFolderIsReported() throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try PrivateFile.write([1], to: folder + "/file")
    #expect {
      try makeEngine(location: .file(folder + "/file/auth.db"))
    } throws: { error in
      guard case .cannotCreate? = error as? EmbeddedStoreError else { return false }
      return "\(error)".contains("--store")
    }
  }

  @Test func storeArguments() throws {
    #expect(try StoreLocation(argument: ":memory:") == .memory)
    #expect(try StoreLocation(argument: "x.db") == .file("x.db"))
    #expect(StoreLocation.memory.description == ":memory:")
    let postgres = try StoreLocation(argument: "postgresql://app:s3cret@db.local:5432/auth")
    guard case .postgres(let url) = postgres else {
      Issue.record("a postgresql:// URL is a PostgreSQL store, not \(postgres)")
      return
    }
    #expect(url.string == "postgresql://app:s3cret@db.local:5432/auth")
    #expect(!postgres.description.contains("s3cret"), "the password never shows")
    #expect(
      try StoreLocation(argument: "postgres://localhost/auth") != .file("postgres://localhost/auth")
    )
  }

  /// A URL of a kind authflow does not speak is refused with one line, never taken for a path.
  @Test(arguments: ["mysql://root@localhost/auth", "file:///tmp/auth.db", "sqlite://auth.db"])
  func storeURLsOfOtherKindsAreRefused(argument: String) {
    #expect(throws: StoreLocationError.self) { try StoreLocation(argument: argument) }
    do {
      _ = try StoreLocation(argument: argument)
    } catch {
      #expect(error.message.contains("postgresql://"), "says what would be right")
      #expect(!error.message.contains("\n"))
    }
  }

  @Test func anotherApplicationsSQLiteFileIsRefusedUntouched() throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/notes.db"
    do {
      let notes = try SQLiteDatabase(path: path, create: true)
      try notes.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(throws: EmbeddedStoreError.foreignFile(path)) {
      _ = try makeEngine(location: .file(path))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "not migrated, not WAL")
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    #expect(
      EmbeddedStoreError.foreignFile(path).description
        == "\(path) is another application's SQLite file, left untouched; pass --store with an authflow store or a new path"
    )
  }

  @Test func aStoreOthersCanReadIsMadePrivateWithAWarning() throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/auth.db"
    _ = try makeEngine(location: .file(path))
    chmod(path, 0o644)
    chmod(path + "-wal", 0o644)
    let engine = try makeEngine(location: .file(path))
    #expect(PrivateFile.permissions(of: path) == 0o600)
    #expect(PrivateFile.permissions(of: path + "-wal") == 0o600)
    #expect(
      engine.warnings == [
        "\(path) could be read by others; its mode is now 0600 (was 0644)",
        "\(path)-wal could be read by others; its mode is now 0600 (was 0644)",
      ])
    #expect(try makeEngine(location: .file(path)).warnings.isEmpty)
  }

  @Test func aFolderOthersCanWriteIsRefused() throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    chmod(folder, 0o777)
    #expect(throws: EmbeddedStoreError.unsafeFolder(folder)) {
      _ = try makeEngine(location: .file(folder + "/auth.db"))
    }
    chmod(folder, 0o1777)
    _ = try makeEngine(location: .file(folder + "/auth.db"))
  }

  @Test(.readsSQLiteTables) func aStoreThatCannotBeWrittenSaysWhy() async throws {
    let engine = try makeEngine()
    try engine.store.withAccounts {
      (accounts: Accounts<AccountStoreError>) throws(AccountStoreError) in
      try accounts.execute("PRAGMA query_only = 1")
    }
    let readOnly = await failure {
      try await engine.signUp(email: "new@example.com", password: "Password123", data: [:])
    }
    #expect(readOnly?.apiError?.code == .storeReadOnly)
    #expect(readOnly?.apiError?.status == 503)

    let full = try makeEngine()
    try full.store.withAccounts {
      (database: Accounts<AccountStoreError>) throws(AccountStoreError) in
      let pages = try database.first("PRAGMA page_count", row: { $0.int(0) }) ?? 0
      try database.execute("PRAGMA max_page_count = \(pages)")
    }
    var outcome: GoTrueFailure?
    for index in 0..<200 where outcome == nil {
      outcome = await failure {
        try await full.signUp(email: "n\(index)@example.com", password: "Password123", data: [:])
      }
    }
    #expect(outcome?.apiError?.code == .storeFull)
  }
}
