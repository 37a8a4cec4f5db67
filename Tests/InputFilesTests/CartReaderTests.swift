import BatchPricing
import InputFiles
import Pricing
import Testing

let shippedCatalog = try! CatalogFile.decode(Array(ShippedStore.productsJSON.utf8), name: "Products.json")

func readCart(_ json: String) throws(InputError) -> Cart {
    var reader = CartReader(catalog: shippedCatalog)
    return try reader.read(Array(json.utf8), name: "cart.json")
}

@Suite("Cart files (docs/files.md#carts)")
struct CartReaderTests {
    @Test("the array form: scanned codes merged into lines in order of first appearance")
    func arrayForm() throws {
        let cart = try readCart(#"["MUG", "VOUCHER", "MUG", "TSHIRT", "VOUCHER", "MUG"]"#)
        #expect(
            cart.lines == [
                Cart.Line(product: 2, quantity: 3), Cart.Line(product: 0, quantity: 2),
                Cart.Line(product: 1, quantity: 1)
            ])
        #expect(cart.coupons == [])
        #expect(cart.at == nil)
    }

    @Test("the object form, with every key; unknown keys of any value are ignored")
    func objectForm() throws {
        let cart = try readCart(
            """
            {"note": {"any": [1, 2]}, "currency": "EUR", "at": "2026-11-21T11:00:00+01:00", "coupons": ["SPRING", "x"],
             "items": ["MUG", {"quantity": 3, "code": "TSHIRT", "gift": true}, {"code": "MUG"}]}
            """)
        #expect(cart.lines == [Cart.Line(product: 2, quantity: 2), Cart.Line(product: 1, quantity: 3)])
        #expect(cart.coupons == ["SPRING", "x"])
        #expect(cart.currency == .euro)
        #expect(cart.at?.description == "2026-11-21T10:00:00Z")
    }

