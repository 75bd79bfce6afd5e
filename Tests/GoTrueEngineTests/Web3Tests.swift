import AccountStore
import AuthCrypto
import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// Sign in with Solana and Ethereum (`grant_type=web3`), with the signed messages of GoTrue's
/// own tests (`internal/api/web3_test.go`): GoTrue's answers, and the user and identity made.
struct Web3Tests {
  /// A message GoTrue's tests sign, the time they check it at, and its signature.
  struct Vector: Equatable {
    var chain: String
    var now: String
    var message: String
    var signature: String
  }

  static let solanaFull = Vector(
    chain: "solana", now: "2025-03-29T00:09:59Z",
    message:
      "supabase.com wants you to sign in with your Solana account:\n"
      + "2EZEiBdw47VHT6SpZSW9VnuSvBe7DxuYHBTxj19gxvv8\n\nStatement\n\nURI: https://supabase.com/\n"
      + "Version: 1\nIssued At: 2025-03-29T00:00:00Z\nExpiration Time: 2025-03-29T00:10:00Z\n"
      + "Not Before: 2025-03-29T00:00:00Z",
    signature:
      "aiKn+PAoB1OoXxS8H34HrB456YD4sKAVjeTjsxgkaQy3bkdV51WBTmUUE9lBU9kuXr0hTLI+1aTn5TFRbIF8CA==")

  /// Signed by a Ledger, in the off-chain message envelope.
  static let solanaLedger = Vector(
    chain: "solana", now: "2025-07-29T22:30:52.235Z",
    message:
      "supabase.com wants you to sign in with your Solana account:\n"
      + "EqzxWVyBpLD34SV9w1FFpPPvbfrfAXdiDVg1cyHTR1Rv\n\nI confirm ownership of this wallet\n\n"
      + "Version: 1\nURI: https://supabase.com/\nIssued At: 2025-07-29T22:29:52.235Z",
    signature:
      "9slc0BBJw16TzWYs4/op8na3vt9E0CKt0FL5pqhzTDxvqF/txpbdo+ULDCeSzrDE/uJWmpMQw+hF0rkDj4Q0Bw==")

  static let ethereumFull = Vector(
    chain: "ethereum", now: "2025-03-29T00:09:59Z",
    message:
      "supabase.com wants you to sign in with your Ethereum account:\n"
      + "0xa1E993d09257291470e86778399D79A0864F327E\n\nStatement\n\nURI: https://supabase.com\n"
      + "Version: 1\nIssued At: 2025-03-29T00:00:00.000Z\nExpiration Time: 2025-03-29T00:10:00Z\n"
      + "Not Before: 2025-03-29T00:00:00Z",
    signature:
      "0x37495c9ac73f7a3acb589820699db39e1ab290f6756e41e16c2ddeb8588669440c9df95027597d518e3afb"
      + "7db6f692fb63c44f56d266b2c65ac78a5d317bf5ef1c")

  static let ethereumMinimal = Vector(
    chain: "ethereum", now: "2025-03-29T00:09:59Z",
    message:
      "supabase.com wants you to sign in with your Ethereum account:\n"
      + "0xD1FfC6bdfacf333C2B08F88f2f50ddcD87eaCa57\n\nStatement\n\nURI: https://supabase.com/\n"
      + "Version: 1\nIssued At: 2025-03-29T00:00:00Z",
    signature:
      "0xd8dad96466536aca351702766ce1ca321317ef1e7c355b2cf19a166828f78854197ae34e3cdff0a6be1e63"
      + "17f654ef458623433f14ed55f79f183e7a56c458f51b")

  static func engine(at now: String, siteURL: String = "https://supabase.com") throws
    -> EmbeddedGoTrue
  {
    guard let start = GoTrueCoding.parseTimestamp(now) else { throw UnreadableTime() }
    let clock = AdjustableClock(fixedAt: start)
    return try makeEngine(clock: clock) {
      $0.web3Solana = true
      $0.web3Ethereum = true
      $0.siteURL = siteURL
    }
  }

  static func signIn(_ vector: Vector, on engine: EmbeddedGoTrue) async throws(Web3GrantFailure)
    -> GoTrueSession
  {
    try await engine.signInWithWeb3(
      chain: vector.chain, message: vector.message, signature: vector.signature)
  }

