import Testing

@testable import ScriptSuites

/// The line diff behind golden transcripts: a shortest edit script, and unified hunks with up to
/// three lines of context.
struct LineDiffTests {
  func diff(_ old: String, _ new: String) -> [String] {
    LineDiff.unified(old: Array(old.utf8), new: Array(new.utf8), oldName: "old", newName: "new")
  }

  @Test func theSameTextHasNoDiff() {
    #expect(diff("", "") == [])
    #expect(diff("a\nb\n", "a\nb\n") == [])
  }

  @Test func aChangedLineComesWithThreeLinesOfContextEachSide() {
    let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
    #expect(
      diff(old, old.replacing("5\n", with: "five\n")) == [
        "--- old", "+++ new", "@@ -2,7 +2,7 @@", " 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8",
      ])
  }

  @Test func changesFarApartAreTwoHunksAndNearOnesOne() {
    let old = (1...20).map { "\($0)\n" }.joined()
    let far = old.replacing("2\n3\n", with: "2\nthree\n").replacing("18\n", with: "")
    #expect(
      diff(old, far) == [
        "--- old", "+++ new",
        "@@ -1,6 +1,6 @@", " 1", " 2", "-3", "+three", " 4", " 5", " 6",
        "@@ -15,6 +15,5 @@", " 15", " 16", " 17", "-18", " 19", " 20",
      ])
    let near = (1...20).map { $0 == 3 ? "three\n" : $0 == 10 ? "ten\n" : "\($0)\n" }.joined()
    #expect(diff(old, near).filter { $0.hasPrefix("@@") } == ["@@ -1,13 +1,13 @@"])
  }

  @Test func insertionsAndDeletionsAtTheEdges() {
    #expect(diff("", "a\n") == ["--- old", "+++ new", "@@ -0,0 +1,1 @@", "+a"])
    #expect(diff("a\n", "") == ["--- old", "+++ new", "@@ -1,1 +0,0 @@", "-a"])
    #expect(
      diff("b\nc\n", "a\nb\nc\n") == ["--- old", "+++ new", "@@ -1,2 +1,3 @@", "+a", " b", " c"])
  }

  @Test func aMissingFinalNewlineIsShown() {
    #expect(
      diff("a\nb\n", "a\nb") == [
        "--- old", "+++ new", "@@ -1,2 +1,2 @@", " a", "-b", "+b", "\\ No newline at end of file",
      ])
  }

  @Test func linesCompareByteForByte() {
    // "é" precomposed and as e with a combining accent are equal Strings, not equal bytes.
    #expect(diff("caf\u{E9}\n", "cafe\u{301}\n").count == 5)
  }

  @Test func theEditScriptIsAsShortAsTheLongestCommonSubsequenceAllows() {
    var random = SplitMix(seed: 13)
    for _ in 0..<300 {
      let old = (0..<random.below(12)).map { _ in random.below(4) }
      let new = (0..<random.below(12)).map { _ in random.below(4) }
      let edits = LineDiff.edits(old, new)
      let common = lcs(old, new)
      #expect(edits.filter { $0.kind == .same }.count == common)
      #expect(edits.count == old.count + new.count - common)
      // Applying the script to old gives new.
      var rebuilt: [Int] = []
      for edit in edits where edit.kind != .removed {
        rebuilt.append(edit.kind == .same ? old[edit.old] : new[edit.new])
      }
      #expect(rebuilt == new, "\(old) → \(new)")
      #expect(edits.filter { $0.kind != .inserted }.map(\.old) == Array(old.indices))
    }
  }

  private func lcs(_ a: [Int], _ b: [Int]) -> Int {
    var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in a.indices.reversed() {
      for j in b.indices.reversed() {
        table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    return table[0][0]
  }
}

/// A small deterministic random number generator for generated cases.
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
