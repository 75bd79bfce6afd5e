import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import AccountStore
@testable import GoTrueEngine

/// Finding and listing accounts: lookups by identifier, pages by id, the whole list.
struct FirebaseListingTests {
  /// A new account `email` made by an admin, with the chosen `id`.
  private func admit(_ id: String, _ emulation: FirebaseEmulation, password: String? = nil)
    async throws
  {
    var new = FirebaseNewAccount()
    (new.id, new.email, new.password) = (id, "\(id)@example.com", password)
    _ = try await emulation.create(new)
  }

  @Test func anAdminFindsAccountsByEveryListOnceInTheOrderTheyAreRead() async throws {
    let emulation = try makeEmulation { $0.seedsDemoAccounts = false }
    try await admit("b", emulation, password: "secret123")
    try await admit("a", emulation)
    try await admit("c", emulation, password: "secret123")
    var lookup = FirebaseLookup()
    lookup.ids = ["c", "nobody", "c"]
    lookup.emails = ["A@Example.com", "c@example.com"]
    lookup.phoneNumbers = ["+15555550100"]
    lookup.federatedIDs = [
      FirebaseFederatedID(providerID: "password", rawID: "b@example.com"),
      // The raw id is the email as kept, lowercased; and `a` has no password provider.
      FirebaseFederatedID(providerID: "password", rawID: "B@example.com"),
      FirebaseFederatedID(providerID: "password", rawID: "a@example.com"),
      FirebaseFederatedID(providerID: "google.com", rawID: "b@example.com"),
    ]
    #expect(try emulation.accounts(matching: lookup).map(\.id) == ["c", "a", "b"])
    #expect(try emulation.accounts(matching: FirebaseLookup()).isEmpty)
    var phone = FirebaseLookup()
    phone.phoneNumbers = ["+15555550100"]
    #expect(try emulation.accounts(matching: phone).isEmpty, "no account has a phone number")
  }

  @Test(.readsSQLiteTables) func anAccountCarriesTheSchemaSixFields() async throws {
    let emulation = try makeEmulation { $0.seedsDemoAccounts = false }
    try await admit("link", emulation)
    try emulation.engine.withDatabase { database throws(GoTrueAPIError) in
      try database.run(
        """
        UPDATE users SET email_link_signin = 1, custom_auth = 1, initial_email = 'first@example.com',
          custom_claims = '{"role":"admin"}' WHERE id = 'link'
        """)
    }
    let account = try #require(try emulation.accounts(ids: ["link"], emails: []).first)
    #expect(account.emailLinkSignin && account.customAuth)
    #expect(account.initialEmail == "first@example.com")
    #expect(account.customAttributes == #"{"role":"admin"}"#)
    #expect(!account.hasPassword && account.signsInByEmail, "a link is a way in by email")
    var byLink = FirebaseLookup()
    byLink.federatedIDs = [FirebaseFederatedID(providerID: "password", rawID: "link@example.com")]
    #expect(try emulation.accounts(matching: byLink).map(\.id) == ["link"])
  }

  @Test func pagesGoByIdAndAFullPageNamesTheNextEvenAtTheEnd() async throws {
    let emulation = try makeEmulation { $0.seedsDemoAccounts = false }
    for id in (0..<25).map({ String(format: "u%02d", $0) }).shuffled() {
      try await admit(id, emulation)
    }
    let first = try emulation.page(after: nil, limit: nil)
    #expect(first.accounts.count == 20, "20 by default")
    #expect(first.next == "u19")
    let rest = try emulation.page(after: first.next, limit: 0)
    #expect(rest.accounts.map(\.id) == ["u20", "u21", "u22", "u23", "u24"])
    #expect(rest.next == nil)
    let exact = try emulation.page(after: "u19", limit: 5)
    #expect(exact.next == "u24", "a full last page still names a next page")
    #expect(try emulation.page(after: "u24", limit: 5).accounts.isEmpty)
    #expect(try emulation.page(after: nil, limit: -1).accounts.count == 25, "-1 is every account")
    #expect(try emulation.page(after: nil, limit: -1).next == nil)
    #expect(try emulation.page(after: nil, limit: 5_000).accounts.count == 25)
  }

  @Test func theWholeListGoesByIdEitherWayAndCountsDeletedOnesOut() async throws {
    let emulation = try makeEmulation { $0.seedsDemoAccounts = false }
    for id in ["m", "z", "a"] { try await admit(id, emulation) }
    #expect(try emulation.allAccounts(descending: false).map(\.id) == ["a", "m", "z"])
    #expect(try emulation.allAccounts(descending: true).map(\.id) == ["z", "m", "a"])
    #expect(try emulation.accountCount() == 3)
    try emulation.delete(id: "m")
    #expect(try emulation.accountCount() == 2)
    #expect(try emulation.allAccounts(descending: false).map(\.id) == ["a", "z"])
  }
}
