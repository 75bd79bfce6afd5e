import AuthCrypto
import Clocks
import Foundation
import GoTrue
import GoTrueEngine
import TestSupport
import Testing

@testable import UserSeeds

/// A store's accounts written as a users file and applied to a new store give the same
/// accounts, which sign in with the same passwords.
@Suite struct SeedExportTests {
  private let fixtures = """
    {"users": [
      {"id": "6f9619ff-8b86-d011-b42d-00c04fc964ff", "email": "ada@example.com",
       "password": "correct horse", "email_confirm": true,
       "user_metadata": {"full_name": "Ada"}, "app_metadata": {"plan": "pro"},
       "role": "admin", "display_name": "Ada L", "custom_claims": {"admin": true}},
      {"id": "fb-uid-1", "email": "bob@example.com", "email_confirm": true,
       "password": "battery staple", "disabled": true},
      {"id": "anon-1", "anonymous": true},
      {"id": "phone-1", "phone": "+15555550100", "phone_confirm": true,
       "display_name": "Pat"}]}
    """

  private func engine() throws -> EmbeddedGoTrue {
    try makeEngine { $0.seedsDemoAccounts = false }
  }

  @Test(arguments: UsersFile.Format.allCases)
  func exportAppliedToANewStoreGivesTheSameAccounts(format: UsersFile.Format) async throws {
    let first = try engine()
    try first.seed(try UsersFile.parse(Array(fixtures.utf8), file: "users.json"), file: "f")
    let exported = UsersFile.encode(try first.seedAccounts(), format: format)
    let text = String(decoding: exported, as: UTF8.self)
    #expect(!text.contains("correct horse") && !text.contains("battery staple"))

    let second = try engine()
    try second.seed(try UsersFile.parse(exported, file: "export.json"), file: "export.json")
    var expected = try first.seedAccounts()
    if format == .firebase {
      // Firebase's format has no room for GoTrue's metadata and role.
      for index in expected.indices {
        expected[index].userMetadata = [:]
        expected[index].appMetadata =
          expected[index].isAnonymous
          ? [:] : expected[index].email == nil ? Self.phoneProvider : Self.emailProvider
        expected[index].role = "authenticated"
      }
    }
    #expect(try second.seedAccounts() == expected)
    let session = try await second.signIn(email: "ada@example.com", password: "correct horse")
    #expect(session.user.id == "6f9619ff-8b86-d011-b42d-00c04fc964ff")
  }

  private static let emailProvider: [String: JSONValue] = [
    "provider": .string("email"), "providers": .array([.string("email")]),
  ]
  private static let phoneProvider: [String: JSONValue] = [
    "provider": .string("phone"), "providers": .array([.string("phone")]),
  ]

  @Test func authflowExportReadsAsTheFormatDocumentsIt() throws {
    let engine = try engine()
    try engine.seed(
      try UsersFile.parse(
        Array(
          #"{"users":[{"id":"u1","email":"a@example.com","password_hash":"\#(Self.hash)","created_at":"2025-01-01T00:00:00Z"}]}"#
            .utf8), file: "f"), file: "f")
    let text = String(
      decoding: UsersFile.encode(try engine.seedAccounts(), format: .authflow), as: UTF8.self)
    #expect(
      text == """
        {
          "users" : [
            {
              "app_metadata" : {
                "provider" : "email",
                "providers" : [
                  "email"
                ]
              },
              "created_at" : "2025-01-01T00:00:00Z",
              "email" : "a@example.com",
              "email_confirm" : false,
              "id" : "u1",
              "password_hash" : "\(Self.hash)"
            }
          ]
        }

        """)
  }

  private static let hash = "$2b$04$" + String(repeating: "a", count: 53)
}
