/// The animation TCA code passes to `send(_:animation:)`, accepted so that code compiles
/// unchanged. This package does not depend on SwiftUI (there is none on Linux), so the
/// animation is ignored on every platform: the action is sent exactly as by `send(_:)`. To
/// animate on Apple platforms, wrap the state change in SwiftUI's `withAnimation` in the view.
///
/// ```swift
/// await send(.timerTicked, animation: .interpolatingSpring(stiffness: 3000, damping: 40))
/// ```
public struct EffectAnimation: Sendable, Hashable {
  /// A name for the animation, for descriptions.
  public let name: String

  public init(_ name: String) {
    self.name = name
  }

  public static let `default` = Self("default")
  public static let linear = Self("linear")
  public static let easeIn = Self("easeIn")
  public static let easeOut = Self("easeOut")
  public static let easeInOut = Self("easeInOut")
  public static let bouncy = Self("bouncy")
  public static let smooth = Self("smooth")
  public static let snappy = Self("snappy")
  public static let spring = Self("spring")

  public static func linear(duration: Double) -> Self { Self("linear(\(duration))") }
  public static func easeIn(duration: Double) -> Self { Self("easeIn(\(duration))") }
  public static func easeOut(duration: Double) -> Self { Self("easeOut(\(duration))") }
  public static func easeInOut(duration: Double) -> Self { Self("easeInOut(\(duration))") }

  public static func spring(
    response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0
  ) -> Self {
    Self("spring(\(response), \(dampingFraction), \(blendDuration))")
  }

  public static func interpolatingSpring(
    mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0
  ) -> Self {
    Self("interpolatingSpring(\(mass), \(stiffness), \(damping), \(initialVelocity))")
  }
}

extension Send {
  /// Sends `action`; `animation` is ignored (see ``EffectAnimation``).
  public func callAsFunction(
    _ action: Action,
    animation: EffectAnimation?,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    callAsFunction(action, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension Effect {
  /// `.send(action)`; `animation` is ignored (see ``EffectAnimation``).
  public static func send(_ action: Action, animation: EffectAnimation?) -> Self {
    .send(action)
  }
}

extension Store {
  /// `send(action)`; `animation` is ignored (see ``EffectAnimation``).
  @discardableResult
  public func send(_ action: Action, animation: EffectAnimation?) -> StoreTask {
    send(action)
  }
}
