import AuthCrypto
import Testing

/// Imported password hashes (``ImportedPassword``) against known answers. The expected hashes
/// were made with Python's `hashlib` and `hmac` (for password `Secret123`, salt `pepper`, HMAC
/// key `signer`):
///
///     def repeated(name, data, rounds):
///         d = hashlib.new(name, data).digest()
///         for _ in range(1, max(rounds, 1)): d = hashlib.new(name, d).digest()
///     hmac.new(b'signer', S + P, 'sha256'); hashlib.pbkdf2_hmac('sha256', P, S, 1000, 32)
///     hashlib.scrypt(P, salt=S, n=1024, r=8, p=1, dklen=64)
///
/// Firebase's modified scrypt is checked against the vector firebase-admin's own integration
/// test imports (password `password`, salt `NaCl`), confirmed with `hashlib.scrypt` and AES-CTR.
struct ImportedPasswordTests {
  static let salt = Array("pepper".utf8)
  static let key = Array("signer".utf8)

  static let vectors: [(ImportedPassword.Scheme, String)] = [
    (.digest(.md5, rounds: 1, order: .saltAndPassword), "a3ce9fb3d49b88ddb059364a39db72da"),
    (
      .digest(.sha1, rounds: 3, order: .passwordAndSalt),
      "786a12f659671790c707a5809807119836a77e42"
    ),
    (
      .digest(.sha256, rounds: 5, order: .saltAndPassword),
      "44993c7d7c155d7bed312a25d532429a0b41cbe98f9d66ccfef2f6362f45481f"
    ),
    (
      .digest(.sha512, rounds: 2, order: .saltAndPassword),
      "863f27bba8bfb6bbb43c62032105731b68d15440029021b7e2557881b8417966"
        + "f6c563e03ba138e390e4301ddfec22e3764acf9edc612223da55b2d7fc94d323"
    ),
    (.hmac(.md5, key: key, order: .saltAndPassword), "42305146215897fc2a56514906acca7f"),
    (.hmac(.sha1, key: key, order: .passwordAndSalt), "ea1409d44aaec302d3a9ae9a090ad5ac65378195"),
    (
      .hmac(.sha256, key: key, order: .saltAndPassword),
      "20ffb2a404381bac9fe0341d4c3a73ae34147c6805e76c60119d8b247acec38c"
    ),
    (
      .hmac(.sha512, key: key, order: .saltAndPassword),
      "6d6996305971e832dae5a7b0eee454df716a6f59716cc837dcaffb275fa86a2f"
        + "ae078dc5a777c8eb1f77777498bed4b2fd26cf80a630e0cf965dfc71d0db303b"
    ),
    (.pbkdf2(.sha1, iterations: 1_000), "faa2cb8574d56166efff77dcad8c51aaa29d246a"),
    (
      .pbkdf2(.sha256, iterations: 1_000),
      "93824ed5f6d02cecb1f4449f88b14f7499a26f17fbc33f8e6c91e05a098b74a8"
    ),
    (
      .scrypt(n: 1_024, r: 8, p: 1),
      "de4a730466d82d7b3a6621a2d06dbe6988b913faeea9792690d567863691459b"
        + "02d75abde304353354709dd5d5fd8036d9e64cc90c42dab005d503a8881ba3c0"
    ),
  ]

  @Test func eachSchemeMatchesItsKnownAnswerAndNothingElse() throws {
    for (scheme, expected) in Self.vectors {
      let hash = try #require(Self.bytes(hex: expected))
      let imported = ImportedPassword(scheme: scheme, salt: Self.salt, hash: hash)
      #expect(imported.matches("Secret123"), "\(imported.algorithmName)")
      #expect(!imported.matches("Secret124"), "\(imported.algorithmName)")
      #expect(!imported.matches(""), "\(imported.algorithmName)")
      var salted = imported
      salted.salt = Array("salt".utf8)
      #expect(!salted.matches("Secret123"), "\(imported.algorithmName) ignores its salt")
    }
  }

