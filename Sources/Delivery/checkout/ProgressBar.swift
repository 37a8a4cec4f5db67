import BatchPricing
import Platform

/// A progress bar on standard error, drawn only when it is a terminal, at most ten times a second.
final class ProgressBar: ProgressReporter {
    let total: Int?
    private var lastDraw: UInt64 = 0
    private var drawn = false

    /// A bar for `total` bytes (nil when unknown), or nil when standard error is not a terminal.
    init?(total: Int?) {
        guard FileDescriptor.standardError.isTerminal else { return nil }
        self.total = total
    }

    func update(bytes: Int, carts: Int) {
        let time = Machine.monotonicNanoseconds()
        guard time - lastDraw >= 100_000_000 else { return }
        lastDraw = time
        draw(bytes: bytes, carts: carts)
    }

    func update(_ text: String) {
        OutputStream.standardError.write("\r\u{1B}[2K" + text)
        drawn = true
    }

    private func draw(bytes: Int, carts: Int) {
        var text = "\(carts) carts"
        if let total, total > 0 {
            let fraction = min(1, Double(bytes) / Double(total))
            let filled = Int(fraction * 30)
            text =
                "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
                + "] \(Int(fraction * 100))%  " + text
        }
        update(text)
    }

    /// Clears the bar.
    func finish() {
        if drawn { OutputStream.standardError.write("\r\u{1B}[2K") }
    }
}
