import ComposableCore
import Testing

@Suite("AnyHashableSendable")
struct AnyHashableSendableTests {
  private struct ID: Hashable, Sendable { let value: Int }

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
}
