import Foundation
import ProcessTestSupport
import Testing

@testable import GitWorkspace

/// The client checks branch names in Swift; git is the judge of what they must answer.
@Suite("Branch name rules")
struct BranchNameRulesTests {
  /// Names on both sides of each of git's rules, and of the client's own two.
  static let names = [
    "main", "feature/x", "release/2026/q4", "a.b", "a-b_c", "HEAD", "@", "a@b", "a{b}", "été",
    "emoji-🙂", "x.lock.y", "a.locked", "a..b", "..", ".a", "a/.b", "a.", "a/b.", "a.lock",
    "a/b.lock", "a.lock/b", ".lock", "/a", "a/", "a//b", "a b", "a\tb", "a\u{7F}b", "a~1",
    "a^b", "a:b", "a?b", "a*b", "a[b", "a]b", "a\\b", "a@{b", "@{", "a@{-1}", "-a", "a/-b",
    "refs/heads/x", "refsx", "", "a/b/c.lock", "a/.lock/b", "a..lock", "...",
  ]

  @Test("Each name is well formed exactly when git check-ref-format says so", .requires(.git))
  func agreesWithGit() async throws {
    for name in Self.names {
      let result = try await GitProcess().run(
        ["check-ref-format", "refs/heads/\(name)"], acceptedStatuses: [0, 1])
      #expect(
        GitBranchNameRules.isWellFormed(name) == (result.status == 0),
        "\(name.debugDescription): git answered \(result.status)")
    }
  }

  @Test("The client also refuses what git would read as an option, and full ref names")
  func refusesOptionsAndFullRefs() {
    #expect(GitBranchNameRules.isUsable("feature/x"))
    for name in ["", "-a", "--force", "refs/heads/x"] {
      #expect(!GitBranchNameRules.isUsable(name), "\(name.debugDescription)")
    }
  }
}
