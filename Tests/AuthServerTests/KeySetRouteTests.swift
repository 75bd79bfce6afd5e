import AuthCrypto
import Foundation
import GoTrue
import GoTrueEngine
import Testing

@testable import AuthServer

/// `GET /.well-known/jwks.json` and the options that configure GoTrue's signing keys.
struct KeySetRouteTests {
  /// A JSON array of the fixture keys (Tests/Fixtures/jwk) `names`; all but the first only
  /// verify.
  private func keysText(_ names: [String]) throws -> String {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appending(path: "../Fixtures/jwk")
    var keys: [JSONValue] = []
    for (index, name) in names.enumerated() {
      let url = folder.appending(path: "\(name).json")
      var key = try JSONDecoder().decode([String: JSONValue].self, from: Data(contentsOf: url))
      if index > 0 { key["key_ops"] = .array([.string("verify")]) }
      keys.append(.object(key))
    }
    return String(decoding: JSONValue.array(keys).jsonBytes, as: UTF8.self)
  }

  private func server(keys names: [String]) throws -> TestServer {
    let keys = try ServeOptions.parse(["--jwt-keys", try keysText(names)], environment: [:])
      .settings.engine.jwtKeys
    return try TestServer { $0.jwtKeys = keys }
  }

  @Test func aServerSigningWithItsSecretPublishesNoKeys() async throws {
    let server = try TestServer()
    for path in ["/.well-known/jwks.json", "/auth/v1/.well-known/jwks.json"] {
      let reply = await server.send(.get, path)
      #expect(reply.status == 200)
      #expect(reply.text == #"{"keys":[]}"#)
      #expect(reply.header("Cache-Control") == "public, max-age=600")
      #expect(reply.header("Content-Type") == "application/json")
    }
  }

  @Test func theKeySetListsEveryAsymmetricKeysPublicHalfAndNoSecret() async throws {
    var text = try keysText(["rsa-a", "ec-a", "ed25519"])
    text.removeLast()
    text += #",{"kty":"oct","kid":"shared","alg":"HS256","k":"c2VjcmV0","key_ops":["verify"]}]"#
    let keys = try ServeOptions.parse(["--jwt-keys", text], environment: [:]).settings.engine
      .jwtKeys
    let server = try TestServer { $0.jwtKeys = keys }
    let reply = await server.send(.get, "/auth/v1/.well-known/jwks.json")
    #expect(reply.header("Cache-Control") == "public, max-age=600")
    let published = try #require(reply.object?["keys"] as? [[String: Any]])
    #expect(published.map { $0["kid"] as? String } == ["test-rsa-a", "test-ec-a", "test-ed25519"])
    #expect(
      published.map { Set($0.keys) } == [
        ["alg", "e", "key_ops", "kid", "kty", "n", "use"],
        ["alg", "crv", "key_ops", "kid", "kty", "use", "x", "y"],
        ["alg", "crv", "key_ops", "kid", "kty", "use", "x"],
      ])
    for key in published {
      #expect(key["use"] as? String == "sig")
      #expect(key["key_ops"] as? [String] == ["verify"])
    }
    #expect(reply.text.hasPrefix(#"{"keys":[{"alg":"RS256","e":"AQAB","key_ops":["verify"],"#))
  }

  @Test func theServiceRoleKeyAndAccessTokensWorkWithKeys() async throws {
    let server = try server(keys: ["ec-a", "rsa-a"])
    #expect(await server.send(.get, "/admin/users", headers: server.admin).status == 200)
    let session = try await server.signIn()
    let token = try #require(session["access_token"] as? String)
    let header = Base64URL.decode(token.split(separator: ".")[0]) ?? []
    #expect(
      String(decoding: header, as: UTF8.self) == #"{"alg":"ES256","kid":"test-ec-a","typ":"JWT"}"#)
    let user = await server.send(.get, "/user", headers: [("Authorization", "Bearer " + token)])
    #expect(user.status == 200)
  }

  @Test func optionsReadAFileTheJSONOrGoTruesVariables() throws {
    let text = try keysText(["rsa-a", "ec-a"])
    let folder = FileManager.default.temporaryDirectory.appending(path: "authflow-jwks-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appending(path: "keys.json")
    try Data(text.utf8).write(to: file)
    let fromFile = try ServeOptions.parse(
      ["--jwt-keys", file.path, "--jwt-key-id", "legacy", "--jwt-valid-methods", "HS256, ES256"],
      environment: [:])
    #expect(fromFile.settings.engine.jwtKeys?.signing.id == "test-rsa-a")
    #expect(fromFile.settings.engine.jwtKeyID == "legacy")
    #expect(fromFile.settings.engine.jwtValidMethods == JWTAlgorithmSet([.hs256, .es256]))
    let fromVariables = try ServeOptions.parse(
      [],
      environment: [
        "GOTRUE_JWT_KEYS": text, "GOTRUE_JWT_KEY_ID": "legacy",
        "GOTRUE_JWT_VALID_METHODS": "HS256,ES256",
      ])
    #expect(fromVariables.settings.engine == fromFile.settings.engine)
    #expect(
      try ServeOptions.parse([], environment: ["GOTRUE_JWT_KEYS": "[]"]).settings.engine.jwtKeys
        == nil)
    #expect(ServeOptions.usage.contains("--jwt-keys FILE|JSON"))
    #expect(ServeOptions.usage.contains("(env GOTRUE_JWT_VALID_METHODS)"))
  }

  @Test func badKeyOptionsSayWhatIsWrongAndWhatWouldBeRight() throws {
    let expected =
      "takes a JSON array of private JWKs (GoTrue's GOTRUE_JWT_KEYS) or a file of one; "
    let verifyOnly = try keysText(["rsa-a"]).replacing(#""sign","#, with: "")
    let cases: [([String], [String: String], String)] = [
      (
        ["--jwt-keys", "/nonexistent/keys.json"], [:],
        "--jwt-keys " + expected + "this is neither JSON nor a file it can read"
      ),
      (
        [], ["GOTRUE_JWT_KEYS": #"{"keys":[]}"#],
        "GOTRUE_JWT_KEYS " + expected
          + #"this one is a JWK set ({"keys":[…]}); GoTrue reads the array alone: give the "#
          + #""keys" array"#
      ),
      (
        ["--jwt-keys", verifyOnly], [:],
        "--jwt-keys " + expected
          + #"this one has no key that lists "sign" in key_ops; give the key to sign with "#
          + #""key_ops":["sign","verify"]"#
      ),
      (
        ["--jwt-valid-methods", "HS256,XS1"], [:],
        "--jwt-valid-methods takes algorithms from HS256, RS256, RS512, ES256, ES512, EdDSA, "
          + "comma-separated, not 'XS1'"
      ),
    ]
    for (arguments, environment, text) in cases {
      expectRefusal(arguments, environment, says: text)
    }
  }
}
