/// A status message shown above the form: never at the same time as an error message.
public struct AuthBanner: Equatable, Hashable, Sendable {
  /// How the banner should look.
  public enum Kind: String, Equatable, Hashable, Sendable {
    /// Neutral information, such as "check your email".
    case info
    /// Something the user asked for has been done.
    case success
    /// A condition that blocks the user, such as being offline.
    case warning
  }

  /// The text of the banner.
  public var message: String
  /// How the banner should look.
  public var kind: Kind

  /// A banner with `message` shown as `kind`.
  public init(_ message: String, kind: Kind) {
    self.message = message
    self.kind = kind
  }
}

extension AuthBanner {
  /// Submit was tapped while offline.
  public static let offline = AuthBanner(
    "You're offline. Try again once you're connected.", kind: .warning)

  /// A reset code was requested; the same words whether or not the account exists.
  public static let resetCodeSent = AuthBanner(
    "If an account exists for that email, we've sent it a 6-digit code. It expires in 24 hours.",
    kind: .info)

  /// A reset link was requested from a backend whose codes only travel in links (Firebase).
  public static let resetLinkSent = AuthBanner(
    "If an account exists for that email, we've sent it a link to reset the password. Open it here with open <link>.",
    kind: .info)

  /// Signed out while offline: the device forgot the session, and the server is told once the
  /// network is back.
  public static let signedOutOffline = AuthBanner(
    "You're signed out on this device. We'll tell the server once you're connected.", kind: .info)

  /// A new account is signed in and its confirmation email is on its way (seed 003).
  public static let verificationSent = AuthBanner(
    "Your account is ready. Check your email to verify your address.", kind: .info)

  /// A new account is signed in, but its verification email could not be sent.
  public static let verificationNotSent = AuthBanner(
    "Your account is ready, but we couldn't send the verification email. Ask for it again in a "
      + "moment.", kind: .warning)

  /// The signed-in user's email was verified from its link.
  public static let emailVerified = AuthBanner("Your email is verified.", kind: .success)

  /// The signed-in user asked for the verification email again.
  public static let verificationResent = AuthBanner(
    "We've sent the verification email again. Open its link, then reload.", kind: .info)

  /// The new password is set; the user signs in with it next.
  public static let passwordUpdated = AuthBanner(
    "Your password has been updated. Sign in with your new password.", kind: .success)

  /// The signed-in user changed their password and stays signed in.
  public static let passwordChanged = AuthBanner(
    "Your password has been changed. You're still signed in.", kind: .success)

  /// A password change needs the code just emailed to the signed-in user (GoTrue's secure
  /// password change, for a session over a day old).
  public static let reauthenticationCodeSent = AuthBanner(
    "To change your password, enter the 6-digit code we've just emailed you.", kind: .info)

  /// The account exists but its email has to be confirmed before the first sign-in.
  public static let confirmationSent = AuthBanner(
    "Check your email to confirm your account, then sign in.", kind: .info)

  /// A signup repeated an address still waiting for confirmation.
  public static let confirmationSentKeepsPassword = AuthBanner(
    "This email was already signed up and waits for confirmation. We've sent the link again; "
      + "sign in afterwards with the password chosen the first time.", kind: .info)

  /// Another confirmation email was requested; it says nothing about the account.
  public static let confirmationResent = AuthBanner(
    "If that account is waiting for confirmation, we've sent a new link.", kind: .info)

  /// A recovery link was followed: the code is filled in and a new password is next.
  public static let chooseNewPassword = AuthBanner(
    "Choose a new password to finish resetting it.", kind: .info)

  /// The account and everything kept with it were deleted.
  public static let accountDeleted = AuthBanner(
    "Your account and its data have been deleted.", kind: .success)

  /// A confirmation link was followed successfully.
  public static let emailConfirmed = AuthBanner(
    "Your email is confirmed. Sign in to continue.", kind: .success)
}
