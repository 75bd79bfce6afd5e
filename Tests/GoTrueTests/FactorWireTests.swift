import Foundation
import GoTrue
import Testing

/// MFA factors on the wire (`models/factor.go`, `api/mfa.go`): read leniently, written with
/// GoTrue's keys and omissions.
struct FactorWireTests {
  /// A user as a GoTrue server sends one with a verified TOTP factor and a WebAuthn factor.
  static let userJSON = """
    {"id":"u1","aud":"authenticated","role":"authenticated","email":"a@b.co","phone":"",
     "app_metadata":{},"user_metadata":{},
     "factors":[
       {"id":"f1","created_at":"2025-01-01T00:00:00.123456Z","updated_at":"2025-01-01T00:01:00Z",
        "status":"verified","friendly_name":"Phone","factor_type":"totp","phone":"",
        "last_challenged_at":"2025-01-01T00:00:30Z"},
       {"id":"f2","created_at":"2025-01-01T00:00:00Z","updated_at":"2025-01-01T00:00:00Z",
        "status":"unverified","factor_type":"webauthn","phone":null,"last_challenged_at":null,
        "web_authn_aaguid":"00000000-0000-0000-0000-000000000000"}],
     "identities":[],"created_at":"2025-01-01T00:00:00Z","updated_at":"2025-01-01T00:00:00Z",
     "is_anonymous":false}
    """

  @Test func aUsersFactorsDecodeWhateverTheServerAdds() throws {
    let user = try GoTrueCoding.decoder().decode(GoTrueUser.self, from: Data(Self.userJSON.utf8))
    let factors = try #require(user.factors)
    #expect(factors.map(\.id) == ["f1", "f2"])
    #expect(factors[0].isVerified && !factors[1].isVerified)
    #expect(factors[0].friendlyName == "Phone")
    #expect(factors[1].friendlyName == nil)
    #expect(factors[1].phone == nil)
    #expect(factors[0].lastChallengedAt == Date(timeIntervalSince1970: 1_735_689_630))
    let bare = try GoTrueCoding.decoder().decode(
      GoTrueFactor.self, from: Data(#"{"id":"f3"}"#.utf8))
    #expect(bare.status == "" && bare.factorType == "" && bare.createdAt == nil)
    let none = try GoTrueCoding.decoder().decode(
      GoTrueUser.self, from: Data(#"{"id":"u2","factors":null}"#.utf8))
    #expect(none.factors == nil)
  }

  @Test func factorsAreWrittenAsGoTrueWritesThem() throws {
    let encoder = GoTrueCoding.serverEncoder()
    let factor = GoTrueFactor(
      id: "f1", friendlyName: "", status: "unverified",
      createdAt: Date(timeIntervalSince1970: 1_735_689_600),
      updatedAt: Date(timeIntervalSince1970: 1_735_689_600))
    #expect(
      String(decoding: try encoder.encode(factor), as: UTF8.self)
        == #"{"created_at":"2025-01-01T00:00:00Z","factor_type":"totp","id":"f1","#
        + #""last_challenged_at":null,"phone":"","status":"unverified","#
        + #""updated_at":"2025-01-01T00:00:00Z"}"#)
    var named = factor
    named.friendlyName = "Phone"
    #expect(
      String(decoding: try encoder.encode(named), as: UTF8.self).contains(
        #""friendly_name":"Phone""#))

    var user = GoTrueUser(id: "u1", email: "a@b.co", identities: [], factors: [])
    #expect(!String(decoding: try encoder.encode(user), as: UTF8.self).contains("factors"))
    user.factors = [named]
    let written = String(decoding: try encoder.encode(user), as: UTF8.self)
    #expect(written.contains(#""factors":[{"created_at""#))
    let read = try GoTrueCoding.decoder().decode(GoTrueUser.self, from: Data(written.utf8))
    #expect(read.factors == [named])
  }

  @Test func enrolmentAndChallengeAnswersUseGoTruesKeys() throws {
    let encoder = GoTrueCoding.serverEncoder()
    let enrolment = GoTrueFactorEnrollment(
      id: "f1", friendlyName: "",
      totp: .init(qrCode: "<svg/>", secret: "ABC", uri: "otpauth://totp/x"))
    #expect(
      String(decoding: try encoder.encode(enrolment), as: UTF8.self)
        == #"{"friendly_name":"","id":"f1","totp":{"qr_code":"<svg/>","secret":"ABC","#
        + #""uri":"otpauth://totp/x"},"type":"totp"}"#)
    let challenge = GoTrueFactorChallenge(id: "c1", expiresAt: 1_735_689_900)
    #expect(
      String(decoding: try encoder.encode(challenge), as: UTF8.self)
        == #"{"expires_at":1735689900,"id":"c1","type":"totp"}"#)
  }
}
