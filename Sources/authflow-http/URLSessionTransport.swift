import AuthFlowHTTP
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// HTTP through Foundation's URLSession: no cookies, no cache, no stored credentials.
struct URLSessionTransport: HTTPTransport {
  private let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieStorage = nil
    configuration.urlCache = nil
    configuration.httpShouldSetCookies = false
    return URLSession(configuration: configuration)
  }()

  func send(_ request: HTTPRequest, timeout: Double) async throws(TransportFailure) -> HTTPResponse
  {
    guard let url = URL(string: request.url) else {
      throw .unavailable("not a URL: \(request.url)")
    }
    var urlRequest = URLRequest(
      url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
    urlRequest.httpMethod = request.method
    for header in request.headers {
      urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
    }
    urlRequest.httpBody = request.body
    do {
      let (body, response) = try await session.data(for: urlRequest)
      guard let http = response as? HTTPURLResponse else {
        throw TransportFailure.unreachable("the answer was not HTTP")
      }
      var headers: [String: String] = [:]
      for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String {
          headers[name.lowercased()] = value
        }
      }
      return HTTPResponse(status: http.statusCode, headers: headers, body: body)
    } catch let failure as TransportFailure {
      throw failure
    } catch let error as URLError {
      switch error.code {
      case .timedOut: throw .timedOut
      case .cancelled: throw .cancelled
      default: throw .unreachable(error.localizedDescription)
      }
    } catch {
      throw .unreachable("\(error)")
    }
  }
}
