import Foundation
import Testing

/// The shipped store that names products by what they are (Rules/department-store): categories,
/// brands, tags, selector promotions, a cart promotion on part of the cart and a members' price.
/// Every figure worked out by hand in docs/selectors.md.
@Suite("The department store: selectors, part of the cart, customer groups")
struct DepartmentStoreTests {
    let rules = [
        "-c", "Rules/department-store/Products.json", "-p", "Rules/department-store/Promotions.plist", "--at",
        "2026-11-25T12:00:00Z"
    ]

    func receipt(_ cart: String) throws -> [String: Any] {
        let run = try checkout(["price", "-", "-f", "json", "--explain"] + rules, stdin: cart)
        #expect(run.status == 0, "\(run.stderr)")
        return try json(run.stdout)
    }

    func lines(_ receipt: [String: Any]) -> [String] {
        (receipt["lines"] as? [[String: Any]] ?? []).map {
            "\($0["code"]!) \($0["total"]!) cart \($0["cart_discount"]!) "
                + ((($0["promotions"] as? [[String: Any]]) ?? []).map { "\($0["id"]!) \($0["discount"]!)" })
                .joined(separator: ",")
        }
    }

    func statuses(_ receipt: [String: Any]) -> [String] {
        (receipt["explanations"] as? [[String: Any]] ?? []).map { "\($0["id"]!) \($0["status"]!)" }
    }

    @Test("20 % off clothing but sale items, any 3 kitchen items for 20 €, 10 % off from 50 € of non-sale items")
    func mixed() throws {
        let r = try receipt(#"["TSHIRT", "HOODIE", "CAP", "MUG", "BOWL", "MUG"]"#)
        // Clothing but the sale T-shirt: 7.00 + 2.40. Kitchen, most expensive first: BOWL 9.00 + 2 MUG
        // 7.50 = 24.00 → 4.00 off, shared by list value 9/24 and 15/24: BOWL 1.50, MUG 2.50. Non-sale
        // lines after items: 28.00 + 9.60 + 12.50 + 7.50 = 57.60 ≥ 50.00 → 5.76, shared exactly:
        // 2.80, 0.96, 1.25, 0.75; the T-shirt (sale) gets none.
        #expect(
            lines(r) == [
                "TSHIRT 20.00 cart 0.00 ", "HOODIE 25.20 cart 2.80 clothing-20 7.00",
                "CAP 8.64 cart 0.96 clothing-20 2.40",
                "MUG 11.25 cart 1.25 kitchen-3-for-20 2.50", "BOWL 6.75 cart 0.75 kitchen-3-for-20 1.50"
            ])
        #expect(r["subtotal"] as? String == "91.00")
        #expect(r["cart_discount"] as? String == "5.76")
        #expect(r["total"] as? String == "71.84")
    }

