import Synchronization

/// How many requests the server answered, by status class, counted with atomics in the access
/// log's callback (on the event loop, for every request), for the summary at a terminal when
/// it stops.
final class RequestTally: Sendable {
  private let informational = Atomic<Int>(0)
  private let successful = Atomic<Int>(0)
  private let redirected = Atomic<Int>(0)
  private let refused = Atomic<Int>(0)
  private let failed = Atomic<Int>(0)

  /// Counts one answer with `status`.
  func count(status: Int) {
    switch status {
    case ..<200: informational.add(1, ordering: .relaxed)
    case 200..<300: successful.add(1, ordering: .relaxed)
    case 300..<400: redirected.add(1, ordering: .relaxed)
    case 400..<500: refused.add(1, ordering: .relaxed)
    default: failed.add(1, ordering: .relaxed)
    }
  }

  /// One line, e.g. `answered 120 requests: 98 2xx, 20 4xx, 2 5xx` (classes without a request
  /// left out), or `answered no requests`.
  var summary: String {
    let classes = [
      ("1xx", informational.load(ordering: .relaxed)),
      ("2xx", successful.load(ordering: .relaxed)),
      ("3xx", redirected.load(ordering: .relaxed)),
      ("4xx", refused.load(ordering: .relaxed)),
      ("5xx", failed.load(ordering: .relaxed)),
    ].filter { $0.1 > 0 }
    let total = classes.reduce(0) { $0 + $1.1 }
    guard total > 0 else { return "answered no requests" }
    let parts = classes.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
    return "answered \(total) request\(total == 1 ? "" : "s"): \(parts)"
  }
}
