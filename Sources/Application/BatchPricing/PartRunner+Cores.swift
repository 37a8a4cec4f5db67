import Dispatch
import Platform
import Pricing

extension PartRunner {
    /// Parts run at once on up to `cores` of the machine's cores (Dispatch's `concurrentPerform`),
    /// or one after another on a machine with one.
    public static func onCores(_ cores: Int) -> PartRunner {
        let width = min(cores, Machine.processorCount)
        guard width > 1 else { return .oneAfterAnother }
        return PartRunner(width: width) { count, body in
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
        }
    }
}
