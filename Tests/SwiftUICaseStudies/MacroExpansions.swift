import ComposableCore

// What TCA's macros generate, written by hand once per feature (no macros here): `@Reducer`'s
// conformance, and one `@CasePathable` line per case a key path names (the extraction is found
// by reflection from the case's constructor). The features' own files keep TCA's lines.

extension EffectsBasics: Reducer {}
extension Timers: Reducer {}
extension Nested: Reducer {}

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
