extension CasePath {
  /// A case path built from the case's constructor alone: `CasePath(Action.factResponse)`.
  ///
  /// Embedding calls the constructor. Extracting finds the case by reflection, since Swift
  /// has no other way to ask a value which case it is without a pattern written for that case:
  /// `Mirror` gives the root's case name and payload; the payload is taken when it has type
  /// `Value` and the constructor, given it, builds the same case. That costs a `Mirror` or
  /// two per extraction (about a microsecond), so in a reducer that handles many actions per
  /// second prefer ``init(embed:extract:)`` with a pattern match, which costs nothing.
  ///
  /// ```swift
  /// extension CasePath where Root == Feature.Action {
  ///   static var factResponse: CasePath<Root, Result<String, any Error>> {
  ///     CasePath(Root.factResponse)
  ///   }
  /// }
  /// ```
  ///
  /// Limits: `Root` must be an enum that does not customise its mirror (`CustomReflectable`);
  /// for a case with several associated values `Value` is their tuple, so use
  /// ``init(embed:extract:)`` there.
  public init(_ embed: @escaping (Value) -> Root) {
    self.init(embed: embed) { root in
      guard let (label, payload) = EnumCase.labelAndPayload(of: root),
        let value = payload as? Value,
        EnumCase.labelAndPayload(of: embed(value))?.label == label
      else { return nil }
      return value
    }
  }
}

extension CasePath where Value == Void {
  /// A case path to a case without associated values: `CasePath(Action.timerTicked)`.
  ///
  /// Extracting compares cases: with `==` when `Root` is `Equatable`, otherwise by the case
  /// name Swift prints for a value whose type does not customise its description. A `Root`
  /// that is neither `Equatable` nor printed by default cannot be told apart this way: each
  /// extraction reports an issue and answers `nil`; write ``init(embed:extract:)`` instead.
  ///
  /// ```swift
  /// extension CasePath where Root == Timers.Action {
  ///   static var timerTicked: CasePath<Root, Void> { CasePath(Root.timerTicked) }
  /// }
  /// ```
  public init(_ case: Root) {
    self.init(embed: { _ in `case` }) { root in
      EnumCase.isSameCase(root, `case`) ? () : nil
    }
  }
}

/// What reflection can tell of an enum value's case.
enum EnumCase {
  /// The case name and payload of a case with associated values; `nil` for a case without
  /// them, or a value that is not an enum.
  static func labelAndPayload(of value: Any) -> (label: String, payload: Any)? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum, let child = mirror.children.first,
      let label = child.label
    else { return nil }
    return (label, child.value)
  }

  /// Whether `value` is the payload-less case `expected`.
  static func isSameCase<Root>(_ value: Root, _ expected: Root) -> Bool {
    if let equatable = value as? any Equatable {
      return equatable.isEqual(to: expected)
    }
    if value is any CustomStringConvertible || value is any CustomDebugStringConvertible
      || value is any TextOutputStreamable
    {
      reportIssue(
        """
        CasePath(\(Root.self).\(expected)): \(Root.self) is not Equatable and customises its \
        description, so its cases without associated values cannot be told apart. Make it \
        Equatable, or build the case path with init(embed:extract:).
        """
      )
      return false
    }
    // A case without associated values has no payload to reflect; its default description
    // is its name, and differs from every other case's.
    guard Mirror(reflecting: value).children.isEmpty else { return false }
    return String(describing: value) == String(describing: expected)
  }
}

extension Equatable {
  fileprivate func isEqual(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
