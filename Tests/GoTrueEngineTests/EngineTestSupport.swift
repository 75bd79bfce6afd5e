import AuthCrypto
import Clocks
import Foundation
import GoTrue
import Testing

@testable import GoTrueEngine

/// 2025-01-01T00:00:00Z: where test clocks start.
let testEpoch = Date(timeIntervalSince1970: 1_735_689_600)

/// An engine on a throw-away store with bcrypt at its minimum cost and reproducible randomness.
func makeEngine(
  location: StoreLocation = .memory, seed: UInt64 = 1,
  clock: AdjustableClock = AdjustableClock(fixedAt: testEpoch),
  configure: (inout EngineConfiguration) -> Void = { _ in }
) throws -> EmbeddedGoTrue {
  var configuration = EngineConfiguration()
  configuration.hashCost = Bcrypt.minimumCost
  configure(&configuration)
  return try EmbeddedGoTrue(
    location: location, configuration: configuration, clock: clock,
    random: SeededRandom(seed: seed))
}

/// The GoTrue failure `body` ends with, or `nil` when it succeeds.
func failure<T>(_ body: () async throws -> T) async -> GoTrueFailure? {
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

extension GoTrueFailure {
  /// The API error, when the server answered with one.
  var apiError: GoTrueAPIError? {
    if case .api(let error) = self { error } else { nil }
  }
}

/// A fresh folder under the system's temporary folder, removed by the caller.
func makeTemporaryFolder() -> String {
  let path = NSTemporaryDirectory() + "authflow-tests-" + UUID().uuidString
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

extension EmbeddedGoTrue {
  /// Runs raw SQL against the store, for checks the API does not expose.
  func rows(_ sql: String) throws -> [[String]] {
    try database.withLock { database in
      try database.query(sql) { row in
        (0..<8).map { row.text(Int32($0)) }
      }
    }
  }
}
