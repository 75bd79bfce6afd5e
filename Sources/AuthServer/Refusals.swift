import GoTrue
import HTTPServer
import IdentityToolkit

/// The requests the HTTP server refuses itself, answered in the shape of the surface they were
/// for: Google's on the Firebase surface, GoTrue's everywhere else (so an SDK reads a refusal
/// as it reads any error of its server).
extension AuthResponder {
  /// `refusal` for a request to `path` (`nil` when the request could not be read).
  public func refusal(_ refusal: ServerRefusal, path: String?) -> HTTPResponse {
    if firebase != nil, let path, FirebaseRoutes.serves(routePath(path)) {
      return FirebaseAnswer.error(
        IdentityToolkitError(
          status: refusal.status, message: refusal.reason,
          statusName: Self.googleStatus(refusal.kind)))
    }
    return Self.goTrueRefusal(refusal, path: path)
  }

  /// `refusal` in GoTrue's error shape.
  static func goTrueRefusal(_ refusal: ServerRefusal, path: String?) -> HTTPResponse {
    if refusal.kind == .methodNotAllowed { return Answer.methodNotAllowed(allowing: []) }
    return Answer.error(
      GoTrueAPIError(
        status: refusal.status, code: GoTrueErrorCode(rawValue: refusal.kind.rawValue),
        message: refusal.reason),
      for: HTTPRequest(method: .get, path: path ?? "/"))
  }

  /// Google's status name for a refusal (`google.rpc.Code`).
  static func googleStatus(_ kind: ServerRefusal.Kind) -> String {
    switch kind {
    case .malformed, .tooLarge, .targetTooLong, .headerTooLarge, .versionNotSupported:
      "INVALID_ARGUMENT"
    case .notImplemented, .methodNotAllowed: "UNIMPLEMENTED"
    case .overConnectionLimit: "UNAVAILABLE"
    case .unexpectedFailure: "INTERNAL"
    }
  }
}