    @Test("a member's hoodie at 27 € beats 20 % off; a guest gets the 20 %, and the members' price says not-eligible")
    func members() throws {
        let member = try receipt(
            #"{"customer": {"id": "C-17", "groups": ["members"]}, "items": ["HOODIE", "SHIRT"]}"#)
        // HOODIE 35.00 → 27.00 (8.00 beats 7.00); SHIRT 9.00 off; 63.00 → 6.30 off the cart.
        #expect(
            lines(member) == [
                "HOODIE 24.30 cart 2.70 members-hoodie 8.00", "SHIRT 32.40 cart 3.60 clothing-20 9.00"
            ])
        #expect(member["total"] as? String == "56.70")
        let guest = try receipt(#"{"items": ["HOODIE", "SHIRT"]}"#)
        #expect(guest["total"] as? String == "57.60")
        #expect(statuses(guest) == ["clothing-20 applied", "non-sale-10 applied", "members-hoodie not-eligible"])
        let otherGroup = try receipt(#"{"customer": {"groups": ["staff"]}, "items": ["HOODIE"]}"#)
        #expect(statuses(otherGroup).last == "members-hoodie not-eligible")
    }

    @Test("what is missing: kitchen units among selected products, spend on non-sale products")
    func missing() throws {
        let r = try receipt(#"["KNIFE", "CANDLE"]"#)
        #expect(r["total"] as? String == "39.00")
        let explanations = r["explanations"] as? [[String: Any]] ?? []
        // Kitchen: 2 more knives make a group (75.00 > 20.00); a mug or bowl needs 3. Non-sale spend
        // is the candle alone, 14.00: 36.00 more reaches 50.00.
        #expect(explanations.count == 2)
        #expect((explanations[0]["missing"] as? [String: Any])?["code"] as? String == "KNIFE")
        #expect((explanations[0]["missing"] as? [String: Any])?["units"] as? Int == 2)
        #expect((explanations[1]["missing"] as? [String: Any])?["amount"] as? String == "36.00")
    }

    /// The typo is an error (it would widen the promotion to every product); the unknown category a
    /// warning at its string, and the selector that selects nothing at its `<dict>` (line 5).
    @Test("the store validates clean; a typo in a selector is an error, a category no product has a warning")
    func validate() throws {
        let clean = try checkout(["validate", "Rules/department-store/Promotions.plist"] + rules.prefix(2))
        #expect(clean.status == 0)
        #expect(clean.stdout == "0 errors, 0 warnings in 1 file\n")
        let dir = try temporaryDirectory([
            "typo.plist": """
            <plist><array><dict><key>name</key><string>Shoes</string><key>type</key><string>percent</string>
            <key>percent</key><integer>20</integer><key>products</key><dict>
            <key>categorys</key><array><string>Shoes</string></array></dict></dict>
            <dict><key>name</key><string>Socks</string><key>type</key><string>percent</string>
            <key>percent</key><integer>20</integer><key>products</key><dict>
            <key>categories</key><array><string>Clothing &gt; Sox</string></array></dict></dict></array></plist>
            """
        ])
        let catalog = packageRoot.appendingPathComponent("Rules/department-store/Products.json").path
        let run = try checkout(["validate", "typo.plist", "-c", catalog], in: dir)
        #expect(run.status == 1)
        #expect(
            run.stdout == """
                typo.plist:3:1: error: unknown selector key `categorys` in `products`: it would select more than meant; did you mean `categories`? [promotion.invalid-value]
                typo.plist:5:59: warning: `products` selects no product of the catalog: the promotion can never apply; check its categories, brands, tags and exclusions [promotion.selects-nothing]
                typo.plist:6:29: warning: no product of the catalog has the category "Clothing > Sox": it selects nothing [promotion.unknown-attribute]
                1 error, 2 warnings in 1 file

                """)
    }
}

@Suite("Selectors price as the codes they select")
struct SelectorsAsCodesTests {
    /// The generator writes half the item promotions with selectors of four shapes (a shelf, a shelf
    /// but a tag, an aisle and a brand, a tag but a brand), or with `codes` listing the products its
    /// own formulas say each selects: the engine must resolve them to the same products.
    @Test("the same receipts and explanations, for a large cart and a batch, with group promotions")
    func sameAsCodes() throws {
        let dir = try temporaryDirectory()
        var outputs: [String: [String]] = [:]
        for spelling in ["selectors", "codes"] {
            let emit = dir.appendingPathComponent(spelling).path
            let generated = try checkout([
                "bench", "--lines", "500", "--promotions", "1500", "--products", "5000", "--batch-carts", "800",
                "--group-share", "0.333", "--attributes", "--selector-share", "0.5", "--selector-spelling", spelling,
                "--emit", emit
            ])
            #expect(generated.status == 0, "\(generated.stderr)")
            let rules = [
                "-c", emit + "/Products.json", "-p", emit + "/Promotions.plist", "--at", "2026-06-01T00:00:00Z"
            ]
            outputs[spelling] = try ["cart.json", "batch.ndjson"].map { file in
                let run = try checkout(["price", emit + "/" + file, "-f", "json", "--explain"] + rules)
                #expect(run.status == 0, "\(run.stderr)")
                return run.stdout
            }
            let plist = try String(contentsOfFile: emit + "/Promotions.plist", encoding: .utf8)
            let selectors = plist.components(separatedBy: "<key>products</key>").count - 1
            #expect(spelling == "selectors" ? selectors > 300 : selectors == 0)
        }
        #expect(outputs["selectors"] == outputs["codes"])
        #expect(outputs["codes"]?[1].split(separator: "\n").count == 800)
    }
}
