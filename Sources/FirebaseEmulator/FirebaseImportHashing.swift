import AuthCrypto
import IdentityToolkit

/// How an import's password hashes were made (`accounts:batchCreate`'s `hashAlgorithm` and
/// its parameters, as the Admin SDKs' `UserImportHash` sends them), read once for the request;
/// each user's `passwordHash` and `salt` then become the text the store keeps
/// (``stored(hash:salt:)``): bcrypt's own text, or an ``ImportedPassword`` checked at sign-in.
package enum FirebaseImportHashing: Equatable, Sendable {
  /// No algorithm was named.
  case unnamed
  /// `BCRYPT`: each hash is bcrypt's text.
  case bcrypt
  /// Any other: the scheme, and the derived key length standard scrypt names.
  case imported(ImportedPassword.Scheme, keyLength: Int?)

  /// The hashing `request` names: `INVALID_HASH_ALGORITHM` for a name this server does not
  /// check, `INVALID_HASH_…` for a parameter out of the range the Admin SDKs allow (or that
  /// OpenSSL cannot compute).
  package init(_ request: IdentityToolkitRequest.BatchCreate) throws(IdentityToolkitError) {
    guard let name = request.hashAlgorithm, !name.isEmpty else {
      self = .unnamed
      return
    }
    let rounds = request.rounds ?? 0
    let order = try Self.order(request.passwordHashOrder)
    if name == "BCRYPT" {
      self = .bcrypt
    } else if let digest = PasswordPrimitives.Digest(rawValue: name) {
      try Self.check(rounds, in: 0...8_192, "INVALID_HASH_ROUNDS")
      self = .imported(.digest(digest, rounds: Int(rounds), order: order), keyLength: nil)
    } else if name.hasPrefix("HMAC_"),
      let digest = PasswordPrimitives.Digest(rawValue: String(name.dropFirst(5)))
    {
      self = .imported(.hmac(digest, key: try Self.key(request), order: order), keyLength: nil)
    } else if name == "PBKDF_SHA1" || name == "PBKDF2_SHA256" {
      try Self.check(rounds, in: 1...120_000, "INVALID_HASH_ROUNDS")
      let digest: PasswordPrimitives.Digest = name == "PBKDF_SHA1" ? .sha1 : .sha256
      self = .imported(.pbkdf2(digest, iterations: Int(rounds)), keyLength: nil)
    } else if name == "STANDARD_SCRYPT" {
      self = try Self.standardScrypt(request)
    } else if name == "SCRYPT" {
      try Self.check(rounds, in: 1...8, "INVALID_HASH_ROUNDS")
      let cost = request.memoryCost ?? 0
      try Self.check(cost, in: 1...14, "INVALID_HASH_MEMORY_COST")
      guard let separator = ImportedPassword.decodeBase64(request.saltSeparator ?? "") else {
        throw .badRequest("INVALID_HASH_SALT_SEPARATOR", "saltSeparator is not base64")
      }
      let scheme = ImportedPassword.Scheme.firebaseScrypt(
        signerKey: try Self.key(request), saltSeparator: separator, rounds: UInt64(rounds),
        memoryCost: UInt64(cost))
      self = .imported(scheme, keyLength: nil)
    } else {
      throw .badRequest(
        "INVALID_HASH_ALGORITHM",
        "\(name.prefix(40)) is none of BCRYPT, MD5, SHA1, SHA256, SHA512, HMAC_MD5, HMAC_SHA1, "
          + "HMAC_SHA256, HMAC_SHA512, PBKDF_SHA1, PBKDF2_SHA256, STANDARD_SCRYPT, SCRYPT")
    }
  }

  /// Standard scrypt's N (`cpuMemCost`, else `memoryCost`), r (`blockSize`), p
  /// (`parallelization`) and key length (`dkLen`), within what OpenSSL computes in 256 MiB.
  private static func standardScrypt(_ request: IdentityToolkitRequest.BatchCreate)
    throws(IdentityToolkitError) -> Self
  {
    let n = request.cpuMemCost ?? request.memoryCost ?? 0
    let r = request.blockSize ?? 0
    let p = request.parallelization ?? 0
    guard n > 1, n <= 1 << 24, n & (n - 1) == 0 else {
      throw .badRequest("INVALID_HASH_MEMORY_COST", "cpuMemCost must be a power of two above 1")
    }
    try check(r, in: 1...64, "INVALID_HASH_BLOCK_SIZE")
    try check(p, in: 1...64, "INVALID_HASH_PARALLELIZATION")
    guard UInt64(128 * r) * UInt64(n + p) <= PasswordPrimitives.scryptMemoryLimit else {
      throw .badRequest("INVALID_HASH_MEMORY_COST", "scrypt would need more than 256 MiB")
    }
    let length = try request.dkLen.map { length throws(IdentityToolkitError) in
      try check(length, in: 1...1_024, "INVALID_HASH_DERIVED_KEY_LENGTH")
      return Int(length)
    }
    return .imported(.scrypt(n: UInt64(n), r: UInt64(r), p: UInt64(p)), keyLength: length)
  }

  private static func order(_ name: String?) throws(IdentityToolkitError) -> ImportedPassword.Order
  {
    switch name ?? "" {
    case "", "UNSPECIFIED_ORDER", "SALT_AND_PASSWORD": return .saltAndPassword
    case "PASSWORD_AND_SALT": return .passwordAndSalt
    default:
      throw .badRequest(
        "INVALID_PASSWORD_HASH_ORDER", "passwordHashOrder is SALT_AND_PASSWORD or PASSWORD_AND_SALT"
      )
    }
  }

  /// The signer key: base64, not empty.
  private static func key(_ request: IdentityToolkitRequest.BatchCreate)
    throws(IdentityToolkitError) -> [UInt8]
  {
    guard let key = request.signerKey.flatMap(ImportedPassword.decodeBase64), !key.isEmpty else {
      throw .badRequest("INVALID_HASH_KEY", "signerKey must be a key in base64")
    }
    return key
  }

  private static func check(_ value: Int64, in range: ClosedRange<Int64>, _ code: String)
    throws(IdentityToolkitError)
  {
    guard range.contains(value) else {
      throw .badRequest(
        IdentityToolkitErrorCode(rawValue: code),
        "must be \(range.lowerBound) to \(range.upperBound), not \(value)")
    }
  }
}