    @Test("a customer's groups: repeats count once, byte for byte (two spellings of Café are two groups)")
    func customerGroups() throws {
        let cart = try readCart(
            #"{"customer": {"id": "C-17", "groups": ["members", "Caf\u00e9", "members", "Cafe\u0301", "Caf\u00e9"]}, "items": []}"#
        )
        #expect(cart.customer?.id == "C-17")
        #expect(
            cart.customer?.groups.map { Array($0.utf8) } == [
                Array("members".utf8), Array("Caf\u{E9}".utf8), Array("Cafe\u{301}".utf8)
            ])
    }

    @Test("an empty cart")
    func empty() throws {
        #expect(try readCart("[]") == Cart())
        #expect(try readCart(#"{"items": []}"#) == Cart())
    }

    @Test(
        "each problem names the cart and the item",
        arguments: [
            (#"["MUG", "VOUCHER", "TSHIRT", "HAT"]"#, #"cart.json: items[3]: unknown product code "HAT""#),
            (#"["mug"]"#, #"cart.json: items[0]: unknown product code "mug"; did you mean "MUG"?"#),
            (
                #"[{"code": "MUG", "quantity": 0}]"#,
                #"cart.json: items[0]: "quantity" must be a whole number from 1 to 1000000000, not 0"#
            ),
            (
                #"[{"code": "MUG", "quantity": -2}]"#,
                #"cart.json: items[0]: "quantity" must be a whole number from 1 to 1000000000, not -2"#
            ),
            (
                #"[{"code": "MUG", "quantity": 1000000001}]"#,
                #"cart.json: items[0]: "quantity" must be a whole number from 1 to 1000000000, not 1000000001"#
            ),
            (
                #"[{"code": "MUG", "quantity": 99999999999999999999999}]"#,
                #"cart.json: items[0]: "quantity" must be a whole number from 1 to 1000000000, not 99999999999999999999999"#
            ),
            (
                #"[{"code": "MUG", "quantity": 3.0}]"#,
                #"cart.json: items[0]: "quantity" must be an integer literal such as 3, not 3.0"#
            ),
            (
                #"[{"code": "MUG", "quantity": 3e0}]"#,
                #"cart.json: items[0]: "quantity" must be an integer literal such as 3, not 3e0"#
            ),
            (
                #"[{"code": "MUG", "quantity": 2.5}]"#,
                #"cart.json: items[0]: "quantity" must be an integer literal such as 3, not 2.5"#
            ),
            (
                #"[{"code": "MUG", "quantity": "3"}]"#,
                #"cart.json: items[0]: "quantity" must be a whole number from 1 to 1000000000, not a string"#
            ),
            (
                #"[{"code": "MUG", "price": 0.01}]"#,
                #"cart.json: items[0]: a cart cannot set prices ("price"); remove it: prices come from the catalog"#
            ),
            (
                #"["MUG", {"code": "MUG", "unit_price": "0"}]"#,
                #"cart.json: items[1]: a cart cannot set prices ("unit_price"); remove it: prices come from the catalog"#
            ),
            (#"[{"quantity": 1}]"#, #"cart.json: items[0]: missing "code""#),
            (#"[{"code": 7}]"#, #"cart.json: items[0]: "code" must be a string, not a number"#),
            (#"[7]"#, #"cart.json: items[0]: an item must be a product code or an object with "code", not a number"#),
            (
                #"{"coupons": []}"#,
                #"cart.json: missing "items", the array of items (codes or {"code", "quantity"} objects)"#
            ),
            (#"{"items": "MUG"}"#, #"cart.json: items: must be an array of items, not a string"#),
            (#"{"items": [], "coupons": "SPRING"}"#, #"cart.json: coupons: must be an array of strings, not a string"#),
            (#"{"items": [], "coupons": [1]}"#, #"cart.json: coupons[0]: a coupon must be a string, not a number"#),
            (
                #"{"items": [], "at": "yesterday"}"#,
                #"cart.json: at: "yesterday" is not an RFC 3339 date-time (not in the form YYYY-MM-DDTHH:MM:SS followed by Z or an offset; expected e.g. 2026-11-21T10:00:00Z)"#
            ),
            (
                #"{"items": [], "currency": "€"}"#,
                #"cart.json: currency: must be an ISO 4217 code of three upper-case letters such as "EUR""#
            ),
            (#""MUG""#, #"cart.json: a cart must be an array of items or an object with "items", not a string"#),
            (
                #"[{"code": "MUG", "code": "TSHIRT"}]"#,
                #"cart.json: line 1, column 18: malformed JSON: duplicate key "code" in one object; keep only one"#
            ),
            ("", #"cart.json: line 1, column 1: malformed JSON: the input is empty; expected a JSON value"#),
            (
                #"{"customer": {"id": ""}, "items": []}"#,
                #"cart.json: customer.id: must be a non-empty string, not an empty string"#
            ),
            (
                #"{"customer": {"id": 17}, "items": []}"#,
                #"cart.json: customer.id: must be a non-empty string, not a number"#
            ),
            (
                #"{"customer": {"groups": ["members", ""]}, "items": []}"#,
                #"cart.json: customer.groups[1]: a group must be a non-empty string, not an empty string"#
            )
        ])
    func problems(json: String, message: String) {
        let error = #expect(throws: InputError.self) { try readCart(json) }
        #expect(error?.description == message)
        #expect(error?.kind == .invalid)
    }

    @Test("a batch's lines keep their physical numbers; blank lines are skipped")
    func batchLines() {
        let bytes = Array("[\"MUG\"]\n\n  \r\n[\"TSHIRT\"]\r\n[]".utf8)
        let lines = BatchLines(bytes).map { ($0.line, String(decoding: bytes[$0.range], as: UTF8.self)) }
        #expect(lines.map(\.0) == [1, 4, 5])
        #expect(lines.map(\.1) == ["[\"MUG\"]", "[\"TSHIRT\"]\r", "[]"])
        #expect(
            BatchLines.isBatchName("day.ndjson") && BatchLines.isBatchName("day.jsonl")
                && !BatchLines.isBatchName("cart.json"))
        // Any letter case; the extension only, not a name that merely ends alike.
        #expect(BatchLines.isBatchName("DAY.NDJSON") && BatchLines.isBatchName("day.JsonL"))
        #expect(!BatchLines.isBatchName("dayndjson") && !BatchLines.isBatchName("day.ndjson.json"))
        #expect(!BatchLines.isBatchName("ndjson") && !BatchLines.isBatchName(".json"))
    }
}
