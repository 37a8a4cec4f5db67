import Foundation
import Testing

/// 600 carts against 60 random v1 promotions, priced by the v1 code before promotions v2 existed
/// (Fixtures/v1-receipts, written once and never regenerated).
@Suite("v1 files price as before v2")
struct V1GoldenTests {
    let fixtures = "Tests/CheckoutCLITests/Fixtures/v1-receipts/"

    func run(_ format: String) throws -> Run {
        try checkout(
            [
                "price", "carts.ndjson", "--promotions", "Promotions.plist", "--catalog", "Products.json", "--format",
                format
            ],
            in: packageRoot.appendingPathComponent(fixtures))
    }

    @Test("JSON receipts: byte for byte the v1 receipts, each line only gaining its promotions list")
    func jsonReceipts() throws {
        let run = try run("json")
        #expect(run.status == 0)
        let expected = try String(
            contentsOf: packageRoot.appendingPathComponent(fixtures + "carts.expected.ndjson"), encoding: .utf8
        )
        .split(separator: "\n").map(String.init)
        let output = run.stdout.split(separator: "\n").map(String.init)
        #expect(output.count == 600)
        #expect(expected.count == 600)
        var withPromotion = 0
        for (got, want) in zip(output, expected) {
            // The promotions list of each line is the v1 promotion over all the line's units, or empty.
            let receipt = try json(got)
            for line in receipt["lines"] as? [[String: Any]] ?? [] {
                let promotions = line["promotions"] as? [[String: Any]] ?? []
                if let promotion = line["promotion"] as? [String: Any] {
                    withPromotion += 1
                    #expect(promotions.count == 1)
                    #expect(promotions.first?["id"] as? String == promotion["id"] as? String)
                    #expect(promotions.first?["discount"] as? String == promotion["discount"] as? String)
                    let units = promotions.first?["units"] as? Int
                    let quantity = line["quantity"] as? Int
                    #expect(units != nil && units == quantity)
                } else {
                    #expect(promotions.isEmpty)
                }
            }
            #expect(withoutPromotionLists(got) == want)
        }
        #expect(withPromotion == 1399)
    }

    @Test("text lines: byte for byte")
    func textLines() throws {
        let run = try run("text")
        #expect(run.status == 0)
        let expected = try String(
            contentsOf: packageRoot.appendingPathComponent(fixtures + "carts.expected.txt"), encoding: .utf8)
        #expect(run.stdout == expected)
    }

    /// The receipt with every `,"promotions":[…]` member taken out.
    func withoutPromotionLists(_ line: String) -> String {
        var out = ""
        var rest = Substring(line)
        while let range = rest.range(of: #","promotions":["#) {
            out += rest[..<range.lowerBound]
            var depth = 1
            var index = range.upperBound
            var inString = false
            var escaped = false
            while depth > 0 {
                let c = rest[index]
                if inString {
                    if escaped {
                        escaped = false
                    } else if c == "\\" {
                        escaped = true
                    } else if c == "\"" {
                        inString = false
                    }
                } else if c == "\"" {
                    inString = true
                } else if c == "[" {
                    depth += 1
                } else if c == "]" {
                    depth -= 1
                }
                index = rest.index(after: index)
            }
            rest = rest[index...]
        }
        return out + rest
    }
}
