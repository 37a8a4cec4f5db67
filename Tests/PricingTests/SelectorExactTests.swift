import Pricing
import ReferenceModels
import Testing

/// Selectors and customer groups compare byte for byte (docs/selectors.md): "Café" with a
/// precomposed é (U+00E9) and "Café" as e + U+0301 are equal Swift strings but different values.
/// Found by the differential test against the reference model: the engine took one for the other.
@Suite("Selectors and customer groups compare byte for byte")
struct SelectorExactTests {
    static let composed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"

    /// A 10.00 product per spelling of each attribute, and the code É in both spellings' reach.
    let catalog = try! Catalog(products: [
        Product(code: "A", name: "A", price: 1000, category: ["D\u{E9}cor"], brand: composed, tags: ["caf\u{E9}"]),
        Product(
            code: "B", name: "B", price: 1000, category: ["De\u{301}cor"], brand: decomposed, tags: ["cafe\u{301}"]),
        Product(code: "\u{C9}", name: "E acute", price: 1000)
    ])

    func tenPercent(_ id: String, _ selector: ProductSelector, groups: [String]? = nil) -> Promotion {
        var promotion = Promotion(id: id, name: id, rule: .percent(minimumQuantity: 1, hundredths: 1000))
        promotion.productSelectors = [selector]
        promotion.customerGroups = groups
        return promotion
    }

    func selected(_ promotion: Promotion) -> [String] {
        let rules = RuleSet(promotions: [promotion], catalog: catalog)
        return rules.products.products(of: 0).map { catalog[$0].code }
    }

    @Test("brands, tags, category names and codes: each spelling selects its own product only")
    func attributes() throws {
        #expect(selected(tenPercent("brand", ProductSelector(brands: [Self.composed]))) == ["A"])
        #expect(selected(tenPercent("brand", ProductSelector(brands: [Self.decomposed]))) == ["B"])
        #expect(selected(tenPercent("tag", ProductSelector(tags: ["cafe\u{301}"]))) == ["B"])
        #expect(selected(tenPercent("category", ProductSelector(categories: [["D\u{E9}cor"]]))) == ["A"])
        #expect(selected(tenPercent("code", ProductSelector(codes: ["E\u{301}"]))) == [])
        #expect(selected(tenPercent("code", ProductSelector(codes: ["\u{C9}"]))) == ["\u{C9}"])
        // Exclusions the same way: everything but the composed brand.
        #expect(selected(tenPercent("not", ProductSelector(excludeBrands: [Self.composed]))) == ["B", "\u{C9}"])
        // Priced: one of each, only A's 10.00 line gets 1.00 off.
        let receipt = try PricingEngine(
            rules: RuleSet(
                promotions: [tenPercent("brand", ProductSelector(brands: [Self.composed]))], catalog: catalog)
        ).price(cart(["A", "B", "\u{C9}"], in: catalog), now: noon)
        #expect(receipt.lines.map(\.itemDiscount) == [100, 0, 0])
    }

    @Test("two selectors that differ only in the spelling are resolved apart, not taken for one another")
    func distinctSelectors() {
        // The file's table resolves each distinct selector once: the second must not reuse the first's products.
        let rules = RuleSet(
            promotions: [
                tenPercent("composed", ProductSelector(excludeTags: ["caf\u{E9}"])),
                tenPercent("decomposed", ProductSelector(excludeTags: ["cafe\u{301}"]))
            ], catalog: catalog)
        #expect(rules.products.products(of: 0).map { catalog[$0].code } == ["B", "\u{C9}"])
        #expect(rules.products.products(of: 1).map { catalog[$0].code } == ["A", "\u{C9}"])
        #expect(ProductSelector(tags: ["caf\u{E9}"]) != ProductSelector(tags: ["cafe\u{301}"]))
        #expect(ProductSelector(tags: ["caf\u{E9}"]) == ProductSelector(tags: ["caf\u{E9}"]))
    }

