import AuthFlow
import Testing

/// The `AuthError` `body` throws, or `nil` when it throws none; another kind of error fails
/// the test.
package func authError<T>(_ body: () async throws -> T) async -> AuthError? {
  do {
    _ = try await body()
    return nil
  } catch let error as AuthError {
    return error
  } catch {
    Issue.record("expected an AuthError, got \(error)")
    return nil
  }
}
