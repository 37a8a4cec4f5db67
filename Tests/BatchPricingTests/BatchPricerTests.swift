import BatchPricing
import InputFiles
import Platform
import Pricing
import Promotions
import Receipts
import Testing
import Workloads

@Suite("Batch pricing on every core")
struct BatchPricerTests {
    @Test("results come out in input order, errors in place with their physical line, across many blocks")
    func orderAcrossBlocks() throws {
        let workload = Workload(.init(products: 40, promotions: 300, lines: 0, batchCarts: 5_000, seed: 5))
        let catalog = try CatalogFile.decode(workload.catalogJSON(), name: "Products.json")
        let file = PromotionFile.load(
            bytes: workload.promotionsPlist(), name: "p", checks: PromotionChecks(catalog: catalog))
        let rules = RuleSet(promotions: file.promotions, catalog: catalog)
        let at = try Instant(rfc3339: "2026-06-01T12:00:00Z")
        // Every 97th line broken, every 50th blank.
        var lines = String(decoding: workload.batchNDJSON(), as: UTF8.self).split(separator: "\n").map(String.init)
        for index in stride(from: 96, to: lines.count, by: 97) { lines[index] = #"["HAT"]"# }
        for index in stride(from: 49, to: lines.count, by: 50) { lines[index] = "   " }
        let input = Array((lines.joined(separator: "\n") + "\n").utf8)

        var pricer = BatchPricer(rules: rules, instant: at, now: at, format: .json, workers: 2)
        pricer.blockSize = 4_096  // dozens of blocks, priced two at a time
        let sink = CollectingSink()
        let failures = pricer.run(input, name: "day.ndjson", to: sink)

        // The reference: one cart after the other.
        var sequential = CartPricer(rules: rules, instant: at, now: at)
        var expected: [String] = []
        var expectedFailures = 0
        for (number, line) in lines.enumerated() where !line.trimmingSpaces.isEmpty {
            switch sequential.price(Array(line.utf8), name: "day.ndjson") {
            case .success(let receipt): expected.append(ReceiptEncoder.render(receipt))
            case .failure(let error):
                expectedFailures += 1
                expected.append(ReceiptEncoder.renderError(line: number + 1, message: error.detail))
            }
        }
        let output = String(decoding: sink.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(failures == expectedFailures)
        #expect(failures == 50)  // 51 broken lines, one of them (4,849) also blanked
        #expect(output.count == 5_000 - 100)
        #expect(output == expected)
        #expect(output.contains(#"{"line":97,"error":"items[0]: unknown product code \"HAT\""}"#))
    }

    @Test("an empty batch and a batch without a final line break")
    func edges() throws {
        let rules = RuleSet(promotions: [], catalog: shippedCatalog)
        let at = try Instant(rfc3339: "2026-06-01T12:00:00Z")
        let pricer = BatchPricer(rules: rules, instant: at, now: at, format: .text)
        let empty = CollectingSink()
        #expect(pricer.run([], name: "b", to: empty) == 0)
        #expect(empty.bytes.isEmpty)
        let sink = CollectingSink()
        #expect(pricer.run(Array("[\"MUG\"]\n\n[\"MUG\", \"MUG\"]".utf8), name: "b", to: sink) == 0)
        #expect(
            String(decoding: sink.bytes, as: UTF8.self) == """
                b:1: total 7.50 € (subtotal 7.50 €, discount 0.00 €, 1 line)
                b:3: total 15.00 € (subtotal 15.00 €, discount 0.00 €, 1 line)

                """)
    }
}

final class CollectingSink: ByteSink {
    var bytes: [UInt8] = []
    func write(_ chunk: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: chunk) }
}

extension String {
    var trimmingSpaces: String { String(filter { $0 != " " && $0 != "\t" && $0 != "\r" }) }
}

/// The shipped store's catalog.
let shippedCatalog = try! CatalogFile.decode(Array(ShippedStore.productsJSON.utf8), name: "Products.json")
