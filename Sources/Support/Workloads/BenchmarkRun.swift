import BatchPricing
import InputFiles
import Platform
import Pricing
import Promotions
import Receipts

/// Times the phases of pricing a generated workload in this process: parse rules, compile, read
/// the cart, price, write the receipt, and optionally price a batch.
public struct BenchmarkRun {
    public struct Phase: Sendable, Equatable {
        public var name: String
        public var seconds: Double
        /// CPU time of every thread over the phase: more than `seconds` when it ran on several cores.
        public var cpuSeconds = 0.0
        /// What the phase processed, for throughput: bytes and items (lines, promotions, carts).
        public var bytes: Int
        public var items: Int
        public var itemName: String

        public var megabytesPerSecond: Double { seconds > 0 ? Double(bytes) / 1_000_000 / seconds : 0 }
        public var itemsPerSecond: Double { seconds > 0 ? Double(items) / seconds : 0 }
    }

    public let workload: Workload
    /// Called when a phase starts, for a progress display.
    public var progress: (String) -> Void = { _ in }
    /// Threads that price the batch; nil: one per processor.
    public var threads: Int?
    /// Runs of each phase; the fastest is reported.
    public var repeats = 1

    public init(workload: Workload) {
        self.workload = workload
    }

    /// Runs every phase once and returns their timings, and the cart's total as a check.
    public func run() throws -> (phases: [Phase], total: String) {
        let p = workload.parameters
        progress("generating")
        let catalogBytes = workload.catalogJSON()
        let plist = workload.promotionsPlist()
        let cartBytes = workload.cartJSON()
        let catalog = try CatalogFile.decode(catalogBytes, name: "Products.json")
        var phases: [Phase] = []

        progress("parsing \(p.promotions) promotions")
        let file = try timed(
            "parse rules", bytes: plist.count, items: p.promotions, itemName: "promotions", into: &phases
        ) {
            PromotionFile.load(bytes: plist, name: "Promotions.plist", checks: PromotionChecks(catalog: catalog))
        }
        guard !file.hasErrors else {
            throw BenchmarkError(message: "the generated promotions have errors: \(file.diagnostics.first!)")
        }

        progress("compiling")
        let rules = try timed("compile", items: p.promotions, itemName: "promotions", into: &phases) {
            RuleSet(promotions: file.promotions, catalog: catalog)
        }

        progress("reading a cart of \(p.lines) lines")
        let cart = try timed(
            "read cart", bytes: cartBytes.count, items: p.lines, itemName: "lines", into: &phases
        ) {
            var reader = CartReader(catalog: catalog)
            return try reader.read(cartBytes, name: "cart.json")
        }

        progress("pricing")
        let instant = try Instant(rfc3339: "2026-06-01T12:00:00Z")
        let engine = PricingEngine(rules: rules)
        let receipt = try timed("price", items: p.lines, itemName: "lines", into: &phases) {
            try engine.price(cart, at: instant, now: instant)
        }

        progress("writing the receipt")
        let json = try timed("write receipt", items: receipt.lines.count, itemName: "receipt lines", into: &phases) {
            ReceiptEncoder.render(receipt)
        }
        phases[phases.count - 1].bytes = json.utf8.count

        if p.batchCarts > 0 {
            progress("pricing a batch of \(p.batchCarts) carts")
            let batch = workload.batchNDJSON()
            let pricer = BatchPricer(rules: rules, instant: instant, now: instant, format: .json, workers: threads)
            let failures = try timed(
                "price batch", bytes: batch.count, items: p.batchCarts, itemName: "carts", into: &phases
            ) {
                pricer.run(batch, name: "batch.ndjson", to: DiscardingSink())
            }
            guard failures == 0 else { throw BenchmarkError(message: "\(failures) generated carts failed") }
        }
        return (phases, Amount.format(receipt.total, minorDigits: receipt.currency.minorDigits))
    }

    /// Runs `body` `repeats` times and records the fastest run as a phase; returns the last result.
    func timed<Result>(
        _ name: String, bytes: Int = 0, items: Int, itemName: String, into phases: inout [Phase],
        _ body: () throws -> Result
    ) throws -> Result {
        var best = Phase(name: name, seconds: .infinity, bytes: bytes, items: items, itemName: itemName)
        var result: Result?
        for _ in 0..<max(1, repeats) {
            let (start, cpuStart) = (now(), cpuNow())
            result = try body()
            let seconds = now() - start
            if seconds < best.seconds {
                best.seconds = seconds
                best.cpuSeconds = cpuNow() - cpuStart
            }
        }
        phases.append(best)
        return result!
    }

    /// Writes the workload's files into `directory`: Products.json, Promotions.plist, cart.json and,
    /// with batch carts, batch.ndjson. Returns their paths and sizes.
    public func emit(to directory: String) throws -> [(path: String, bytes: Int)] {
        do {
            try FileSystem.makeDirectory(directory)
        } catch {
            throw BenchmarkError(message: "\(directory): cannot create: \(error)")
        }
        var files: [(String, [UInt8])] = [
            ("Products.json", workload.catalogJSON()), ("Promotions.plist", workload.promotionsPlist()),
            ("cart.json", workload.cartJSON())
        ]
        if workload.parameters.batchCarts > 0 { files.append(("batch.ndjson", workload.batchNDJSON())) }
        var written: [(String, Int)] = []
        for (name, bytes) in files {
            let path = directory + "/" + name
            progress("writing \(path)")
            do {
                try FileSystem.write(bytes, to: path)
            } catch {
                throw BenchmarkError(message: "\(path): cannot write: \(error)")
            }
            written.append((path, bytes.count))
        }
        return written
    }
}

public struct BenchmarkError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// CPU seconds of this process, every thread.
func cpuNow() -> Double {
    Double(Machine.processCPUNanoseconds()) / 1e9
}

/// Seconds on the monotonic clock.
public func now() -> Double {
    Double(Machine.monotonicNanoseconds()) / 1e9
}
