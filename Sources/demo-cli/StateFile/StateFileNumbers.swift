import Foundation
import WorkspaceDemoFeature

/// The numbers of a state file, range-checked before anything reads them.
///
/// A state file holds only counters (`system.lastTokenNumber`, `system.lastGrantNumber`) and
/// its version, and the demo system does arithmetic on the counters (`+ 1` at every sign-in).
/// A file with a number anywhere that is not a whole number from 0 to ``largest`` is refused,
/// so a hostile or damaged value never reaches that arithmetic.
enum StateFileNumbers {
  /// The largest number a state file may hold (a billion sign-ins).
  static let largest = DemoSystemSnapshot.largestCounter

  /// Throws `StateFileError.corrupt` naming the first number out of range and where it is.
  /// Data that is not JSON is left to the decoder to explain.
  static func check(_ data: Data) throws(StateFileError) {
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: data),
      let (path, number) = firstOutOfRange(value, path: [])
    else { return }
    throw .corrupt(
      "\(number) at \(path.isEmpty ? "the top" : path.joined(separator: ".")) is out of range "
        + "(a whole number from 0 to \(largest))")
  }

  private static func firstOutOfRange(_ value: JSONValue, path: [String]) -> ([String], Decimal)? {
    switch value {
    case .number(let number):
      var whole = Decimal()
      var copy = number
      NSDecimalRound(&whole, &copy, 0, .plain)
      let allowed = whole == number && number >= 0 && number <= Decimal(largest)
      return allowed ? nil : (path, number)
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        if let found = firstOutOfRange(element, path: path + ["\(index)"]) { return found }
      }
      return nil
    case .object(let members):
      for (key, member) in members.sorted(by: { $0.key < $1.key }) {
        if let found = firstOutOfRange(member, path: path + [key]) { return found }
      }
      return nil
    case .other:
      return nil
    }
  }
}

/// Any JSON value, with its numbers exact (`Decimal`, so `9223372036854775807` is not rounded).
private enum JSONValue: Decodable {
  case number(Decimal)
  case array([JSONValue])
  case object([String: JSONValue])
  /// A string, a Boolean or null.
  case other

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() || (try? container.decode(String.self)) != nil
      || (try? container.decode(Bool.self)) != nil
    {
      self = .other
    } else if let number = try? container.decode(Decimal.self) {
      self = .number(number)
    } else if let elements = try? container.decode([JSONValue].self) {
      self = .array(elements)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }
}
