import AuthFlow
import CommandLineOptions

/// A mistake in what the user typed, or a setting that cannot work: typed cases, worded in one
/// place (``text``) as one line saying what was wrong and what would be right.
///
/// Cases carry names of commands, fields, options and screens, never argument values, so a
/// password typed in the wrong place cannot end up in an error.
// NB: indirect, so the many payloads do not make every line and result that might carry an
// error as large as the largest of them.
indirect enum ShellError: Error, Equatable, Sendable {
  // MARK: Lines
  /// The line has a quote that is never closed.
  case unbalancedQuote(double: Bool)
  /// The line ends with a backslash that escapes nothing.
  case loneBackslash
  /// The line is longer than the shell reads.
  case lineTooLong(maximum: Int)
  /// The line holds a NUL byte.
  case nulByte
  /// The line is not UTF-8.
  case notUTF8
  /// The line holds a character that drives a terminal (escape, backspace, …).
  case controlCharacter

  // MARK: Commands
  /// No command has this name; `name` is set only when it looks like a typo of `suggestion`.
  case unknownCommand(name: String?, suggestion: String?)
  /// The arguments do not fit the command's grammar.
  case wrongArguments(command: String, expected: String, usage: String)
  /// The word is not a field name (it is not repeated); `suggestion` is one it is close to.
  case unknownField(suggestion: AuthField?)
  /// `expect` with no kind (`given` false), or a kind it does not know (not repeated).
  case unknownExpectation(given: Bool, kinds: [String])
  /// `help` for a command that does not exist (not repeated); `suggestion` is one it is close
  /// to.
  case noHelp(suggestion: String?)

  // MARK: Where a command applies
  /// A button of screens other than this one.
  case wrongScreen(command: String, screens: [AuthScreen], here: AuthScreen, buttons: [String])
  /// A button of the sign-in screens while signed in.
  case hiddenWhileSignedIn(command: String, available: [String])
  /// A field command while signed in.
  case formHidden
  /// A field this screen does not have.
  case noSuchField(AuthField, screen: AuthScreen, fields: [AuthField])
  /// A command of the signed-in user while signed out.
  case needsSignIn(command: String)
  /// A command the backend cannot offer.
  case notOnThisBackend(command: String, feature: BackendFeature, backend: BackendKind)

  // MARK: What a command needed
  /// A mask copied from history or an echo, typed as a secret.
  case maskIsNotAValue(AuthField)
  /// `set <secret>` with no value outside a terminal, or `set email` with none.
  case needsValue(AuthField)
  /// Unseen entry was cancelled.
  case entryCancelled(AuthField)
  /// `set <field> $NAME`, with `NAME` not set in the environment.
  case variableUnset(String, AuthField)
  /// `record FILE` while recording.
  case alreadyRecording(String)
  /// `record stop` while not recording.
  case notRecording
  /// `record FILE --transcript` on a backend whose transcripts change from run to run.
  case transcriptNeedsEmbedded(backend: BackendKind)
  /// The recording cannot be written there.
  case cannotRecord(path: String, reason: String)
  /// A file that no recording made is in the way.
  case wontReplace(String)
  /// `present PORT` while the screen is presented on another port.
  case alreadyPresenting(url: String)
  /// The presented screen's server could not start; `reason` is the server's one line.
  case cannotPresent(port: UInt16, reason: String)
  /// `autofill` with nothing saved.
  case noSavedPassword(email: String?)
  /// A mail command with no email to look for.
  case needsEmail(command: String)
  /// No email was sent to the address.
  case noEmail(to: String)
  /// `mail code` outside the reset-verify screen.
  case mailCodeNeedsResetVerify
  /// `mail code` while signed in, with no reauthentication code sent to the user.
  case noReauthenticationCode(to: String)
  /// `change-password` with no password where nothing can ask for it.
  case newPasswordNeeded
  /// `change-password` with a mask for the password.
  case newPasswordIsAMask
  /// `change-password $NAME` with `NAME` unset where nothing can ask for it.
  case newPasswordVariableUnset(String)
  /// The entry of a new password, or of its code, was cancelled.
  case passwordChangeCancelled
  /// No reset code was sent to the address.
  case noResetCode(to: String)
  /// The link cannot be opened.
  case badLink(AuthDeepLinkError)
  /// The email has a link but no code to fill in or open the app with.
  case emailHasNoCode(id: String)
  /// The mailbox could not be read.
  case mailboxFailed(String)
  /// The backend's clock did not move: why.
  case clockNotMoved(String)
  /// The local store failed under a command: the run did not do what it says.
  case storeFailed(LocalStoreProblem)

  // MARK: The command line
  /// The command line could not be read.
  case option(OptionError)
  /// An option of another backend.
  case optionOfOtherBackend(option: String, backend: String)
  /// Two script files.
  case oneScriptOnly
  /// `authflow play` without a script.
  case playNeedsScript
  /// Both `-c` and a script file.
  case commandsAndScript
  /// The script file cannot be read.
  case cannotRead(path: String, reason: String)
  /// The Supabase backend without a project URL.
  case supabaseNeedsURL
  /// `--seed` on a store other than `:memory:`.
  case seedNeedsMemoryStore
  /// A script's `#!` line asks for options only the command line may give (`offMemory`: those
  /// it may give only on a store other than `:memory:`), each with its words; `program` is how
  /// the script is run (`authflow`, `authflow test`).
  case scriptLineAsks(script: String, program: String, options: [[String]], offMemory: [[String]])
  /// The backend could not be set up; the reason is the backend's own one line.
  case backendUnavailable(String)
  /// A link through the server could not be opened; the reason is the transport's.
  case linkNotOpened(String)
  /// The server sent a link on to a website (its site URL), not into the app: it does not
  /// allow the app's `redirect_to`.
  case linkLeftTheApp(target: String)

  /// The one line users read.
  var text: String {
    switch self {
    case .unbalancedQuote(let double):
      "unbalanced \(double ? "double" : "single") quote; close it, or escape it with a backslash"
    case .loneBackslash:
      "the line ends with a lone backslash; escape it as \\\\"
    case .lineTooLong(let maximum):
      "the line is longer than \(maximum) bytes"
    case .nulByte:
      "the line contains a NUL byte; commands are text"
    case .notUTF8:
      "the line is not valid UTF-8 text"
    case .controlCharacter:
      "the line contains a control character (escape, backspace, …); commands are text"
    case .unknownCommand(let name?, let suggestion?):
      "unknown command '\(shortened(name))'; did you mean '\(suggestion)'? Type help for the list"
    case .unknownCommand(let name?, nil):
      "unknown command '\(shortened(name))'; type help for the list"
    case .unknownCommand(nil, _):
      "unknown command (not repeated, in case it was a secret); type help for the list"
    case .wrongArguments(let command, let expected, let usage):
      "\(command) takes \(expected); usage: \(usage)"
    case .unknownField(let suggestion?):
      "there is no field named that; did you mean '\(suggestion.commandName)'? "
        + "Fields: \(fieldList(AuthField.allCases))"
    case .unknownField(nil):
      "there is no such field (not repeated, in case it was a secret); "
        + "fields: \(fieldList(AuthField.allCases))"
    case .unknownExpectation(true, let kinds):
      "expect cannot check that; one of: \(kinds.joined(separator: ", "))"
    case .unknownExpectation(false, let kinds):
      "expect needs something to check; one of: \(kinds.joined(separator: ", "))"
    case .noHelp(let suggestion?):
      "no command named that; did you mean '\(suggestion)'?"
    case .noHelp(nil):
      "no command named that; type help for the list"
    case .wrongScreen(let command, let screens, let here, let buttons):
      "'\(command)' is on the \(listing(screens.map(\.rawValue))) screen\(screens.count > 1 ? "s" : ""); "
        + "this screen (\(here.rawValue)) has: \(buttons.joined(separator: ", "))"
    case .hiddenWhileSignedIn(let command, let available):
      "'\(command)' is a button of the sign-in screens, hidden while signed in; "
        + "you can use: \(available.joined(separator: ", "))"
    case .formHidden:
      "the form is hidden while signed in; signout first"
    case .noSuchField(let field, let screen, let fields):
      "the \(screen.rawValue) screen has no \(field.commandName) field; "
        + (fields.isEmpty
          ? "open a form first: signin or create" : "its fields: \(fieldList(fields))")
    case .needsSignIn(let command):
      "'\(command)' needs a signed-in user; sign in first: signin, then submit"
    case .notOnThisBackend(let command, .clock, .embedded):
      "'\(command)' needs a store of its own: time travelled here must not reach a store other "
        + "processes share; run with --store :memory:"
    case .notOnThisBackend(let command, let feature, let backend):
      "'\(command)' needs \(feature.phrase); the \(backend.rawValue) backend has none"
    case .maskIsNotAValue(let field):
      "that \(field.commandName) is a mask from history or an echo, not the real value; "
        + "type the value again, or use set \(field.commandName) with no value"
    case .needsValue(let field) where field.isSecret:
      "set \(field.commandName) needs a value; interactive sessions ask for it unseen; "
        + "scripts write set \(field.commandName) <value>"
    case .needsValue(let field):
      "set \(field.commandName) needs a value; usage: set \(field.commandName) <value>"
    case .entryCancelled(let field):
      "cancelled; the \(field.commandName) field is unchanged"
    case .variableUnset(let name, let field):
      "$\(name) is not set; give the \(field.isSecret ? "secret" : "value") for the "
        + "\(field.commandName) field in the environment: \(name)=… authflow FILE"
    case .alreadyRecording(let path):
      "already recording to \(path); record stop ends it first"
    case .notRecording:
      "not recording; record FILE starts"
    case .transcriptNeedsEmbedded(let backend):
      "--transcript needs the embedded backend: on the \(backend.rawValue) backend codes and times "
        + "change from run to run; record FILE without it"
    case .cannotRecord(let path, let reason):
      "cannot record to \(path): \(reason)"
    case .wontReplace(let path):
      "\(path) is there and no recording made it; record to another file, or move it aside"
    case .alreadyPresenting(let url):
      "already presenting at \(url); present alone tells where"
    case .cannotPresent(let port, let reason):
      port == 0
        ? "cannot present the screen: \(reason)"
        : "cannot present the screen on port \(port): \(reason.prefix { $0 != ";" }); "
          + "give another port, or 0 for a free one"
    case .noSavedPassword(let email):
      "no saved password\(email.map { " for \($0)" } ?? ""); "
        + "creating an account in this session saves its password"
    case .needsEmail(let command):
      "\(command) needs an email; set email <address> first"
    case .noEmail(let address):
      "no email has been sent to \(address); mail lists the outbox"
    case .noReauthenticationCode(let address):
      "no password-change code has been sent to \(address); change-password asks for one when "
        + "the backend wants it"
    case .newPasswordNeeded:
      "change-password needs the new password; interactive sessions ask for it unseen; scripts "
        + "write change-password $NAME and give NAME in the environment"
    case .newPasswordIsAMask:
      "that password is a mask from history or an echo, not the real value; use "
        + "change-password with no value to type it unseen"
    case .newPasswordVariableUnset(let name):
      "$\(name) is not set; give the new password in the environment: \(name)=… authflow FILE"
    case .passwordChangeCancelled:
      "cancelled; the password is unchanged"
    case .mailCodeNeedsResetVerify:
      "mail code fills the reset code on the reset-verify screen; "
        + "forgot, then send, to get one; confirmation emails are opened with mail open"
    case .noResetCode(let address):
      "no reset code has been sent to \(address); mail lists the outbox"
    case .badLink(let error):
      error.message
    case .emailHasNoCode(let id):
      "email #\(id) has a link but no code (GoTrue's newer templates); open its link in a "
        + "browser, or add {{ .Token }} to the template"
    case .clockNotMoved(let reason):
      "the clock did not move: \(TerminalText.visible(reason))"
    case .mailboxFailed(let reason):
      reason
    case .storeFailed(.readOnly):
      "the account store is read-only, so nothing this run does can be saved"
    case .storeFailed(.full):
      "the disk is full, so the account store cannot save anything"
    case .storeFailed(.damaged):
      "the account store is damaged; move it aside to start a new one"
    case .storeFailed(.unavailable):
      "the account store could not be read or written"
    case .option(let error):
      error.text(program: "authflow")
    case .optionOfOtherBackend(let option, let backend):
      backend.contains("|")
        ? "\(option) applies to the \(backend.replacing("|", with: " and ")) backends only"
        : "\(option) applies to the \(backend) backend only"
          + (backend == BackendKind.embedded.rawValue ? "" : "; add --backend \(backend)")
    case .playNeedsScript:
      "play takes a script: authflow play FILE [--pace MS] [--step]"
    case .oneScriptOnly:
      "only one script file can be run at a time; see authflow --help"
    case .commandsAndScript:
      "give either -c commands or a script file, not both"
    case .cannotRead(let path, let reason):
      "cannot read \(path): \(reason)"
    case .supabaseNeedsURL:
      "the supabase backend needs the project URL; "
        + "set SUPABASE_URL and SUPABASE_ANON_KEY, or pass --supabase-url and --supabase-key"
    case .seedNeedsMemoryStore:
      "--seed makes every code, token and key predictable, so it only runs on a throw-away "
        + "store; add --store :memory:"
    case .scriptLineAsks(let script, let program, let options, let offMemory):
      scriptLineText(script: script, program: program, options: options, offMemory: offMemory)
    case .backendUnavailable(let reason):
      reason
    case .linkNotOpened(let reason):
      "the link could not be opened: \(reason)"
    case .linkLeftTheApp(let target):
      "the server sent the link on to \(TerminalText.visible(target)), not into the app: its "
        + "redirect URLs do not allow the app's (authflow serve: --redirect-urls 'SCHEME://auth/*')"
    }
  }
}

