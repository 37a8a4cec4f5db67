import Foundation
import Testing

/// Promotions v2 through the binary: the worked examples of docs/pricing.md#worked-examples and the mix-and-match store.
@Suite("Promotions v2, end to end", .serialized)
struct PromotionsV2CommandTests {
    static let catalog = #"""
        {"currency": "EUR", "products": [{"code": "TSHIRT", "name": "Cabify T-Shirt", "price": 20}, {"code": "MUG", "name": "Cabify Coffee Mug", "price": 7.5},
         {"code": "VOUCHER", "name": "Cabify Voucher", "price": 5}, {"code": "CAP", "name": "Cabify Cap", "price": 12}]}
        """#

    static func plist(_ dicts: String...) -> String {
        "<plist><array>" + dicts.map { "<dict>\($0)</dict>" }.joined() + "</array></plist>"
    }

    /// Each line's promotions as `id discount/units`.
    func promotions(_ receipt: [String: Any]) -> [[String]] {
        (receipt["lines"] as? [[String: Any]] ?? []).map { line in
            (line["promotions"] as? [[String: Any]] ?? []).map {
                "\($0["id"] as? String ?? "?") \($0["discount"] as? String ?? "?")/\($0["units"] as? Int ?? -1)"
            }
        }
    }

    @Test(
        "the worked examples of docs/pricing.md#worked-examples",
        arguments: [
            (
                "<key>name</key><string>m</string><key>type</key><string>bxgy</string><key>code</key><string>MUG</string><key>quantity</key><integer>2</integer>",
                #"[{"code": "MUG", "quantity": 3}]"#, "15.00", [["m 7.50/3"]]
            ),
            (
                "<key>name</key><string>s</string><key>type</key><string>bxgy</string><key>code</key><string>TSHIRT</string><key>targets</key><array><string>MUG</string></array><key>quantity</key><integer>1</integer>",
                #"[{"code": "TSHIRT", "quantity": 2}, {"code": "MUG", "quantity": 3}]"#, "47.50",
                [["s 0.00/2"], ["s 15.00/2"]]
            ),
            (
                "<key>name</key><string>x</string><key>type</key><string>bxgy</string><key>codes</key><array><string>TSHIRT</string><string>CAP</string><string>MUG</string></array><key>quantity</key><integer>2</integer>",
                #"[{"code": "TSHIRT", "quantity": 2}, {"code": "CAP", "quantity": 2}, {"code": "MUG", "quantity": 2}]"#,
                "64.00", [["x 0.00/2"], ["x 0.00/2"], ["x 15.00/2"]]
            ),
            (
                "<key>name</key><string>b</string><key>type</key><string>bundle</string><key>codes</key><array><string>TSHIRT</string><string>CAP</string><string>MUG</string></array><key>quantity</key><integer>3</integer><key>price</key><real>30</real>",
                #"[{"code": "TSHIRT", "quantity": 2}, "CAP", "MUG"]"#, "37.50", [["b 16.92/2"], ["b 5.08/1"], []]
            ),
            (
                "<key>name</key><string>TSHIRT 3+</string><key>type</key><string>bulk</string><key>code</key><string>TSHIRT</string><key>quantity</key><integer>3</integer><key>price</key><real>19</real></dict><dict><key>name</key><string>g</string><key>type</key><string>bxgy</string><key>code</key><string>TSHIRT</string><key>targets</key><array><string>MUG</string></array><key>quantity</key><integer>1</integer>",
                #"[{"code": "TSHIRT", "quantity": 4}, "MUG"]"#, "77.00",
                [["g 0.00/1", "TSHIRT 3+ 3.00/3"], ["g 7.50/1"]]
            )
        ])
    func workedExamples(promotion: String, cart: String, total: String, lines: [[String]]) throws {
        let dir = try temporaryDirectory(["p.plist": Self.plist(promotion), "c.json": Self.catalog, "cart.json": cart])
        let run = try checkout(
            ["price", "cart.json", "--promotions", "p.plist", "--catalog", "c.json", "--format", "json"], in: dir)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        let receipt = try json(run.stdout)
        #expect(receipt["total"] as? String == total)
        #expect(promotions(receipt) == lines)
    }

    @Test("the text receipt: a row per promotion, trigger units marked")
    func textReceipt() throws {
        let dir = try temporaryDirectory([
            "p.plist": Self.plist(
                "<key>name</key><string>TSHIRT 3+</string><key>type</key><string>bulk</string><key>code</key><string>TSHIRT</string><key>quantity</key><integer>3</integer><key>price</key><real>19</real>",
                "<key>name</key><string>Shirts: buy 1 get a mug</string><key>type</key><string>bxgy</string><key>code</key><string>TSHIRT</string><key>targets</key><array><string>MUG</string></array><key>quantity</key><integer>1</integer>"
            ),
            "c.json": Self.catalog, "cart.json": #"{"id": 42, "items": [{"code": "TSHIRT", "quantity": 4}, "MUG"]}"#
        ])
        let run = try checkout(
            ["price", "cart.json", "--promotions", "p.plist", "--catalog", "c.json", "--at", "2026-11-21T10:00:00Z"],
            in: dir)
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                Receipt for cart 42, 2026-11-21T10:00:00Z (EUR)
                =======================================================================
                TSHIRT  Cabify T-Shirt                           4 × 20.00 €    80.00 €
                          1 part of "Shirts: buy 1 get a mug"
                          TSHIRT 3+ (bulk price, 3 units)                       -3.00 €
                MUG     Cabify Coffee Mug                        1 ×  7.50 €     7.50 €
                          Shirts: buy 1 get a mug (buy X get Y)                 -7.50 €
                -----------------------------------------------------------------------
                Subtotal                                                        87.50 €
                Item discounts                                                 -10.50 €
                Total                                                           77.00 €
                You saved 10.50 €.

                """)
    }

    @Test(
        "the mix-and-match store: its example carts and their published totals",
        arguments: [
            ("bundle.json", "93.00"), ("bxgy.json", "47.50"), ("three-for-two.json", "7.50"), ("cap.json", "36.00"),
            ("spring.json", "163.00")
        ])
    func mixAndMatch(cart: String, total: String) throws {
        let run = try checkout([
            "price", "Rules/mix-and-match/carts/" + cart, "--promotions", "Rules/mix-and-match/Promotions.plist",
            "--catalog", "Rules/mix-and-match/Products.json", "--format", "json", "--at", "2026-04-01T10:00:00Z"
        ])
        #expect(run.status == 0)
        #expect(try json(run.stdout)["total"] as? String == total)
        let validate = try checkout([
            "validate", "Rules/mix-and-match/Promotions.plist", "--catalog", "Rules/mix-and-match/Products.json",
            "--at", "2026-04-01T10:00:00Z"
        ])
        #expect(validate.stdout == "0 errors, 0 warnings in 1 file\n")
    }

    @Test("a batch: the same promotions lists, ids first, one line per cart")
    func batch() throws {
        let carts = try ["bundle.json", "bxgy.json", "spring.json"].map {
            try String(
                contentsOf: packageRoot.appendingPathComponent("Rules/mix-and-match/carts/" + $0), encoding: .utf8)
        }
        let run = try checkout(
            [
                "price", "-", "--batch", "--promotions", "Rules/mix-and-match/Promotions.plist", "--catalog",
                "Rules/mix-and-match/Products.json",
                "--format", "json", "--at", "2026-04-01T10:00:00Z"
            ], stdin: carts.joined())
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.map { $0.hasPrefix(#"{"id":""#) } == [true, true, true])
        #expect(try promotions(json(lines[0])) == [["merch-trio 31.11/2"], ["merch-trio 8.89/1"], ["caps-25 5.00/4"]])
        #expect(
            try promotions(json(lines[2])) == [
                ["merch-trio 110.00/6"], ["shirt-mug 0.00/1"], ["shirt-mug 7.50/1"], ["stickers-3-for-2 1.50/3"]
            ])
        #expect(try json(lines[2])["cart_discount"] as? String == "15.00")
    }

    @Test("a bad v2 file is refused with its diagnostics at their lines")
    func badFile() throws {
        let dir = try temporaryDirectory([
            "p.plist":
                "<plist><array><dict><key>name</key><string>b</string><key>type</key><string>bundle</string>\n<key>code</key><string>MUG</string><key>quantity</key><integer>1</integer><key>price</key><real>1</real><key>limit</key><integer>0</integer></dict></array></plist>",
            "c.json": Self.catalog, "cart.json": #"["MUG"]"#
        ])
        let run = try checkout(["price", "cart.json", "--promotions", "p.plist", "--catalog", "c.json"], in: dir)
        #expect(run.status == 65)
        #expect(run.stdout == "")
        #expect(
            run.stderr.contains(
                "p.plist:2:55: error: `quantity` of a bundle is the group size and must be at least 2, not 1 [promotion.invalid-value]"
            ))
        #expect(
            run.stderr.contains(
                "p.plist:2:121: error: `limit` is the most groups per cart and must be at least 1, not 0 [promotion.invalid-value]"
            ))
    }
}
