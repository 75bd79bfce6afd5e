import COpenSSL

/// The libcrypto primitives other systems hash passwords with, for checking hashes imported
/// from them (Firebase's `accounts:batchCreate` takes them all): plain digests, HMACs,
/// PBKDF2, scrypt and AES-256-CTR. Each is OpenSSL's; none is written here.
public enum PasswordPrimitives {
  /// A digest OpenSSL computes.
  public enum Digest: String, CaseIterable, Sendable {
    /// MD5 (16 bytes).
    case md5 = "MD5"
    /// SHA-1 (20 bytes).
    case sha1 = "SHA1"
    /// SHA-256 (32 bytes).
    case sha256 = "SHA256"
    /// SHA-512 (64 bytes).
    case sha512 = "SHA512"

    /// libcrypto's description of the digest.
    var evp: OpaquePointer? {
      switch self {
      case .md5: EVP_md5()
      case .sha1: EVP_sha1()
      case .sha256: EVP_sha256()
      case .sha512: EVP_sha512()
      }
    }

    /// The digest's size in bytes.
    public var byteCount: Int { Int(EVP_MD_get_size(evp)) }
  }

  /// The `digest` of `bytes`; `nil` if libcrypto refused.
  public static func hash(_ digest: Digest, _ bytes: [UInt8]) -> [UInt8]? {
    var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let ok = bytes.withUnsafeBytes { input in
      output.withUnsafeMutableBufferPointer { out in
        EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, digest.evp, nil)
      }
    }
    return ok == 1 ? Array(output.prefix(Int(length))) : nil
  }

  /// The HMAC of `message` under `key` with `digest`; `nil` if libcrypto refused.
  public static func hmac(_ digest: Digest, key: [UInt8], message: [UInt8]) -> [UInt8]? {
    var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length = 0
    let result = digest.rawValue.withCString { name in
      key.withUnsafeBytes { key in
        message.withUnsafeBytes { message in
          output.withUnsafeMutableBufferPointer { out in
            EVP_Q_mac(
              nil, "HMAC", nil, name, nil, key.baseAddress, key.count,
              message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count,
              out.baseAddress, out.count, &length)
          }
        }
      }
    }
    return result == nil ? nil : Array(output.prefix(length))
  }

  /// PBKDF2 with HMAC-`digest` (RFC 8018): `byteCount` bytes of `password` and `salt` after
  /// `iterations` rounds; `nil` if libcrypto refused (no iterations, no length).
  public static func pbkdf2(
    _ digest: Digest, password: [UInt8], salt: [UInt8], iterations: Int, byteCount: Int
  ) -> [UInt8]? {
    guard iterations > 0, iterations <= Int(Int32.max), byteCount > 0, byteCount <= 1_024 else {
      return nil
    }
    var output = [UInt8](repeating: 0, count: byteCount)
    let ok = password.withUnsafeBytes { password in
      salt.withUnsafeBytes { salt in
        output.withUnsafeMutableBufferPointer { out in
          PKCS5_PBKDF2_HMAC(
            password.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(password.count),
            salt.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(salt.count),
            Int32(iterations), digest.evp, Int32(byteCount), out.baseAddress)
        }
      }
    }
    return ok == 1 ? output : nil
  }

  /// The most memory scrypt may take: 256 MiB.
  public static let scryptMemoryLimit: UInt64 = 256 << 20

  /// scrypt (RFC 7914): `byteCount` bytes of `password` and `salt` with cost `n` (a power of
  /// two), block size `r` and parallelization `p`; `nil` if libcrypto refused (parameters out
  /// of range, or over ``scryptMemoryLimit``).
  public static func scrypt(
    password: [UInt8], salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, byteCount: Int
  ) -> [UInt8]? {
    guard byteCount > 0, byteCount <= 1_024 else { return nil }
    var output = [UInt8](repeating: 0, count: byteCount)
    let ok = password.withUnsafeBytes { password in
      salt.withUnsafeBytes { salt in
        output.withUnsafeMutableBufferPointer { out in
          EVP_PBE_scrypt(
            password.baseAddress?.assumingMemoryBound(to: CChar.self), password.count,
            salt.baseAddress?.assumingMemoryBound(to: UInt8.self), salt.count, n, r, p,
            scryptMemoryLimit, out.baseAddress, out.count)
        }
      }
    }
    return ok == 1 ? output : nil
  }

  /// `bytes` encrypted with AES-256 in counter mode under `key` (32 bytes), the counter
  /// starting at `iv` (16 bytes); `nil` if libcrypto refused.
  public static func aes256CTR(_ bytes: [UInt8], key: [UInt8], iv: [UInt8]) -> [UInt8]? {
    guard key.count == 32, iv.count == 16, let context = EVP_CIPHER_CTX_new() else { return nil }
    defer { EVP_CIPHER_CTX_free(context) }
    guard EVP_EncryptInit_ex(context, EVP_aes_256_ctr(), nil, key, iv) == 1 else { return nil }
    var output = [UInt8](repeating: 0, count: bytes.count + 16)
    var length: Int32 = 0
    var tail: Int32 = 0
    let ok = output.withUnsafeMutableBufferPointer { out in
      EVP_EncryptUpdate(context, out.baseAddress, &length, bytes, Int32(bytes.count)) == 1
        && EVP_EncryptFinal_ex(context, out.baseAddress.map { $0 + Int(length) }, &tail) == 1
    }
    return ok ? Array(output.prefix(Int(length + tail))) : nil
  }
}
