import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A Sign in with Ethereum (EIP-4361) or Sign in with Solana message, read as GoTrue's `siwe`
/// and `siws` packages read them (`internal/utilities/siwe`, `…/siws`): the header line with
/// the domain, the address, an optional statement, then `Key: value` lines in any order, with
/// a `Resources:` list. The two differ only in their header, their address, their chain ids and
/// in how an absent statement reads (Ethereum's `nil`, Solana's empty).
package struct Web3Message: Sendable {
  /// The blockchain a message signs in with.
  package enum Chain: String, Sendable, CaseIterable {
    case solana
    case ethereum

    /// The chain's name in GoTrue's messages (`Signed Solana message …`).
    package var title: String { self == .solana ? "Solana" : "Ethereum" }

    /// The prefix of the parser's errors (`siws:`, `siwe:`).
    var errorPrefix: String { self == .solana ? "siws" : "siwe" }
  }

  /// Why a message could not be read, in GoTrue's words (`siwe: URI is not valid`).
  package struct Malformed: Error, Equatable, Sendable {
    /// The parser's error text, as GoTrue answers it.
    package let message: String
  }

  package let chain: Chain
  /// The message as signed.
  package let raw: String
  package let domain: String
  package let address: String
  /// Ethereum's is `nil` when the message has none; Solana's is empty then.
  package let statement: String?
  package let uri: GoRequestURI
  package let version: String
  package let chainID: String
  package let nonce: String
  package let issuedAt: Date
  package let expirationTime: Date?
  package let notBefore: Date?
  package let requestID: String?
  package let resources: [GoRequestURI]

  private static let headerSuffix = " wants you to sign in with your "

  /// Reads `raw` as a message of `chain`, or throws GoTrue's parser error.
  package init(parsing raw: String, chain: Chain) throws(Malformed) {
    func fail(_ text: String) -> Malformed { Malformed(message: "\(chain.errorPrefix): \(text)") }
    // Split on the byte, as Go does: a `\r\n` leaves its `\r` on the line.
    let lines = raw.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    guard lines.count >= 6 else { throw fail("message needs at least 6 lines") }
    let suffix = Self.headerSuffix + chain.title + " account:"
    guard lines[0].hasSuffix(suffix) else {
      throw fail("message first line does not end in \"\(suffix)\"")
    }
    let domain = GoText.trimSpace(
      String(decoding: lines[0].utf8.dropLast(suffix.utf8.count), as: UTF8.self))
    guard Self.isValidDomain(domain) else {
      throw fail("domain in first line of message is not valid")
    }
    let address = GoText.trimSpace(lines[1])
    guard Self.isValidAddress(address, chain: chain) else {
      throw fail(
        chain == .solana
          ? "wallet address is not in base58 format"
          : "wallet address is not a valid Ethereum address")
    }
    guard lines[2].isEmpty else { throw fail("third line must be empty") }
    var fields = Fields()
    var start = 3
    if !lines[3].isEmpty, lines[4].isEmpty {
      fields.statement = lines[3]
      start = 5
    }
    try fields.read(lines[start...], chain: chain, fail: fail)
    guard fields.version == "1" else {
      throw fail(
        "Version value is not supported, expected 1 got \(GoText.quoted(fields.version))")
    }
    guard let issuedAt = fields.issuedAt else { throw fail("Issued At is not specified") }
    guard let uri = fields.uri else { throw fail("URI is not specified") }
    if let expiration = fields.expirationTime, issuedAt > expiration {
      throw fail("Issued At is after Expiration Time")
    }
    if let notBefore = fields.notBefore, let expiration = fields.expirationTime,
      notBefore > expiration
    {
      throw fail("Not Before is after Expiration Time")
    }
    self.chain = chain
    self.raw = raw
    self.domain = domain
    self.address = address
    statement = fields.statement ?? (chain == .solana ? "" : nil)
    self.uri = uri
    version = fields.version
    chainID = fields.chainID
    nonce = fields.nonce
    self.issuedAt = issuedAt
    expirationTime = fields.expirationTime
    notBefore = fields.notBefore
    requestID = fields.requestID
    resources = fields.resources
  }

  /// The `Key: value` lines of a message, as they are read.
  private struct Fields {
    var statement: String?
    var uri: GoRequestURI?
    var version = ""
    var chainID = ""
    var nonce = ""
    var issuedAt: Date?
    var expirationTime: Date?
    var notBefore: Date?
    var requestID: String?
    var resources: [GoRequestURI] = []

    mutating func read(
      _ lines: ArraySlice<String>, chain: Chain, fail: (String) -> Malformed
    ) throws(Malformed) {
      var inResources = false
      for (index, text) in zip(lines.indices, lines) {
        let line = GoText.trimSpace(text)
        if inResources {
          if line.hasPrefix("- ") {
            guard let resource = GoRequestURI(GoText.trimSpace(String(line.dropFirst(2)))) else {
              throw fail("Resource at position \(resources.count) has invalid URI")
            }
            resources.append(resource)
            continue
          }
          inResources = false
        }
        if line == "Resources:" {
          inResources = true
          continue
        }
        if line.isEmpty { continue }
        guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else {
          throw fail("encountered unparsable line at index \(index)")
        }
        let key = String(decoding: line.utf8[..<colon], as: UTF8.self)
        let value = String(decoding: line.utf8[line.utf8.index(after: colon)...], as: UTF8.self)
        try set(key, GoText.trimSpace(value), chain: chain, fail: fail)
      }
    }

    private mutating func set(
      _ key: String, _ value: String, chain: Chain, fail: (String) -> Malformed
    ) throws(Malformed) {
      switch key {
      case "URI":
        guard let uri = GoRequestURI(value) else { throw fail("URI is not valid") }
        self.uri = uri
      case "Version": version = value
      case "Chain ID":
        let valid =
          chain == .solana
          ? value.isEmpty || Web3Message.solanaNetworks.contains(value)
          : (Int(value) ?? 0) > 0
        guard valid else { throw fail("Chain ID is not valid") }
        chainID = value
      case "Nonce": nonce = value
      case "Issued At":
        guard let time = GoTrueCoding.parseTimestamp(value) else {
          throw fail("Issued At is not a valid ISO8601 timestamp")
        }
        issuedAt = time
      case "Expiration Time":
        guard let time = GoTrueCoding.parseTimestamp(value) else {
          throw fail("Expiration Time is not a valid ISO8601 timestamp")
        }
        expirationTime = time
      case "Not Before":
        guard let time = GoTrueCoding.parseTimestamp(value) else {
          throw fail("Not Before is not a valid ISO8601 timestamp")
        }
        notBefore = time
      case "Request ID": requestID = value
      default: break
      }
    }
  }

  /// Whether `domain` is a host name with an optional port, as GoTrue's pattern has it:
  /// `localhost` or dotted labels ending in two letters or more, then `:` and 1 to 5 digits.
  static func isValidDomain(_ domain: String) -> Bool {
    let parts = domain.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
    guard let host = parts.first, parts.count <= 2 else { return false }
    if parts.count == 2 {
      guard (1...5).contains(parts[1].count), parts[1].allSatisfy(isDigit) else { return false }
    }
    if host.elementsEqual("localhost".utf8) { return true }
    let labels = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard labels.count >= 2, let last = labels.last, last.count >= 2,
      last.allSatisfy(isLetter)
    else { return false }
    return labels.dropLast().allSatisfy { label in
      guard let first = label.first, let end = label.last, label.count <= 63 else {
        return false
      }
      return isLetterOrDigit(first) && isLetterOrDigit(end)
        && label.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }
    }
  }

  /// Whether `address` has the form of an address of `chain`: 32 to 44 letters and digits for
  /// Solana (GoTrue's pattern, looser than base58), `0x` and 40 hexadecimal digits for Ethereum.
  static func isValidAddress(_ address: String, chain: Chain) -> Bool {
    let bytes = Array(address.utf8)
    switch chain {
    case .solana:
      return (32...44).contains(bytes.count) && bytes.allSatisfy(isLetterOrDigit)
    case .ethereum:
      return bytes.count == 42 && bytes.starts(with: "0x".utf8)
        && bytes.dropFirst(2).allSatisfy { isDigit($0) || "abcdefABCDEF".utf8.contains($0) }
    }
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }

  private static func isLetterOrDigit(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }

  /// The networks a Solana message may name (`^solana:(main|dev|test|local)net$`).
  static let solanaNetworks: Set<String> = [
    "solana:mainnet", "solana:devnet", "solana:testnet", "solana:localnet",
  ]
}
