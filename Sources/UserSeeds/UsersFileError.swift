/// Why a users file was refused: one line naming the file, the entry and its field, what was
/// wrong and what would be right. It never carries a password or a hash.
package struct UsersFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file, as it was named.
  package var file: String
  /// The entry (`users[2]`, with its id when it has one), or `nil` for the file as a whole.
  package var entry: String?
  /// The field, or `nil` for the entry as a whole.
  package var field: String?
  /// What was wrong and what would be right.
  package var problem: String

  /// An error about `field` of `entry` in `file`.
  package init(file: String, entry: String? = nil, field: String? = nil, problem: String) {
    self.file = file
    self.entry = entry
    self.field = field
    self.problem = problem
  }

  /// `FILE: users[2] (id): field: problem`.
  package var description: String {
    let place = [entry, field].compactMap { $0 }.joined(separator: ": ")
    return "users file \(file): " + (place.isEmpty ? "" : place + ": ") + problem
  }
}
