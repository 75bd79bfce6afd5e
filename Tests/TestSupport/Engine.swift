import AccountStore
import AuthCrypto
import Clocks
import Foundation
import GoTrue
import GoTrueEngine
import PostgresTestSupport
import Testing

/// 2025-01-01T00:00:00Z: where test clocks start.
package let testEpoch = Date(timeIntervalSince1970: 1_735_689_600)

/// An engine on a throw-away store with bcrypt at its minimum cost and reproducible randomness.
package func makeEngine(
  location: StoreLocation = .memory, seed: UInt64 = 1,
  clock: AdjustableClock = AdjustableClock(fixedAt: testEpoch),
  hooks: (any AuthHookDispatcher)? = nil,
  configure: (inout EngineConfiguration) -> Void = { _ in }
) throws -> EmbeddedGoTrue {
  var configuration = EngineConfiguration()
  configuration.hashCost = Bcrypt.minimumCost
  configure(&configuration)
  return try EmbeddedGoTrue(
    location: try testStore(location), configuration: configuration, clock: clock,
    random: SeededRandom(seed: seed), hooks: hooks)
}

/// The store a test's engine runs on: `location`, except that with `AUTHFLOW_TEST_STORE=postgres`
/// a throw-away `:memory:` store is a new database of the test process's PostgreSQL instead, so
/// the engine's suites run on both stores.
package func testStore(_ location: StoreLocation) throws -> StoreLocation {
  guard location == .memory, testsRunOnPostgres
  else { return location }
  return .postgres(try PostgresTestServer.shared().makeDatabase())
}

/// The GoTrue failure `body` ends with, or `nil` when it succeeds; another kind of error fails
/// the test.
package func failure<T>(_ body: () async throws -> T) async -> GoTrueFailure? {
  do {
    _ = try await body()
    return nil
  } catch let error as GoTrueFailure {
    return error
  } catch {
    Issue.record("expected a GoTrueFailure, got \(error)")
    return nil
  }
}

/// The GoTrue failure a synchronous `body` ends with, or `nil` when it succeeds.
package func failure(of body: () throws -> Void) -> GoTrueFailure? {
  do {
    try body()
    return nil
  } catch let error as GoTrueFailure {
    return error
  } catch {
    Issue.record("expected a GoTrueFailure, got \(error)")
    return nil
  }
}

extension GoTrueFailure {
  /// The API error, when the server answered with one.
  package var apiError: GoTrueAPIError? {
    if case .api(let error) = self { error } else { nil }
  }
}

/// A fresh folder under the system's temporary folder, removed by the caller.
package func makeTemporaryFolder() -> String {
  let path = NSTemporaryDirectory() + "authflow-tests-" + UUID().uuidString
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

extension EmbeddedGoTrue {
  /// Runs raw SQL against the store, for checks the API does not expose: up to eight columns
  /// of each row as text.
  package func rows(_ sql: String) throws -> [[String]] {
    try store.rows(sql, columns: 8)
  }
}

/// Whether the engine suites run on PostgreSQL (`AUTHFLOW_TEST_STORE=postgres`).
package let testsRunOnPostgres =
  ProcessInfo.processInfo.environment["AUTHFLOW_TEST_STORE"] == "postgres"

extension Trait where Self == ConditionTrait {
  /// For a test that reads the SQLite store's own tables to check what it keeps: it runs on
  /// SQLite only (what the PostgreSQL store keeps is checked in GoTrue's tables by
  /// AccountStoreTests and the server's suites).
  package static var readsSQLiteTables: Self {
    .enabled(if: !testsRunOnPostgres, "reads the SQLite store's own tables")
  }
}
