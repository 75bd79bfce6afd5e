import Clocks
import Foundation
import HTTPServer
import Testing

@testable import AuthServer

/// The request limiter's buckets: GoTrue's bursts and refills, per limit and per client, in a
/// bounded table.
struct RequestLimiterTests {
  let clock = AdjustableClock(fixedAt: Date(timeIntervalSince1970: 1_735_689_600))

  private func limiter(_ limits: RequestLimits = RequestLimits(), keys: Int = 1_000)
    -> RequestLimiter
  {
    RequestLimiter(limits, clock: clock, keysPerLimit: keys)
  }

  /// How many requests of `limit` `key` gets through, trying `attempts` times.
  private func allowed(
    _ limiter: RequestLimiter, _ limit: RequestLimit, _ key: String, _ attempts: Int
  )
    -> Int
  {
    (0..<attempts).filter { _ in limiter.spend(limit, key: key) }.count
  }

  @Test func aClientGetsItsBurstThenTheRefill() {
    let limiter = limiter()
    #expect(allowed(limiter, .recover, "a", 40) == 30, "GoTrue's burst of 30")
    clock.advance(by: 10)  // 30 per 5 minutes: one request each 10 s
    #expect(allowed(limiter, .recover, "a", 5) == 1)
    clock.advance(by: 25)
    #expect(allowed(limiter, .recover, "a", 5) == 2)
    #expect(abs(limiter.remaining(.recover, key: "a") - 0.5) < 1e-9)
  }

  @Test func refusedRequestsTakeNothing() {
    let limiter = limiter()
    #expect(allowed(limiter, .verify, "a", 30) == 30)
    #expect(allowed(limiter, .verify, "a", 500) == 0)
    clock.advance(by: 20)
    #expect(allowed(limiter, .verify, "a", 5) == 2, "the refusals spent none of the refill")
  }

  @Test func eachLimitAndEachClientHasItsOwnBucket() {
    let limiter = limiter()
    #expect(allowed(limiter, .recover, "a", 31) == 30)
    #expect(limiter.remaining(.signup, key: "a") == 30, "each OTP route has its own bucket")
    #expect(limiter.remaining(.recover, key: "b") == 30)
    #expect(allowed(limiter, .factorChallenge, "a", 31) == 30)
    #expect(limiter.remaining(.factorVerify, key: "a") == 30, "MFA's two buckets are apart")
  }

  @Test func burstsAndRatesAreGoTrues() {
    var limits = RequestLimits()
    limits.otp = 1
    limits.tokenRefresh = 150
    limits.anonymousUsers = 5.9
    let limiter = limiter(limits)
    #expect(allowed(limiter, .otp, "a", 40) == 30, "a burst of 30 whatever the rate")
    #expect(allowed(limiter, .token, "a", 40) == 30)
    #expect(allowed(limiter, .anonymousSignIn, "a", 40) == 5, "a burst of the hour's rate")
    clock.advance(by: 2)
    #expect(allowed(limiter, .token, "a", 5) == 1, "150 per 5 minutes: one each 2 s")
    #expect(allowed(limiter, .otp, "a", 5) == 0, "1 per 5 minutes")
    clock.advance(by: 298)
    #expect(allowed(limiter, .otp, "a", 5) == 1)
  }

  /// tollbooth drops a bucket a fixed time after making it: the MFA limiters' buckets are
  /// full again a minute after a client's first request, whatever it spent since.
  @Test func bucketsAreFullAgainAfterTheirLifetime() {
    let limiter = limiter()
    #expect(allowed(limiter, .factorVerify, "a", 30) == 30)
    clock.advance(by: 59)
    #expect(abs(limiter.remaining(.factorVerify, key: "a") - 14.75) < 1e-9, "15 a minute")
    clock.advance(by: 1)
    #expect(limiter.remaining(.factorVerify, key: "a") == 30)
    #expect(allowed(limiter, .factorVerify, "a", 31) == 30)
  }

  @Test func aFloodOfClientsCannotGrowTheTable() {
    let limiter = limiter(keys: 64)
    for index in 0..<5_000 { _ = limiter.spend(.verify, key: "client-\(index)") }
    #expect(limiter.table(.verify).count <= 64)
    #expect(limiter.table(.recover).count == 0, "other limits untouched")
  }

  /// Room is made from the buckets nearest full: a client that spent its budget is not
  /// forgotten (and so refilled) because others flood the table with new keys.
  @Test func aSpentBucketOutlastsAFlood() {
    let limiter = limiter(keys: 64)
    #expect(allowed(limiter, .verify, "victim", 31) == 30)
    for index in 0..<5_000 { _ = limiter.spend(.verify, key: "flood-\(index)") }
    #expect(!limiter.spend(.verify, key: "victim"))
  }

  @Test func refilledBucketsAreDroppedFirst() {
    let limiter = limiter(keys: 16)
    #expect(allowed(limiter, .verify, "busy", 30) == 30)
    for index in 0..<15 { _ = limiter.spend(.verify, key: "idle-\(index)") }
    clock.advance(by: 10)  // the idle buckets are full again; "busy" regained one request
    _ = limiter.spend(.verify, key: "new")
    #expect(limiter.table(.verify).count == 2, "only the refilled buckets went")
    #expect(limiter.remaining(.verify, key: "busy") == 1)
  }
}
