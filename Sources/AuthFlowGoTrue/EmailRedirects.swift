/// Where an app asks its emails' links to lead once the server has verified them: supabase
/// clients' `emailRedirectTo` (sign-up and its resend) and `redirectTo` (password reset).
/// Seed 004's app asks for `volvoxsober://auth/verify` and `volvoxsober://auth/forgot-password`.
/// `nil` leaves the server's site URL; a URL the server's allow list does not hold gets the
/// site URL too.
public struct EmailRedirects: Equatable, Hashable, Sendable {
  /// Where a confirmation link leads.
  public var confirmation: String?
  /// Where a password-reset link leads.
  public var recovery: String?

  /// Redirects to the given places; none by default.
  public init(confirmation: String? = nil, recovery: String? = nil) {
    self.confirmation = confirmation
    self.recovery = recovery
  }

  /// The links of an app whose URL scheme is `scheme`, in seed 004's paths: confirmations to
  /// `<scheme>://auth/verify`. Reset links keep the site URL: the app takes a session from a
  /// link only once the email is confirmed, and resets with the code (the reset-verify form).
  public static func app(scheme: String) -> EmailRedirects {
    EmailRedirects(confirmation: "\(scheme)://auth/verify")
  }
}
