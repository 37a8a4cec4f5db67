/// The current instant: the system's clock in the app, a fixed one in tests.
public protocol WallClock: Sendable {
    func now() -> Instant
}

/// A clock that always says the same instant.
public struct FixedClock: WallClock {
    public var instant: Instant

    public init(instant: Instant) {
        self.instant = instant
    }

    public func now() -> Instant { instant }
}
