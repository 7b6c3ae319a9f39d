import DemoBackendInterface
import Foundation

/// A proposal's review discussion: shown, and posted to as the signed-in person.
extension CommandExecutor {
  func discuss(_ name: String, text: String?) async -> CommandOutcome {
    guard let discussion = host.discussion else {
      return .failure(
        "proposals on \(host.backend.placeDescription) have no discussion (the Fossil backend "
          + "keeps one on its forum)")
    }
    let id = proposalID(named: name)
    var outcome = CommandOutcome()
    if let text {
      do {
        let post = try await discussion.post(text, on: id)
        outcome.success(
          post.isAwaitingModeration
            ? "posted to \(name)'s discussion as \(post.author); it waits for a moderator's "
              + "approval (only they and you see it until then)"
            : "posted to \(name)'s discussion as \(post.author)")
      } catch {
        // Not "refused": a post whose answer was lost may have been made (the error says so).
        outcome.fail("discuss: \(error)")
        return outcome
      }
    }
    do {
      let posts = try await discussion.posts(of: id)
      outcome.info(
        posts.isEmpty
          ? "\(name)'s discussion on \(discussion.place) is empty"
          : "\(name)'s discussion on \(discussion.place) (\(Describe.count(posts.count, "post"))):")
      for post in posts { outcome.detail(Describe.post(post)) }
    } catch  where text != nil {
      // The post was made: reading the discussion afterwards failing does not undo it.
      outcome.info("the discussion cannot be read now: \(error)")
    } catch {
      outcome.fail("discuss: \(error)")
    }
    return outcome
  }

  /// The id `name` stands for: `P1`, `P2`… for the proposals created in this session (in
  /// order), anything else as it is.
  private func proposalID(named name: String) -> String {
    let records = state.editing.content.proposals
    guard !records.contains(where: { $0.id == name }),
      let match = name.wholeMatch(of: /P([1-9][0-9]*)/), let number = Int(match.1),
      number <= records.count
    else { return name }
    return records[number - 1].id
  }
}
