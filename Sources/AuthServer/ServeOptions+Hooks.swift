import CommandLineOptions
import GoTrueEngine

/// GoTrue's HTTP auth hooks as `authflow serve` takes them: for each hook, GoTrue's three
/// variables (`GOTRUE_HOOK_<NAME>_ENABLED`, `_URI`, `_SECRETS`), and on the command line the
/// URI alone turns it on.
struct HookOptions: Sendable {
  /// The custom access token hook (`GOTRUE_HOOK_CUSTOM_ACCESS_TOKEN_*`).
  var customAccessToken = HookEndpoint()
  /// The send-email hook (`GOTRUE_HOOK_SEND_EMAIL_*`).
  var sendEmail = HookEndpoint()
  /// The hooks whose URI the command line gave.
  var uriOnCommandLine: Set<AuthHook> = []

  /// The option that gives each hook's URI.
  static let uriOptions: [AuthHook: String] = [
    .customizeAccessToken: "--hook-custom-access-token", .sendEmail: "--hook-send-email",
  ]

  /// The hooks that are on, with their keys, or one line saying what is wrong.
  func targets() throws(HookSettingsError) -> [AuthHook: HTTPHookDispatcher.Target] {
    var targets: [AuthHook: HTTPHookDispatcher.Target] = [:]
    for (hook, endpoint) in [
      (AuthHook.customizeAccessToken, customAccessToken),
      (.sendEmail, sendEmail),
    ]
    where endpoint.isOn(uriGivenOnCommandLine: uriOnCommandLine.contains(hook)) {
      let keys = try endpoint.keys(option: Self.uriOptions[hook] ?? hook.rawValue)
      targets[hook] = HTTPHookDispatcher.Target(uri: endpoint.uri, keys: keys)
    }
    return targets
  }
}

extension ServeOptions {
  /// The options of the hooks, in the order `--help` lists them.
  static let hookOptions: [OptionSpec<ServeOptions>] =
    options(
      for: \.customAccessToken, option: "--hook-custom-access-token",
      variable: "GOTRUE_HOOK_CUSTOM_ACCESS_TOKEN",
      help: ["call the custom access token hook at URI:", "the claims it answers are signed"])
    + options(
      for: \.sendEmail, option: "--hook-send-email", variable: "GOTRUE_HOOK_SEND_EMAIL",
      help: [
        "call the send-email hook at URI instead of", "sending mail (the outbox keeps a copy)",
      ])

  private static func options(
    for hook: WritableKeyPath<HookOptions, HookEndpoint> & Sendable, option: String,
    variable: String, help: [String]
  ) -> [OptionSpec<ServeOptions>] {
    [
      OptionSpec(
        [option], "URI", help + ["(https, or http on localhost)"], section: "hooks",
        environment: "\(variable)_URI"
      ) { options, value in options.hooks[keyPath: hook].uri = value },
      OptionSpec(
        ["\(option)-secrets"], "SECRETS",
        ["sign its calls (Standard Webhooks) with", "v1,whsec_<base64> secrets, |-separated"],
        section: "hooks", environment: "\(variable)_SECRETS"
      ) { options, value in options.hooks[keyPath: hook].secrets = HookEndpoint.secrets(value) },
      OptionSpec(
        ["\(option)-enabled"], "on|off",
        ["whether it is called (default: on", "when \(option) is given)"], section: "hooks",
        environment: "\(variable)_ENABLED"
      ) { options, value throws(OptionValueError) in
        options.hooks[keyPath: hook].enabled = try switchValue(value)
      },
    ]
  }
}
