import HTTPServer
import Testing

@testable import AuthServer

/// Who a request is counted for (`performRateLimiting` in GoTrue's middleware.go), and when it
/// is not counted at all.
struct RequestKeyTests {
  private func request(_ headers: [(String, String)] = [], peer: String = "127.0.0.1:50000")
    -> HTTPRequest
  {
    HTTPRequest(
      method: .post, path: "/recover", headers: headers.map { (name: $0.0, value: $0.1) },
      peer: peer)
  }

  @Test func withNoHeaderConfiguredNothingIsLimited() {
    let limits = RequestLimits()
    #expect(limits.key(for: request()) == nil)
    #expect(limits.key(for: request([("X-Forwarded-For", "203.0.113.9")])) == nil)
    #expect(limits.key(for: request(peer: "192.168.1.20:40000")) == nil)
  }

  @Test func theHeadersFirstValueNamesTheClient() throws {
    var limits = RequestLimits()
    limits.header = "X-Client-IP"
    #expect(limits.key(for: request([("x-client-ip", " 203.0.113.9 , 10.0.0.1")])) == "203.0.113.9")
    #expect(limits.key(for: request([("X-Client-IP", "any text")])) == "any text")
    #expect(limits.key(for: request()) == nil, "no header: not limited")
    #expect(limits.key(for: request([("X-Client-IP", "")])) == nil, "empty: not limited")
    #expect(limits.key(for: request([("X-Client-IP", " ,b")])) == nil, "first value empty")
    let long = String(repeating: "x", count: 8_000)
    let key = try #require(limits.key(for: request([("X-Client-IP", long + "1")])))
    #expect(key.utf8.count == 71, "a long value is kept as its digest")
    #expect(limits.key(for: request([("X-Client-IP", long + "2")])) != key)
  }

  @Test func beyondLoopbackTheAddressNamesTheClient() {
    var limits = RequestLimits()
    limits.byPeerAddress = true
    #expect(limits.key(for: request(peer: "192.168.1.20:40000")) == "192.168.1.20")
    #expect(limits.key(for: request(peer: "192.168.1.20:40001")) == "192.168.1.20")
    #expect(limits.key(for: request(peer: "[fe80::1]:5")) == "fe80::1")
    #expect(
      limits.key(for: request([("X-Forwarded-For", "203.0.113.9")], peer: "192.168.1.20:1"))
        == "192.168.1.20", "a header no one configured is not trusted")
    limits.header = "X-Forwarded-For"
    #expect(
      limits.key(for: request([("X-Forwarded-For", "203.0.113.9")], peer: "192.168.1.20:1"))
        == "203.0.113.9", "a configured header comes from the proxy")
    #expect(limits.key(for: request(peer: "192.168.1.20:1")) == nil, "as GoTrue: not limited")
  }

  @Test func sbForwardedForIsTrustedOnlyWhenEnabled() {
    var limits = RequestLimits()
    limits.header = "X-Client-IP"
    let forwarded = [("Sb-Forwarded-For", "203.0.113.9, 10.0.0.1"), ("X-Client-IP", "proxy")]
    #expect(limits.key(for: request(forwarded)) == "proxy")
    limits.trustsForwardedFor = true
    #expect(limits.key(for: request(forwarded)) == "203.0.113.9")
    #expect(limits.key(for: request([("Sb-Forwarded-For", "::ffff:203.0.113.9")])) == "203.0.113.9")
    #expect(limits.key(for: request([("Sb-Forwarded-For", "2001:DB8:0::1")])) == "2001:db8::1")
    #expect(
      limits.key(for: request([("Sb-Forwarded-For", "not an address"), ("X-Client-IP", "p")]))
        == "p", "an invalid address falls back to the header")
    limits.header = nil
    #expect(limits.key(for: request([("Sb-Forwarded-For", "203.0.113.9")])) == "203.0.113.9")
    #expect(limits.key(for: request([("Sb-Forwarded-For", "010.1.1.1")])) == nil)
  }

  @Test func offMeansNoClientIsCounted() {
    var limits = RequestLimits()
    limits.header = "X-Client-IP"
    limits.byPeerAddress = true
    limits.isOff = true
    #expect(limits.key(for: request([("X-Client-IP", "a")], peer: "192.168.1.20:1")) == nil)
  }
}
