import Foundation
import Testing

/// Cart ids (docs/files.md#cart-ids) through the binary: echoed first in receipts and error entries, in every form.
@Suite("Cart ids, end to end", .serialized)
struct CartIDCommandTests {
    @Test("a batch: ids first in receipts and in error entries when the cart held a valid one")
    func batch() throws {
        let batch =
            [
                #"{"id": "order \"7\"", "items": ["MUG"]}"#, #"{"items": ["MUG"], "id": 42}"#,
                #"{"id": -12345678901234567890123, "items": ["HAT"]}"#,
                #"{"id": 1.5, "items": ["MUG"]}"#, #"{"id": "x", "items": ["MUG"], "currency": "USD"}"#,
                #"{"id": "broken", "items": [}"#, #"["MUG"]"#
            ].joined(separator: "\n") + "\n"
        let run = try checkout(
            ["price", "-", "--batch", "--format", "json", "--at", "2026-11-21T10:00:00Z"], stdin: batch)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines[0].hasPrefix(#"{"id":"order \"7\"","currency":"EUR","at":"2026-11-21T10:00:00Z","lines":["#))
        #expect(lines[1].hasPrefix(#"{"id":42,"currency":"EUR""#))
        #expect(
            lines[2] == #"{"id":-12345678901234567890123,"line":3,"error":"items[0]: unknown product code \"HAT\""}"#)
        #expect(
            lines[3]
                == #"{"line":4,"error":"id: a cart's id must be a string or an integer literal such as 17, not 1.5"}"#)
        #expect(
            lines[4]
                == #"{"id":"x","line":5,"error":"the cart is in USD but the catalog is in EUR; remove the cart's currency or price it with a USD catalog"}"#
        )
        #expect(lines[5].hasPrefix(#"{"line":6,"error":"line 6, column "#))
        #expect(lines[6].hasPrefix(#"{"currency":"EUR""#))
    }

    @Test("one cart: JSON starts with the id; the text heading names it; several carts in text")
    func single() throws {
        let dir = try temporaryDirectory([
            "a.json": #"{"id": "A-17", "items": ["MUG"]}"#, "b.json": #"{"id": 9, "items": ["HAT"]}"#
        ])
        let json = try checkout(["price", "a.json", "--format", "json", "--at", "2026-11-21T10:00:00Z"], in: dir)
        #expect(json.stdout.hasPrefix("{\n  \"id\": \"A-17\",\n  \"currency\": \"EUR\","))
        let text = try checkout(["price", "a.json", "--at", "2026-11-21T10:00:00Z"], in: dir)
        // No Rules/ here: the heading says the rules are the built-in ones.
        #expect(text.stdout.hasPrefix("Receipt for cart \"A-17\", 2026-11-21T10:00:00Z (EUR; built-in Cabify store)\n"))
        let several = try checkout(["price", "a.json", "b.json", "--at", "2026-11-21T10:00:00Z"], in: dir)
        #expect(several.status == 1)
        #expect(
            several.stdout == """
                a.json (id "A-17"): total 7.50 € (subtotal 7.50 €, discount 0.00 €, 1 line)
                b.json (id 9): error: items[0]: unknown product code "HAT"

                """)
        let severalJSON = try checkout(
            ["price", "a.json", "b.json", "--format", "json", "--at", "2026-11-21T10:00:00Z"], in: dir)
        #expect(
            severalJSON.stdout.split(separator: "\n").last
                == #"{"id":9,"line":2,"error":"b.json: items[0]: unknown product code \"HAT\""}"#)
        let bad = try checkout(["price", "b.json"], in: dir)
        #expect(bad.status == 65)
        #expect(
            bad.stderr.hasPrefix(
                "error: b.json: items[0]: unknown product code \"HAT\"\nnote: the catalog is the built-in"))
    }
}
