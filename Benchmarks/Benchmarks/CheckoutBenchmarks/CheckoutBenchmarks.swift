import BatchPricing
import Benchmark
import Dispatch
import Foundation
import FoundationPeers
import InputFiles
import Platform
import Pricing
import Promotions
import Receipts
import Workloads

// Names have no spaces or slashes: package-benchmark 1.38.1 writes threshold files with them replaced
// but looks them up unreplaced.
//
// Each workload of the performance targets, with the Foundation baseline a user would reach for run
// in the same process, so that each result is also a ratio. Inputs are generated once, in memory.
// Metrics: wall clock, CPU time, mallocs and peak memory. Tolerances, below, say what counts as a
// regression against the stored thresholds (Thresholds/): malloc counts are exact but for a small
// margin; times get a wide one, since these machines are shared and noisy.

/// The inputs, generated on first use.
final class Inputs: @unchecked Sendable {
    static let shared = Inputs()

    let workload = Workload(.init(products: 1_000, promotions: 100_000, lines: 1_000_000, batchCarts: 100_000))
    let at = try! Instant(rfc3339: "2026-06-01T12:00:00Z")
    lazy var catalog = try! CatalogFile.decode(workload.catalogJSON(), name: "Products.json")
    lazy var cartBytes = workload.cartJSON()
    lazy var plistBytes = workload.promotionsPlist()
    lazy var batchBytes = workload.batchNDJSON()
    lazy var smallBatchBytes =
        Array(
            batchBytes.split(separator: UInt8(ascii: "\n")).prefix(1_000).joined(
                separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")]
    lazy var rules = RuleSet(
        promotions: PromotionFile.load(
            bytes: plistBytes, name: "Promotions.plist", checks: PromotionChecks(catalog: catalog)
        ).promotions, catalog: catalog)
    lazy var noRules = RuleSet(promotions: [], catalog: catalog)
    lazy var internedLines: [Int32] = {
        var random = SplitMix64(seed: 7)
        return (0..<1_000_000).map { _ in Int32(random.next() % 1_000) }
    }()
    lazy var codeLines = internedLines.map { workload.code(Int($0)) }
    /// A catalog that moved on: the same products coded SKU000123, and the first 20,000 promotions
    /// still naming OLD000123 (three edits away, the farthest "did you mean" reaches for nine characters).
    lazy var renamedCatalog = try! CatalogFile.decode(
        Self.renamed(workload.catalogJSON(), after: Array(#""code": "P"#.utf8), to: "SKU00"), name: "Products.json")
    lazy var renamedPlist = Self.renamed(
        Workload(.init(products: 1_000, promotions: 20_000, lines: 0)).promotionsPlist(),
        after: Array("<string>P".utf8),
        to: "OLD00")
    /// Both cores for the checks after reading, as `checkout validate` runs them.
    let twoCores = PartRunner(width: 2) { count, body in
        DispatchQueue.concurrentPerform(iterations: count, execute: body)
    }

    /// `bytes` with every `prefix` followed by a digit ending in `replacement` instead of its last byte.
    static func renamed(_ bytes: [UInt8], after prefix: [UInt8], to replacement: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 11 / 10)
        var index = 0
        while index < bytes.count {
            if index + prefix.count < bytes.count, bytes[index..<index + prefix.count].elementsEqual(prefix),
                (48...57).contains(bytes[index + prefix.count])
            {
                out.append(contentsOf: prefix.dropLast())
                out.append(contentsOf: replacement.utf8)
                index += prefix.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}

let benchmarks: @Sendable () -> Void = {
    // Mallocs are counted exactly, but a run's count moves by a few (lazy runtime set-up): for
    // workloads of thousands of mallocs a change of more than 3 % is a regression (or an improvement
    // to record with `thresholds update`), for those of tens, a change of more than 10. (A tolerance
    // is checked on each of its kinds, relative and absolute, so each workload gets one kind; the
    // static check compares p90.)
    let manyMallocs = BenchmarkThresholds(relative: [.p50: 3.0, .p90: 3.0])
    let fewMallocs = BenchmarkThresholds(absolute: [.p50: 10, .p90: 10])
    // Times move by a third between minutes here: only a change of more than 50 % counts.
    let timeTolerance = BenchmarkThresholds(relative: [.p50: 50.0, .p90: 50.0])

    // Every benchmark's settings but its number of runs and malloc tolerance (a configuration given
    // to one benchmark replaces the default whole).
    func settings(runs: Int, fewMallocs few: Bool = false) -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            maxDuration: .seconds(10),
            maxIterations: runs,
            thresholds: [
                .wallClock: timeTolerance, .cpuTotal: timeTolerance, .mallocCountTotal: few ? fewMallocs : manyMallocs
            ])
    }
    Benchmark.defaultConfiguration = settings(runs: 5)
    let inputs = Inputs.shared

    // 1. A 1,000,000-line cart (36 MB), no promotions.
    Benchmark("cart-1M-lines:checkout(read+price)", configuration: settings(runs: 5, fewMallocs: true)) { benchmark in
        let (catalog, bytes, rules, at) = (inputs.catalog, inputs.cartBytes, inputs.noRules, inputs.at)
        benchmark.startMeasurement()
        var reader = CartReader(catalog: catalog)
        let cart = try reader.read(bytes, name: "cart.json")
        blackHole(try PricingEngine(rules: rules).price(cart, now: at).total)
    }
    Benchmark("cart-1M-lines:JSONDecoder+Dictionary(baseline)", configuration: settings(runs: 3)) {
        benchmark in
        let data = Data(inputs.cartBytes)
        benchmark.startMeasurement()
        blackHole(CartItemRecord.counts(try JSONDecoder().decode([CartItemRecord].self, from: data)).count)
    }

    // 2. The same cart against 100,000 promotions (rules parsed and compiled each time).
    Benchmark("cart-1M-lines+100k-promotions:checkout(load+read+price)") { benchmark in
        let (catalog, plist, cartBytes, at) = (inputs.catalog, inputs.plistBytes, inputs.cartBytes, inputs.at)
        benchmark.startMeasurement()
        let file = PromotionFile.load(bytes: plist, name: "Promotions.plist", checks: PromotionChecks(catalog: catalog))
        var reader = CartReader(catalog: catalog)
        let cart = try reader.read(cartBytes, name: "cart.json")
        let rules = RuleSet(promotions: file.promotions, catalog: catalog)
        blackHole(try PricingEngine(rules: rules).price(cart, at: at, now: at).total)
    }

    // 3. Load and validate 100,000 promotions (35 MB).
    Benchmark("promotions-100k:checkout(load+validate)") { benchmark in
        let (plist, at) = (inputs.plistBytes, inputs.at)
        benchmark.startMeasurement()
        blackHole(
            PromotionFile.load(bytes: plist, name: "Promotions.plist", checks: PromotionChecks(expiryInstant: at))
                .promotions.count)
    }
    Benchmark("promotions-100k:PropertyListDecoder(baseline)", configuration: settings(runs: 3)) {
        benchmark in
        let data = Data(inputs.plistBytes)
        benchmark.startMeasurement()
        blackHole(try PropertyListDecoder().decode(PromotionsRecord.self, from: data).promotions.count)
    }

    // 3b. The same with the catalog (`validate --catalog`): unknown codes, prices, and the shadowed
    // check (tens of thousands of warnings), on both cores.
    Benchmark("promotions-100k:checkout(load+validate+catalog)") { benchmark in
        let (plist, at, catalog, parts) = (inputs.plistBytes, inputs.at, inputs.catalog, inputs.twoCores)
        benchmark.startMeasurement()
        blackHole(
            PromotionFile.load(
                bytes: plist, name: "Promotions.plist",
                checks: PromotionChecks(catalog: catalog, checksProducts: true, expiryInstant: at, parts: parts)
            ).diagnostics.count)
    }

    // 3c. 20,000 promotions whose codes the catalog lacks, each three edits from one it has: "did you mean".
    Benchmark("renamed-20k-promotions:checkout(load+validate+did-you-mean)") { benchmark in
        let (plist, at, catalog, parts) = (inputs.renamedPlist, inputs.at, inputs.renamedCatalog, inputs.twoCores)
        benchmark.startMeasurement()
        blackHole(
            PromotionFile.load(
                bytes: plist, name: "Unknown.plist",
                checks: PromotionChecks(catalog: catalog, checksProducts: true, expiryInstant: at, parts: parts)
            ).diagnostics.count)
    }
    Benchmark("renamed-20k-promotions:PropertyListDecoder(baseline)", configuration: settings(runs: 5)) {
        benchmark in
        let data = Data(inputs.renamedPlist)
        benchmark.startMeasurement()
        blackHole(try PropertyListDecoder().decode(PromotionsRecord.self, from: data).promotions.count)
    }

    // 4. The pricing core on 1,000,000 interned lines.
    Benchmark("core-1M-interned-lines:checkout(aggregate+price)", configuration: settings(runs: 20, fewMallocs: true)) {
        benchmark in
        let (lines, rules, at) = (inputs.internedLines, inputs.noRules, inputs.at)
        benchmark.startMeasurement()
        var merger = CartLineMerger(productCount: rules.catalog.products.count)
        _ = lines.withUnsafeBufferPointer { merger.addUnits($0) }
        blackHole(try PricingEngine(rules: rules).price(Cart(lines: merger.takeLines()), now: at).total)
    }
    Benchmark("core-1M-lines:Dictionary-of-String-to-Int(baseline)", configuration: settings(runs: 5, fewMallocs: true))
    {
        benchmark in
        let codes = inputs.codeLines
        benchmark.startMeasurement()
        var counts: [String: Int] = [:]
        for code in codes { counts[code, default: 0] += 1 }
        blackHole(counts.count)
    }

    // 5. Batches of small carts, JSON receipts, on every core: the mallocs per priced cart are the
    // difference between the two, divided by the 99,000 carts between them.
    for (name, carts) in [("batch-1k-carts", 1_000), ("batch-100k-carts", 100_000)] {
        Benchmark("\(name):checkout(every-core,json-receipts)") { benchmark in
            let bytes = carts == 1_000 ? inputs.smallBatchBytes : inputs.batchBytes
            // Two workers on any machine, so that the malloc counts do not depend on its cores.
            let pricer = BatchPricer(
                rules: inputs.rules, instant: inputs.at, now: inputs.at, format: .json, workers: 2)
            benchmark.startMeasurement()
            blackHole(pricer.run(bytes, name: "batch.ndjson", to: DiscardingSink()))
        }
    }

    // 6. A 3-item cart with the shipped rules, everything loaded each time.
    Benchmark("3-item-cart:checkout(shipped-rules,load+price)", configuration: settings(runs: 200, fewMallocs: true)) {
        _ in
        let shipped = try PricingRules.load(catalog: .shipped, promotions: .shipped)
        var pricer = CartPricer(rules: shipped.ruleSet, now: inputs.at)
        blackHole(try pricer.price(Array(#"["VOUCHER", "TSHIRT", "MUG"]"#.utf8), name: "cart.json").get().total)
    }
}
