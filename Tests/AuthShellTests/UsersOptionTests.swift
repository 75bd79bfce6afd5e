import Foundation
import Testing

/// `--users FILE` on the shell's embedded backend, and `authflow users export`.
@Suite struct UsersOptionTests {
  static let adaID = "6f9619ff-8b86-d011-b42d-00c04fc964ff"

  private func folder() -> String {
    let path = NSTemporaryDirectory() + "authflow-users-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  private func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  private let fixtures = """
    {"users": [{"id": "\(adaID)", "email": "ada@example.com", "password": "correct horse",
      "email_confirm": true, "user_metadata": {"full_name": "Ada Lovelace"}}]}
    """

  @Test func shellSignsInAsASeededUserWithItsFixedID() throws {
    let folder = folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try write(fixtures, to: folder + "/users.json")
    let result = try runAuthflow([
      "--store", ":memory:", "--hash-cost", "4", "--users", folder + "/users.json", "-c",
      "signin; set email ada@example.com; set password 'correct horse'; submit; whoami",
    ])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.contains("user id: \(Self.adaID)"))
    #expect(result.output.contains("full_name: Ada Lovelace"))
  }

  @Test func seededStoreHasNoDemoAccounts() throws {
    let folder = folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try write(fixtures, to: folder + "/users.json")
    let result = try runAuthflow([
      "--store", ":memory:", "--hash-cost", "4", "--users", folder + "/users.json", "-c",
      "signin; set email test@example.com; set password TestPassword123!; submit; "
        + "expect state login",
    ])
    #expect(result.status == 0, "\(result.output)")
  }

  @Test func badUsersFileRefusesToStartWithOneLine() throws {
    let folder = folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try write(
      #"{"users":[{"id":"u1","email":"a@example.com","pasword":"x"}]}"#, to: folder + "/u.json")
    let result = try runAuthflow([
      "--store", ":memory:", "--users", folder + "/u.json", "-c", "whoami",
    ])
    #expect(result.status == 2)
    #expect(
      result.error.hasPrefix(
        "authflow: users file \(folder)/u.json: users[0] (u1): pasword: is not a field of this "
          + "format; the fields are id, email, password,"))
    #expect(result.error.split(separator: "\n").count == 1)
  }

  @Test func usersOnAnotherBackendIsRefused() throws {
    let result = try runAuthflow([
      "--backend", "supabase", "--supabase-url", "http://127.0.0.1:1", "--users", "u.json", "-c",
      "whoami",
    ])
    #expect(result.status == 2)
    #expect(result.error.contains("--users"))
  }

  @Test func exportWritesTheSeededStoreBackAsAUsersFile() throws {
    let folder = folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try write(fixtures, to: folder + "/users.json")
    let store = folder + "/auth.db"
    let seeded = try runAuthflow([
      "--store", store, "--hash-cost", "4", "--users", folder + "/users.json", "-c", "help",
    ])
    #expect(seeded.status == 0, "\(seeded.error)")
    let exported = try runAuthflow(["users", "export", "--store", store])
    #expect(exported.status == 0, "\(exported.error)")
    #expect(exported.output.contains(#""id" : "\#(Self.adaID)""#))
    #expect(exported.output.contains(#""password_hash" : "$2b$04$"#))
    #expect(!exported.output.contains("correct horse"))

    let firebase = try runAuthflow([
      "users", "export", "--store", store, "--format", "firebase", "--output",
      folder + "/accounts.json",
    ])
    #expect(firebase.status == 0, "\(firebase.error)")
    let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/accounts.json")
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let text = try String(contentsOfFile: folder + "/accounts.json", encoding: .utf8)
    #expect(text.contains(#""localId" : "\#(Self.adaID)""#))
    #expect(text.contains(#""kind" : "identitytoolkit#DownloadAccountResponse""#))
  }

  @Test func exportOfAMissingStoreSaysSo() throws {
    let result = try runAuthflow(["users", "export", "--store", "/nonexistent/auth.db"])
    #expect(result.status == 1)
    #expect(
      result.error
        == "authflow users: there is no store at /nonexistent/auth.db; pass --store with an "
        + "authflow store\n")
  }
}
