import InputFiles
import Pricing
import Testing

@Suite("Catalog attributes and tax rates (docs/catalog.md, docs/taxes.md)")
struct CatalogAttributesTests {
    func decode(_ json: String) throws(InputError) -> Catalog {
        try CatalogFile.decode(Array(json.utf8), name: "Products.json")
    }

    @Test("categories trimmed name by name, brands, tags once each in first-seen order; absent ones empty")
    func attributes() throws {
        let catalog = try decode(
            #"""
            {"products": [
              {"code": "A", "price": 1, "category": " Clothing\t>Shirts >  T-Shirts ", "brand": "Cabify", "tags": ["sale", "new", "sale", "x"]},
              {"code": "B", "price": 2, "category": "Clothing>Shirts", "tags": []},
              {"code": "C", "price": 3, "category": "Home", "brand": "É\u0301", "tags": ["\u0073ale"]},
              {"code": "D", "price": 4}]}
            """#)
        #expect(
            catalog.products == [
                Product(
                    code: "A", name: "A", price: 100, category: ["Clothing", "Shirts", "T-Shirts"], brand: "Cabify",
                    tags: ["sale", "new", "x"]),
                Product(code: "B", name: "B", price: 200, category: ["Clothing", "Shirts"]),
                Product(code: "C", name: "C", price: 300, category: ["Home"], brand: "É\u{301}", tags: ["sale"]),
                Product(code: "D", name: "D", price: 400)
            ])
        #expect(!catalog.isTaxed && catalog.pricesIncludeTax)
        // Byte for byte: the brand keeps its two scalars.
        #expect(Array(catalog.products[2].brand!.unicodeScalars) == ["É", "\u{301}"])
    }

    @Test("a product's rate or the root's; prices including tax unless said otherwise; rates as numbers or strings")
    func rates() throws {
        let vat = try decode(
            #"{"tax_rate": 21, "products": [{"code": "A", "price": 1}, {"code": "B", "price": 1, "tax_rate": "10.00"}, {"code": "C", "price": 1, "tax_rate": 0}, {"code": "D", "price": 1, "tax_rate": 7.25e0}]}"#
        )
        #expect(vat.isTaxed && vat.pricesIncludeTax)
        #expect(vat.products.map(\.taxRate) == [2100, 1000, 0, 725])
        let net = try decode(
            #"{"prices_include_tax": false, "products": [{"code": "A", "price": 1, "tax_rate": 100}]}"#)
        #expect(net.isTaxed && !net.pricesIncludeTax && net.products[0].taxRate == 10_000)
        let zero = try decode(#"{"tax_rate": 0, "products": [{"code": "A", "price": 1}]}"#)
        #expect(zero.isTaxed && zero.products[0].taxRate == 0)
        // `prices_include_tax` alone gives no taxes.
        let none = try decode(#"{"prices_include_tax": false, "products": [{"code": "A", "price": 1}]}"#)
        #expect(!none.isTaxed && none.products[0].taxRate == nil)
    }

    @Test(
        "each wrong attribute or rate names the file and the product",
        arguments: [
            (
                #"{"products": [{"code": "A", "price": 1, "category": 5}]}"#,
                #"Products.json: products[0] ("A"): "category" must be a string, a path of names separated by ">" such as "Clothing > Shirts", not a number"#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "category": "Clothing >> Shirts"}]}"#,
                #"Products.json: products[0] ("A"): "category" "Clothing >> Shirts" has an empty name; write non-empty names separated by ">", such as "Clothing > Shirts""#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "category": " \t "}]}"#,
                "Products.json: products[0] (\"A\"): \"category\" \" \t \" has an empty name; write non-empty names separated by \">\", such as \"Clothing > Shirts\""
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "category": "Clothing >"}]}"#,
                #"Products.json: products[0] ("A"): "category" "Clothing >" has an empty name; write non-empty names separated by ">", such as "Clothing > Shirts""#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "brand": ""}]}"#,
                #"Products.json: products[0] ("A"): "brand" must not be empty"#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "brand": null}]}"#,
                #"Products.json: products[0] ("A"): "brand" must be a string, not null"#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "tags": "sale"}]}"#,
                #"Products.json: products[0] ("A"): "tags" must be an array of strings, not a string"#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "tags": ["sale", ""]}]}"#,
                #"Products.json: products[0] ("A"): "tags"[1] is empty; tags must be non-empty strings"#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "tags": [["sale"]]}]}"#,
                #"Products.json: products[0] ("A"): "tags"[0] must be a string, not an array"#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "tax_rate": 21}, {"code": "B", "price": 2}]}"#,
                #"Products.json: products[1] ("B"): missing "tax_rate": the catalog has taxes (a "tax_rate" at its root or on a product), so every product needs a rate, its own or the root's default; a missing rate is not a zero rate: give this product a "tax_rate" (0 for none) or the catalog a default "tax_rate""#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "tax_rate": 100.01}]}"#,
                #"Products.json: products[0] ("A"): "tax_rate" 100.01 must be a percent between 0 and 100"#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "tax_rate": -1}]}"#,
                #"Products.json: products[0] ("A"): "tax_rate" -1 must be a percent between 0 and 100"#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "tax_rate": 7.255}]}"#,
                #"Products.json: products[0] ("A"): "tax_rate" 7.255 must be a multiple of 0.01 (such as 21 or 7.25)"#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "tax_rate": "21%"}]}"#,
                #"Products.json: products[0] ("A"): "tax_rate" must be a percent such as 21 or "7.25", not "21%""#
            ),
            (
                #"{"products": [{"code": "A", "price": 1, "tax_rate": null}]}"#,
                #"Products.json: products[0] ("A"): "tax_rate" must be a percent (a number or a decimal string such as 21 or "7.25"), not null"#
            ),
            (
                #"{"tax_rate": 1e3, "products": []}"#,
                #"Products.json: tax_rate: "tax_rate" 1e3 must be a percent between 0 and 100"#
            ),
            (
                #"{"prices_include_tax": "false", "products": []}"#,
                #"Products.json: prices_include_tax: must be true or false, not a string"#
            )
        ])
    func problems(json: String, message: String) {
        do {
            _ = try decode(json)
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.description == message)
            #expect(error.kind == .invalid)
        }
    }
}
