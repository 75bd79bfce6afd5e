import AuthCrypto
import Testing

/// The crypto wrappers against known answers and their failure modes.
struct CryptoTests {
  @Test func sha256KnownAnswer() {
    #expect(
      SHA256.hash("abc").hexString
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hash("").hexString
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }

  @Test func sha224KnownAnswer() {
    // FIPS 180-2's "abc" example.
    #expect(
      SHA224.hash("abc").hexString
        == "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
  }

  @Test func hmacSHA256KnownAnswer() {
    // RFC 4231, test case 2.
    let mac = HMAC.sha256(
      key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
    #expect(mac.hexString == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
  }

  @Test func constantTimeComparison() {
    #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
    #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
    #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
    #expect(constantTimeEquals([], []))
  }

  @Test func bcryptHashesAndVerifies() throws {
    let hash = try Bcrypt.hash("TestPassword123!", cost: 4, random: SeededRandom(seed: 1))
    #expect(hash.hasPrefix("$2b$04$"))
    #expect(hash.count == 60)
    #expect(Bcrypt.cost(of: hash) == 4)
    #expect(Bcrypt.verify("TestPassword123!", against: hash))
    #expect(!Bcrypt.verify("TestPassword123", against: hash))
    #expect(!Bcrypt.verify("", against: hash))
  }

  @Test func bcryptIsReproducibleWithASeedAndSaltedOtherwise() throws {
    let a = try Bcrypt.hash("same", cost: 4, random: SeededRandom(seed: 7))
    let b = try Bcrypt.hash("same", cost: 4, random: SeededRandom(seed: 7))
    let c = try Bcrypt.hash("same", cost: 4, random: SystemRandom())
    #expect(a == b)
    #expect(a != c)
  }

  @Test func bcryptVerifiesHashesFromOtherTools() {
    // A published OpenBSD test vector.
    let hash = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
    #expect(Bcrypt.verify("U*U", against: hash))
    #expect(!Bcrypt.verify("U*V", against: hash))
  }

  @Test func bcryptRefusesWhatItCannotHash() {
    #expect(throws: Bcrypt.Failure.costOutOfRange(3)) {
      try Bcrypt.hash("x", cost: 3, random: SystemRandom())
    }
    #expect(throws: Bcrypt.Failure.passwordContainsNUL) {
      try Bcrypt.hash("a\u{0}b", cost: 4, random: SystemRandom())
    }
    #expect(!Bcrypt.verify("a\u{0}b", against: "$2b$04$abcdefghijklmnopqrstuu"))
    #expect(!Bcrypt.verify("x", against: "not a hash"))
    #expect(!Bcrypt.verify("x", against: "$2b$04$short"))
    #expect(Bcrypt.cost(of: "plain") == nil)
  }

  @Test func sealingRoundTripsAndRejectsTampering() throws {
    let key = SeededRandom(seed: 3).bytes(32)
    let secret = Array("refresh-token-value".utf8)
    let box = try Sealing.seal(secret, key: key, context: Array("ctx".utf8), random: SystemRandom())
    #expect(!box.hexString.contains(secret.hexString))
    #expect(try Sealing.open(box, key: key, context: Array("ctx".utf8)) == secret)
    #expect(throws: Sealing.Failure.notAuthentic) {
      try Sealing.open(box, key: key, context: Array("other".utf8))
    }
    var tampered = box
    tampered[14] ^= 1
    #expect(throws: Sealing.Failure.notAuthentic) {
      try Sealing.open(tampered, key: key, context: Array("ctx".utf8))
    }
    #expect(throws: Sealing.Failure.notAuthentic) { try Sealing.open([1, 2, 3], key: key) }
    #expect(throws: Sealing.Failure.badKey) { try Sealing.open(box, key: [1]) }
    #expect(throws: Sealing.Failure.badKey) {
      try Sealing.seal(secret, key: [1], random: SystemRandom())
    }
  }

  @Test func seededRandomIsDeterministicAndSplitsCleanly() {
    let a = SeededRandom(seed: 42)
    let b = SeededRandom(seed: 42)
    #expect(a.bytes(5) + a.bytes(40) == b.bytes(45))
    #expect(SeededRandom(seed: 1).bytes(16) != SeededRandom(seed: 2).bytes(16))
    #expect(SystemRandom().bytes(33).count == 33)
  }

  @Test func derivedValuesHaveTheirShapes() {
    let random = SeededRandom(seed: 9)
    let code = random.digits(6)
    #expect(code.count == 6 && code.allSatisfy(\.isNumber))
    let uuid = random.uuidString()
    #expect(uuid.count == 36)
    #expect(Array(uuid)[14] == "4")
    #expect("89ab".contains(Array(uuid)[19]))
    let token = random.token(byteCount: 32)
    #expect(token.count == 43)
    #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"))
    var counts = [Int](repeating: 0, count: 10)
    for _ in 0..<10_000 { counts[Int(random.uniform(below: 10))] += 1 }
    #expect(counts.allSatisfy { (800...1_200).contains($0) })
  }

  @Test(arguments: [
    ([UInt8](), ""), ([0x66], "Zg"), ([0x66, 0x6F], "Zm8"), ([0x66, 0x6F, 0x6F], "Zm9v"),
    ([0xFB, 0xFF, 0xBF], "-_-_"),
  ])
  func base64url(bytes: [UInt8], text: String) {
    #expect(Base64URL.encode(bytes) == text)
    #expect(Base64URL.decode(text) == bytes)
  }

  @Test func base64urlRejectsOtherAlphabets() {
    #expect(Base64URL.decode("a+b/") == nil)
    #expect(Base64URL.decode("abcde") == nil)
    #expect(Base64URL.decode("ab$d") == nil)
    #expect(Base64URL.decode("Zg==") == [0x66])
  }
}
