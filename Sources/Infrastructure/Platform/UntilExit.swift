import Synchronization

/// Values kept alive until the process exits. A command that has written its output and is about
/// to exit need not free a large structure piece by piece (100,000 promotions take 5–10 ms, on one
/// core, after the work is done): the kernel takes the whole address space back at once.
public enum UntilExit {
    /// Only appended to, under `lock`; never read.
    nonisolated(unsafe) private static var kept: [Any] = []
    private static let lock = Mutex(())

    /// Keeps `value` (and everything it holds) until the process exits.
    public static func keep(_ value: Any) {
        lock.withLock { _ in kept.append(value) }
    }
}
