/// An ordered list of HTTP header fields, looked up by case-insensitive name.
///
/// ```swift
/// var headers = HTTPHeaders()
/// headers.add("Accept", "application/json")
/// headers["accept"]  // "application/json"
/// ```
///
/// Values never contain CR or LF: they are replaced by spaces when added, so a header can
/// never be split into two by a caller's or a server's text.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  /// One header field.
  public struct Field: Sendable, Hashable {
    public let name: String
    public let value: String
  }

  private var fields: [Field] = []

  public init() {}

  public init(dictionaryLiteral elements: (String, String)...) {
    for (name, value) in elements { add(name, value) }
  }

  /// The first value of `name`, or `nil`. Setting replaces every value of `name` (or removes
  /// them all when `nil`).
  public subscript(name: String) -> String? {
    get { fields.first { $0.name.lowercased() == name.lowercased() }?.value }
    set {
      remove(name)
      if let newValue { add(name, newValue) }
    }
  }

  /// Every value of `name`, in order (e.g. each `Set-Cookie` line).
  public func values(for name: String) -> [String] {
    let lowered = name.lowercased()
    return fields.filter { $0.name.lowercased() == lowered }.map(\.value)
  }

  /// Appends a field, keeping any earlier ones of the same name.
  public mutating func add(_ name: String, _ value: String) {
    fields.append(Field(name: Self.clean(name), value: Self.clean(value)))
  }

  /// Removes every field named `name`.
  public mutating func remove(_ name: String) {
    let lowered = name.lowercased()
    fields.removeAll { $0.name.lowercased() == lowered }
  }

  /// Whether a field named `name` is present.
  public func contains(_ name: String) -> Bool {
    self[name] != nil
  }

  public var count: Int { fields.count }

  public func makeIterator() -> IndexingIterator<[Field]> {
    fields.makeIterator()
  }

  private static func clean(_ text: String) -> String {
    guard text.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return text }
    return String(text.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 })
  }
}
