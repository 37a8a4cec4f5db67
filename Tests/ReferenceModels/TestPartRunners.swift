import Dispatch
import Pricing

extension PartRunner {
    /// Parts one after another, last first: work whose answer depended on the order its parts
    /// run in would show it.
    public static func backwards(width: Int) -> PartRunner {
        PartRunner(width: width) { count, body in
            for part in (0..<count).reversed() { body(part) }
        }
    }

    /// Parts on as many threads at once as Dispatch gives: races between them would show.
    public static func atOnce(width: Int) -> PartRunner {
        PartRunner(width: width) { count, body in
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
        }
    }
}
