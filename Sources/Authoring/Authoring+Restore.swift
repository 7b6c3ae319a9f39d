import ComposableCore

extension Authoring {
  /// `restoreAuthorization`: drop any context carried in, clear incoming shared grants, then
  /// revalidate the persisted grant.
  func restore(_ state: inout State) -> Effect<Action> {
    // Fail closed: a context the state carried in (an app restoring a saved state) is not in
    // force until it is validated now.
    let carried = state.context != nil
    if carried { state.admission = .notAdmitted }
    let client = self.client
    let capability = self.capability
    let revalidation = Effect<Action>.run(modifying: State.self) { send, state in
      // First, and awaited: nothing below may read or validate while a shared grant waits.
      await client.clearIncomingSharedGrants()
      guard !Task.isCancelled, let grant = await client.restorePersistedGrant(), !Task.isCancelled
      else { return }
      let outcome: AdmissionOutcome
      do {
        let context = try await client.validate(grant)
        guard context.grant == grant else {
          reportIssue(
            """
            AuthoringClient.validate answered with a context for another grant than the one it \
            was asked to validate; the answer was ignored.
            """
          )
          return
        }
        outcome = .admitted(context)
      } catch is AuthoringGrantRejected {
        guard !Task.isCancelled else { return }
        await client.discardPersistedGrant(grant)
        return
      } catch let denial as AdmissionDenied {
        // The policy refuses this session now: the same answer admission would give.
        guard !Task.isCancelled else { return }
        await client.discardPersistedGrant(grant)
        outcome = .denied(denial)
      } catch {
        // Could not validate now (offline, busy): not admitted, but the grant stays persisted
        // for the next start; one network blip must not lose it.
        return
      }
      await outcome.apply(hadContext: false, to: state, publishingTo: capability, send: send)
    }
    .cancellable(id: operation(.admission), cancelInFlight: true)
    return carried ? .merge(.send(.delegate(.grantInvalidated)), revalidation) : revalidation
  }
}
