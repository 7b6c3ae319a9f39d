import ComposableCore
import Foundation
import ProcessSupport
import Testing
import XCTest

/// A program outside the toolchain that some tests run (`git`, `fossil`).
///
/// On a machine without it those tests are skipped — `swift test` passes on a fresh machine
/// and says what it left out: one line at the start of the run names the program and how to
/// install it, and each skipped test says which program it needed. Where every test must run (`.ci/run` sets `COMPOSABLE_WORKSPACE_REQUIRE_TOOLS=1`
/// after installing the tools), nothing is skipped: a missing program fails its tests.
///
/// ```swift
/// @Suite("Fossil sign-in", .requires(.fossil))
/// struct SignInTests { … }
/// ```
public struct ExternalTool: Sendable, CustomStringConvertible {
  /// The program's name, looked up on `PATH`.
  public let name: String
  /// The Debian package that installs it.
  public let package: String

  public static let git = ExternalTool(name: "git", package: "git")
  public static let fossil = ExternalTool(name: "fossil", package: "fossil")

  /// The variable that makes every tool required (no test skipped).
  public static let requirementVariable = "COMPOSABLE_WORKSPACE_REQUIRE_TOOLS"

  /// Whether this run must not skip a test for a missing tool.
  public static var everyToolIsRequired: Bool {
    ProcessInfo.processInfo.environment[requirementVariable] == "1"
  }

  /// Whether the program is on `PATH` and executable.
  public var isAvailable: Bool { ProcessRunner.findOnPath(name) != nil }

  /// Whether tests needing it run: it is there, or the run requires it (and then fails).
  public var testsRun: Bool { isAvailable || Self.everyToolIsRequired }

  /// Why a test was skipped.
  public var description: String {
    "needs `\(name)` (`sudo apt-get install -y \(package)`)"
  }

  /// The line that tells, once per run, which tests are skipped and how to run them.
  public var skipAnnouncement: String {
    "Skipping the tests that need `\(name)`: it is not on PATH. Install it "
      + "(`sudo apt-get install -y \(package)`) or run `.ci/run` as root, which installs every "
      + "tool and runs every test."
  }

  /// ``testsRun``, announcing the skip on standard error the first time it is `false`.
  func testsRunAnnouncingSkips() -> Bool {
    guard !testsRun else { return true }
    let first = Self.announced.withValue { $0.insert(name).inserted }
    if first { FileHandle.standardError.write(Data("⚠︎ \(skipAnnouncement)\n".utf8)) }
    return false
  }

  private static let announced = LockIsolated<Set<String>>([])

  /// For XCTest cases: skips the test unless ``testsRun``.
  public func skipUnlessAvailable() throws {
    try XCTSkipUnless(testsRunAnnouncingSkips(), description)
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs the suite or test only where `tool` is installed (or where every tool is required:
  /// see ``ExternalTool``); elsewhere it is skipped with one line saying what to install.
  public static func requires(_ tool: ExternalTool) -> Self {
    .enabled(if: tool.testsRunAnnouncingSkips(), Comment(rawValue: tool.description))
  }
}
