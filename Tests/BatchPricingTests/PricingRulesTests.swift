import BatchPricing
import Platform
import Pricing
import Synchronization
import Testing

@testable import InputFiles

/// Loading the rules with work alongside (a single cart's reading): the same rules, the work's
/// result, and the rules' errors first.
@Suite("Loading rules with work alongside")
struct PricingRulesTests {
    let stem = "/tmp/checkout-pricing-rules-\(Machine.monotonicNanoseconds())"

    /// A catalog of A and B, and `count` promotions (one per line, over a megabyte from 8,000 on,
    /// so that two parsers read it), the `broken`-th without its type.
    func files(promotions count: Int, broken: Int? = nil) throws -> (catalog: String, promotions: String) {
        let catalog = stem + "-Products.json"
        try FileSystem.write(
            Array(
                #"{"currency": "EUR", "products": [{"code": "A", "name": "A", "price": 2.50}, {"code": "B", "name": "B", "price": 4.00}]}"#
                    .utf8), to: catalog)
        var lines = ["<plist><array>"]
        for i in 0..<count {
            let type = i == broken ? "" : "<key>type</key><string>percent</string>"
            lines.append(
                "<dict><key>id</key><string>promotion-\(i)</string><key>name</key><string>Ten percent off, number \(i)</string>\(type)<key>code</key><string>\(i % 2 == 0 ? "A" : "B")</string><key>percent</key><integer>\(1 + i % 50)</integer></dict>"
            )
        }
        lines.append("</array></plist>")
        let promotions = stem + "-Promotions.plist"
        try FileSystem.write(Array(lines.joined(separator: "\n").utf8), to: promotions)
        return (catalog, promotions)
    }

    func remove(_ paths: (catalog: String, promotions: String)) {
        FileSystem.remove(paths.catalog)
        FileSystem.remove(paths.promotions)
    }

    @Test("the same rules as without, and what ran alongside")
    func sameRules() throws {
        let paths = try files(promotions: 9_000)
        defer { remove(paths) }
        #expect(try FileBytes.read(paths.promotions).count > 1 << 20)
        let plain = try PricingRules.load(catalog: .file(paths.catalog), promotions: .file(paths.promotions))
        let (rules, codes) = try PricingRules.load(catalog: .file(paths.catalog), promotions: .file(paths.promotions)) {
            catalog in catalog.products.map(\.code)
        }
        #expect(codes == ["A", "B"])
        #expect(rules.promotions.promotions == plain.promotions.promotions)
        #expect(rules.promotions.promotions.count == 9_000)
        // Both price alike: the best of the A promotions is 49 % (promotion-48), of the B ones 50 %.
        let cart = Cart(lines: [.init(product: 0, quantity: 2), .init(product: 1, quantity: 1)])
        let now = try Instant(rfc3339: "2026-06-01T00:00:00Z")
        let receipt = try PricingEngine(rules: rules.ruleSet).price(cart, now: now)
        #expect(receipt == (try PricingEngine(rules: plain.ruleSet).price(cart, now: now)))
        #expect(receipt.lines.map(\.promotion?.id) == ["promotion-48", "promotion-49"])
        #expect(receipt.itemDiscount == 245 + 200)
    }

    @Test("a file with errors is refused once what ran alongside has finished")
    func refused() throws {
        let paths = try files(promotions: 9_000, broken: 7_000)
        defer { remove(paths) }
        let finished = Mutex(false)
        #expect {
            _ = try PricingRules.load(catalog: .file(paths.catalog), promotions: .file(paths.promotions)) { _ in
                // Long enough that the refusal would come first if it did not wait.
                let end = Machine.monotonicNanoseconds() + 100_000_000
                while Machine.monotonicNanoseconds() < end {}
                finished.withLock { $0 = true }
            }
        } throws: { error in
            guard case .promotionsInvalid(let file) = error as? PricingRulesError else { return false }
            return file.errorCount == 1 && file.diagnostics.first?.location.line == 7_002
        }
        #expect(finished.withLock { $0 })
    }

    @Test("nothing runs alongside when the promotions file cannot be read")
    func unreadable() throws {
        let paths = try files(promotions: 10)
        defer { remove(paths) }
        let ran = Mutex(false)
        #expect {
            _ = try PricingRules.load(catalog: .file(paths.catalog), promotions: .file(stem + "-missing.plist")) { _ in
                ran.withLock { $0 = true }
            }
        } throws: { error in
            guard case .promotionsUnreadable = error as? PricingRulesError else { return false }
            return true
        }
        #expect(!ran.withLock { $0 })
    }
}
