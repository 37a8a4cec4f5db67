import Pricing
import Testing

@Suite("Catalog: codes to products")
struct CatalogTests {
    /// What the catalog promises, written the plain way: a Swift dictionary of its codes, filled in
    /// catalog order, the first problem thrown.
    static func reference(_ products: [Product]) -> Result<[String: Int], Catalog.Problem> {
        var ids: [String: Int] = [:]
        for (index, product) in products.enumerated() {
            if product.code.isEmpty { return .failure(.emptyCode(index: index)) }
            if product.price < 0 { return .failure(.negativePrice(product.code, index: index)) }
            if let first = ids.updateValue(index, forKey: product.code) {
                return .failure(.duplicateCode(product.code, index: index, firstIndex: first))
            }
        }
        return .success(ids)
    }

    @Test("finds what a dictionary of its codes finds, and refuses what it refuses, on 2,000 random catalogs")
    func differential() {
        // ASCII, letters in other case, and characters equal to others: the Kelvin sign is `K`,
        // the Ohm sign is `Ω`, `é` may be one scalar or two.
        let pieces = ["A", "B", "K", "k", "\u{212A}", "Ω", "\u{2126}", "é", "e\u{301}", "7", "-", ";", "\u{37E}", "ß"]
        var state: UInt64 = 3
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        func code() -> String { (0..<next(4)).map { _ in pieces[next(pieces.count)] }.joined() }
        var refused = 0
        for round in 0..<2_000 {
            let products = (0..<(1 + next(round % 10 == 0 ? 3_000 : 40))).map { i in
                Product(code: code(), name: "n", price: next(50) == 0 ? -1 : Int64(i))
            }
            let expected = Self.reference(products)
            let catalog: Result<Catalog, Catalog.Problem> = Result { () throws(Catalog.Problem) in
                try Catalog(products: products)
            }
            switch (catalog, expected) {
            case (.success(let catalog), .success(let ids)):
                for _ in 0..<50 {
                    let question = code()
                    #expect(catalog.productID(for: question) == ids[question], "round \(round): \(question)")
                    Self.expectBytesLookup(catalog, question, ids[question])
                }
                for product in products {
                    #expect(catalog.productID(for: product.code) == ids[product.code])
                    Self.expectBytesLookup(catalog, product.code, ids[product.code])
                }
            case (.failure(let problem), .failure(let reference)):
                #expect(problem == reference, "round \(round)")
                refused += 1
            default:
                Issue.record("round \(round): \(catalog) but expected \(expected)")
            }
        }
        #expect(refused > 500)
        #expect(refused < 1_900)
    }

    /// The lookup by UTF-8 bytes finds what the dictionary finds, and says "same bytes" exactly
    /// when the product's code is spelled byte for byte as asked.
    static func expectBytesLookup(_ catalog: Catalog, _ question: String, _ expected: Int?) {
        var text = question
        let found = text.withUTF8 { catalog.productID(utf8: $0) }
        #expect(found?.id == expected, "\(question)")
        if let found {
            #expect(found.sameBytes == (Array(catalog[found.id].code.utf8) == Array(question.utf8)), "\(question)")
        }
    }

    @Test("a code with other characters equal to an ASCII one is the same code")
    func equivalent() throws {
        let catalog = try Catalog(products: [Product(code: "K1", name: "K", price: 1)])
        #expect(catalog.productID(for: "\u{212A}1") == 0)
        #expect(catalog.productID(for: "k1") == nil)
        var kelvin = "\u{212A}1"
        #expect(kelvin.withUTF8 { catalog.productID(utf8: $0) }.map { [$0.id] } == [0])
        #expect(kelvin.withUTF8 { catalog.productID(utf8: $0) }?.sameBytes == false)
        var plain = "K1"
        #expect(plain.withUTF8 { catalog.productID(utf8: $0) }?.sameBytes == true)
        let semicolon = try Catalog(products: [Product(code: "A\u{37E}", name: "Greek question mark", price: 1)])
        var ascii = "A;"
        #expect(ascii.withUTF8 { semicolon.productID(utf8: $0) }.map { [$0.id] } == [0])
        #expect(throws: Catalog.Problem.duplicateCode("\u{212A}1", index: 1, firstIndex: 0)) {
            try Catalog(products: [
                Product(code: "K1", name: "K", price: 1), Product(code: "\u{212A}1", name: "K", price: 1)
            ])
        }
    }
}
