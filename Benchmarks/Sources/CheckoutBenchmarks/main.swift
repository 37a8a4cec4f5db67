import Benchmark
import Foundation
import FoundationPeers
import InputFiles
import Pricing
import Promotions
import Workloads

// Each workload of the performance targets, with the Foundation baseline a user would reach for
// run in the same process, so each result is also a ratio. Inputs are generated once, in memory.

let workload = Workload(.init(products: 1_000, promotions: 100_000, lines: 1_000_000, batchCarts: 200_000, seed: 42))
let catalogBytes = workload.catalogJSON()
let catalog = try! CatalogFile.decode(catalogBytes, name: "Products.json")
let cartBytes = workload.cartJSON()
let plistBytes = workload.promotionsPlist()
let batchBytes = workload.batchNDJSON()
let at = try! Instant(rfc3339: "2026-06-01T12:00:00Z")
let promotions = PromotionFile.load(
    bytes: plistBytes, name: "Promotions.plist", checks: PromotionChecks(catalog: catalog))
let rules = RuleSet(promotions: promotions.promotions, catalog: catalog)
let noRules = RuleSet(promotions: [], catalog: catalog)
let internedLines: [Int32] = {
    var random = SplitMix64(seed: 7)
    return (0..<1_000_000).map { _ in Int32(random.next() % 1_000) }
}()
let codeLines = internedLines.map { workload.code(Int($0)) }
var sink = 0

// 1. A 1,000,000-line cart (36 MB), no promotions.
benchmark("cart 1M lines: checkout (read + price)", settings: Iterations(10)) {
    var reader = CartReader(catalog: catalog)
    let cart = try reader.read(cartBytes, name: "cart.json")
    sink &+= Int(try PricingEngine(rules: noRules).price(cart, now: at).total)
}
benchmark("cart 1M lines: JSONDecoder + Dictionary (baseline)", settings: Iterations(3)) {
    sink &+= CartItemRecord.counts(try JSONDecoder().decode([CartItemRecord].self, from: Data(cartBytes))).count
}

// 2. The same cart against 100,000 promotions (rules parsed and compiled each time).
benchmark("cart 1M lines + 100k promotions: checkout", settings: Iterations(5)) {
    let file = PromotionFile.load(
        bytes: plistBytes, name: "Promotions.plist", checks: PromotionChecks(catalog: catalog))
    var reader = CartReader(catalog: catalog)
    let cart = try reader.read(cartBytes, name: "cart.json")
    sink &+= Int(
        try PricingEngine(rules: RuleSet(promotions: file.promotions, catalog: catalog)).price(cart, at: at, now: at)
            .total)
}

// 3. Load and validate 100,000 promotions (35 MB).
benchmark("promotions 100k: checkout (load + validate)", settings: Iterations(5)) {
    sink &+=
        PromotionFile.load(bytes: plistBytes, name: "Promotions.plist", checks: PromotionChecks(expiryInstant: at))
        .promotions.count
}
benchmark("promotions 100k: PropertyListDecoder (baseline)", settings: Iterations(3)) {
    sink &+= try PropertyListDecoder().decode(PromotionsRecord.self, from: Data(plistBytes)).promotions.count
}

// 4. The pricing core on 1,000,000 interned lines.
benchmark("core: 1M interned lines (aggregate + price)", settings: Iterations(50)) {
    var merger = CartLineMerger(productCount: catalog.products.count)
    _ = internedLines.withUnsafeBufferPointer { merger.addUnits($0) }
    sink &+= Int(try PricingEngine(rules: noRules).price(Cart(lines: merger.takeLines()), now: at).total)
}
benchmark("core: 1M lines into Dictionary<String, Int> (baseline)", settings: Iterations(10)) {
    var counts: [String: Int] = [:]
    for code in codeLines { counts[code, default: 0] += 1 }
    sink &+= counts.count
}

// 5. A batch of 200,000 small carts, receipts out, on every core.
benchmark("batch 200k carts: checkout (both cores)", settings: Iterations(5)) {
    sink &+= BatchPricer(rules: rules, instant: at, now: at, format: .json).run(
        batchBytes, name: "batch.ndjson", to: DiscardingSink())
}

// 6. A 3-item cart with the shipped rules, everything loaded each time.
benchmark("3-item cart, shipped rules (load + price)", settings: Iterations(200)) {
    let shipped = try PricingRules.load(catalog: .shipped, promotions: .shipped)
    var pricer = CartPricer(rules: shipped.ruleSet, now: at)
    sink &+= Int(try pricer.price(Array(#"["VOUCHER", "TSHIRT", "MUG"]"#.utf8), name: "cart.json").get().total)
}

Benchmark.main()
if sink == 42 { print("") }  // keep the work observable
