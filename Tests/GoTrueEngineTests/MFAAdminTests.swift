import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// The admin API's factor routes: listing, renaming and removing a user's factors.
struct MFAAdminTests {
  @Test(.readsSQLiteTables) func adminsListRenameAndRemoveAUsersFactors() async throws {
    let mfa = try MFAFixture()
    let raised = try await mfa.aal2Session(name: "phone")
    let userID = raised.session.user.id
    mfa.clock.advance(by: 1)
    let spare = try await mfa.enroll(raised.session, name: "spare").factor

    let listed = try mfa.engine.factors(ofUser: userID)
    #expect(listed.map(\.id) == [raised.factorID, spare.id])
    #expect(listed.map(\.status) == ["verified", "unverified"])
    #expect(try mfa.engine.factors(ofUser: userID.uppercased()).count == 2)

    mfa.clock.advance(by: 5)
    let renamed = try mfa.engine.updateFactor(
      ofUser: userID, factorID: spare.id, friendlyName: "phone")
    #expect(renamed.friendlyName == "phone", "admins may give a name the user already uses")
    #expect(renamed.updatedAt == mfa.clock.now)
    let unchanged = try mfa.engine.updateFactor(
      ofUser: userID, factorID: spare.id, friendlyName: "")
    #expect(unchanged == renamed, "an empty name changes nothing")

    let removed = try mfa.engine.deleteFactor(ofUser: userID, factorID: raised.factorID)
    #expect(removed.id == raised.factorID)
    #expect(removed.status == "verified")
    let after = try await mfa.engine.refresh(refreshToken: raised.session.refreshToken)
    #expect(try mfa.claims(after.accessToken)["aal"] == .string("aal1"))
    #expect(mfa.methods(after.accessToken) == ["password"])
    #expect(try mfa.engine.factors(ofUser: userID).map(\.id) == [spare.id])
  }

  @Test func unknownUsersAndFactorsAreGoTrues404s() async throws {
    let mfa = try MFAFixture()
    let session = try await mfa.signIn()
    let userID = session.user.id
    let cases: [(() throws -> Any, GoTrueErrorCode, String)] = [
      ({ try mfa.engine.factors(ofUser: "abc") }, .validationFailed, "user_id must be an UUID"),
      ({ try mfa.engine.factors(ofUser: UUIDText.placeholder) }, .userNotFound, "User not found"),
      (
        { try mfa.engine.deleteFactor(ofUser: userID, factorID: "abc") }, .validationFailed,
        "factor_id must be an UUID"
      ),
      (
        { try mfa.engine.deleteFactor(ofUser: userID, factorID: UUIDText.placeholder) },
        .mfaFactorNotFound, "Factor not found"
      ),
      (
        { try mfa.engine.updateFactor(ofUser: userID, factorID: "abc", friendlyName: "x") },
        .validationFailed, "factor_id must be an UUID"
      ),
    ]
    for (body, code, message) in cases {
      let error = await mfa.error { try body() }
      #expect(error?.status == 404)
      #expect(error?.code == code)
      #expect(error?.message == message)
    }
    #expect(try mfa.engine.factors(ofUser: userID).isEmpty)
  }

  @Test(.readsSQLiteTables) func deletingAUserSoftlyRemovesTheirFactors() async throws {
    let mfa = try MFAFixture()
    let raised = try await mfa.aal2Session()
    try mfa.engine.deleteUser(id: raised.session.user.id, softly: true)
    #expect(try mfa.engine.rows("SELECT id FROM mfa_factors").isEmpty)
    #expect(try mfa.engine.user(id: raised.session.user.id).factors == nil)
  }

  @Test func aUserListCarriesNoFactorsButOneUserHasThem() async throws {
    let mfa = try MFAFixture()
    let raised = try await mfa.aal2Session()
    let page = try mfa.engine.listUsers(page: 1, perPage: 10)
    #expect(page.users.allSatisfy { $0.factors == nil })
    #expect(try mfa.engine.user(id: raised.session.user.id).factors?.count == 1)
  }
}
