import ComposableCore

extension Authoring {
  /// `refreshAdmission` / `requestAuthoring`: ask the policy about the current session.
  func requestAdmission(hadContext: Bool) -> Effect<Action> {
    let client = self.client
    let capability = self.capability
    return .run(modifying: State.self) { send, state in
      let outcome: AdmissionOutcome
      do {
        let context = try await client.requestAdmission()
        // The core drops a cancelled effect's sends and modifications, not its client calls:
        // a cancelled (previous identity's) answer must not be persisted over a newer grant.
        guard !Task.isCancelled else { return }
        await client.persist(context.grant)
        // Invalidated while persisting: take the grant back out (conditionally, so a newer
        // identity's grant is never removed).
        guard !Task.isCancelled else {
          await client.discardPersistedGrant(context.grant)
          return
        }
        outcome = .admitted(context)
      } catch let denial as AdmissionDenied {
        outcome = .denied(denial)
      } catch {
        guard !Task.isCancelled else { return }
        // Admission fails closed: an undecided request is a refusal that says why.
        outcome = .denied(AdmissionDenied(reason: String(describing: error)))
      }
      await outcome.apply(hadContext: hadContext, to: state, publishingTo: capability, send: send)
    }
    .cancellable(id: operation(.admission), cancelInFlight: true)
  }
}
