import BatchPricing
import InputFiles
import Pricing
import Testing

@Suite("Catalog files (docs/catalog.md)")
struct CatalogFileTests {
    func decode(_ json: String) throws(InputError) -> Catalog {
        try CatalogFile.decode(Array(json.utf8), name: "Products.json")
    }

    func failure(_ json: String) -> String? {
        do {
            _ = try decode(json)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("prices as numbers or strings, names defaulting to codes, currency defaulting to EUR")
    func valid() throws {
        let catalog = try decode(
            #"{"products": [{"code": "A", "price": 5}, {"code": "B", "name": "Bee", "price": "7.5", "sku": 9}, {"code": "C", "price": 1.95e1}]}"#
        )
        #expect(catalog.currency == .euro)
        #expect(
            catalog.products == [
                Product(code: "A", name: "A", price: 500), Product(code: "B", name: "Bee", price: 750),
                Product(code: "C", name: "C", price: 1950)
            ])
        let yen = try decode(#"{"currency": "JPY", "products": [{"code": "TEA", "price": 1200}]}"#)
        #expect(yen.products[0].price == 1200)
    }

    @Test(
        "each problem names the file and the product",
        arguments: [
            (
                #"{"products": [{"code": "A", "price": 1}, {"code": "A", "price": 2}]}"#,
                #"Products.json: products[1]: the code "A" is already used by products[0]; codes must be unique"#
            ),
            (
                #"{"products": [{"code": "A", "price": -1}]}"#,
                #"Products.json: products[0] ("A"): "price" must not be negative, not -1"#
            ),
            (
                #"{"products": [{"code": "A", "price": 7.555}]}"#,
                #"Products.json: products[0] ("A"): "price" 7.555 is not a whole number of minor units of EUR (2 decimal places)"#
            ),
            (
                #"{"products": [{"code": "A", "price": true}]}"#,
                #"Products.json: products[0] ("A"): "price" must be a number or a decimal string, not a boolean"#
            ),
            (
                #"{"products": [{"code": "A", "price": "7,50"}]}"#,
                #"Products.json: products[0] ("A"): "price" must be a decimal amount such as 7.50, not "7,50""#
            ),
            (#"{"products": [{"code": "A"}]}"#, #"Products.json: products[0] ("A"): missing "price""#),
            (
                #"{"products": [{"code": "", "price": 1}]}"#,
                #"Products.json: products[0]: "code" must be a non-empty string"#
            ),
            (#"{"products": [{"price": 1}]}"#, #"Products.json: products[0]: missing "code""#),
            (
                #"{"products": ["A"]}"#,
                #"Products.json: products[0]: a product must be an object with "code" and "price", not a string"#
            ),
            (#"{"products": {}}"#, #"Products.json: products: must be an array of products, not an object"#),
            (
                #"{"currency": "eur", "products": []}"#,
                #"Products.json: currency: must be an ISO 4217 code of three upper-case letters such as "EUR""#
            ),
            (#"{}"#, #"Products.json: missing "products", the array of products"#),
            (#"[]"#, #"Products.json: a catalog must be a JSON object with "products", not an array"#),
            (
                "{\n  \"products\": [,]}",
                #"Products.json: line 2, column 16: malformed JSON: unexpected ','; expected a JSON value"#
            ),
            (
                #"{"products": [], "products": []}"#,
                #"Products.json: line 1, column 18: malformed JSON: duplicate key "products" in one object; keep only one"#
            )
        ])
    func problems(json: String, message: String) {
        #expect(failure(json) == message)
    }

    @Test("an unreadable file is its own kind of error")
    func unreadable() {
        let error = #expect(throws: InputError.self) { try CatalogFile.load("/nonexistent/Products.json") }
        #expect(error?.kind == .unreadable)
        #expect(error?.description == "/nonexistent/Products.json: cannot open: No such file or directory")
    }
}

@Suite("The shipped store")
struct ShippedStoreTests {
    /// The package root, from this file's path.
    static let root: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        while let last = parts.popLast(), last != "Tests" {}
        return parts.joined(separator: "/")
    }()

    @Test("the built-in copies are the files in Rules/, byte for byte")
    func builtInMatchesRules() throws {
        #expect(try FileBytes.read(Self.root + "/Rules/Promotions.plist") == Array(ShippedStore.promotionsPlist.utf8))
        #expect(try FileBytes.read(Self.root + "/Rules/Products.json") == Array(ShippedStore.productsJSON.utf8))
    }

    @Test("the shipped store loads: three products, two promotions")
    func loads() throws {
        let rules = try PricingRules.load(catalog: .shipped, promotions: .shipped)
        #expect(rules.catalog.products.map(\.code) == ["VOUCHER", "TSHIRT", "MUG"])
        #expect(rules.promotions.promotions.map(\.id) == ["VOUCHER 2x1", "TSHIRT 3+"])
        #expect(rules.promotions.diagnostics == [])
    }
}