    @Test("brands of every length around the 8-byte steps of the comparison: equal only when every byte is")
    func lengths() throws {
        for length in [2, 7, 8, 9, 15, 16, 17, 24, 40] {
            let name = String(repeating: "b", count: length - 1)
            let catalog = try Catalog(products: [
                Product(code: "X", name: "X", price: 100, brand: name + "x"),
                Product(code: "Y", name: "Y", price: 100, brand: name + "y"),
                Product(code: "Z", name: "Z", price: 100, brand: "x" + name)
            ])
            let index = CatalogIndex(catalog)
            #expect(index.products(brands: [name + "x"]) == [0], "\(length)")
            #expect(index.products(brands: [name + "y", "x" + name]) == [1, 2], "\(length)")
            #expect(!index.hasBrand(name + "z"), "\(length)")
            #expect(!index.hasBrand(name), "\(length)")
        }
    }

    @Test("a customer group spelt otherwise is another group: the promotion is not a candidate")
    func groups() throws {
        let members = tenPercent("members", ProductSelector(codes: ["A"]), groups: ["\u{E9}quipe"])
        let engine = PricingEngine(rules: RuleSet(promotions: [members], catalog: catalog))
        var c = cart(["A"], in: catalog)
        c.customer = Cart.Customer(groups: ["e\u{301}quipe"])
        #expect(try engine.price(c, now: noon).itemDiscount == 0)
        #expect(engine.customerStanding(ofPromotion: 0, in: c) == .notEligible)
        c.customer = Cart.Customer(groups: ["e\u{301}quipe", "\u{E9}quipe"])
        #expect(try engine.price(c, now: noon).itemDiscount == 100)
    }

    @Test("a name holding U+0000 is one name: \"A\\0B\" is not the path A > B, nor the tags A and B")
    func nulInANameIsOneName() {
        let catalog = try! Catalog(products: [
            Product(code: "NUL", name: "NUL", price: 1000, category: ["A\u{0}B"], tags: ["x\u{0}y"]),
            Product(code: "AC", name: "AC", price: 1000, category: ["A", "C"], tags: ["x", "y"])
        ])
        let index = CatalogIndex(catalog)
        #expect(index.products(categories: [["A", "B"]]) == [])
        #expect(index.products(categories: [["A\u{0}B"]]) == [0])
        #expect(index.products(categories: [["A"]]) == [1])
        #expect(!index.hasCategory(["A", "B"]))
        #expect(index.products(tags: ["x"]) == [1])
        #expect(index.products(tags: ["x\u{0}y"]) == [0])
        #expect(index.categoryPaths.sorted() == ["A", "A\u{0}B", "A > C"])
    }

    @Test("a category path of 20,000 names: each of its prefixes selects the product, suggestions near its depth")
    func deepCategoryPath() {
        // Its prefixes were keys of all their names (20,000 keys of up to 20,000 names: minutes,
        // gigabytes); they are a name each under their parent now.
        let path = (0..<20_000).map { "n\($0)" }
        let catalog = try! Catalog(products: [
            Product(code: "DEEP", name: "Deep", price: 1000, category: path),
            Product(code: "TOP", name: "Top", price: 1000, category: ["n0"])
        ])
        let index = CatalogIndex(catalog)
        #expect(index.products(categories: [path]) == [0])
        #expect(index.products(categories: [Array(path.prefix(10_000))]) == [0])
        #expect(index.products(categories: [["n0"]]) == [0, 1])
        #expect(index.products(categories: [path + ["more"]]) == [])
        #expect(index.products(categories: [["n1"]]) == [])
        // Suggestions for a path of 20,000 names: the paths of 19,999 to 20,001 names, each
        // written once (every prefix written out would be 20,000 strings of up to 20,000 names).
        let suggested = index.categoryPaths(depths: CatalogIndex.suggestedDepths(near: 20_000))
        #expect(suggested.count == 2)
        #expect(suggested.last == path.joined(separator: " > "))
        #expect(index.categoryPaths(depths: CatalogIndex.suggestedDepths(near: 1)).sorted() == ["n0", "n0 > n1"])
    }
}
