import GoTrueEngine
import Testing

/// The allow list's patterns read as GoTrue compiles them (gobwas/glob, `.` and `/` as
/// separators): what each wildcard may stand for, and which patterns cannot be used at all.
struct RedirectPatternTests {
  private func matches(_ pattern: String, _ candidate: String) throws -> Bool {
    try RedirectPattern(pattern).matches(candidate)
  }

  @Test(arguments: [
    // Plain text stands for itself, whole.
    ("myapp://auth/callback", "myapp://auth/callback", true),
    ("myapp://auth/callback", "myapp://auth/callback/more", false),
    ("myapp://auth/callback", "myapp://auth/callbac", false),
    ("volvoxsober://auth/verify", "volvoxsober://auth/verify", true),
    // `*` stops at `/` and `.`, not at `?`, `=` or `:`.
    ("http://localhost:8000/*", "http://localhost:8000/path", true),
    ("http://localhost:8000/*", "http://localhost:8000/path?param=1", true),
    ("http://localhost:8000/*", "http://localhost:8000/", true),
    ("http://localhost:8000/*", "http://localhost:8000", false),
    ("http://localhost:8000/*", "http://localhost:8000/path/to/page", false),
    ("http://localhost:8000/*", "http://localhost:8000/file.html", false),
    ("https://*.example.com/", "https://app.example.com/", true),
    ("https://*.example.com/", "https://a.b.example.com/", false),
    ("https://*.example.com/", "https://evil.com/.example.com/", false),
    // `**` crosses both.
    ("https://**.example.com/**", "https://a.b.example.com/x/y.html", true),
    ("https://**.example.com/**", "https://example.com/", false),
    ("http://**:12345/*", "http://a.b.c:12345/x", true),
    ("myapp://**", "myapp://auth/callback#access_token=x", true),
    // `?` is one character, never a separator.
    ("http://localhost:300?/", "http://localhost:3001/", true),
    ("http://localhost:300?/", "http://localhost:300/", false),
    ("https://a?b.example/", "https://a.b.example/", false),
    // Lists and ranges, and their negations, which may stand for a separator.
    ("https://app[12].example/", "https://app2.example/", true),
    ("https://app[12].example/", "https://app3.example/", false),
    ("https://app[0-9].example/", "https://app7.example/", true),
    ("https://app[!0-9].example/", "https://app7.example/", false),
    ("https://app[!0-9].example/", "https://appx.example/", true),
    ("https://app[!x]example/", "https://app.example/", true),
    // Alternatives, and escapes of the pattern's own characters.
    ("https://{app,www}.example/", "https://www.example/", true),
    ("https://{app,www}.example/", "https://api.example/", false),
    ("https://{app,{a,b}c}.example/", "https://bc.example/", true),
    (#"myapp://a\*b"#, "myapp://a*b", true),
    (#"myapp://a\*b"#, "myapp://axb", false),
    ("myapp://a]b,c}", "myapp://a]b,c}", true),
  ])
  func eachWildcardStandsForWhatGoTruesGlobLetsIt(
    pattern: String, candidate: String, expected: Bool
  ) throws {
    #expect(try matches(pattern, candidate) == expected, "\(pattern) ~ \(candidate)")
  }

  @Test(arguments: [
    "https://{app,www.example/", "https://app[12.example/", "https://app[].example/",
    "https://app[z-a].example/", "https://app[a-z0-9].example/", "https://app[!].example/",
  ])
  func aPatternGoTrueCouldNotCompileIsRefused(pattern: String) {
    #expect(throws: RedirectPatternError.self) { try RedirectPattern(pattern) }
  }

  @Test func manyWildcardsCostTimeInProportionToTheURL() throws {
    // A backtracking matcher would take exponential time here; this one keeps a set of
    // positions, so the answer comes as fast as for any other URL of this length.
    let pattern = try RedirectPattern(String(repeating: "**a", count: 20) + "b")
    let candidate = "x" + String(repeating: "a", count: 8_000)
    #expect(!pattern.matches(candidate))
    #expect(pattern.matches(candidate + "b"))
  }

  @Test func twoPatternsAreEqualWhenWrittenAlike() throws {
    #expect(try RedirectPattern("myapp://*") == RedirectPattern("myapp://*"))
    #expect(try RedirectPattern("myapp://*") != RedirectPattern("myapp://**"))
  }
}
