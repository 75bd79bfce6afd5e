import AuthCrypto

/// The signature checks of GoTrue's `siws` and `siwe` packages: Ed25519 over the message (or
/// over a Ledger's off-chain envelope of it) by the Solana address' key, and secp256k1 over
/// Ethereum's personal-message hash, recovered to the address (`VerifySignature`).
extension Web3Message {
  /// Whether `signature` (64 bytes) is the Solana address' over the message: as a wallet signs
  /// it (Phantom's Sign in with Solana), or as a Ledger does, inside the off-chain message
  /// envelope (the `\u{FF}solana offchain` header, the domain in 32 bytes, the signer and the
  /// length). An address that is not base58 for a 32-byte key matches no signature.
  package func isSigned(bySolanaSignature signature: [UInt8]) -> Bool {
    guard signature.count == 64, let publicKey = Base58.decode(address), publicKey.count == 32,
      let key = try? AsymmetricKey.ed25519(x: publicKey, d: nil)
    else { return false }
    let message = Array(raw.utf8)
    if key.verify(signature, of: message, hash: nil) { return true }
    guard message.count <= Int(UInt16.max) else { return false }
    var envelope: [UInt8] = [0xFF] + Array("solana offchain".utf8) + [0x00]
    let domainBytes = Array(domain.utf8.prefix(32))
    envelope += domainBytes + [UInt8](repeating: 0, count: 32 - domainBytes.count)
    envelope += [0x00, 0x01] + publicKey
    envelope += [UInt8(message.count & 0xFF), UInt8(message.count >> 8)] + message
    return key.verify(signature, of: envelope, hash: nil)
  }

  /// Whether `signature` (`0x` and 130 hexadecimal digits: `r‖s‖v`) recovers, over Ethereum's
  /// hash of the message (`keccak256("\u{19}Ethereum Signed Message:\n" + length + message)`),
  /// to a key whose address is the message's, compared without regard to case as GoTrue does.
  package func isSigned(byEthereumSignature signature: String) -> Bool {
    guard signature.hasPrefix("0x") || signature.hasPrefix("0X"),
      let bytes = Self.hexBytes(signature.dropFirst(2)), bytes.count == 65
    else { return false }
    let message = Array(raw.utf8)
    let hash = Keccak256.hash(
      Array("\u{19}Ethereum Signed Message:\n\(message.count)".utf8) + message)
    guard let key = Secp256k1.recoverPublicKey(signature: bytes, hash: hash) else { return false }
    let recovered = Secp256k1.ethereumAddress(ofPublicKey: key)
    return "0x" + recovered.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
      == address.lowercased()
  }

  /// The bytes of hexadecimal `text` (either case), or `nil` when it is not that.
  static func hexBytes(_ text: Substring) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

/// Bitcoin's base58, in which Solana writes its addresses: an encoding, not cryptography.
package enum Base58 {
  private static let alphabet = Array(
    "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

  /// The bytes `text` encodes (each leading `1` a zero byte), or `nil` when it holds a
  /// character outside the alphabet.
  package static func decode(_ text: String) -> [UInt8]? {
    var digits: [UInt8] = []  // the number, base 256, least significant byte first
    for character in text.utf8 {
      guard let value = alphabet.firstIndex(of: character) else { return nil }
      var carry = value
      for index in digits.indices {
        carry += Int(digits[index]) * 58
        digits[index] = UInt8(carry & 0xFF)
        carry >>= 8
      }
      while carry > 0 {
        digits.append(UInt8(carry & 0xFF))
        carry >>= 8
      }
    }
    let zeros = text.utf8.prefix { $0 == UInt8(ascii: "1") }.count
    return [UInt8](repeating: 0, count: zeros) + digits.reversed()
  }

  /// `bytes` in base58 (each leading zero byte a `1`).
  package static func encode(_ bytes: [UInt8]) -> String {
    var digits: [UInt8] = []  // base 58, least significant first
    for byte in bytes {
      var carry = Int(byte)
      for index in digits.indices {
        carry += Int(digits[index]) << 8
        digits[index] = UInt8(carry % 58)
        carry /= 58
      }
      while carry > 0 {
        digits.append(UInt8(carry % 58))
        carry /= 58
      }
    }
    let zeros = bytes.prefix { $0 == 0 }.count
    let encoded =
      [UInt8](repeating: alphabet[0], count: zeros)
      + digits.reversed().map {
        alphabet[Int($0)]
      }
    return String(decoding: encoded, as: UTF8.self)
  }
}
