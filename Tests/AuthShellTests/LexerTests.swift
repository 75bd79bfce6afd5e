import AuthFlowGoTrue
import Clocks
import PrivateFiles
import Testing

@testable import AuthShell

/// Splitting lines into commands and words.
struct LexerTests {
  @Test(arguments: [
    ("", [[String]]()),
    ("   ", []),
    ("# a comment", []),
    ("   # indented comment; set x", []),
    ("show", [["show"]]),
    ("  set   email   a@b.co  ", [["set", "email", "a@b.co"]]),
    ("set\temail\ta@b.co", [["set", "email", "a@b.co"]]),
    (#"set password "two words""#, [["set", "password", "two words"]]),
    ("set password 'it''s'", [["set", "password", "its"]]),
    (#"set password 'a "quoted" word'"#, [["set", "password", #"a "quoted" word"#]]),
    (#"set password "say \"hi\" \\ ok""#, [["set", "password", #"say "hi" \ ok"#]]),
    (#"set password "keep \n as is""#, [["set", "password", #"keep \n as is"#]]),
    (#"set password back\ slash"#, [["set", "password", "back slash"]]),
    (#"set password semi\;colon"#, [["set", "password", "semi;colon"]]),
    ("set password a#b", [["set", "password", "a#b"]]),
    (#"expect field email """#, [["expect", "field", "email", ""]]),
    ("signin; set email a@b.co ;back", [["signin"], ["set", "email", "a@b.co"], ["back"]]),
    (";;  ; show ;", [["show"]]),
    (#"set password "a;b""#, [["set", "password", "a;b"]]),
    ("show\r", [["show"]]),
    ("set email pâté@exämple.com", [["set", "email", "pâté@exämple.com"]]),
    ("set password 密码Secret1", [["set", "password", "密码Secret1"]]),
  ])
  func splits(line: String, expected: [[String]]) throws {
    #expect(Lexer.lex(line[...]) == LexedLine(commands: expected))
  }

  /// An unquoted `#` at the start of a word comments out the rest of the line, as in sh.
  @Test(arguments: [
    ("set email a@b.co # note", [["set", "email", "a@b.co"]]),
    ("set email a@b.co #note; back", [["set", "email", "a@b.co"]]),
    ("signin; # the rest; back", [["signin"]]),
    (##"set password "#quoted" # note"##, [["set", "password", "#quoted"]]),
    ("set password 'a b' #", [["set", "password", "a b"]]),
  ])
  func commentsAfterWords(line: String, expected: [[String]]) {
    #expect(Lexer.lex(line[...]) == LexedLine(commands: expected, hasComment: true))
  }

  @Test func anEscapedHashIsACharacter() {
    #expect(
      Lexer.lex(##"set password \#escaped"##[...])
        == LexedLine(commands: [["set", "password", "#escaped"]]))
  }

  /// A comment may hold anything, so the line is shown and kept without it.
  @Test func aCommentIsNeitherShownNorKept() {
    #expect(LineParser.parse("signin # my password is hunter2").display == "signin")
    #expect(
      LineParser.parse("set email a@b.co #note; back").display == "set email a@b.co")
    #expect(LineParser.parse("set email a#b.co").display == "set email a#b.co")
  }

  @Test(arguments: [
    (#"set password "unclosed"#, ShellError.unbalancedQuote(double: true), ["unclosed"]),
    ("set password 'unclosed", .unbalancedQuote(double: false), ["unclosed"]),
    (#"set password "a" "b"#, .unbalancedQuote(double: true), ["a", "b"]),
    (#"set password ends\"#, .loneBackslash, ["ends"]),
  ])
  func flagsBrokenQuotingButKeepsTheWords(line: String, problem: ShellError, rest: [String]) {
    let lexed = Lexer.lex(line[...])
    #expect(lexed.problem == problem)
    #expect(lexed.commands == [["set", "password"] + rest], "an open quote runs to the end")
    #expect(!problem.text.contains("unclosed"), "errors never echo what was typed")
  }

  @Test(arguments: [
    "plain", "two words", #"quote " and \ slash"#, "semi;colon", "#hash", "", "tab\there",
  ])
  func quotingRoundTrips(word: String) throws {
    #expect(
      Lexer.lex("set password \(Lexer.quote(word))"[...]).commands == [
        ["set", "password", word]
      ])
  }
}
