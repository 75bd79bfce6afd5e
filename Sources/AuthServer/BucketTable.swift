import Synchronization

/// One limiter's token buckets, one per client key, in memory as GoTrue's tollbooth keeps
/// them, but bounded: at most `capacity` keys, however many clients a flood invents.
///
/// A bucket that has refilled (or outlived its lifetime) is the same as no bucket, so it is
/// dropped first when room is needed; when every bucket is in use, those nearest full go, so a
/// client that spent its budget keeps its empty bucket longest.
final class BucketTable: Sendable {
  /// How a bucket fills and how long it lives.
  let shape: BucketShape
  /// The most keys the table holds.
  let capacity: Int
  private let buckets = Mutex<[String: Bucket]>([:])

  /// One client's bucket: the requests it holds as of `updated`, and when it was made.
  struct Bucket: Sendable {
    var tokens: Double
    var updated: Double
    var made: Double
  }

  /// An empty table of buckets of `shape`, holding at most `capacity` keys.
  init(shape: BucketShape, capacity: Int) {
    self.shape = shape
    self.capacity = max(1, capacity)
  }

  /// Takes one request from `key`'s bucket at `now` (seconds); `false` when it has none left.
  /// A refused request takes nothing, as with Go's `rate.Limiter.Allow`.
  func spend(_ key: String, now: Double) -> Bool {
    buckets.withLock { buckets in
      var bucket = current(buckets[key], now: now)
      let allowed = bucket.tokens >= 1
      if allowed { bucket.tokens -= 1 }
      if buckets[key] == nil, buckets.count >= capacity { makeRoom(in: &buckets, now: now) }
      buckets[key] = bucket
      return allowed
    }
  }

  /// The requests `key` has left at `now`; for tests.
  func remaining(_ key: String, now: Double) -> Double {
    buckets.withLock { current($0[key], now: now).tokens }
  }

  /// The number of keys held; for tests.
  var count: Int { buckets.withLock { $0.count } }

  /// `bucket` refilled up to `now`, or a full new one when there is none or it has lived out
  /// its lifetime.
  private func current(_ bucket: Bucket?, now: Double) -> Bucket {
    guard var bucket, now < bucket.made + shape.lifetime else {
      return Bucket(tokens: shape.burst, updated: now, made: now)
    }
    let elapsed = max(0, now - bucket.updated)
    bucket.tokens = min(shape.burst, bucket.tokens + elapsed * shape.perSecond)
    bucket.updated = max(bucket.updated, now)
    return bucket
  }

  /// Frees an eighth of the table at least (so a flood of new keys pays for this once per
  /// eighth, not per request): the buckets that are full again, then those nearest full.
  private func makeRoom(in buckets: inout [String: Bucket], now: Double) {
    let target = capacity - max(1, capacity / 8)
    var refilled: [String] = []
    var inUse: [(key: String, tokens: Double)] = []
    for (key, bucket) in buckets {
      let tokens = current(bucket, now: now).tokens
      if tokens >= shape.burst {
        refilled.append(key)
      } else {
        inUse.append((key, tokens))
      }
    }
    for key in refilled { buckets[key] = nil }
    guard buckets.count > target else { return }
    inUse.sort { $0.tokens > $1.tokens }
    for entry in inUse.prefix(buckets.count - target) { buckets[entry.key] = nil }
  }
}
