import ComposableCore

extension Authoring {
  /// `restoreAuthorization`: clear incoming shared grants, then revalidate the persisted grant.
  func restore(hadContext: Bool) -> Effect<Action> {
    let client = self.client
    return .run(modifying: State.self) { send, state in
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
        outcome = .revoked
      } catch {
        // Could not validate now (offline, busy): not admitted, but the grant stays persisted
        // for the next start; one network blip must not lose it.
        return
      }
      await outcome.apply(hadContext: hadContext, to: state, send: send)
    }
    .cancellable(id: AuthoringOperation.admission, cancelInFlight: true)
  }
}
