import Platform
import Pricing

/// The machine's wall clock, the one adapter of the ``WallClock`` port.
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Instant {
        let (seconds, nanoseconds) = Machine.wallClock()
        return Instant(seconds: seconds, nanoseconds: nanoseconds)
    }
}
