/// Runs the parts of a piece of work: `run(n, body)` calls `body(0)`…`body(n − 1)`, at once if it
/// can. The caller decides how (`checkout validate` on every core, a batch's rules on two, with
/// `DispatchQueue.concurrentPerform`); a piece of work only says into how many independent parts it
/// splits, and its answer does not depend on how they run.
public struct PartRunner: Sendable {
    /// How many parts it runs at once. Work whose parts cost alike (the selectors' resolution)
    /// splits into this many; other work decides its own number of parts.
    public let width: Int
    public let run: @Sendable (Int, @Sendable (Int) -> Void) -> Void

    public init(width: Int, _ run: @escaping @Sendable (Int, @Sendable (Int) -> Void) -> Void) {
        self.width = max(1, width)
        self.run = run
    }

    /// On the calling thread, in order.
    public static let oneAfterAnother = PartRunner(width: 1) { count, body in
        for part in 0..<count { body(part) }
    }
}
