import TestSupport
import Testing

@testable import AccountStore
@testable import GoTrueEngine

/// A new engine's store: the current schema, and the demo accounts.
struct EngineSchemaTests {
  @Test(.readsSQLiteTables) func aNewEngineStoreIsAtTheCurrentVersionWithItsDemoAccounts() throws {
    let engine = try makeEngine()
    #expect(try engine.rows("PRAGMA user_version")[0][0] == "\(Schema.currentVersion)")
    #expect(try engine.rows("PRAGMA integrity_check")[0][0] == "ok")
    #expect(try engine.accountCount() == 2)
  }
}
