import Foundation
import IdentityToolkit
import Testing

/// The Auth emulator's JSON, written byte for byte.
struct EmulatorEncodingTests {
  @Test func writesAsJavaScriptsStringifyWrites() {
    let value = EmulatorJSON.members([
      "text": .string("a\"b\\c/d\u{1}\n é"), "absent": nil, "list": .array([.int(-1), .null]),
      "empty": .array([]), "object": .object([]), "flag": .bool(true),
    ])
    #expect(
      String(decoding: value.compactBytes, as: UTF8.self)
        == #"{"text":"a\"b\\c/d\u0001\n é","list":[-1,null],"empty":[],"object":{},"flag":true}"#)
    #expect(
      String(decoding: value.prettyBytes, as: UTF8.self) == """
        {
          "text": "a\\"b\\\\c/d\\u0001\\n é",
          "list": [
            -1,
            null
          ],
          "empty": [],
          "object": {},
          "flag": true
        }
        """)
  }

  @Test func writesErrorsAsTheEmulatorWithTheirStatusWord() {
    let bytes = IdentityToolkitErrorBody.emulatorBytes(.badRequest(.weakPassword, "Too short"))
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains(#""message": "WEAK_PASSWORD : Too short","#))
    #expect(!text.contains("status"))
    let error = IdentityToolkitErrorBody.decode(status: 400, body: Data(bytes))
    #expect(error == .badRequest(.weakPassword, "Too short"))
    let missing = String(
      decoding: IdentityToolkitErrorBody.emulatorBytes(.missingAPIKey), as: UTF8.self)
    #expect(missing.hasSuffix("\n    ],\n    \"status\": \"PERMISSION_DENIED\"\n  }\n}"))
    #expect(missing.contains(#""reason": "forbidden""#))
  }

  @Test func actionLinksAreFormEscaped() {
    #expect(
      EmulatorActionLink.url(
        base: "http://127.0.0.1:9099/", mode: "verifyEmail", oobCode: "a-b_c",
        continueURL: "http://x.test/p?q=1 2")
        == "http://127.0.0.1:9099/emulator/action?mode=verifyEmail&lang=en&oobCode=a-b_c&apiKey=fake-api-key&continueUrl=http%3A%2F%2Fx.test%2Fp%3Fq%3D1+2"
    )
  }

  @Test func leavesOutUsersWhenNoneWereFound() {
    #expect(
      String(decoding: IdentityToolkitLookup(users: []).emulatorJSON.compactBytes, as: UTF8.self)
        == #"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#)
  }
}
