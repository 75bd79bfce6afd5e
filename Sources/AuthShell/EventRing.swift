import AuthFlow

/// The newest analytics events of a session: a bounded ring, so memory stays flat however
/// long a script runs.
final class EventRing {
  let capacity: Int
  private var storage: [AuthEvent] = []
  private var start = 0
  private(set) var total = 0
  /// How many outcomes (successes and failures) the flow reported: a change in this count
  /// tells that an action was answered, even when its answer reads the same as the last one.
  private(set) var outcomes = 0

  init(capacity: Int = 500) {
    self.capacity = capacity
  }

  func append(_ event: AuthEvent) {
    total += 1
    switch event {
    case .succeeded, .failed: outcomes += 1
    case .screenViewed, .submitted, .sessionChanged: break
    }
    if storage.count < capacity {
      storage.append(event)
    } else {
      storage[start] = event
      start = (start + 1) % capacity
    }
  }

  /// The events sent after the `total`-th, as far as they are kept.
  func events(after total: Int) -> [AuthEvent] {
    let count = min(self.total - total, storage.count)
    guard count > 0 else { return [] }
    let ordered = storage.count < capacity ? storage : Array(storage[start...] + storage[..<start])
    return Array(ordered.suffix(count))
  }

  /// The kept events, oldest first, with their number in the session.
  var numbered: [(number: Int, event: AuthEvent)] {
    let ordered = Array(storage[start...] + storage[..<start])
    let first = total - ordered.count + 1
    return ordered.enumerated().map { (first + $0.offset, $0.element) }
  }
}
