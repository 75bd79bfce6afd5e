#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// One script of a suite: where it is, what reports call it, and where its golden transcript
/// would be.
package struct SuiteScript: Equatable, Sendable {
  /// The script file.
  package var path: String
  /// Its name in reports: the path under the one folder searched, else the path.
  package var name: String
  /// Why it is not run, when a folder holds it as something other than a regular file: the
  /// problem line it fails with.
  package var refusal: String?

  /// The script at `path`, reported as `name`; `refusal` says why it will not run.
  package init(path: String, name: String, refusal: String? = nil) {
    self.path = path
    self.name = name
    self.refusal = refusal
  }

  /// `NAME.transcript` beside `NAME.authflow` (or beside the file, for any other name).
  package var transcriptPath: String {
    (path.hasSuffix(".authflow") ? String(path.dropLast(".authflow".count)) : path)
      + ".transcript"
  }

  /// The scripts under `paths`: a file is itself, a folder gives its `*.authflow` files at any
  /// depth, sorted by name; each script once, in the order the paths give them. A symbolic
  /// link found in a folder is not followed (it could feed any file to the shell, whose `--echo`
  /// prints its comments): it is a script refused, which fails naming it.
  package static func find(in paths: [String]) throws(SuiteScriptsError) -> [SuiteScript] {
    var scripts: [SuiteScript] = []
    for path in paths {
      var status = stat()
      guard stat(path, &status) == 0 else {
        throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
      }
      guard status.st_mode & S_IFMT == S_IFDIR else {
        scripts.append(SuiteScript(path: path, name: path))
        continue
      }
      let folder = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
      let found: [String]
      do {
        found = try FileManager.default.subpathsOfDirectory(atPath: folder)
      } catch {
        throw .cannotRead(path: path, reason: "the folder cannot be listed")
      }
      for subpath in found.filter({ $0.hasSuffix(".authflow") }).sorted() {
        let file = folder + "/" + subpath
        let name = paths.count == 1 ? subpath : file
        guard lstat(file, &status) == 0 else { continue }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
          scripts.append(SuiteScript(path: file, name: name))
        case S_IFLNK:
          let refusal =
            "\(name) is a symbolic link; a suite runs the regular files it finds in a folder, "
            + "and a linked script only when named on the command line"
          scripts.append(SuiteScript(path: file, name: name, refusal: refusal))
        default:
          continue
        }
      }
    }
    var seen = Set<String>()
    scripts = scripts.filter { seen.insert($0.path).inserted }
    guard !scripts.isEmpty else { throw .noScripts(paths) }
    return scripts
  }
}

/// Why no scripts could be found under a suite's paths.
package enum SuiteScriptsError: Error, Equatable, Sendable {
  /// A path that is neither a script nor a folder, or a folder that cannot be listed.
  case cannotRead(path: String, reason: String)
  /// No `*.authflow` scripts under the paths.
  case noScripts([String])
}
