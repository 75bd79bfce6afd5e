import AccountStore
import AuthCrypto
import GoTrue

/// GoTrue's request and email limits, kept in the store so every process shares them.
package struct RateLimiter {
  let database: EngineAccounts
  package let configuration: EngineConfiguration
  let codeKey: [UInt8]
  let now: Int64

  /// Takes one request from `bucket`, or throws 429 `over_request_rate_limit` when it is empty.
  /// Call inside a write transaction.
  package func consume(
    _ bucket: String, budget: EngineConfiguration.Budget,
    refusal: GoTrueAPIError = RateLimiter.requestLimitReached
  ) throws(GoTrueAPIError) {
    guard budget.isLimited else { return }
    let state = try database.bucket(bucket)
    var tokens = budget.capacity
    if let state {
      let elapsed = Double(max(0, now - state.updatedAt)) / 1_000
      tokens = min(budget.capacity, state.tokens + elapsed * budget.capacity / budget.period)
    }
    guard tokens >= 1 else { throw refusal }
    try database.setBucket(bucket, tokens: tokens - 1, now: now)
    // An account's bucket untouched for a whole period is full again: the same as no row.
    if let colon = bucket.firstIndex(of: ":") {
      try database.deleteBuckets(
        prefixed: String(bucket[...colon]), untouchedSince: now - Int64(budget.period * 1_000))
    }
  }

  /// Takes one request from the engine's request budget at `budget` (`token` or `email`), in
  /// the bucket named for it. Code checks count per account (``bucket(_:for:)``), emails sent
  /// with ``consumeEmailSent()``.
  package func consume(
    _ budget: KeyPath<EngineConfiguration.RateLimits, EngineConfiguration.Budget>
  ) throws(GoTrueAPIError) {
    try consume(Self.bucketName(budget), budget: configuration.rateLimits[keyPath: budget])
  }

  private static func bucketName(
    _ budget: KeyPath<EngineConfiguration.RateLimits, EngineConfiguration.Budget>
  ) -> String {
    switch budget {
    case \.token: "token"
    case \.verify: "verify"
    default: "email"
    }
  }

  /// GoTrue's answer when a request budget is spent.
  static let requestLimitReached = GoTrueAPIError(
    status: 429, code: .overRequestRateLimit, message: "Request rate limit reached")

  /// GoTrue's answer when the hourly budget of emails is spent.
  static let emailLimitReached = GoTrueAPIError(
    status: 429, code: .overEmailSendRateLimit, message: "email rate limit exceeded")

  /// Takes one email from the budget of all emails sent, unless autoconfirm is on (then GoTrue
  /// does not count them).
  package func consumeEmailSent() throws(GoTrueAPIError) {
    guard !configuration.autoconfirm else { return }
    try consume(
      "email_sent", budget: configuration.rateLimits.emailSent, refusal: Self.emailLimitReached)
  }

  /// Throws 429 `over_email_send_rate_limit` when `address` got an email too recently; the
  /// same for addresses with and without an account, so the answer reveals neither.
  package func checkEmailInterval(_ address: String) throws(GoTrueAPIError) {
    let interval = Int64(configuration.emailInterval * 1_000)
    guard
      let last = try database.lastEmail(toAddressHash: hash(address)),
      now - last < interval
    else { return }
    throw Self.tooSoon(wait: (interval - (now - last) + 999) / 1_000)
  }

  /// Throws GoTrue's 429 when an email of one kind, last sent at `lastSent`, was sent too
  /// recently to send another (`validateSentWithinFrequencyLimit`: the gap is kept per kind,
  /// in the user's row, for the emails only a signed-in user can ask for).
  package func checkEmailInterval(lastSent: Int64?) throws(GoTrueAPIError) {
    let interval = Int64(configuration.emailInterval * 1_000)
    guard let lastSent, now - lastSent < interval else { return }
    throw Self.tooSoon(wait: (interval - (now - lastSent) + 999) / 1_000)
  }

  private static func tooSoon(wait: Int64) -> GoTrueAPIError {
    GoTrueAPIError(
      status: 429, code: .overEmailSendRateLimit,
      message: "For security purposes, you can only request this after \(wait) seconds.")
  }

  /// GoTrue's answer when the hourly budget of text messages is spent.
  static let smsLimitReached = GoTrueAPIError(
    status: 429, code: .overSMSSendRateLimit, message: "SMS rate limit exceeded")

  /// Takes one text message from the budget of all sent, unless SMS autoconfirm is on (then
  /// GoTrue does not count them).
  package func consumeSMSSent() throws(GoTrueAPIError) {
    guard !configuration.smsAutoconfirm else { return }
    try consume("sms_sent", budget: configuration.rateLimits.smsSent, refusal: Self.smsLimitReached)
  }

  /// Throws GoTrue's 429 `over_sms_send_rate_limit` when a code of one kind, last texted at
  /// `lastSent`, went too recently to send another (`sendPhoneConfirmation`: the gap is kept
  /// per kind, in the user's row).
  package func checkSMSInterval(lastSent: Int64?) throws(GoTrueAPIError) {
    let interval = Int64(configuration.smsInterval * 1_000)
    guard let lastSent, now - lastSent < interval else { return }
    let wait = (interval - (now - lastSent) + 999) / 1_000
    throw GoTrueAPIError(
      status: 429, code: .overSMSSendRateLimit,
      message: "For security purposes, you can only request this after \(wait) seconds.")
  }

  /// Records an email to `address` now (or a request that would have sent one).
  package func recordEmail(to address: String) throws(GoTrueAPIError) {
    try database.recordEmail(
      toAddressHash: hash(address), now: now,
      forgettingBefore: now - Int64(configuration.emailInterval * 1_000))
  }

  /// The bucket of `kind` for one account, named by a keyed hash of its address.
  package func bucket(_ kind: String, for address: String) -> String {
    "\(kind):" + hash(address).prefix(16).hexString
  }

  /// Addresses are kept only as keyed hashes: the store holds no list of who asked.
  private func hash(_ address: String) -> [UInt8] {
    HMAC.sha256(key: codeKey, message: Array("address:\(address)".utf8))
  }
}