extension FirebaseImportHashing {
  /// The text the store keeps for a user's `passwordHash` and `salt` (base64, in either
  /// alphabet): bcrypt's text for `BCRYPT` (sent in base64, or as it is), else the
  /// ``ImportedPassword`` form; refused when no algorithm was named, or when the hash cannot
  /// be one the algorithm makes.
  package func stored(hash: String, salt: String?) throws(FirebaseImportRefusal) -> String {
    switch self {
    case .unnamed:
      throw FirebaseImportRefusal("passwordHash needs the request's hashAlgorithm")
    case .bcrypt:
      let text =
        hash.hasPrefix("$2")
        ? hash : ImportedPassword.decodeBase64(hash).map { String(decoding: $0, as: UTF8.self) }
      guard let text, Bcrypt.cost(of: text) != nil, text.utf8.count == 60 else {
        throw FirebaseImportRefusal("passwordHash is not a bcrypt hash")
      }
      return text
    case .imported(let scheme, let keyLength):
      guard let bytes = ImportedPassword.decodeBase64(hash), !bytes.isEmpty else {
        throw FirebaseImportRefusal("passwordHash is not base64")
      }
      guard let salt = ImportedPassword.decodeBase64(salt ?? "") else {
        throw FirebaseImportRefusal("salt is not base64")
      }
      let imported = ImportedPassword(scheme: scheme, salt: salt, hash: bytes)
      if let expected = Self.length(of: scheme) ?? keyLength, expected != bytes.count {
        throw FirebaseImportRefusal(
          "passwordHash is \(bytes.count) bytes, not the \(expected) \(imported.algorithmName) "
            + "makes")
      }
      return imported.text
    }
  }

  /// How long the hashes of `scheme` are, where the scheme fixes it.
  private static func length(of scheme: ImportedPassword.Scheme) -> Int? {
    switch scheme {
    case .digest(let digest, _, _), .hmac(let digest, _, _): digest.byteCount
    case .firebaseScrypt(let key, _, _, _): key.count
    case .pbkdf2, .scrypt: nil
    }
  }
}

/// Why one user of an import was not imported: the message its entry in `error` carries.
package struct FirebaseImportRefusal: Error, Equatable, Sendable {
  /// The message.
  package let message: String

  /// A refusal saying `message`.
  package init(_ message: String) { self.message = message }
}
