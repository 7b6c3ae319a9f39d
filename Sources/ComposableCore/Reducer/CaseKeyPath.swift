/// TCA's key-path spelling of a case path: `\.factResponse.success`, `\.timerTicked`,
/// `\.rows[id: id].addRowButtonTapped`.
///
/// Each component is a ``CasePath`` declared as a static member on `CasePath where Root == …`
/// (constrained on `Root` only), or one this package supplies (`Result`'s `success`/`failure`,
/// an ``IdentifiedAction``'s `[id:]`), so the path is checked by the compiler like TCA's:
///
/// ```swift
/// extension CasePath where Root == Feature.Action {
///   static var factResponse: CasePath<Root, Result<String, any Error>> {
///     CasePath(Root.factResponse)
///   }
/// }
///
/// await store.receive(\.factResponse.success) { $0.fact = "1 is a good number." }
/// ```
///
/// APIs that take a case path also take a case key path: `TestStore`'s `receive` and `send`,
/// ``Scope``'s `init(state:action:child:)`, and `forEach(_:action:element:)`. The key path is resolved to its ``CasePath`` once, when it is
/// passed; the leading-dot spelling (`.factResponse.success`) works wherever a `CasePath` is
/// expected.
public typealias CaseKeyPath<Root, Value> = KeyPath<CasePath<Root, Root>, CasePath<Root, Value>>

extension CasePath {
  /// The case path a case key path names.
  ///
  /// ```swift
  /// let success: CasePath<Feature.Action, String> = CasePath(\.factResponse.success)
  /// ```
  public init(_ keyPath: CaseKeyPath<Root, Value>) {
    self = CasePath<Root, Root>.`self`[keyPath: keyPath]
  }
}

/// `Result`'s two cases, so that case paths chain through them: `\.factResponse.success`.
/// Only `Result` conforms.
public protocol CasePathResult<Success, Failure> {
  associatedtype Success
  associatedtype Failure: Error
  /// The `success` case.
  static func success(_ value: Success) -> Self
  /// The `failure` case.
  static func failure(_ error: Failure) -> Self
  /// The value, when this is the `success` case.
  var successValue: Success? { get }
  /// The error, when this is the `failure` case.
  var failureValue: Failure? { get }
}

extension Result: CasePathResult {
  public var successValue: Success? {
    if case .success(let value) = self { value } else { nil }
  }

  public var failureValue: Failure? {
    if case .failure(let error) = self { error } else { nil }
  }
}

extension CasePath where Root: CasePathResult {
  /// `Result.success`.
  public static var success: CasePath<Root, Root.Success> {
    CasePath<Root, Root.Success>(embed: Root.success, extract: \.successValue)
  }

  /// `Result.failure`.
  public static var failure: CasePath<Root, Root.Failure> {
    CasePath<Root, Root.Failure>(embed: Root.failure, extract: \.failureValue)
  }
}

extension CasePath {
  /// The action of the element with `id`: `\.rows[id: id].addRowButtonTapped`.
  ///
  /// Extracting from another element's action gives `nil`.
  public subscript<ID, ElementAction>(
    id id: ID
  ) -> CasePath<Root, ElementAction> where Value == IdentifiedAction<ID, ElementAction> {
    appending(
      CasePath<IdentifiedAction<ID, ElementAction>, ElementAction>(
        embed: { .element(id: id, action: $0) },
        extract: { $0.id == id ? $0.action : nil }
      ))
  }
}
