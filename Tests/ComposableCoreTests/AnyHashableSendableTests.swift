import ComposableCore
import Testing

@Suite("AnyHashableSendable")
struct AnyHashableSendableTests {
  private struct ID: Hashable, Sendable { let value: Int }

  private class Animal: Hashable, @unchecked Sendable {
    let name: String
    init(_ name: String) { self.name = name }
    static func == (lhs: Animal, rhs: Animal) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
  }
  private final class Dog: Animal, @unchecked Sendable {}

  @Test("Wrapping a wrapped value, or an optional one, unwraps it: equal, same hash")
  func wrappingAgainUnwraps() {
    let once = AnyHashableSendable(ID(value: 7))
    let twice = AnyHashableSendable(once)
    let optional = AnyHashableSendable(Optional(once))
    #expect(twice == once)
    #expect(optional == once)
    #expect(twice.hashValue == once.hashValue)
    #expect(optional.hashValue == once.hashValue)
    #expect(twice.description == once.description)
  }

  @Test("Values of different types or values differ")
  func differentValuesDiffer() {
    #expect(AnyHashableSendable(ID(value: 7)) != AnyHashableSendable(ID(value: 8)))
    #expect(AnyHashableSendable(ID(value: 7)) != AnyHashableSendable("7"))
    let none: AnyHashableSendable? = nil
    #expect(AnyHashableSendable(none) != AnyHashableSendable(ID(value: 7)))
  }

  @Test("Values compare and hash as AnyHashable compares and hashes them")
  func comparesAsAnyHashable() {
    let pairs: [(any Hashable & Sendable, any Hashable & Sendable)] = [
      (7, UInt8(7)), (7, Optional(7)), ("id", "id"), (ID(value: 7), ID(value: 7)),
      (7, "7"), (ID(value: 7), ID(value: 8)), (1.5, 1.5),
      (Optional<Int>.none, Optional<String>.none), (ID(value: 7), Optional(ID(value: 7))),
      (Dog("rex"), Animal("rex")), (Dog("rex"), Dog("rex")), (Dog("rex"), Animal("max")),
      (Int8(7), UInt64(7)), ("7", Substring("7")),
    ]
    for (left, right) in pairs {
      let wrapped = (AnyHashableSendable(left), AnyHashableSendable(right))
      let plain = (AnyHashable(left), AnyHashable(right))
      #expect((wrapped.0 == wrapped.1) == (plain.0 == plain.1), "\(left) == \(right)")
      if plain.0 == plain.1 {
        #expect(wrapped.0.hashValue == wrapped.1.hashValue, "hash of \(left) and \(right)")
      }
    }
  }

  @Test("As dictionary keys, equal values of different types find each other")
  func dictionaryKeys() {
    var values: [AnyHashableSendable: String] = [AnyHashableSendable(7): "seven"]
    values[AnyHashableSendable(ID(value: 7))] = "id seven"
    #expect(values[AnyHashableSendable(Int64(7))] == "seven")
    #expect(values[AnyHashableSendable(ID(value: 7))] == "id seven")
    #expect(values[AnyHashableSendable("7")] == nil)
    #expect(AnyHashableSendable(ID(value: 7)).description == "ID(value: 7)")
  }
}
