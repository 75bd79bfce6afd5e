import CommandLineOptions
import TOML

/// A Supabase project's `supabase/config.toml` as `authflow serve` options: its `[auth]`
/// section and `[api] port` (the port `supabase start` serves `/auth/v1` on), with the key names
/// and units of the Supabase CLI's config. Other services' sections are not serve's business;
/// a key of `[auth]` serve does not support is listed in ``ProjectConfig/unsupported``.
enum SupabaseConfigFile {
  /// What serve does with a key.
  enum Rule: Sendable {
    /// An option of serve's takes the value, as the key's form says.
    case option(OptionSpec<ServeOptions>, ConfigKey.Form)
    /// serve always behaves as this value says; another value is not supported.
    case fixed(TOMLValue)
    /// No bearing on serve (what it would say in an SMS: serve sends none).
    case ignored
  }

  /// The keys serve reads, by their dotted path: each option's own key (``OptionSpec/config``),
  /// and the keys serve has no option for.
  static let rules: [String: Rule] = {
    var rules = fixedRules
    for spec in ServeOptions.allOptions {
      guard let key = spec.config else { continue }
      rules[key.path] = .option(spec, key.form)
    }
    return rules
  }()

  /// The keys serve takes without an option: what it always does, and what it has no use for.
  private static let fixedRules: [String: Rule] = [
    "auth.enabled": .fixed(.boolean(true)),
    "auth.enable_refresh_token_rotation": .fixed(.boolean(true)),
    "auth.email.double_confirm_changes": .fixed(.boolean(true)),
    "auth.email.otp_length": .fixed(.integer(6)),
    "auth.mfa.phone.enroll_enabled": .fixed(.boolean(false)),
    "auth.mfa.phone.verify_enabled": .fixed(.boolean(false)),
    "auth.mfa.phone.otp_length": .ignored,
    "auth.mfa.phone.template": .ignored,
    "auth.mfa.phone.max_frequency": .ignored,
    "auth.mfa.web_authn.enroll_enabled": .fixed(.boolean(false)),
    "auth.mfa.web_authn.verify_enabled": .fixed(.boolean(false)),
  ]

  /// The sections whose keys serve reads one by one; any other section of `[auth]` is
  /// supported only when it is switched off (`enabled = false`).
  private static let sections: Set<String> = {
    // Every section holding a key serve reads, and the sections around it.
    var sections: Set<String> = ["api", "auth"]
    for key in rules.keys {
      var parts = key.split(separator: ".").dropLast()
      while !parts.isEmpty {
        sections.insert(parts.joined(separator: "."))
        parts = parts.dropLast()
      }
    }
    return sections
  }()

  /// The options of config.toml's `text`; `environment` gives the values of `env(NAME)`.
  static func read(_ text: String, file: String, environment: [String: String])
    throws(ProjectConfigError) -> ProjectConfig
  {
    let document: TOMLTable
    do {
      document = try TOMLReader.read(text)
    } catch {
      throw ProjectConfigError("\(file):\(error.line): not TOML: \(error.description)")
    }
    var reading = Reading(file: file, environment: environment)
    try reading.walk(document, path: "")
    // In the file's order (a dotted key's section is walked where its first key is).
    reading.config.unsupported = reading.unsupported.enumerated()
      .sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
      .map { "\($0.element.key) (line \($0.element.line))" }
    return reading.config
  }

  /// A walk through the document, gathering settings and unsupported keys.
  private struct Reading {
    let file: String
    let environment: [String: String]
    var config: ProjectConfig
    var unsupported: [(key: String, line: Int)] = []

    init(file: String, environment: [String: String]) {
      self.file = file
      self.environment = environment
      config = ProjectConfig(kind: .supabase, file: file)
    }

