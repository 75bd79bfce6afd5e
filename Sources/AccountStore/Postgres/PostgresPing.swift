import CPostgres

/// Whether a PostgreSQL server answers, as libpq's `PQping` tells without logging in.
package enum PostgresPing: Equatable, Sendable {
  /// It accepts connections.
  case accepting
  /// It answers but refuses connections now (starting up, shutting down, recovering).
  case rejecting
  /// Nothing answered.
  case noResponse
  /// The URL could not be used (libpq did not try).
  case unusable

  /// Asks the server at `url`, waiting at most `timeout` seconds.
  package init(_ url: PostgresURL, timeout: Int = 2) {
    let options: KeyValuePairs = ["connect_timeout": String(max(timeout, 2)), "dbname": url.string]
    let answer = withConnectionOptions(options) { PQpingParams($0, $1, 1) }
    self =
      switch answer {
      case PQPING_OK: .accepting
      case PQPING_REJECT: .rejecting
      case PQPING_NO_RESPONSE: .noResponse
      default: .unusable
      }
  }
}
