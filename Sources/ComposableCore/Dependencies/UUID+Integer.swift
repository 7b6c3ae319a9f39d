import Foundation

extension UUID {
  /// The UUID whose last 12 hex digits spell `intValue`: `UUID(0)` is
  /// 00000000-0000-0000-0000-000000000000, `UUID(1)` …-000000000001. These are what
  /// ``UUIDGenerator/incrementing`` (the test value of `\.uuid`) yields, in order.
  ///
  /// ```swift
  /// await store.send(.addRowButtonTapped) { $0.rows.append(Row.State(id: UUID(0))) }
  /// ```
  ///
  /// Values of 2⁴⁸ and more fill the digits before those; a negative value is read as its
  /// 64-bit pattern.
  public init(_ intValue: Int) {
    let bits = UInt64(bitPattern: Int64(intValue))
    func byte(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: bits >> (8 * (7 - index))) }
    self.init(
      uuid: (
        0, 0, 0, 0, 0, 0, 0, 0,
        byte(0), byte(1), byte(2), byte(3), byte(4), byte(5), byte(6), byte(7)
      ))
  }
}
