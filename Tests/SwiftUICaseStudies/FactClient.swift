import ComposableCore
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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
  // Live: asks the trivia service (no test reaches it: each says which fact it needs).
  static let liveValue = Self(
    fetch: { number in
      try await Task.sleep(for: .seconds(1))
      let (data, _) = try await URLSession.shared
        .data(from: URL(string: "http://number-trivia.com/\(number)/trivia")!)
      return String(decoding: data, as: UTF8.self)
    }
  )

  // Unimplemented: tests that need a fact say which.
  static let testValue = Self()
}
