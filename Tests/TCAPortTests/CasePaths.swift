import ComposableCore

// What `@CasePathable` generates in TCA, written once per case a key path names: one line
// each, the extraction found by reflection from the case's constructor.

extension CasePath where Root == EffectsBasics.Action {
  static var decrementDelayResponse: CasePath<Root, Void> { .init(Root.decrementDelayResponse) }
  static var numberFactResponse: CasePath<Root, Result<String, any Error>> {
    .init(Root.numberFactResponse)
  }
}

extension CasePath where Root == Timers.Action {
  static var timerTicked: CasePath<Root, Void> { .init(Root.timerTicked) }
}

extension CasePath where Root == Nested.Action {
  static var addRowButtonTapped: CasePath<Root, Void> { .init(Root.addRowButtonTapped) }
  static var rows: CasePath<Root, IdentifiedActionOf<Nested>> { .init(Root.rows) }
}
