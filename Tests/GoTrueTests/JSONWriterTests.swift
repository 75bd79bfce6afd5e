import GoTrue
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The direct writer writes exactly the bytes of Foundation's server encoder.
struct JSONWriterTests {
  @Test func anyJSONValueIsWrittenAsTheServerEncoderWritesIt() {
    var samples = JSONSamples(seed: 26)
    for _ in 0..<20_000 {
      let value = samples.value()
      #expect(value.serverJSON == JSONSamples.foundation(value), "\(value)")
    }
  }

  @Test func keysAreOrderedByTheirUTF8BytesAsSortedKeysOrdersThem() {
    let value = JSONValue.object([
      "e\u{301}": .number(0), "f": .number(1), "\u{212B}": .number(2), "\u{C6}": .number(3),
      "B": .number(4), "a": .number(5), "a10": .number(6), "a2": .number(7), "_": .number(8),
      "\u{10000}": .number(9), "\u{FFFF}": .number(10),
    ])
    let expected = Array(
      #"{"B":4,"_":8,"a":5,"a10":6,"a2":7,"e\#u{301}":0,"f":1,"\#u{C6}":3,"\#u{212B}":2,"\#u{FFFF}":10,"\#u{10000}":9}"#
        .utf8)
    #expect(value.jsonBytes == expected)
    #expect(JSONSamples.foundation(value) == expected)
  }

  @Test func everyTrickyNumberAndPieceIsWrittenAsTheServerEncoderWritesIt() {
    for number in JSONSamples.numbers + JSONSamples.numbers.map({ -$0 }) {
      #expect(JSONValue.number(number).serverJSON == JSONSamples.foundation(number), "\(number)")
    }
    for piece in JSONSamples.pieces + (0..<0x20).map({ String(UnicodeScalar($0)) }) {
      #expect(JSONValue.string(piece).serverJSON == JSONSamples.foundation(piece), "\(piece)")
    }
  }

  @Test func aValueJSONCannotCarryFailsAsTheEncoderDoes() {
    for number in [Double.nan, .infinity, -.infinity] {
      let value = JSONValue.object(["a": .array([.number(number)])])
      #expect(JSONSamples.foundation(value) == nil)
      #expect(value.serverJSON == nil)
      #expect(value.jsonBytes == Array("null".utf8))
    }
  }

  @Test func timestampsAreWrittenAsTheISO8601FormatStyleWritesThem() {
    var samples = JSONSamples(seed: 8601)
    var checked = 0
    while checked < 20_000 {
      guard let date = samples.date() else { continue }
      checked += 1
      #expect(GoTrueCoding.timestamp(date) == formatted(date), "\(date.timeIntervalSince1970)")
    }
  }

  /// The timestamp as Foundation's format style writes it, to the trimmed microsecond.
  private func formatted(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    let whole = Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    let micros = Int(((date.timeIntervalSince1970 - seconds) * 1_000_000).rounded())
    guard micros > 0, micros < 1_000_000 else { return whole }
    var fraction = String(micros)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return String(whole.dropLast()) + "." + fraction + "Z"
  }

  @Test func usersAndSessionsAreWrittenAsTheirEncodableConformanceWritesThem() {
    var samples = JSONSamples(seed: 9)
    for index in 0..<3_000 {
      let user = samples.user(index)
      #expect(user.serverJSON == JSONSamples.foundation(user), "\(user)")
      let session = GoTrueSession(
        accessToken: samples.string(), tokenType: samples.string(),
        expiresIn: Int.random(in: 0...100_000, using: &samples),
        expiresAt: index % 3 == 0 ? nil : Int.random(in: 0...Int(Int32.max), using: &samples),
        refreshToken: samples.string(), user: user)
      #expect(session.serverJSON == JSONSamples.foundation(session))
    }
  }
}

extension JSONSamples {
  /// A user with every optional part present or absent at random.
  mutating func user(_ index: Int) -> GoTrueUser {
    func maybe(_ text: String) -> String? { Bool.random(using: &self) ? text : nil }
    let identities: [GoTrueIdentity]? =
      switch index % 3 {
      case 0: nil
      case 1: []
      default:
        [
          GoTrueIdentity(
            identityId: maybe(string()), id: maybe(string()), userId: maybe(string()),
            identityData: Bool.random(using: &self) ? object() : nil, provider: string(),
            lastSignInAt: date(), createdAt: date(), updatedAt: date(), email: maybe(string()))
        ]
      }
    let factors: [GoTrueFactor]? =
      index % 4 == 0
      ? [
        GoTrueFactor(
          id: string(), friendlyName: maybe(string()), factorType: "totp", status: "verified",
          createdAt: date(), updatedAt: date())
      ] : index % 4 == 1 ? [] : nil
    return GoTrueUser(
      id: string(), aud: maybe(string()), role: maybe(string()), email: maybe(string()),
      emailConfirmedAt: date(), invitedAt: date(), phone: maybe(string()),
      confirmationSentAt: date(), confirmedAt: date(), recoverySentAt: date(),
      newEmail: maybe(index % 5 == 0 ? "" : string()), emailChangeSentAt: date(),
      reauthenticationSentAt: date(), lastSignInAt: date(), appMetadata: object(),
      userMetadata: object(), identities: identities, createdAt: date(), updatedAt: date(),
      bannedUntil: date(), deletedAt: date(), isAnonymous: Bool.random(using: &self),
      factors: factors)
  }
}
