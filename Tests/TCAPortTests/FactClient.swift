import ComposableCore
import Foundation

struct FactClient {
  var fetch: @Sendable (Int) async throws -> String

  // The recipe in place of `@DependencyClient`: defaults that report when a test calls an
  // endpoint it did not override, so `Self()` is the unimplemented test value.
  init(fetch: @escaping @Sendable (Int) async throws -> String = unimplemented("FactClient.fetch"))
  {
    self.fetch = fetch
  }
}

extension DependencyValues {
  var factClient: FactClient {
    get { self[FactClient.self] }
    set { self[FactClient.self] = newValue }
  }
}

extension FactClient: DependencyKey {
  // Live: a canned answer after a pause (the port has no network).
  static let liveValue = Self(
    fetch: { number in
      try await Task.sleep(for: .seconds(1))
      return "\(number) is a number."
    }
  )

  // Unimplemented: tests that need a fact say which.
  static let testValue = Self()
}