/// The one line of ``ShellError/scriptLineAsks(script:program:options:offMemory:)``: what the
/// line asks for, and the command that gives it.
private func scriptLineText(
  script: String, program: String, options: [[String]], offMemory: [[String]]
) -> String {
  func shown(_ options: [[String]]) -> String {
    listing(options.map { TerminalText.visible(Lexer.line($0)) })
  }
  var asks = shown(options)
  if !offMemory.isEmpty {
    asks +=
      (options.isEmpty ? "" : ", and for ") + shown(offMemory)
      + " on a store other than :memory:"
  }
  let command = program + " " + Lexer.line((options + offMemory).flatMap { $0 } + [script])
  let source = script == "-" ? "the script on standard input" : Lexer.quote(script)
  return "the #! line of \(TerminalText.visible(source)) asks for \(asks), "
    + "which only the command line may give: run \(TerminalText.visible(command))"
}

/// `a`, `a and b`, `a, b and c` (or another conjunction: `a, b or c`).
func listing(_ items: [String], conjunction: String = "and") -> String {
  guard items.count > 1, let last = items.last else { return items.first ?? "" }
  return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
}

private func fieldList(_ fields: [AuthField]) -> String {
  fields.map(\.commandName).joined(separator: ", ")
}

/// At most 24 characters of a word the user typed, so a pasted wall of text stays one line.
private func shortened(_ word: String) -> String {
  word.count > 24 ? String(word.prefix(24)) + "…" : word
}
