import GoTrue
import GoTrueEngine
import HTTPClient

/// Fetches an SSO provider's `metadata_url` as GoTrue's `fetchSAMLMetadata` does: a GET asking
/// for XML in UTF-8, whose body is the metadata when the status is 200. The URL was checked
/// first (HTTPS only); redirects are not followed, and the fetch gives up after ``timeout``.
struct SAMLMetadataFetcher: Sendable {
  /// What sends the request (the `authflow-http` helper in `authflow serve`).
  var transport: any HTTPTransport
  /// How long the fetch may take, in seconds: an admin's request never hangs on a host that
  /// does not answer.
  var timeout = 10.0

  /// Fetches through the `authflow-http` helper beside this program.
  static func throughHelper() -> SAMLMetadataFetcher {
    SAMLMetadataFetcher(transport: HelperProcessTransport.besideThisProgram())
  }

  /// The metadata at `url`: 400 `saml_metadata_fetch_failed` for a status other than 200, and
  /// GoTrue's unforeseen 500 when no answer came (its HTTP client's error, passed on).
  func fetch(_ url: String) async throws(GoTrueAPIError) -> [UInt8] {
    let request = HTTPRequest(
      method: "GET", url: url,
      headers: [
        .init("Accept", "application/xml;charset=UTF-8"), .init("Accept-Charset", "UTF-8"),
      ],
      body: nil)
    let response: HTTPResponse
    do {
      response = try await transport.send(request, timeout: timeout)
    } catch {
      throw GoTrueAPIError(
        status: 500, code: .unexpectedFailure,
        message: "Unexpected failure, please check server logs for more information")
    }
    guard response.status == 200 else {
      throw GoTrueAPIError(
        status: 400, code: .samlMetadataFetchFailed,
        message: "HTTP \(response.status) error fetching SAML Metadata from URL '\(url)'")
    }
    return Array(response.body)
  }
}
