/// At most `limit` holders at a time; the others wait their turn, first come first served.
/// For tests that run heavy external processes (a `fossil server`, and the commands that build
/// its repository): dozens of them starting at once on a 2-core machine starve every other test
/// of the suite, which runs in the same process, until their bounded waits time out.
///
/// ```swift
/// try await Turns.taking(.fossil) {
///   let fixture = try await FossilFixture.start()
///   …
/// }
/// ```
///
/// Waiting for a turn is bounded by the holders' own (bounded) tests.
public actor Turns {
  /// The tests that run a `fossil server`, in every test target of the suite.
  public static let fossil = Turns(limit: 2)

  private let limit: Int
  private var holders = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  public init(limit: Int) {
    self.limit = limit
  }

  /// Returns once the caller holds a turn.
  public func take() async {
    if holders < limit {
      holders += 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  /// Gives the caller's turn to the longest waiter, or back.
  public func give() {
    if waiting.isEmpty {
      holders -= 1
    } else {
      waiting.removeFirst().resume()
    }
  }

  /// Runs `body` (in the caller's isolation) holding a turn of `turns`, given back however
  /// `body` ends.
  public static func taking<T>(
    _ turns: Turns, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
  ) async rethrows -> T {
    await turns.take()
    do {
      let result = try await body()
      await turns.give()
      return result
    } catch {
      await turns.give()
      throw error
    }
  }
}