  @Test func firebaseScryptMatchesFirebaseAdminsOwnVector() throws {
    let imported = try #require(Self.firebaseVector)
    #expect(imported.matches("password"))
    #expect(!imported.matches("Password"))
    #expect(imported.algorithmName == "SCRYPT")
  }

  @Test func theStoredTextReadsBackAndIsNeverBcrypts() throws {
    let firebase = try #require(Self.firebaseVector)
    let all =
      try Self.vectors.map { scheme, hex in
        ImportedPassword(scheme: scheme, salt: Self.salt, hash: try #require(Self.bytes(hex: hex)))
      } + [firebase]
    for imported in all {
      let text = imported.text
      #expect(ImportedPassword.isImported(text) && !text.hasPrefix("$2"), "\(text)")
      #expect(ImportedPassword(text: text) == imported, "\(text)")
    }
    // GoTrue's own form for Firebase's scrypt, parameters and all.
    #expect(
      firebase.text
        == "$fbscrypt$v=1,n=14,r=8,p=1,ss=Bw==,sk=jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn2"
        + "10wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==$TmFDbA==$V358E8LdWJXAO7muq0CufVpEOXaj8aFiC7T"
        + "/rcaGieN04q/ZPJ08WhJEHGjj9lz/2TT+/86N5VjVoc5DdBhBiw==")
    #expect(
      ImportedPassword(
        scheme: .hmac(.sha256, key: [1, 2], order: .saltAndPassword), salt: [], hash: [255]
      ).text == "$fbimport$v=1,alg=HMAC_SHA256,order=SALT_AND_PASSWORD,key=AQI$$_w")
    for text in [
      "", "$2b$10$abc", "$fbimport$v=2,alg=MD5,rounds=1,order=SALT_AND_PASSWORD$$AA",
      "$fbimport$v=1,alg=MD4,rounds=1,order=SALT_AND_PASSWORD$$AA",
      "$fbimport$v=1,alg=MD5,rounds=1$$AA", "$fbimport$v=1,alg=MD5,rounds=1,order=X$$AA",
      "$fbimport$v=1,alg=SHA1,rounds=1,order=SALT_AND_PASSWORD$$!!",
      "$fbscrypt$v=1,n=14,r=8,p=2,ss=Bw==,sk=AA==$AA==$AA==",
    ] {
      #expect(ImportedPassword(text: text) == nil, "\(text)")
    }
  }

  @Test func parametersOpenSSLRefusesMatchNothing() {
    let pbkdf = ImportedPassword(scheme: .pbkdf2(.sha256, iterations: 0), salt: [], hash: [1])
    #expect(!pbkdf.matches("x"))
    let scrypt = ImportedPassword(scheme: .scrypt(n: 3, r: 8, p: 1), salt: [], hash: [1])
    #expect(!scrypt.matches("x"))
    let empty = ImportedPassword(
      scheme: .hmac(.sha1, key: [1], order: .saltAndPassword), salt: [], hash: [])
    #expect(!empty.matches(""))
  }

  @Test func base64IsReadInEitherAlphabetPaddedOrNot() {
    #expect(ImportedPassword.decodeBase64("_w==") == [255])
    #expect(ImportedPassword.decodeBase64("/w") == [255])
    #expect(ImportedPassword.decodeBase64("") == [])
    #expect(ImportedPassword.decodeBase64("$2b") == nil)
  }

  static var firebaseVector: ImportedPassword? {
    guard
      let key = ImportedPassword.decodeBase64(
        "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="),
      let hash = ImportedPassword.decodeBase64(
        "V358E8LdWJXAO7muq0CufVpEOXaj8aFiC7T/rcaGieN04q/ZPJ08WhJEHGjj9lz/2TT+/86N5VjVoc5DdBhBiw==")
    else { return nil }
    return ImportedPassword(
      scheme: .firebaseScrypt(signerKey: key, saltSeparator: [7], rounds: 8, memoryCost: 14),
      salt: Array("NaCl".utf8), hash: hash)
  }

  static func bytes(hex: String) -> [UInt8]? {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { return nil }
    return stride(from: 0, to: digits.count, by: 2).compactMap { index in
      UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)
    }
  }
}
