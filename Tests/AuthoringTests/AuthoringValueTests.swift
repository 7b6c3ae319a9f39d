import ComposableAuthoring
import ComposableCore
import Foundation
import Testing

@Suite("Authoring values")
struct AuthoringValueTests {
  @Test("AuthoringContext encodes grant and identity as strings and round-trips")
  func contextCoding() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(AuthoringContext.alice)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"capabilities":3,"grant":"grant-alice","identity":"alice"}"#)
    #expect(try JSONDecoder().decode(AuthoringContext.self, from: data) == .alice)
  }

  @Test("Capabilities answer what the grant allows")
  func capabilities() {
    #expect(AuthoringContext.alice.canPublish && AuthoringContext.alice.canEdit)
    #expect(!AuthoringContext.bob.canPublish && AuthoringContext.bob.canEdit)
  }

  @Test("The context is derived from the admission")
  func derivedContext() {
    #expect(Authoring.State().context == nil)
    #expect(Authoring.State(admission: .admitted(.bob)).context == .bob)
    #expect(Authoring.State(admission: .denied(AdmissionDenied(reason: "No."))).context == nil)
  }

  @Test("Case paths embed and extract delegate events")
  func casePaths() {
    let validated = CasePath<Authoring.Action, Authoring.Action.Delegate>.delegate
      .appending(.grantValidated)
    #expect(validated.embed(.alice) == .delegate(.grantValidated(.alice)))
    #expect(validated.extract(from: .delegate(.grantValidated(.bob))) == .bob)
    #expect(validated.extract(from: .delegate(.grantInvalidated)) == nil)
    #expect(validated.extract(from: .refreshAdmission) == nil)

    let invalidated = CasePath<Authoring.Action, Authoring.Action.Delegate>.delegate
      .appending(.grantInvalidated)
    #expect(invalidated.embed(()) == .delegate(.grantInvalidated))
    #expect(invalidated.extract(from: .delegate(.grantInvalidated)) != nil)
    #expect(invalidated.extract(from: .delegate(.grantValidated(.alice))) == nil)
  }
}