    mutating func walk(_ table: TOMLTable, path: String) throws(ProjectConfigError) {
      for entry in table.entries {
        let key = path.isEmpty ? entry.key : "\(path).\(entry.key)"
        if let rule = rules[key] {
          try apply(rule, entry.value, key: key, line: entry.line)
        } else if case .table(let section) = entry.value, sections.contains(key) {
          try walk(section, path: key)
        } else if path.isEmpty || path == "api" {
          continue  // another service's settings
        } else if case .table(let section) = entry.value, Self.isOff(section) {
          continue
        } else if case .table(let section) = entry.value, Self.isGroup(section) {
          // A group of sections ([auth.hook.*], [auth.external.*]): name the ones on.
          for part in section.entries {
            guard case .table(let partSection) = part.value, !Self.isOff(partSection) else {
              continue
            }
            unsupported.append(("\(key).\(part.key)", part.line))
          }
        } else {
          unsupported.append((key, entry.line))
        }
      }
    }

    /// Whether a section is switched off: `enabled = false`, or every part of it is.
    private static func isOff(_ section: TOMLTable) -> Bool {
      if section["enabled"] == .boolean(false) { return true }
      return !section.entries.isEmpty
        && section.entries.allSatisfy {
          guard case .table(let part) = $0.value else { return false }
          return isOff(part)
        }
    }

    /// Whether a section only holds sections.
    private static func isGroup(_ section: TOMLTable) -> Bool {
      !section.entries.isEmpty
        && section.entries.allSatisfy {
          if case .table = $0.value { return true }
          return false
        }
    }

    private mutating func apply(_ rule: Rule, _ value: TOMLValue, key: String, line: Int)
      throws(ProjectConfigError)
    {
      let origin = "\(file):\(line): \(key)"
      switch rule {
      case .ignored: return
      case .fixed(let supported):
        if value != supported { unsupported.append(("\(key) = \(value.written)", line)) }
      case .option(let option, .value):
        set(option, try text(value, origin: origin), origin)
      case .option(let option, .file):
        let path = try text(value, origin: origin)
        let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
          .joined(separator: "/")
        set(option, path.hasPrefix("/") || folder.isEmpty ? path : "\(folder)/\(path)", origin)
      case .option(let option, .flag(let when)):
        guard case .boolean(let flag) = value else {
          throw ProjectConfigError("\(origin) takes true or false")
        }
        if flag == when { set(option, "", origin) }
      case .option(let option, .onOff):
        guard case .boolean(let flag) = value else {
          throw ProjectConfigError("\(origin) takes true or false")
        }
        set(option, flag ? "true" : "false", origin)
      case .option(let option, .list):
        // A table of pairs (`[auth.sms.test_otp]`) as GoTrue's map variable writes it.
        if case .table(let pairs) = value {
          var texts: [String] = []
          for pair in pairs.entries {
            texts.append("\(pair.key):\(try text(pair.value, origin: origin))")
          }
          if !texts.isEmpty { set(option, texts.joined(separator: ","), origin) }
          return
        }
        // Joined as the Supabase CLI joins them into GoTrue's variable.
        guard case .array(let items) = value else {
          set(option, try text(value, origin: origin), origin)
          return
        }
        var texts: [String] = []
        for item in items {
          guard case .string = item else {
            throw ProjectConfigError("\(origin) takes an array of strings")
          }
          texts.append(try text(item, origin: origin))
        }
        if !texts.isEmpty { set(option, texts.joined(separator: ","), origin) }
      }
    }

    private mutating func set(
      _ option: OptionSpec<ServeOptions>, _ value: String, _ origin: String
    ) {
      config.settings.append(ProjectSetting(option: option, value: value, origin: origin))
    }

    /// A single value as the command line gives it; `env(NAME)` is NAME's value, as the
    /// Supabase CLI reads it.
    private func text(_ value: TOMLValue, origin: String) throws(ProjectConfigError) -> String {
      switch value {
      case .string(let text):
        guard text.hasPrefix("env("), text.hasSuffix(")") else { return text }
        let name = String(text.dropFirst(4).dropLast())
        guard let resolved = environment[name], !resolved.isEmpty else {
          throw ProjectConfigError("\(origin) reads env(\(name)), which is not set")
        }
        return resolved
      case .integer(let number): return String(number)
      case .float(let number): return String(number)
      case .boolean(let flag): return flag ? "true" : "false"
      case .dateTime(let text): return text
      case .array, .table:
        throw ProjectConfigError("\(origin) takes one value, not \(value.written)")
      }
    }
  }
}
