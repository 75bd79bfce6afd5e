import CommandLineOptions

/// Reading `authflow serve`'s command line: a project's file (`--config`) first, then the
/// command line and GoTrue's variables over it.
extension ServeOptions {
  /// Reads `arguments` (after `serve`) and GoTrue's variables from `environment`; with
  /// `--config`, the project's file first, so the command line and the variables win.
  static func parse(_ arguments: [String], environment: [String: String])
    throws(ServeOptionsError) -> ServeOptions
  {
    let plain = try read(arguments, into: ServeOptions(), environment: environment)
    guard let path = plain.configPath else { return plain }
    let config: ProjectConfig
    do {
      config = try ProjectConfig.load(path, environment: environment)
    } catch {
      throw .config(error.text)
    }
    var base = ServeOptions()
    for setting in config.settings {
      do {
        try setting.option.apply(&base, setting.value)
      } catch {
        throw .config("\(setting.origin) takes \(error.expected)")
      }
    }
    // The command line's --host replaces the file's, as it replaces the default.
    base.hostsGiven = false
    var options = try read(arguments, into: base, environment: environment)
    options.projectConfig = config
    return options
  }

  /// The command line and the variables over `base`.
  private static func read(
    _ arguments: [String], into base: ServeOptions, environment: [String: String]
  ) throws(ServeOptionsError) -> ServeOptions {
    let parsed: ParsedCommandLine<ServeOptions>
    do {
      parsed = try OptionParser.parse(
        arguments, table: allOptions, into: base, environment: environment)
    } catch {
      throw .option(error)
    }
    if let operand = parsed.operands.first { throw .option(.unknown(operand)) }
    var options = parsed.options
    for (hook, option) in HookOptions.uriOptions
    where parsed.given.contains(where: { $0.names.contains(option) }) {
      options.hooks.uriOnCommandLine.insert(hook)
    }
    if options.noRateLimits {
      // Last, so no variable read after the flag brings a limit back.
      options.settings.engine.rateLimits = .unlimited
      options.settings.engine.emailInterval = 0
      options.settings.engine.smsInterval = 0
      options.requestLimits.isOff = true
    }
    return options
  }
}
