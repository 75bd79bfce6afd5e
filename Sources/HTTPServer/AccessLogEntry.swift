/// One line of the access log: the server reports each reply it sends, on the loop thread.
///
/// The path never includes the query, which may carry tokens or email addresses.
public struct AccessLogEntry: Sendable, Equatable {
  /// The request method, such as `GET`.
  public var method: String
  /// The percent-decoded path, without the query.
  public var path: String
  /// The status that was sent.
  public var status: Int
  /// From the moment the whole request had arrived to the moment its reply went to libevent.
  public var duration: Duration
  /// Why the server replaced the responder's reply (a 500 for a header with CR/LF, say), for
  /// whoever reads the log; nil when the responder's reply went out as built.
  public var problem: String?

  /// An entry with the given fields.
  public init(
    method: String, path: String, status: Int, duration: Duration, problem: String? = nil
  ) {
    self.method = method
    self.path = path
    self.status = status
    self.duration = duration
    self.problem = problem
  }
}
