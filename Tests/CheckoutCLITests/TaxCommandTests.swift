import Foundation
import Testing

/// Taxes end to end (docs/taxes.md), on the example stores: `Rules/mix-and-match-vat` (prices
/// including VAT: 21 %, mugs 10 %, vouchers 0 %) and `Rules/net-store` (USD, prices without tax:
/// 7.25 %, coffee beans 0 %). Every figure is worked out in docs/taxes.md.
@Suite("Taxes, end to end", .serialized)
struct TaxCommandTests {
    static let vat = [
        "--promotions", "Rules/mix-and-match-vat/Promotions.plist", "--catalog", "Rules/mix-and-match-vat/Products.json"
    ]
    static let net = ["--promotions", "Rules/net-store/Promotions.plist", "--catalog", "Rules/net-store/Products.json"]
    static let at = ["--at", "2026-06-01T00:00:00Z"]

    func receipt(_ cart: String, _ store: [String]) throws -> [String: Any] {
        let run = try checkout(["price", cart, "--format", "json"] + store + Self.at)
        #expect(run.status == 0, "\(run.stderr)")
        return try json(run.stdout)
    }

    func taxes(_ receipt: [String: Any]) -> [[String]] {
        (receipt["taxes"] as? [[String: Any]] ?? []).map {
            [$0["rate"] as? String ?? "", $0["base"] as? String ?? "", $0["tax"] as? String ?? ""]
        }
    }

    @Test(
        "the VAT twin of mix-and-match: totals as without taxes, one entry per rate of the cart",
        arguments: [
            ("bundle.json", "93.00", "16.14", [["21.00", "76.86", "16.14"]]),
            ("bxgy.json", "47.50", "7.62", [["10.00", "6.82", "0.68"], ["21.00", "33.06", "6.94"]]),
            ("cap.json", "36.00", "5.38", [["0.00", "5.00", "0.00"], ["21.00", "25.62", "5.38"]]),
            ("spring.json", "163.00", "28.29", [["10.00", "0.00", "0.00"], ["21.00", "134.71", "28.29"]]),
            ("three-for-two.json", "7.50", "1.30", [["21.00", "6.20", "1.30"]])
        ])
    func vatTwin(cart: String, total: String, tax: String, entries: [[String]]) throws {
        let taxed = try receipt("Rules/mix-and-match/carts/" + cart, Self.vat)
        let untaxed = try receipt(
            "Rules/mix-and-match/carts/" + cart,
            ["--promotions", "Rules/mix-and-match/Promotions.plist", "--catalog", "Rules/mix-and-match/Products.json"])
        #expect(taxed["total"] as? String == total)
        #expect(untaxed["total"] as? String == total)
        #expect(taxed["tax"] as? String == tax)
        #expect(taxes(taxed) == entries)
        // Untaxed receipts carry nothing of taxes.
        #expect(untaxed["tax"] == nil && untaxed["taxes"] == nil)
        #expect((untaxed["lines"] as? [[String: Any]])?.allSatisfy { $0["tax_rate"] == nil } == true)
    }

