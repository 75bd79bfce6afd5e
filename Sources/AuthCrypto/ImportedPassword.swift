/// A password hash made by another system (what Firebase's user import takes), kept in a
/// self-describing text form in the store's password column until the user's first sign-in
/// replaces it with bcrypt: `$fbimport$v=1,alg=…,…$salt$hash` (base64url), or GoTrue's own
/// `$fbscrypt$v=1,n=…,r=…,p=1,ss=…,sk=…$salt$hash` (base64) for Firebase's modified scrypt.
/// Neither starts with `$2`, so neither is taken for bcrypt.
///
/// How each scheme reads a password (`P`, its UTF-8 bytes; `S`, the salt):
/// - ``Scheme/digest(_:rounds:order:)``: `H(S‖P)` (or `H(P‖S)`), then the digest hashed again
///   `rounds - 1` more times (0 and 1 both hash once).
/// - ``Scheme/hmac(_:key:order:)``: `HMAC(key, S‖P)` (or `P‖S`).
/// - ``Scheme/pbkdf2(_:iterations:)``: PBKDF2-HMAC(P, S, iterations), as long as the hash.
/// - ``Scheme/scrypt(n:r:p:)``: scrypt(P, S, N, r, p), as long as the hash.
/// - ``Scheme/firebaseScrypt(signerKey:saltSeparator:rounds:memoryCost:)``: the key
///   scrypt(P, S‖separator, N = 2^memoryCost, r = rounds, p = 1, 32 bytes) encrypts the signer
///   key with AES-256-CTR from a zero counter; the hash is that ciphertext.
public struct ImportedPassword: Equatable, Sendable {
  /// Which bytes are hashed first.
  public enum Order: String, Sendable {
    /// The salt, then the password (Firebase's default).
    case saltAndPassword = "SALT_AND_PASSWORD"
    /// The password, then the salt.
    case passwordAndSalt = "PASSWORD_AND_SALT"
  }

  /// How the hash was made, with its parameters.
  public enum Scheme: Equatable, Sendable {
    /// A plain digest of the salted password, `rounds` times over.
    case digest(PasswordPrimitives.Digest, rounds: Int, order: Order)
    /// An HMAC of the salted password under `key`.
    case hmac(PasswordPrimitives.Digest, key: [UInt8], order: Order)
    /// PBKDF2 with HMAC of the digest.
    case pbkdf2(PasswordPrimitives.Digest, iterations: Int)
    /// Standard scrypt: cost `n` (a power of two), block size `r`, parallelization `p`.
    case scrypt(n: UInt64, r: UInt64, p: UInt64)
    /// Firebase's modified scrypt.
    case firebaseScrypt(
      signerKey: [UInt8], saltSeparator: [UInt8], rounds: UInt64, memoryCost: UInt64)
  }

  /// How it was made.
  public var scheme: Scheme
  /// The salt.
  public var salt: [UInt8]
  /// The hash.
  public var hash: [UInt8]

  /// A hash made by `scheme` with `salt`.
  public init(scheme: Scheme, salt: [UInt8], hash: [UInt8]) {
    self.scheme = scheme
    self.salt = salt
    self.hash = hash
  }

  /// Whether `password` is the one hashed, compared in constant time.
  public func matches(_ password: String) -> Bool {
    guard !hash.isEmpty, let derived = derive(Array(password.utf8)) else { return false }
    return constantTimeEquals(derived, hash)
  }

  /// What the scheme makes of `password`; `nil` if libcrypto refused its parameters.
  public func derive(_ password: [UInt8]) -> [UInt8]? {
    switch scheme {
    case .digest(let digest, let rounds, let order):
      guard var output = PasswordPrimitives.hash(digest, salted(password, order)) else {
        return nil
      }
      for _ in 1..<max(rounds, 1) {
        guard let next = PasswordPrimitives.hash(digest, output) else { return nil }
        output = next
      }
      return output
    case .hmac(let digest, let key, let order):
      return PasswordPrimitives.hmac(digest, key: key, message: salted(password, order))
    case .pbkdf2(let digest, let iterations):
      return PasswordPrimitives.pbkdf2(
        digest, password: password, salt: salt, iterations: iterations, byteCount: hash.count)
    case .scrypt(let n, let r, let p):
      return PasswordPrimitives.scrypt(
        password: password, salt: salt, n: n, r: r, p: p, byteCount: hash.count)
    case .firebaseScrypt(let signerKey, let separator, let rounds, let memoryCost):
      guard memoryCost > 0, memoryCost < 32,
        let key = PasswordPrimitives.scrypt(
          password: password, salt: salt + separator, n: 1 << memoryCost, r: rounds, p: 1,
          byteCount: 32)
      else { return nil }
      return PasswordPrimitives.aes256CTR(
        signerKey, key: key, iv: [UInt8](repeating: 0, count: 16))
    }
  }

  private func salted(_ password: [UInt8], _ order: Order) -> [UInt8] {
    order == .saltAndPassword ? salt + password : password + salt
  }
}
