import AccountStore
import Testing

/// The store's error `body` ends with, or `nil` when it succeeds; another error fails the test.
func storeError<T>(_ body: () throws -> T) -> AccountStoreError? {
  do {
    _ = try body()
    return nil
  } catch let error as AccountStoreError {
    return error
  } catch {
    Issue.record("expected an AccountStoreError, got \(error)")
    return nil
  }
}
