/// How strictly a ``TestStore`` asserts.
///
/// ```swift
/// store.exhaustivity = .off(showSkippedAssertions: true)
/// await store.send(.signIn)
/// await store.receive(.signedIn) { $0.user = "ada" }   // other changes are not asserted
/// ```
public enum Exhaustivity: Sendable, Equatable {
  /// Every state change, received item and running effect must be asserted.
  case on

  /// Only what a test asserts is checked: unasserted state changes, received items and
  /// effects still running at the end are skipped.
  ///
  /// With `showSkippedAssertions`, each skip is shown instead of passing silently: as a known
  /// issue under Swift Testing (`withKnownIssue`), an expected failure under XCTest on Apple
  /// platforms (`XCTExpectFailure`), and a line on standard error under XCTest on Linux (which
  /// has no expected failures). None of them fails the test.
  case off(showSkippedAssertions: Bool)

  /// `.off(showSkippedAssertions: false)`: skips pass silently.
  public static let off = Self.off(showSkippedAssertions: false)
}

extension TestStore {
  /// How strictly a test store asserts (``ComposableTesting/Exhaustivity``).
  public typealias Exhaustivity = ComposableTesting.Exhaustivity
}
