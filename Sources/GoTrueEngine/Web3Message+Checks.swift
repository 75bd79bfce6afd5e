#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// GoTrue's checks of a signed message's place and time (`web3GrantSolana`,
/// `web3GrantEthereum`), in its order, each refusal an OAuth `invalid_grant` with GoTrue's
/// description.
extension Web3Message {
  /// Why the message may not sign in at `now`, or `nil` when it may: its URI must be HTTPS (or
  /// on `localhost`) and one `isAllowed` takes (GoTrue's `IsRedirectURLValid`), its domain the
  /// URI's host and allowed too (but for `localhost`); `now` within its Not Before and
  /// Expiration Time, and within `maximumValidity` seconds of its Issued At either way.
  /// Ethereum's expiry is checked only when the message also has a Not Before, as GoTrue does.
  package func refusal(
    at now: Date, maximumValidity: Double, isAllowed: (String) -> Bool
  ) -> String? {
    let name = chain.title
    if uri.scheme != "https", uri.hostname != "localhost" {
      return "Signed \(name) message is using URI which does not use HTTPS"
    }
    if !isAllowed(uri.text) {
      return "Signed \(name) message is using URI which is not allowed on this server, "
        + "message was signed for another app"
    }
    if uri.hostname != "localhost", uri.host != domain || !isAllowed("https://\(domain)/") {
      return "Signed \(name) message is using a Domain that does not match the one in URI "
        + "which is not allowed on this server"
    }
    if let notBefore, now < notBefore {
      return "Signed \(name) message becomes valid in the future"
    }
    let checksExpiry = chain == .solana || notBefore != nil
    if checksExpiry, let expirationTime, now > expirationTime {
      return "Signed \(name) message is expired"
    }
    if now > issuedAt.addingTimeInterval(maximumValidity) {
      return "\(name) message was issued too long ago"
    }
    if now < issuedAt.addingTimeInterval(-maximumValidity) {
      return "\(name) message was issued too far in the future"
    }
    return nil
  }
}
