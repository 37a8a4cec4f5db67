import CheckoutFiles

#if canImport(Glibc)
import Glibc
#endif

/// A progress bar on standard error, drawn only when it is a terminal, at most ten times a second.
final class ProgressBar {
    let total: Int?
    private var lastDraw = 0.0
    private var drawn = false

    /// A bar for `total` bytes (nil when unknown), or nil when standard error is not a terminal.
    init?(total: Int?) {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        self.total = total
    }

    func update(bytes: Int, carts: Int) {
        let time = monotonicSeconds()
        guard time - lastDraw >= 0.1 else { return }
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
            text = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled) + "] \(Int(fraction * 100))%  " + text
        }
        update(text)
    }

    /// Clears the bar.
    func finish() {
        if drawn { OutputStream.standardError.write("\r\u{1B}[2K") }
    }
}

func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
