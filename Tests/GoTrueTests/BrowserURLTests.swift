import GoTrue
import Testing

/// URLs read as a browser reads them, and refused wherever a browser could read them otherwise.
struct BrowserURLTests {
  @Test(
    arguments: [
      ("http://127.0.0.1:3000/welcome?a=b#c", "http", "127.0.0.1", 3000),
      ("HTTPS://App.Example.COM/", "https", "app.example.com", nil),
      ("https://app.example.com:443/x", "https", "app.example.com", nil),
      ("http://app.example.com:080", "http", "app.example.com", nil),
      ("http://localhost:5173", "http", "localhost", 5173),
      ("http://[0:0:0:0:0:0:0:1]:9999/", "http", "[::1]", 9999),
      ("myapp://Login-Callback/path", "myapp", "Login-Callback", nil),
      ("http://app.example.com:/x", "http", "app.example.com", nil),
    ] as [(String, String, String, Int?)])
  func readsWhatEveryReaderAgreesOn(text: String, scheme: String, host: String, port: Int?) throws {
    let url = try #require(BrowserURL(text))
    #expect(url.scheme == scheme)
    #expect(url.host == host)
    #expect(url.port == port)
  }

  @Test(arguments: [
    // `\` ends an http(s) authority in a browser: this leads to evil.example.
    #"http://evil.example\@127.0.0.1:3000/"#,
    #"http:\\evil.example/"#,
    #"http://127.0.0.1:3000\@evil.example/"#,
    // Userinfo, which URLComponents reads as the host's prefix.
    "http://evil.example@127.0.0.1:3000/", "http://user:pass@127.0.0.1:3000/",
    // Tabs and newlines a browser removes; spaces and controls it trims or escapes; CR/LF that
    // no header may carry.
    "http://ev\til.example/", "http://127.0.0.1:3000/\r\nSet-Cookie: a=b", " http://a.example/",
    "http://a.example/\u{0}", "http://a.example/é",
    // No `//`: a browser finds the host anyway.
    "http:evil.example/", "http:/evil.example/", "http:///evil.example/",
    // Hosts a browser reads as IPv4 numbers, unless written in dotted decimal.
    "http://127.1/", "http://0x7f.0.0.1/", "http://2130706433/", "http://0177.0.0.1/",
    "http://127.0.0.01/", "http://a.b.0x10/", "http://256.0.0.1/",
    // Hosts with escapes, empty labels, or characters beyond letters, digits, `-` and `.`.
    "http://%65vil.example/", "http://evil..example/", "http://evil.example./",
    "http://evil_example/", "http://[::1/", "http://[::1]x/", "http://[zz::1]/",
    // Ports that are not ports.
    "http://a.example:65536/", "http://a.example:8o/", "http://a.example:-1/",
    // Not URLs at all, and file URLs.
    "", "/relative", "evil.example", "//evil.example/", "javascript:alert(1)",
    "file:///etc/passwd", "1http://a.example/",
  ])
  func refusesWhatABrowserCouldReadOtherwise(text: String) {
    #expect(BrowserURL(text) == nil, "\(text.debugDescription)")
  }

  @Test func loopbackIsLocalhostItsSubdomainsAnd127Slash8AndIPv6One() throws {
    let loopback = [
      "http://localhost/", "http://app.localhost:3000/", "http://127.0.0.1/",
      "http://127.255.0.9/", "http://[::1]/",
    ]
    for text in loopback { #expect(try #require(BrowserURL(text)).isLoopback, "\(text)") }
    let elsewhere = [
      "http://localhost.evil.example/", "http://10.0.0.1/", "http://[::2]/",
      "http://evil-localhost/",
    ]
    for text in elsewhere { #expect(try #require(BrowserURL(text)).isLoopback == false) }
    #expect(try #require(BrowserURL("http://127.0.0.1/")).isLoopbackAddress)
    #expect(try #require(BrowserURL("http://localhost/")).isLoopbackAddress == false)
  }
}
