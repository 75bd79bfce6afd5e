import COpenSSL

/// The hash functions RSA and ECDSA signatures are made over.
public enum HashFunction: Sendable {
  /// SHA-256 (RS256, ES256).
  case sha256
  /// SHA-384 (RS384, ES384).
  case sha384
  /// SHA-512 (RS512, ES512).
  case sha512

  fileprivate var digest: OpaquePointer? {
    switch self {
    case .sha256: EVP_sha256()
    case .sha384: EVP_sha384()
    case .sha512: EVP_sha512()
    }
  }
}

extension AsymmetricKey {
  /// The length of the key's signatures as JOSE writes them: an RSA modulus' bytes, twice a
  /// coordinate for ECDSA (`r‖s`), 64 for Ed25519.
  public var signatureByteCount: Int {
    switch kind {
    case .rsa: Int(EVP_PKEY_get_size(key))
    case .ellipticCurve(let curve): 2 * curve.coordinateByteCount
    case .ed25519: 64
    }
  }

  /// `message` signed with the private half, as JOSE writes signatures: RSA PKCS #1 v1.5
  /// over `hash`; ECDSA over `hash` as the raw `r‖s`, each half a coordinate's size
  /// (libcrypto gives DER, read with `d2i_ECDSA_SIG`); Ed25519 over the message itself
  /// (`hash` `nil`). `nil` for a public key, or when libcrypto fails.
  public func sign(_ message: [UInt8], hash: HashFunction?) -> [UInt8]? {
    guard isPrivate, let context = EVP_MD_CTX_new() else { return nil }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, hash?.digest, nil, key) == 1 else { return nil }
    var length = 0
    guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { return nil }
    var signature = [UInt8](repeating: 0, count: length)
    guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
      return nil
    }
    signature.removeLast(signature.count - length)
    guard case .ellipticCurve(let curve) = kind else { return signature }
    return Self.raw(fromDER: signature, half: curve.coordinateByteCount)
  }

  /// Whether `signature` (as ``sign(_:hash:)`` writes them) is this key's over `message`. An
  /// ECDSA signature is split into equal halves `r‖s` whatever its length; one of the wrong
  /// length for the curve fails.
  public func verify(_ signature: [UInt8], of message: [UInt8], hash: HashFunction?) -> Bool {
    var encoded = signature
    if case .ellipticCurve = kind {
      guard signature.count % 2 == 0, !signature.isEmpty, let der = Self.der(fromRaw: signature)
      else { return false }
      encoded = der
    }
    guard let context = EVP_MD_CTX_new() else { return false }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestVerifyInit(context, nil, hash?.digest, nil, key) == 1 else { return false }
    return EVP_DigestVerify(context, encoded, encoded.count, message, message.count) == 1
  }

  /// JOSE's `r‖s` of a DER-encoded ECDSA signature, each half `half` bytes.
  private static func raw(fromDER der: [UInt8], half: Int) -> [UInt8]? {
    der.withUnsafeBufferPointer { buffer -> [UInt8]? in
      var cursor = buffer.baseAddress
      guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
      defer { ECDSA_SIG_free(signature) }
      var r: OpaquePointer?
      var s: OpaquePointer?
      ECDSA_SIG_get0(signature, &r, &s)
      var raw = [UInt8](repeating: 0, count: 2 * half)
      let written = raw.withUnsafeMutableBufferPointer { out in
        guard let start = out.baseAddress else { return false }
        return BN_bn2binpad(r, start, Int32(half)) == half
          && BN_bn2binpad(s, start + half, Int32(half)) == half
      }
      return written ? raw : nil
    }
  }

  /// The DER encoding (`i2d_ECDSA_SIG`) of JOSE's `r‖s`.
  private static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
    let half = raw.count / 2
    guard let signature = ECDSA_SIG_new() else { return nil }
    defer { ECDSA_SIG_free(signature) }
    let r = BN_bin2bn(raw, Int32(half), nil)
    let s = raw.withUnsafeBufferPointer {
      BN_bin2bn($0.baseAddress.map { $0 + half }, Int32(half), nil)
    }
    guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
      BN_free(r)
      BN_free(s)
      return nil
    }
    let length = i2d_ECDSA_SIG(signature, nil)
    guard length > 0 else { return nil }
    var der = [UInt8](repeating: 0, count: Int(length))
    let written = der.withUnsafeMutableBufferPointer { out -> Int32 in
      var cursor = out.baseAddress
      return i2d_ECDSA_SIG(signature, &cursor)
    }
    return written == length ? der : nil
  }
}
