import CCurl
import HTTPClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// HTTP through libcurl's easy interface, one exchange at a time on one handle (so a connection
/// to the same server is kept for the next): no cookies, no stored credentials, no redirects
/// followed, http and https only, bodies capped, and the timeout a deadline for the whole
/// exchange.
///
/// NB: not URLSession: its libcurl driver on Linux keeps a write source on the socket once the
/// request is sent, which fires without end until the answer comes, a core busy for as long as
/// the server takes (1.7 s of CPU in 2 s of waiting), and on one CPU the server it waits for
/// starved (an exchange with the shell's own emulator 30 times slower).
final class CurlTransport {
  private let handle: UnsafeMutableRawPointer?
  private let errors = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

  init() {
    curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    handle = curl_easy_init()
  }

  deinit {
    curl_easy_cleanup(handle)
    errors.deallocate()
  }

  /// Sends `request`, giving up after `timeout` seconds.
  func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportFailure> {
    guard let handle else { return .failure(.unavailable("libcurl could not start")) }
    curl_easy_reset(handle)
    let reception = Reception()
    let pointer = Unmanaged.passUnretained(reception).toOpaque()
    var headers: UnsafeMutablePointer<curl_slist>?
    defer { curl_slist_free_all(headers) }
    // NB: curl waits a second for "100 Continue" before sending a larger body; servers that
    // never send one would make every such request a second slower.
    for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
      headers = curl_slist_append(headers, line)
    }
    errors[0] = 0
    var set = [
      authflow_curl_text(handle, CURLOPT_URL, request.url),
      authflow_curl_text(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
      authflow_curl_long(handle, CURLOPT_NOSIGNAL, 1),
      authflow_curl_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int((timeout * 1_000).rounded()))),
      // Whatever encodings libcurl reads, decoded as URLSession decodes them.
      authflow_curl_text(handle, CURLOPT_ACCEPT_ENCODING, ""),
      authflow_curl_list(handle, CURLOPT_HTTPHEADER, headers),
      authflow_curl_pointer(handle, CURLOPT_ERRORBUFFER, errors),
      authflow_curl_receiver(handle, CURLOPT_WRITEFUNCTION, receiveBody),
      authflow_curl_pointer(handle, CURLOPT_WRITEDATA, pointer),
      authflow_curl_receiver(handle, CURLOPT_HEADERFUNCTION, receiveHeader),
      authflow_curl_pointer(handle, CURLOPT_HEADERDATA, pointer),
    ]
    switch (request.method, request.body) {
    case ("GET", nil): set.append(authflow_curl_long(handle, CURLOPT_HTTPGET, 1))
    case ("HEAD", nil): set.append(authflow_curl_long(handle, CURLOPT_NOBODY, 1))
    case (let method, let body):
      // A body (an empty one for POST, PUT and PATCH without one: Content-Length: 0).
      if body != nil || ["POST", "PUT", "PATCH"].contains(method) {
        let bytes = [UInt8](body ?? Data())
        set.append(authflow_curl_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)))
        set.append(
          bytes.withUnsafeBytes { buffer in
            buffer.baseAddress.map {
              authflow_curl_pointer(
                handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0))
            } ?? authflow_curl_text(handle, CURLOPT_COPYPOSTFIELDS, "")
          })
      }
      if method != "POST" { set.append(authflow_curl_text(handle, CURLOPT_CUSTOMREQUEST, method)) }
    }
    if let refused = set.first(where: { $0 != CURLE_OK }) {
      return .failure(.unavailable("libcurl refused an option: \(message(refused))"))
    }
    let status = curl_easy_perform(handle)
    if reception.tooLarge { return .failure(.tooLarge(limit: HTTPResponse.maximumBodySize)) }
    switch status {
    case CURLE_OK:
      return .success(
        HTTPResponse(
          status: authflow_curl_status(handle), headers: reception.headers,
          body: Data(reception.body)))
    case CURLE_OPERATION_TIMEDOUT: return .failure(.timedOut)
    case CURLE_URL_MALFORMAT: return .failure(.unavailable("not a URL: \(request.url)"))
    default: return .failure(.unreachable(message(status)))
    }
  }

  /// What went wrong: libcurl's detail when it gave one, else its words for the code.
  private func message(_ status: CURLcode) -> String {
    let detail = String(cString: errors)
    return detail.isEmpty ? String(cString: curl_easy_strerror(status)) : detail
  }
}

/// What one exchange has received so far.
private final class Reception {
  var body: [UInt8] = []
  var headers: [String: String] = [:]
  var tooLarge = false

  /// What a libcurl callback answers for the `size` × `count` bytes at `data`, given to `take`
  /// with the reception that `context` points to: their count when `take` keeps them, 0 (which
  /// stops the exchange) when it does not.
  static func answer(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
    _ context: UnsafeMutableRawPointer?, _ take: (Reception, UnsafeRawBufferPointer) -> Bool
  ) -> Int {
    guard let context else { return 0 }
    let reception = Unmanaged<Reception>.fromOpaque(context).takeUnretainedValue()
    let length = data == nil ? 0 : size * count
    return take(reception, UnsafeRawBufferPointer(start: data, count: length)) ? size * count : 0
  }

  /// Keeps body bytes; past the limit, none, and says to stop.
  func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard body.count + bytes.count <= HTTPResponse.maximumBodySize else {
      tooLarge = true
      body = []
      return false
    }
    body += bytes
    return true
  }

  /// Reads one header line: a status line starts a response afresh (one after "100
  /// Continue"), a field is kept by its lower-case name (a repeated one joined with ", "), and
  /// a declared length past the limit says to stop.
  func header(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let line = String(decoding: bytes, as: UTF8.self)
    if line.hasPrefix("HTTP/") {
      headers = [:]
      return true
    }
    guard let colon = line.firstIndex(of: ":") else { return true }
    let name = line[..<colon].lowercased()
    let field = line[line.index(after: colon)...]
    let value = String(
      field.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    if name == "content-length", let declared = Int(value),
      declared > HTTPResponse.maximumBodySize
    {
      tooLarge = true
      return false
    }
    headers[name] = headers[name].map { $0 + ", " + value } ?? value
    return true
  }
}

/// libcurl's body callback.
private func receiveBody(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
  _ context: UnsafeMutableRawPointer?
) -> Int {
  Reception.answer(data, size, count, context) { $0.body($1) }
}

/// libcurl's header callback, one line at a time.
private func receiveHeader(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
  _ context: UnsafeMutableRawPointer?
) -> Int {
  Reception.answer(data, size, count, context) { $0.header($1) }
}
