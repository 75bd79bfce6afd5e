#if canImport(Glibc)
  import Glibc
#endif

/// A thread of its own for a server's event loop, which blocks it for as long as it runs (a
/// thread of Dispatch's or of the concurrency pool would be taken from their work).
public enum LoopThread {
  /// Starts `body` on a new detached thread.
  public static func start(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
        body.run()
        return nil
      }, box)
    if started == 0 {
      pthread_detach(thread)
    } else {
      Unmanaged<Body>.fromOpaque(box).release()
    }
  }

  private final class Body: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
}
