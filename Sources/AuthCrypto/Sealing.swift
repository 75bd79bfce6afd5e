import COpenSSL

/// Authenticated encryption (AES-256-GCM through libcrypto) for small secrets at rest.
///
/// A sealed box is `nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes)`; the associated data is
/// authenticated but not stored, so a box only opens in the context it was sealed for.
public enum Sealing {
  /// The key size in bytes.
  public static let keyByteCount = 32
  static let nonceByteCount = 12
  static let tagByteCount = 16

  /// Why a box could not be made or opened.
  public enum Failure: Error, Equatable, Sendable {
    /// The key is not 32 bytes.
    case badKey
    /// The box is too short, was altered, or belongs to another key or context.
    case notAuthentic
  }

  /// Encrypts `plaintext` under `key`, binding it to `context`.
  public static func seal(
    _ plaintext: [UInt8], key: [UInt8], context: [UInt8] = [], random: some RandomSource
  ) throws(Failure) -> [UInt8] {
    guard key.count == keyByteCount else { throw .badKey }
    let nonce = random.bytes(nonceByteCount)
    var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
    var tag = [UInt8](repeating: 0, count: tagByteCount)
    let sealed = run(encrypt: true, key: key, nonce: nonce, aad: context) { cipher in
      transform(cipher, plaintext, into: &ciphertext, update: EVP_EncryptUpdate)
        && finish(cipher, final: EVP_EncryptFinal_ex)
        && copenssl_gcm_get_tag(cipher, &tag, Int32(tagByteCount)) == 1
    }
    guard sealed else { throw .notAuthentic }
    return nonce + ciphertext + tag
  }

  /// Decrypts a box made by ``seal(_:key:context:random:)`` with the same key and context.
  public static func open(
    _ box: [UInt8], key: [UInt8], context: [UInt8] = []
  ) throws(Failure) -> [UInt8] {
    guard key.count == keyByteCount else { throw .badKey }
    guard box.count >= nonceByteCount + tagByteCount else { throw .notAuthentic }
    let nonce = Array(box.prefix(nonceByteCount))
    var tag = Array(box.suffix(tagByteCount))
    let ciphertext = Array(box.dropFirst(nonceByteCount).dropLast(tagByteCount))
    var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
    let opened = run(encrypt: false, key: key, nonce: nonce, aad: context) { cipher in
      transform(cipher, ciphertext, into: &plaintext, update: EVP_DecryptUpdate)
        && copenssl_gcm_set_tag(cipher, &tag, Int32(tagByteCount)) == 1
        && finish(cipher, final: EVP_DecryptFinal_ex)
    }
    guard opened else { throw .notAuthentic }
    return plaintext
  }

  private typealias Update = (
    OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?,
    UnsafePointer<UInt8>?, Int32
  ) -> Int32
  private typealias Final = (
    OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?
  ) -> Int32

  private static func run(
    encrypt: Bool, key: [UInt8], nonce: [UInt8], aad: [UInt8], _ body: (OpaquePointer) -> Bool
  ) -> Bool {
    guard let cipher = EVP_CIPHER_CTX_new() else { return false }
    defer { EVP_CIPHER_CTX_free(cipher) }
    let ready =
      EVP_CipherInit_ex(cipher, EVP_aes_256_gcm(), nil, key, nonce, encrypt ? 1 : 0) == 1
    guard ready else { return false }
    if !aad.isEmpty {
      var length: Int32 = 0
      guard EVP_CipherUpdate(cipher, nil, &length, aad, Int32(aad.count)) == 1 else {
        return false
      }
    }
    return body(cipher)
  }

  private static func transform(
    _ cipher: OpaquePointer, _ input: [UInt8], into output: inout [UInt8], update: Update
  ) -> Bool {
    guard !input.isEmpty else { return true }
    var length: Int32 = 0
    let status = output.withUnsafeMutableBufferPointer { out in
      update(cipher, out.baseAddress, &length, input, Int32(input.count))
    }
    return status == 1 && Int(length) == input.count
  }

  private static func finish(_ cipher: OpaquePointer, final: Final) -> Bool {
    // GCM writes no bytes at the end, but the call still wants somewhere to write them.
    var scratch = [UInt8](repeating: 0, count: 16)
    var length: Int32 = 0
    return final(cipher, &scratch, &length) == 1
  }
}
