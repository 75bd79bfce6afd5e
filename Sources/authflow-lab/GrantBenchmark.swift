import AuthCrypto
import GoTrue
import GoTrueEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Grants per second of the engine, side by side: refresh-token rotations, and PKCE code
/// exchanges (the codes made beforehand, each by a recovery with a challenge and its link
/// followed, untimed). Each round times both with `--clients` concurrent clients, in turn, so a
/// busy machine slows both alike; the figures are the medians of the rounds.
struct GrantBenchmark {
  let options: LabOptions
  static let verifier = "bench-verifier-0123456789-0123456789-0123456789"
  static let challenge = PKCEChallenge(
    challenge: Base64URL.encode(SHA256.hash(verifier)), method: .s256)

  func run() async {
    let clients = options.int("clients", default: 8)
    let grants = options.int("grants", default: 2_000)
    let rounds = options.int("rounds", default: 3)
    let folder = "/tmp/authflow-bench-grants-\(getpid())"
    mkdir(folder, 0o700)
    defer {
      for suffix in ["", "-wal", "-shm"] { unlink("\(folder)/auth.db\(suffix)") }
      rmdir(folder)
    }
    let engine = options.engine(store: "\(folder)/auth.db") {
      $0.autoconfirm = true
      $0.emailInterval = 0
      $0.emailLinks = .server(externalURL: "http://127.0.0.1:9999")
    }
    let emails = (0..<clients).map { "grants\($0)@bench.example" }
    do {
      for email in emails {
        _ = try await engine.signUp(email: email, password: "BenchPassword123", data: [:])
      }
    } catch {
      fail("sign-up: \(error)")
    }
    var refreshRates: [Double] = []
    var pkceRates: [Double] = []
    for _ in 0..<rounds {
      refreshRates.append(await refreshRate(engine, emails: emails, grants: grants))
      pkceRates.append(await pkceRate(engine, emails: emails, grants: grants))
    }
    let refresh = median(refreshRates)
    let pkce = median(pkceRates)
    let ratio = (pkce / refresh * 100).rounded() / 100
    emit(
      "clients=\(clients) grants=\(grants) rounds=\(rounds) refresh_per_s=\(Int(refresh)) "
        + "pkce_per_s=\(Int(pkce)) pkce_ratio=\(ratio)")
  }

  /// `grants` refresh grants, shared out over one client per email, each rotating its own.
  private func refreshRate(_ engine: EmbeddedGoTrue, emails: [String], grants: Int) async
    -> Double
  {
    var tokens: [String] = []
    for email in emails {
      guard let session = try? await engine.signIn(email: email, password: "BenchPassword123")
      else { fail("sign-in of \(email) failed") }
      tokens.append(session.refreshToken)
    }
    let each = max(1, grants / emails.count)
    return await timed(count: each * emails.count) {
      await withTaskGroup(of: Void.self) { group in
        for token in tokens {
          group.addTask {
            var token = token
            for _ in 0..<each {
              guard let session = try? await engine.refresh(refreshToken: token) else {
                fail("a refresh grant failed")
              }
              token = session.refreshToken
            }
          }
        }
      }
    }
  }

  /// `grants` PKCE exchanges of codes made beforehand, one client per email.
  private func pkceRate(_ engine: EmbeddedGoTrue, emails: [String], grants: Int) async -> Double {
    let each = max(1, grants / emails.count)
    var codes: [[String]] = []
    for email in emails {
      var mine: [String] = []
      for _ in 0..<each {
        mine.append(await authCode(engine, email: email))
      }
      codes.append(mine)
    }
    return await timed(count: each * emails.count) {
      await withTaskGroup(of: Void.self) { group in
        for mine in codes {
          group.addTask {
            for code in mine {
              guard (try? await engine.exchangeAuthCode(code, verifier: Self.verifier)) != nil
              else { fail("a PKCE exchange failed") }
            }
          }
        }
      }
    }
  }

  /// The auth code of a recovery begun with the challenge and its link followed.
  private func authCode(_ engine: EmbeddedGoTrue, email: String) async -> String {
    do {
      try await engine.recover(email: email, redirectTo: nil, pkce: Self.challenge)
      guard let link = engine.outbox.newest(to: email)?.link,
        let token = link.split(separator: "token=").last?.split(separator: "&").first,
        case .authorizationCode(let code) = try await engine.verifyLink(
          type: .recovery, tokenHash: String(token), inBrowser: true)
      else { fail("no auth code for \(email)") }
      return code
    } catch {
      fail("a PKCE flow failed: \(error)")
    }
  }

  private func timed(count: Int, _ body: () async -> Void) async -> Double {
    let start = ContinuousClock.now
    await body()
    let elapsed = ContinuousClock.now - start
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(count) / seconds
  }

  private func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
  }
}
