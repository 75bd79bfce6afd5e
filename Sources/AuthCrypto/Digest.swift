import COpenSSL

/// SHA-256 through libcrypto.
public enum SHA256 {
  /// The digest size in bytes.
  public static let byteCount = 32

  /// The SHA-256 digest of `bytes`.
  public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: byteCount)
    var length: UInt32 = 0
    let ok = Array(bytes).withUnsafeBytes { input in
      output.withUnsafeMutableBufferPointer { out in
        EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, EVP_sha256(), nil)
      }
    }
    precondition(ok == 1 && length == byteCount, "libcrypto SHA-256 failed")
    return output
  }

  /// The SHA-256 digest of the UTF-8 bytes of `text`.
  public static func hash(_ text: String) -> [UInt8] {
    hash(Array(text.utf8))
  }
}

/// SHA-224 through libcrypto: GoTrue names an emailed code by `hex(sha224(email + code))`.
public enum SHA224 {
  /// The digest size in bytes.
  public static let byteCount = 28

  /// The SHA-224 digest of the UTF-8 bytes of `text`.
  public static func hash(_ text: String) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: byteCount)
    var length: UInt32 = 0
    let input = Array(text.utf8)
    let ok = input.withUnsafeBytes { input in
      output.withUnsafeMutableBufferPointer { out in
        EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, EVP_sha224(), nil)
      }
    }
    precondition(ok == 1 && length == byteCount, "libcrypto SHA-224 failed")
    return output
  }
}

/// HMAC through libcrypto.
public enum HMAC {
  /// HMAC-SHA256 of `message` under `key`, as JWT HS256 signs.
  public static func sha256(key: [UInt8], message: some Collection<UInt8>) -> [UInt8] {
    mac("SHA256", byteCount: SHA256.byteCount, key: key, message: message)
  }

  /// The size of an HMAC-SHA1 in bytes.
  public static let sha1ByteCount = 20

  /// HMAC-SHA1 of `message` under `key`, as HOTP and TOTP (RFC 4226, RFC 6238) compute codes.
  public static func sha1(key: [UInt8], message: some Collection<UInt8>) -> [UInt8] {
    mac("SHA1", byteCount: sha1ByteCount, key: key, message: message)
  }

  /// The HMAC of `message` under `key` with libcrypto's `digest`, `byteCount` bytes long.
  private static func mac(
    _ digest: StaticString, byteCount: Int, key: [UInt8], message: some Collection<UInt8>
  ) -> [UInt8] {
    // A static string's bytes are NUL-terminated and live for the program: no copy per call.
    let name = UnsafeRawPointer(digest.utf8Start).assumingMemoryBound(to: CChar.self)
    var output = [UInt8](repeating: 0, count: byteCount)
    var length = 0
    let result = key.withUnsafeBytes { key in
      Array(message).withUnsafeBytes { message in
        output.withUnsafeMutableBufferPointer { out in
          EVP_Q_mac(
            nil, "HMAC", nil, name, nil, key.baseAddress, key.count,
            message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count,
            out.baseAddress, out.count, &length)
        }
      }
    }
    precondition(result != nil && length == byteCount, "libcrypto HMAC-\(digest) failed")
    return output
  }
}

/// Whether two byte strings are equal, taking the same time wherever they differ.
public func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
  guard lhs.count == rhs.count else { return false }
  return lhs.withUnsafeBytes { a in
    rhs.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
  }
}
