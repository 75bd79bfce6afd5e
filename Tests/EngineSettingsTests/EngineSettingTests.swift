import CommandLineOptions
import GoTrueEngine
import Testing

@testable import EngineSettings

/// The engine's settings: each row sets what it says, refuses what it cannot use with one
/// line, and records what was given, whichever program lists it.
struct EngineSettingTests {
  /// A program's options, as serve's and the shell's hold them.
  struct Options: HoldsEngineSettings {
    var settings = EngineSettings()
  }

  private static let table: [OptionSpec<Options>] = EngineSetting.all.map {
    $0.option(section: "test", readsGoTrueSettings: true)
  }

  private func parse(_ arguments: [String], environment: [String: String] = [:])
    throws(OptionError) -> EngineSettings
  {
    try OptionParser.parse(arguments, table: Self.table, into: Options(), environment: environment)
      .options.settings
  }

  @Test func eachRowSetsTheEngineAndRecordsWhatWasGiven() throws {
    let settings = try parse([
      "--store", ":memory:", "--users", "users.json", "--autoconfirm", "--hash-cost", "5",
      "--password-min-length", "8", "--disable-signup", "--sessions-timebox", "24h",
      "--sessions-inactivity-timeout", "90m", "--secure-password-change", "--seed", "7",
    ])
    var engine = EngineConfiguration()
    engine.autoconfirm = true
    engine.hashCost = 5
    engine.minimumPasswordLength = 8
    engine.disableSignup = true
    engine.sessionLimits = SessionLimits(timebox: 86_400, inactivityTimeout: 5_400)
    engine.passwordChangeNeedsReauthentication = true
    #expect(settings.engine == engine)
    #expect(settings.store == ":memory:" && settings.users == "users.json" && settings.seed == 7)
    #expect(
      settings.given == [
        "--store": ":memory:", "--users": "users.json", "--autoconfirm": "", "--hash-cost": "5",
        "--password-min-length": "8", "--disable-signup": "", "--sessions-timebox": "24h",
        "--sessions-inactivity-timeout": "90m", "--secure-password-change": "", "--seed": "7",
      ])
  }

  @Test func aShortMinimumIsRaisedToSixAsGoTrueDoes() throws {
    #expect(try parse(["--password-min-length", "4"]).engine.minimumPasswordLength == 6)
    #expect(try parse(["--password-min-length", "0"]).engine.minimumPasswordLength == 6)
  }

  @Test(arguments: [
    (
      ["--password-min-length", "73"],
      "--password-min-length takes a length from 0 to 72 (GoTrue raises below 6 to 6)"
    ),
    (
      ["--hash-cost", "15"],
      "--hash-cost takes a number from 4 to 14; the default is 10, GoTrue's; lower it for tests "
        + "only"
    ),
    (
      ["--sessions-timebox", "0"],
      "--sessions-timebox takes a duration such as 24h, 90m or 1h30m (or seconds), at least 1s "
        + "and at most 87600h"
    ),
    (["--seed", "-1"], "--seed takes a whole number; for example --seed 1"),
    (
      ["--store", "mysql://db/auth"],
      "--store takes a path, :memory: or a PostgreSQL URL ("
    ),
  ])
  func aValueItCannotUseIsRefusedInOneLine(arguments: [String], message: String) {
    do throws(OptionError) {
      _ = try parse(arguments)
      Issue.record("\(arguments) was taken")
    } catch {
      let text = error.text(program: "authflow")
      #expect(text.hasPrefix(message), "\(text)")
      #expect(!text.contains("\n"))
    }
  }

  @Test func goTruesVariablesGiveWhatTheCommandLineDoesNot() throws {
    let settings = try parse(
      ["--password-min-length", "10"],
      environment: ["GOTRUE_PASSWORD_MIN_LENGTH": "12", "GOTRUE_MAILER_AUTOCONFIRM": "true"])
    #expect(settings.engine.minimumPasswordLength == 10)
    #expect(settings.engine.autoconfirm)
  }

  @Test func aProgramThatLeavesTheVariablesAloneReadsNone() throws {
    let table: [OptionSpec<Options>] = EngineSetting.all.map {
      $0.option(section: "test", readsGoTrueSettings: false)
    }
    let parsed = try OptionParser.parse(
      [], table: table, into: Options(), environment: ["GOTRUE_DB_DATABASE_URL": ":memory:"])
    #expect(parsed.options.settings.store == nil)
    #expect(table.allSatisfy { $0.environment == nil })
  }

  @Test func theRedirectAllowListIsSplitAtCommasAsGoTrueSplitsIt() throws {
    let settings = try parse(
      [],
      environment: ["GOTRUE_URI_ALLOW_LIST": "myapp://auth/callback, https://*.example.com/**,,"])
    #expect(
      settings.engine.redirectAllowList
        == [
          try RedirectPattern("myapp://auth/callback"),
          try RedirectPattern("https://*.example.com/**"),
        ])
    #expect(settings.engine.redirectAllowList[1].matches("https://app.example.com/a/b"))
    #expect(
      settings.given == ["--redirect-urls": "myapp://auth/callback, https://*.example.com/**,,"])
    do throws(OptionError) {
      _ = try parse(["--redirect-urls", "https://{app,www}.example.com/"])
      Issue.record("a pattern GoTrue would split in two was taken")
    } catch {
      #expect(
        error.text(program: "authflow")
          == "--redirect-urls takes URLs or globs separated by commas; "
          + "'https://{app' has an unclosed { (GoTrue splits the list at every comma)")
    }
  }

  @Test func namesVariablesAndConfigKeysAreEachSaidOnce() {
    let names = EngineSetting.all.flatMap(\.names)
    #expect(Set(names).count == names.count)
    let variables = EngineSetting.all.compactMap(\.environment)
    #expect(Set(variables).count == variables.count)
    let keys = EngineSetting.all.compactMap(\.config?.path)
    #expect(Set(keys).count == keys.count)
  }
}

/// `--password-required-characters`: the Supabase CLI's names and GoTrue's own value, read as
/// GoTrue reads `PASSWORD_REQUIRED_CHARACTERS`.
struct PasswordRequirementTests {
  @Test(arguments: [
    ("a:b:c", ["a", "b", "c"]), ("a\\:b:c", ["a:b", "c"]), ("a:b\\:c", ["a", "b:c"]),
    ("\\:a:b:c", [":a", "b", "c"]), ("a:b:c\\:", ["a", "b", "c:"]), ("::\\::", [":"]),
    ("", []), (" ", [" "]),
  ])
  func goTruesValueIsSplitAsGoTrueSplitsIt(value: String, sets: [String]) {
    #expect(PasswordRequirement.characterSets(value) == sets)
  }

  @Test func theCLIsNamesStandForItsSets() {
    #expect(
      PasswordRequirement.characterSets("lower_upper_letters_digits")
        == ["abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"])
    let symbols = PasswordRequirement.characterSets("lower_upper_letters_digits_symbols")
    #expect(symbols.count == 4)
    #expect(symbols.last == #"!@#$%^&*()_+-=[]{};'\:"|<>?,./`~"#)
  }
}
