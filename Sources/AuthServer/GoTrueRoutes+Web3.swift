import GoTrue
import GoTrueEngine
import HTTPServer

/// `POST /token?grant_type=web3`: Sign in with Solana and Sign in with Ethereum
/// (`Web3Grant` in GoTrue's `internal/api/web3.go`). The engine checks the message.
extension GoTrueRoutes {
  /// The grant, after its rate limit: with both chains off, GoTrue refuses before it reads the
  /// body; then the body as JSON, then the engine's checks. A message refused for its
  /// signature, app or time is answered in GoTrue's OAuth shape (`invalid_grant`).
  static func web3Grant(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse {
    let configuration = context.engine.configuration
    guard configuration.web3Solana || configuration.web3Ethereum else {
      throw .api(
        GoTrueAPIError(
          status: 422, code: .web3ProviderDisabled, message: "Web3 provider is disabled"))
    }
    let body = try context.body().decode(Web3GrantBody.self)
    do {
      return Answer.json(
        try await context.engine.signInWithWeb3(
          chain: body.chain ?? "", message: body.message ?? "", signature: body.signature ?? ""))
    } catch {
      switch error {
      case .refused(let failure): throw failure
      case .invalidGrant(let description):
        return Answer.json(
          JSONValue.object([
            "error": .string("invalid_grant"), "error_description": .string(description),
          ]), status: 400)
      }
    }
  }
}

/// The body of a Web3 grant (GoTrue's `Web3GrantParams`).
private struct Web3GrantBody: Decodable {
  var chain: String?
  var message: String?
  var signature: String?
}
