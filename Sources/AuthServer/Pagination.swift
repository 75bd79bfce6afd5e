import GoTrue
import GoTrueEngine
import HTTPServer

/// A page of a list as GoTrue's `paginate` reads it (`api/pagination.go`): `page` and
/// `per_page` as Go's `strconv.ParseUint` reads them (any `uint64`; empty is the default), and
/// the `X-Total-Count` and `Link` headers it adds.
struct Pagination {
  /// The page asked for, from 1 (0 is taken, and read as 1 by the query, as pop reads it).
  let page: UInt64
  /// How many to a page.
  let perPage: UInt64

  /// GoTrue's page size when none is asked for.
  static let defaultPerPage: UInt64 = 50

  /// The pagination of `request`, or GoTrue's 400 for a number `ParseUint` refuses.
  init(_ request: HTTPRequest) throws(GoTrueFailure) {
    page = try Self.number(request.queryValue("page"), default: 1)
    perPage = try Self.number(request.queryValue("per_page"), default: Self.defaultPerPage)
    // GoTrue divides by `per_page` for its headers once the page is read: `0` is a Go panic,
    // which its recoverer answers with a 500 (the page read first changes nothing).
    guard perPage > 0 else {
      throw .api(
        GoTrueAPIError(status: 500, code: .unexpectedFailure, message: "Internal Server Error"))
    }
  }

  /// At most this many rows (a page larger than any store is all of it).
  var limit: Int { Int(min(perPage, UInt64(Int32.max))) }

  /// Rows skipped before the page: past every store's size for a page beyond them. A page past
  /// Int64's range wraps negative in Go and pop reads it as page 1, as here.
  var offset: Int64 {
    let first = page > UInt64(Int64.max) ? 1 : max(page, 1)
    let (skipped, overflow) = (first - 1).multipliedReportingOverflow(by: perPage)
    return overflow || skipped > UInt64(Int64.max) ? Int64.max : Int64(skipped)
  }

  /// `X-Total-Count` and GoTrue's `Link`: the next page when there is one, and always the last,
  /// each the request's own query with `page` set, re-encoded as Go's `Values.Encode` does
  /// (sorted by name).
  func headers(for request: HTTPRequest, total: Int) -> [(String, String)] {
    let count = UInt64(max(0, total))
    let lastPage = count / perPage + (count % perPage > 0 ? 1 : 0)
    func link(_ target: UInt64, _ relation: String) -> String {
      var query = request.query.filter { $0.name != "page" }.map { ($0.name, $0.value) }
      query.append(("page", "\(target)"))
      // A stable sort by name keeps each name's values in their order, as Go's map of lists.
      let sorted = query.enumerated().sorted {
        $0.element.0 == $1.element.0 ? $0.offset < $1.offset : $0.element.0 < $1.element.0
      }.map(\.element)
      return "<\(request.path)?\(FormEncoding.encode(sorted))>; rel=\"\(relation)\""
    }
    var links: [String] = []
    if lastPage > page { links.append(link(page + 1, "next")) }
    links.append(link(lastPage, "last"))
    return [("X-Total-Count", "\(total)"), ("Link", links.joined(separator: ", "))]
  }

  /// A parameter as `strconv.ParseUint(text, 10, 64)` reads it, with its error words.
  private static func number(_ text: String?, default fallback: UInt64) throws(GoTrueFailure)
    -> UInt64
  {
    guard let text, !text.isEmpty else { return fallback }
    let shown = text
    guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
      throw refusal("strconv.ParseUint: parsing \(GoText.quoted(shown)): invalid syntax")
    }
    guard let number = UInt64(text) else {
      throw refusal("strconv.ParseUint: parsing \(GoText.quoted(shown)): value out of range")
    }
    return number
  }

  private static func refusal(_ reason: String) -> GoTrueFailure {
    .api(.invalid("Bad Pagination Parameters: \(reason)"))
  }
}
