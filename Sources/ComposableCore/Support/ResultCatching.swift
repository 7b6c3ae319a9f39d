extension Result where Failure == any Error {
  /// The result of async work: `.success` with what `body` returns, `.failure` with what it
  /// throws.
  ///
  /// ```swift
  /// await send(.factResponse(Result { try await factClient.fetch(count) }))
  /// ```
  public init(catching body: () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