  @Test(arguments: [solanaFull, solanaLedger, ethereumFull, ethereumMinimal])
  func goTruesSignedMessagesSignIn(_ vector: Vector) async throws {
    let engine = try Self.engine(at: vector.now)
    let session = try await Self.signIn(vector, on: engine)
    let message = try Web3Message(
      parsing: vector.message, chain: try #require(Web3Message.Chain(rawValue: vector.chain)))
    let user = session.user
    let providerID = "web3:\(vector.chain):\(message.address)"
    #expect(user.email == "")
    #expect(user.appMetadata["provider"] == .string("web3"))
    let identity = try #require(user.identities?.first)
    #expect(user.identities?.count == 1)
    #expect(identity.provider == "web3")
    #expect(identity.id == providerID)
    let claims: [String: JSONValue] = [
      "address": .string(message.address), "chain": .string(vector.chain), "network": .string(""),
      "domain": .string("supabase.com"),
      "statement": .string(
        vector == Self.solanaLedger ? "I confirm ownership of this wallet" : "Statement"),
    ]
    let data: [String: JSONValue] = [
      "sub": .string(providerID), "custom_claims": .object(claims),
      "email_verified": .bool(false), "phone_verified": .bool(false),
    ]
    #expect(identity.identityData == data)
    #expect(user.userMetadata == data)
    let token = try JSONWebToken.verify(session.accessToken, keys: engine.tokenKeys, now: nil)
    #expect(token["sub"] == .string(user.id))
    #expect(token["amr"]?.arrayValue?.first?.objectValue?["method"] == .string("web3"))

    // The same wallet signs in to the same user.
    let again = try await Self.signIn(vector, on: engine)
    #expect(again.user.id == user.id)
    // Two demo accounts and the wallet's.
    #expect(try engine.accountCount() == 3)
  }

  @Test func aMessageForAnotherAppOrOutOfTimeIsAnInvalidGrant() async throws {
    let expired = try Self.engine(at: "2025-03-29T00:10:01Z")
    await expectInvalidGrant(
      "Signed Solana message is expired", try await Self.signIn(Self.solanaFull, on: expired))
    await expectInvalidGrant(
      "Signed Ethereum message is expired", try await Self.signIn(Self.ethereumFull, on: expired))
    let early = try Self.engine(at: "2025-03-28T23:49:59Z")
    await expectInvalidGrant(
      "Ethereum message was issued too far in the future",
      try await Self.signIn(Self.ethereumMinimal, on: early))
    let late = try Self.engine(at: "2025-03-29T00:10:01Z")
    await expectInvalidGrant(
      "Ethereum message was issued too long ago",
      try await Self.signIn(Self.ethereumMinimal, on: late))
    let elsewhere = try Self.engine(at: "2025-03-29T00:09:59Z", siteURL: "https://example.com")
    await expectInvalidGrant(
      "Signed Solana message is using URI which is not allowed on this server, message was "
        + "signed for another app", try await Self.signIn(Self.solanaFull, on: elsewhere))
    var forged = Self.ethereumMinimal
    forged.message = forged.message.replacing("Statement", with: "Statemen!")
    await expectInvalidGrant(
      "Signature does not match address in message", try await Self.signIn(forged, on: late))
  }

  @Test func theRequestsChecksAnswerAsGoTrue() async throws {
    let off = try makeEngine()
    #expect(
      await refusal(try await Self.signIn(Self.solanaFull, on: off))
        == GoTrueAPIError(
          status: 422, code: .web3ProviderDisabled, message: "Web3 provider is disabled"))
    let solanaOnly = try makeEngine { $0.web3Solana = true }
    #expect(
      await refusal(try await Self.signIn(Self.ethereumFull, on: solanaOnly))
        == GoTrueAPIError(
          status: 422, code: .web3ProviderDisabled, message: "Ethereum Web3 provider is disabled"))
    var chain = Self.solanaFull
    chain.chain = "blockchain"
    #expect(
      await refusal(try await Self.signIn(chain, on: solanaOnly))
        == GoTrueAPIError(status: 400, code: .web3UnsupportedChain, message: "Unsupported chain"))
    var short = Self.solanaFull
    short.signature = String(repeating: "x", count: 85)
    #expect(
      await refusal(try await Self.signIn(short, on: solanaOnly))?.message
        == "signature must be 64 bytes encoded as base64 with or without padding")
    var notBase64 = Self.solanaFull
    notBase64.signature = String(repeating: "\u{0}", count: 86)
    #expect(
      await refusal(try await Self.signIn(notBase64, on: solanaOnly))?.message
        == "signature does not contain valid base64 characters")
    var unparsable = Self.solanaFull
    unparsable.message = unparsable.message.replacing("Version: 1", with: "Version: 2")
    #expect(
      await refusal(try await Self.signIn(unparsable, on: solanaOnly))
        == GoTrueAPIError(
          status: 400, code: .validationFailed,
          message: "siws: Version value is not supported, expected 1 got \"2\""))
  }

  @Test func messagesAreReadAsGoTruesParsersReadThem() throws {
    func problem(_ text: String, _ chain: Web3Message.Chain = .ethereum) -> String? {
      do {
        _ = try Web3Message(parsing: text, chain: chain)
        return nil
      } catch {
        return error.message
      }
    }
    let header = "example.com wants you to sign in with your Ethereum account:\n"
    let address = "0xa1E993d09257291470e86778399D79A0864F327E\n\n"
    #expect(problem("a\nb\nc") == "siwe: message needs at least 6 lines")
    #expect(
      problem("x\n\n\n\n\n", .solana)?.hasPrefix("siws: message first line does not end in") == true
    )
    #expect(
      problem("exa mple.com" + header.dropFirst(11) + address + "\n\n")
        == "siwe: domain in first line of message is not valid")
    #expect(
      problem(header + "0x12\n\n\n\n") == "siwe: wallet address is not a valid Ethereum address")
    #expect(problem(header + address + "URI: x\nVersion: 1\n") == "siwe: URI is not valid")
    #expect(
      problem(header + address + "Chain ID: 0\nURI: https://a.co/\n")
        == "siwe: Chain ID is not valid")
    #expect(
      problem(header + address + "URI: https://a.co/\nVersion: 1\nnonsense\n")
        == "siwe: encountered unparsable line at index 5")
    #expect(
      problem(header + address + "URI: https://a.co/\nVersion: 1\n\n")
        == "siwe: Issued At is not specified")
    let message = try Web3Message(
      parsing: header + address + "URI: https://a.co:8443/x\nVersion: 1\nChain ID: 137\n"
        + "Issued At: 2025-01-01T00:00:00+01:00\nResources:\n- https://a.co/r\n- ipfs://b\n",
      chain: .ethereum)
    #expect(message.statement == nil)
    #expect(message.chainID == "137")
    #expect(message.uri.host == "a.co:8443" && message.uri.hostname == "a.co")
    #expect(message.resources.map(\.text) == ["https://a.co/r", "ipfs://b"])
    #expect(message.issuedAt == Date(timeIntervalSince1970: 1_735_686_000))
    #expect(Web3Message.isValidDomain("localhost:5173") && !Web3Message.isValidDomain("a.b1"))
  }

  @Test func solanaSignaturesMadeWithOpenSSLVerify() throws {
    let key = try AsymmetricKey.ed25519(seed: Array(SHA256.hash("a wallet").prefix(32)))
    let publicKey = try #require(key.ed25519PublicKey)
    let address = Base58.encode(publicKey)
    #expect(Base58.decode(address) == publicKey)
    let text =
      "localhost:3000 wants you to sign in with your Solana account:\n\(address)\n\n"
      + "URI: http://localhost:3000/\nVersion: 1\nIssued At: 2025-01-01T00:00:00Z"
    let message = try Web3Message(parsing: text, chain: .solana)
    let signature = try #require(key.sign(Array(text.utf8), hash: nil))
    #expect(message.isSigned(bySolanaSignature: signature))
    var wrong = signature
    wrong[0] ^= 1
    #expect(!message.isSigned(bySolanaSignature: wrong))
  }

  private func expectInvalidGrant(
    _ description: String, _ body: @autoclosure () async throws(Web3GrantFailure) -> GoTrueSession,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    do {
      _ = try await body()
      Issue.record("signed in", sourceLocation: sourceLocation)
    } catch {
      #expect(error == .invalidGrant(description), sourceLocation: sourceLocation)
    }
  }

  private func refusal(_ body: @autoclosure () async throws(Web3GrantFailure) -> GoTrueSession)
    async -> GoTrueAPIError?
  {
    do {
      _ = try await body()
      return nil
    } catch {
      if case .refused(.api(let apiError)) = error { return apiError }
      return nil
    }
  }
}

/// A test's time that is not RFC 3339.
private struct UnreadableTime: Error {}