    @Test(
        "the VAT twin's promotions are mix-and-match's, byte for byte; its catalog differs only by attributes and rates"
    )
    func twin() throws {
        let root = packageRoot.appendingPathComponent("Rules")
        #expect(
            try Data(contentsOf: root.appendingPathComponent("mix-and-match-vat/Promotions.plist"))
                == Data(contentsOf: root.appendingPathComponent("mix-and-match/Promotions.plist")))
        func products(_ store: String) throws -> [[String]] {
            let catalog = try json(
                String(decoding: Data(contentsOf: root.appendingPathComponent(store)), as: UTF8.self))
            return (catalog["products"] as? [[String: Any]] ?? []).map {
                [$0["code"] as? String ?? "", $0["name"] as? String ?? "", "\($0["price"] ?? "")"]
            }
        }
        #expect(try products("mix-and-match-vat/Products.json") == products("mix-and-match/Products.json"))
    }

    @Test("the spring cart line by line: rates on lines, the zero-total mug line's rate kept with base and tax 0")
    func springLines() throws {
        let taxed = try receipt("Rules/mix-and-match/carts/spring.json", Self.vat)
        let lines = taxed["lines"] as? [[String: Any]] ?? []
        #expect(lines.map { $0["code"] as? String ?? "" } == ["HOODIE", "TSHIRT", "MUG", "STICKER"])
        #expect(lines.map { $0["total"] as? String ?? "" } == ["123.62", "36.63", "0.00", "2.75"])
        #expect(lines.map { $0["tax_rate"] as? String ?? "" } == ["21.00", "21.00", "10.00", "21.00"])
    }

    @Test("net prices: the tax is added to the total; compact JSON keeps the contract's key order")
    func netStore() throws {
        let run = try checkout(
            [
                "price", "Rules/net-store/carts/mug-and-beans.json", "Rules/net-store/carts/ten-off.json", "--format",
                "json"
            ]
                + Self.net + Self.at)
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(
            lines[0].contains(
                #""subtotal":"65.50","item_discount":"13.50","cart_discount":"0.00","discount":"13.50","total":"54.76","tax":"2.76","taxes":[{"rate":"0.00","base":"14.00","tax":"0.00"},{"rate":"7.25","base":"38.00","tax":"2.76"}],"warnings":[]}"#
            ))
        #expect(lines[0].contains(#""code":"BEANS","name":"Coffee beans 1 lb","tax_rate":"0.00","quantity":1,"#))
        let second = try json(lines[1])
        #expect(second["total"] as? String == "88.85")
        #expect(second["discount"] as? String == "12.30")
        #expect(taxes(second) == [["0.00", "12.60", "0.00"], ["7.25", "71.10", "5.15"]])
    }

    @Test("on a 40-column terminal a VAT row's base is never cut: it goes on the next line; the heading wraps")
    func narrowTaxRows() throws {
        let products = (0..<10).map { #"{"code": "P\#($0)", "name": "P\#($0)", "price": "9999999.99"}"# }
        let dir = try temporaryDirectory([
            "Products.json": #"{"currency": "EUR", "tax_rate": 19.99, "products": ["# + products.joined(separator: ",")
                + "]}",
            "Promotions.plist": #"<plist version="1.0"><array/></plist>"#,
            "cart.json": #"{"id": "ten gold bars", "items": ["# + (0..<10).map { "\"P\($0)\"" }.joined(separator: ",")
                + "]}"
        ])
        let run = try inTerminal(
            ["price", "cart.json", "-p", "Promotions.plist", "-c", "Products.json"] + Self.at, columns: 40, in: dir,
            environment: ["NO_COLOR": "1"])
        #expect(run.status == 0)
        let lines = run.screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // G = 10 × 9,999,999.99 = 99,999,999.90; tax = round(9,999,999,990 × 1999 / 11999)
        // = round(1,665,972,162.68) = 16,659,721.63 €; base = G − tax = 83,340,278.27 €.
        #expect(Array(lines.prefix(2)) == ["Receipt for cart \"ten gold bars\",", "2026-06-01T00:00:00Z (EUR)"])
        let total = try #require(lines.firstIndex { $0.hasPrefix("Total") })
        #expect(
            Array(lines[total...].prefix(3)) == [
                "Total                      99999999.90 €",
                "VAT 19.99%                 16659721.63 €",
                "  on 83340278.27 €"
            ])
        #expect(lines.allSatisfy { $0.count <= 40 })
    }

    @Test("text receipts: VAT rows under the total with gross prices, above it with net ones")
    func textReceipts() throws {
        let net = try checkout(["price", "Rules/net-store/carts/mug-and-beans.json"] + Self.net + Self.at)
        #expect(
            net.stdout == """
                Receipt for cart "mug-and-beans", 2026-06-01T00:00:00Z (USD)
                ===========================================================================
                TSHIRT  Cabify T-Shirt                                 1 × $20.00    $20.00
                          1 part of "Buy a T-shirt, get a mug free"
                MUG     Cabify Coffee Mug                              1 ×  $7.50     $7.50
                          Buy a T-shirt, get a mug free (buy X get Y)                -$7.50
                CAP     Cabify Cap                                     2 × $12.00    $24.00
                          Caps 25 % off (percent off)                                -$6.00
                BEANS   Coffee beans 1 lb                              1 × $14.00    $14.00
                ---------------------------------------------------------------------------
                Subtotal                                                             $65.50
                Item discounts                                                      -$13.50
                VAT 0% on $14.00                                                      $0.00
                VAT 7.25% on $38.00                                                   $2.76
                Total                                                                $54.76
                You saved $13.50.

                """)
        let gross = try checkout(["price", "Rules/mix-and-match/carts/bxgy.json"] + Self.vat + Self.at)
        let text = gross.stdout.split(separator: "\n").map(String.init)
        let total = try #require(text.firstIndex { $0.hasPrefix("Total") })
        #expect(text[total + 1].hasPrefix("VAT 10% on 6.82 €   ") && text[total + 1].hasSuffix(" 0.68 €"))
        #expect(text[total + 2].hasPrefix("VAT 21% on 33.06 €") && text[total + 2].hasSuffix(" 6.94 €"))
        #expect(text[total].count == text[total + 1].count && text[total].count == text[total + 2].count)
        // Batches in text: a line per cart, with its tax.
        let batch = try checkout(["price", "Rules/net-store/carts/ten-off.json", "--batch"] + Self.net + Self.at)
        #expect(
            batch.stdout
                == "Rules/net-store/carts/ten-off.json:1 (id \"ten-off\"): total $88.85 (subtotal $96.00, discount $12.30, tax $5.15, 3 lines)\n"
        )
    }

    @Test("at a terminal 40 and 100 columns wide, the tax rows' amounts line up with the total's", arguments: [40, 100])
    func terminalWidths(columns: Int) throws {
        for (cart, store) in [
            ("Rules/mix-and-match/carts/spring.json", Self.vat), ("Rules/net-store/carts/ten-off.json", Self.net)
        ] {
            let run = try inTerminal(
                ["price", cart] + store + Self.at, columns: columns, environment: ["NO_COLOR": "1"])
            #expect(run.status == 0)
            let lines = run.screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
            let total = try #require(lines.first { $0.hasPrefix("Total") })
            let rows = lines.filter { $0.hasPrefix("VAT ") }
            #expect(rows.count == 2)
            for row in rows + [total] {
                #expect(row.count <= columns, "\(row)")
                #expect(row.count == total.count, "\(row) is not aligned with \(total)")
            }
        }
    }

    @Test("--explain: the taxes before warnings, the explanations last")
    func explain() throws {
        let run = try checkout(
            ["price", "Rules/net-store/carts/ten-off.json", "--explain", "--format", "json", "--batch"] + Self.net
                + Self.at)
        #expect(run.status == 0)
        #expect(
            run.stdout.contains(
                #""total":"88.85","tax":"5.15","taxes":[{"rate":"0.00","base":"12.60","tax":"0.00"},{"rate":"7.25","base":"71.10","tax":"5.15"}],"warnings":[],"explanations":["#
            ))
    }

    @Test("cart show and pay charge the total with tax; orders record the tax")
    func shoppingFlow() throws {
        let dir = try temporaryDirectory()
        let storePath = ["--store", dir.appendingPathComponent("store.sqlite").path]
        let store = storePath + Self.net
        for (code, quantity) in [("TSHIRT", "1"), ("MUG", "1"), ("CAP", "2"), ("BEANS", "1")] {
            #expect(try checkout(["cart", "add", code, "--quantity", quantity] + store).status == 0)
        }
        let shown = try json(checkout(["cart", "show", "--format", "json"] + store).stdout)
        #expect(shown["total"] as? String == "54.76")
        #expect(shown["tax"] as? String == "2.76")
        let text = try checkout(["cart", "show"] + store).stdout
        #expect(text.contains("VAT 7.25% on $38.00"))
        let paid = try checkout(
            ["pay", "--card-stdin", "--format", "json"] + store, stdin: "4242 4242 4242 4242\n12/30\n123\n")
        #expect(paid.status == 0)
        #expect(try json(paid.stdout)["total"] as? String == "54.76")
        let orders = try json(checkout(["orders", "--format", "json"] + storePath).stdout)["orders"] as? [[String: Any]]
        #expect(orders?.first?["total"] as? String == "54.76")
        #expect(orders?.first?["tax"] as? String == "2.76")
        #expect((orders?.first?["receipt"] as? [String: Any])?["tax"] as? String == "2.76")
    }

    @Test("shop: the cart and checkout screens show the tax rows; the payment charges the total with tax")
    func shop() throws {
        let dir = try temporaryDirectory()
        let store = ["--store", dir.appendingPathComponent("store.sqlite").path] + Self.net
        // A T-shirt (1) and a mug (4), free with it: $20.00 + 7.25 % = $21.45.
        let run = try checkout(["shop"] + store, stdin: "1\n4\nc\nk\ny\n4242 4242 4242 4242\n12/30\n123\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("  VAT 7.25% on $20.00: $1.45\n  Total $21.45"))
        #expect(run.stdout.contains("Payment approved: order #1, $21.45, card •••• 4242."))
    }

    @Test("diff: revenue is the sum of what customers pay, tax included")
    func diff() throws {
        let dir = try temporaryDirectory([
            "none.plist": "<plist><array/></plist>",
            "carts.ndjson": #"{"items": [{"code": "HOODIE", "quantity": 2}, "BEANS", "CAP"]}"# + "\n"
        ])
        let catalog = packageRoot.appendingPathComponent("Rules/net-store/Products.json").path
        let promotions = packageRoot.appendingPathComponent("Rules/net-store/Promotions.plist").path
        let run = try checkout(
            ["diff", "none.plist", promotions, "--carts", "carts.ndjson", "--catalog", catalog, "--format", "json"],
            in: dir)
        #expect(run.status == 0)
        let revenue = try json(run.stdout)["revenue"] as? [String: Any] ?? [:]
        // Before: 96.00 + 7.25 % of 82.00 (5.945 → 5.95) = 101.95; after: 88.85 (netStore()).
        #expect(revenue["before"] as? String == "101.95")
        #expect(revenue["after"] as? String == "88.85")
        #expect(revenue["difference"] as? String == "-13.10")
    }

    @Test("products: a category column, --category filters name by name")
    func products() throws {
        let all = try checkout(["products"] + Self.vat)
        #expect(
            all.stdout == """
                CODE     NAME               CATEGORY               PRICE  TAX
                TSHIRT   Cabify T-Shirt     Clothing > Shirts    20.00 €  21%
                HOODIE   Cabify Hoodie      Clothing > Sweaters  35.00 €  21%
                CAP      Cabify Cap         Clothing > Hats      12.00 €  21%
                MUG      Cabify Coffee Mug  Home > Kitchen        7.50 €  10%
                STICKER  Cabify Sticker     Stationery            1.50 €  21%
                VOUCHER  Cabify Voucher     Gift cards            5.00 €   0%

                """)
        let clothing = try checkout(["products", "--category", " Clothing", "--format", "json"] + Self.vat)
        let products = try json(clothing.stdout)["products"] as? [[String: Any]] ?? []
        #expect(products.map { $0["code"] as? String ?? "" } == ["TSHIRT", "HOODIE", "CAP"])
        #expect(products.first?["category"] as? String == "Clothing > Shirts")
        #expect(products.first?["tax_rate"] as? String == "21.00")
        let hats = try checkout(["products", "--category", "Clothing>Hats"] + Self.vat)
        #expect(hats.stdout.split(separator: "\n").map { String($0.prefix(4)) } == ["CODE", "CAP "])
        let cloth = try checkout(["products", "--category", "Cloth"] + Self.vat)
        #expect(cloth.stdout == "CODE  NAME  CATEGORY  PRICE  TAX\n")
        #expect(cloth.status == 0)
        // Nothing listed is said, with the category most like it: a wrong letter case, a typo in a
        // deeper name (a category above a product's counts: "Home").
        #expect(
            cloth.stderr
                == "note: no product is in category \"Cloth\"; did you mean \"Clothing\"? (names are compared exactly, letter case too)\n"
        )
        let lower = try checkout(["products", "--category", "home > kitchen"] + Self.vat)
        #expect(
            lower.stderr.hasPrefix(
                "note: no product is in category \"home > kitchen\"; did you mean \"Home > Kitchen\"?"))
        let typo = try checkout(["products", "--category", "Clothing > Swaeters"] + Self.vat)
        #expect(
            typo.stderr.hasPrefix(
                "note: no product is in category \"Clothing > Swaeters\"; did you mean \"Clothing > Sweaters\"?"))
        // Deeper than any category: no path of a near depth to offer, yet the catalog has categories.
        let deep = try checkout(["products", "--category", "A > B > C > D"] + Self.vat)
        #expect(
            deep.stderr
                == "note: no product is in category \"A > B > C > D\" (names are compared exactly, letter case too)\n")
        let none = try checkout(["products", "--category", "Food", "-c", "Rules/Products.json"])
        #expect(none.stderr == "note: no product is in category \"Food\": the catalog has no categories\n")
        let bad = try checkout(["products", "--category", "Clothing >> Hats"] + Self.vat)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--category \"Clothing >> Hats\" has an empty name"))
    }

    @Test("a catalog with taxes and a product without a rate is refused, naming the product (65)")
    func missingRate() throws {
        let dir = try temporaryDirectory([
            "c.json": #"{"products": [{"code": "A", "price": 1, "tax_rate": 21}, {"code": "B", "price": 2}]}"#,
            "cart.json": #"["A"]"#
        ])
        let run = try checkout(["price", "cart.json", "--catalog", "c.json"], in: dir)
        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains(#"c.json: products[1] ("B"): missing "tax_rate""#))
        let typo = try checkout(["products", "--catalog", "c.json"], in: dir)
        #expect(typo.status == 65)
    }
}
