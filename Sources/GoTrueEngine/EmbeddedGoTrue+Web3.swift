import AccountStore
import AuthCrypto
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why a Web3 sign-in was refused: a GoTrue error, or one of the OAuth-style `invalid_grant`
/// answers GoTrue gives a message that is signed wrongly, for another app, or out of its time
/// (`{"error": "invalid_grant", "error_description": …}`, 400).
package enum Web3GrantFailure: Error, Equatable, Sendable {
  case refused(GoTrueFailure)
  case invalidGrant(String)
}

/// Sign in with Solana and Sign in with Ethereum, as GoTrue's `web3` grant has them
/// (`internal/api/web3.go`): the request's checks, the message read and its signature and
/// place and time checked, then the wallet's user found or made, with one `web3` identity named
/// `web3:<chain>:<address>`, and signed in (`amr` `web3`).
extension EmbeddedGoTrue {
  /// `POST /token?grant_type=web3` with `chain`, `message` and `signature`, after the route's
  /// rate limit. Solana signatures are 64 bytes in base64 (padded or not, either alphabet),
  /// Ethereum's 65 in `0x`-prefixed hexadecimal.
  @concurrent
  package func signInWithWeb3(chain chainName: String, message: String, signature: String)
    async throws(Web3GrantFailure) -> GoTrueSession
  {
    let message = try checkedWeb3Message(chain: chainName, message: message, signature: signature)
    let now = Date(timeIntervalSince1970: Double(nowMillis) / 1_000)
    if let refusal = message.refusal(
      at: now, maximumValidity: configuration.web3MaximumValidity, isAllowed: isAllowedRedirect)
    {
      throw .invalidGrant(refusal)
    }
    do {
      let (session, isNew) = try answer(spending: nil) {
        database, now throws(GoTrueAPIError) in
        let user = try web3User(message, database, now: now)
        if user.record.isBanned(at: now) {
          throw GoTrueAPIError(status: 403, code: .userBanned, message: "User is banned")
        }
        try checkTokenFits(user.record)
        return (
          try createSession(for: user.record, method: .web3, in: database, now: now), user.isNew
        )
      }
      return try await withHookClaims(session, method: "web3", isNew: isNew)
    } catch {
      throw .refused(error)
    }
  }

  /// Whether GoTrue's redirect check (`IsRedirectURLValid`) takes `url`: the one check of where
  /// links may lead, ``allowedRedirect(_:)``, gives it back unchanged.
  package func isAllowedRedirect(_ url: String) -> Bool {
    allowedRedirect(url) == url
  }

  /// The request's checks in GoTrue's order: the chain on, the message's length and the
  /// signature's form, the message read, then its signature.
  private func checkedWeb3Message(chain chainName: String, message: String, signature: String)
    throws(Web3GrantFailure) -> Web3Message
  {
    func refuse(_ status: Int, _ code: GoTrueErrorCode, _ text: String) -> Web3GrantFailure {
      .refused(.api(GoTrueAPIError(status: status, code: code, message: text)))
    }
    guard configuration.web3Solana || configuration.web3Ethereum else {
      throw refuse(422, .web3ProviderDisabled, "Web3 provider is disabled")
    }
    guard let chain = Web3Message.Chain(rawValue: chainName) else {
      throw refuse(400, .web3UnsupportedChain, "Unsupported chain")
    }
    guard chain == .solana ? configuration.web3Solana : configuration.web3Ethereum else {
      throw refuse(422, .web3ProviderDisabled, "\(chain.title) Web3 provider is disabled")
    }
    if message.utf8.count < 64 { throw refuse(400, .validationFailed, "message is too short") }
    if message.utf8.count > 20 * 1_024 {
      throw refuse(400, .validationFailed, "message must not exceed 20KB")
    }
    var solanaSignature: [UInt8] = []
    switch chain {
    case .solana:
      guard [86, 88].contains(signature.utf8.count) else {
        throw refuse(
          400, .validationFailed,
          "signature must be 64 bytes encoded as base64 with or without padding")
      }
      guard let bytes = Self.base64Bytes(signature) else {
        throw refuse(400, .validationFailed, "signature does not contain valid base64 characters")
      }
      solanaSignature = bytes
    case .ethereum:
      let digits = signature.hasPrefix("0x") ? signature.utf8.count - 2 : signature.utf8.count
      guard digits == 130 else {
        throw refuse(
          400, .validationFailed,
          "signature must be 65 bytes long, encoded as a 130 character-long hexadecimal string")
      }
    }
    let parsed: Web3Message
    do {
      parsed = try Web3Message(parsing: message, chain: chain)
    } catch {
      throw refuse(400, .validationFailed, error.message)
    }
    let signed =
      chain == .solana
      ? parsed.isSigned(bySolanaSignature: solanaSignature)
      : parsed.isSigned(byEthereumSignature: signature)
    guard signed else { throw .invalidGrant("Signature does not match address in message") }
    return parsed
  }

  /// The bytes of base64 `text` in either alphabet, its padding dropped, as GoTrue decodes a
  /// Solana signature (`base64.RawURLEncoding` after swapping `+/` for `-_`).
  static func base64Bytes(_ text: String) -> [UInt8]? {
    var trimmed = Substring(text)
    while trimmed.hasSuffix("=") { trimmed = trimmed.dropLast() }
    let urlSafe = trimmed.replacing("+", with: "-").replacing("/", with: "_")
    guard urlSafe.utf8.count % 4 != 1 else { return nil }
    return Base64URL.decode(urlSafe)
  }

  /// The wallet's user: the one whose `web3` identity the message names, its identity data
  /// and metadata brought up to date; else a new one (unless signups are off), with no email.
  private func web3User(_ message: Web3Message, _ database: EngineAccounts, now: Int64)
    throws(GoTrueAPIError) -> (record: UserRecord, isNew: Bool)
  {
    let providerID = "web3:\(message.chain.rawValue):\(message.address)"
    let claims: [String: JSONValue] = [
      "address": .string(message.address), "chain": .string(message.chain.rawValue),
      "network": .string(message.chainID), "domain": .string(message.domain),
      "statement": message.statement.map(JSONValue.string) ?? .null,
    ]
    // GoTrue's provider claims as `structs.Map` writes them: `sub`, the custom claims, and the
    // two verification flags it always has.
    let identityData: [String: JSONValue] = [
      "sub": .string(providerID), "custom_claims": .object(claims),
      "email_verified": .bool(false), "phone_verified": .bool(false),
    ]
    let providers: [String: JSONValue] = [
      "provider": .string("web3"), "providers": .array([.string("web3")]),
    ]
    if let user = try database.user(identityProvider: "web3", providerID: providerID) {
      let record = try database.updatedUser(
        user.id,
        [
          .identityData(identityData),
          .userMetadata(UserRecord.merging(identityData, into: user.userMetadata)),
          .appMetadata(UserRecord.merging(providers, into: user.appMetadata)),
          .lastSignInAt(now), .updatedAt(now),
        ])
      return (record, false)
    }
    if configuration.disableSignup { throw Self.signupsDisabled }
    var user = NewUser(
      id: random.uuidString(), email: nil, passwordHash: secrets.decoyHash,
      identityID: random.uuidString(), now: now)
    user.lastSignInAt = now
    user.userMetadata = identityData
    user.appMetadata = providers
    user.identityData = identityData
    user.identityProvider = "web3"
    user.identityProviderID = providerID
    return (try database.insertUser(user), true)
  }
}
