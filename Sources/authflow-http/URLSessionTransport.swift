import AuthFlowHTTP
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// HTTP through Foundation's URLSession: no cookies, no cache, no stored credentials, no
/// redirects followed, bodies capped, and the timeout a deadline for the whole exchange.
struct URLSessionTransport: HTTPTransport {
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
    let exchange = Exchange()
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieStorage = nil
    configuration.urlCache = nil
    configuration.httpShouldSetCookies = false
    configuration.timeoutIntervalForResource = timeout
    let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    let task = session.dataTask(with: urlRequest)
    // URLRequest's timeout only bounds the wait between bytes; this makes it the whole exchange.
    let deadline = Task {
      try await Task.sleep(for: .seconds(timeout))
      exchange.finish(.failure(.timedOut))
      task.cancel()
    }
    defer { deadline.cancel() }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        exchange.start(continuation)
        task.resume()
      }
    } onCancel: {
      exchange.finish(.failure(.cancelled))
      task.cancel()
    }
    return try result.get()
  }
}

/// One request's delegate: refuses redirects, gathers the body up to the limit, and resumes
/// the waiting caller exactly once.
private final class Exchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // NB: URLSession calls a delegate on its own serial queue; the lock covers the caller's
  // deadline and cancellation, which finish from other threads.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Result<HTTPResponse, TransportFailure>, Never>?
  private var outcome: Result<HTTPResponse, TransportFailure>?
  private var response: HTTPURLResponse?
  private var body = Data()

  func start(_ continuation: CheckedContinuation<Result<HTTPResponse, TransportFailure>, Never>) {
    lock.lock()
    if let outcome {
      lock.unlock()
      continuation.resume(returning: outcome)
      return
    }
    self.continuation = continuation
    lock.unlock()
  }

  /// Settles the exchange; only the first outcome counts.
  func finish(_ result: Result<HTTPResponse, TransportFailure>) {
    lock.lock()
    guard outcome == nil else {
      lock.unlock()
      return
    }
    outcome = result
    let waiting = continuation
    continuation = nil
    lock.unlock()
    waiting?.resume(returning: result)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    // A redirect would carry the apikey and the bearer token to wherever it points, and could
    // turn https into http: the redirect itself is the answer.
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    guard let http = response as? HTTPURLResponse else {
      finish(.failure(.unreachable("the answer was not HTTP")))
      completionHandler(.cancel)
      return
    }
    if http.expectedContentLength > Int64(HTTPResponse.maximumBodySize) {
      finish(.failure(.tooLarge(limit: HTTPResponse.maximumBodySize)))
      completionHandler(.cancel)
      return
    }
    lock.lock()
    self.response = http
    lock.unlock()
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    lock.lock()
    body.append(data)
    let tooLarge = body.count > HTTPResponse.maximumBodySize
    if tooLarge { body = Data() }
    lock.unlock()
    if tooLarge {
      finish(.failure(.tooLarge(limit: HTTPResponse.maximumBodySize)))
      dataTask.cancel()
    }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    lock.lock()
    let http = response
    let received = body
    lock.unlock()
    if let error = error as? URLError {
      switch error.code {
      case .timedOut: finish(.failure(.timedOut))
      case .cancelled: finish(.failure(.cancelled))
      default: finish(.failure(.unreachable(error.localizedDescription)))
      }
      return
    }
    if let error {
      finish(.failure(.unreachable("\(error)")))
      return
    }
    guard let http else {
      finish(.failure(.unreachable("no answer came")))
      return
    }
    var headers: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String {
        headers[name.lowercased()] = value
      }
    }
    finish(.success(HTTPResponse(status: http.statusCode, headers: headers, body: received)))
  }
}
