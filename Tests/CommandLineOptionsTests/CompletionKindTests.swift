import CommandLineOptions
import Testing

/// What Tab offers for a value, read from the value's placeholder unless declared.
struct CompletionKindTests {
  @Test(arguments: [
    ("FILE", CompletionKind.file(extensions: [])),
    ("PATH|:memory:", .file(extensions: [])),
    ("FILE|JSON", .file(extensions: [])),
    ("FILE.dot|FILE.svg", .file(extensions: ["dot", "svg"])),
    ("embedded|supabase|firebase", .list(["embedded", "supabase", "firebase"])),
    ("HOST:PORT|local", .list(["local"])),
    ("true|false", .list(["true", "false"])),
    ("N", .none),
    ("URL", .none),
  ])
  func aPlaceholderSaysWhatItsValueIs(placeholder: String, kind: CompletionKind) {
    #expect(CompletionKind(placeholder: placeholder) == kind)
  }

  @Test func aFlagTakesNothingAndADeclaredKindWins() {
    #expect(CompletionKind(placeholder: nil) == CompletionKind.none)
    let declared = OptionSpec<Int>(
      ["--cache"], "DIR", ["a folder"], section: "s", completion: .directory
    ) {
      _, _ in
    }
    #expect(declared.described.completion == .directory)
    #expect(declared.described.summary == "a folder")
  }

  @Test func eachShellInstallsItsScriptWhereItLooks() {
    #expect(CompletionShell.choices == "bash|zsh|fish")
    #expect(
      CompletionShell.allCases.map { $0.installedPath(program: "tool") } == [
        "share/bash-completion/completions/tool", "share/zsh/site-functions/_tool",
        "share/fish/vendor_completions.d/tool.fish",
      ])
  }
}
