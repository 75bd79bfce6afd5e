#if canImport(Glibc)
  import Glibc
#endif

/// An advisory lock between processes on a 0600 lock file (`flock`), held while a body runs.
public enum FileLock {
  /// Runs `body` holding the exclusive lock on the file at `path` (created 0600 if missing),
  /// waiting for another holder at most `timeout`.
  ///
  /// The lock only orders work that would otherwise race; when it cannot be had (the folder is
  /// not writable, or a holder hangs past the timeout), `body` runs all the same.
  public static func withExclusiveLock<T, E: Error>(
    at path: String, timeout: Duration = .seconds(15), _ body: () async throws(E) -> T
  ) async throws(E) -> T {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    defer { if descriptor >= 0 { close(descriptor) } }
    if descriptor >= 0 {
      // NB: a non-blocking attempt, polled, so no thread of the cooperative pool ever blocks
      // waiting for another process.
      let clock = ContinuousClock()
      let deadline = clock.now + timeout
      while flock(descriptor, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK || errno == EINTR,
        clock.now < deadline
      {
        try? await Task.sleep(for: .milliseconds(10))
      }
    }
    return try await body()
  }
}
