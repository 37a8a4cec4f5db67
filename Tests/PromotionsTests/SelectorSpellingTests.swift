import Pricing
import Promotions
import Testing

/// Values of selectors and `customer_groups` are compared byte for byte (docs/selectors.md), so
/// reading them drops a repeat only when its bytes are the same: "Café" with a precomposed é and
/// "Café" as e + U+0301 are two values (as Swift strings they are equal, and the second was dropped,
/// leaving products of that spelling unselected).
@Suite("Selector values: repeats dropped byte for byte")
struct SelectorSpellingTests {
    static let composed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"

    func promotion(_ keys: String) -> PromotionFile {
        load(
            arrayPlist(
                """
                <dict><key>name</key><string>ten</string><key>type</key><string>percent</string>
                <key>percent</key><integer>10</integer>\(keys)</dict>
                """))
    }

    @Test("brands, tags, category paths and customer groups keep both spellings, and drop a true repeat")
    func keptApart() throws {
        let file = promotion(
            """
            <key>products</key><dict>
            <key>brands</key><array><string>\(Self.composed)</string><string>\(Self.decomposed)</string><string>\(Self.composed)</string></array>
            <key>tags</key><array><string>\(Self.decomposed)</string><string>\(Self.composed)</string></array>
            <key>categories</key><array><string>D\u{E9}cor</string><string>De\u{301}cor &gt; Lamps</string><string>D\u{E9}cor</string><string>De\u{301}cor</string></array>
            </dict>
            <key>customer_groups</key><array><string>\u{E9}quipe</string><string>e\u{301}quipe</string></array>
            """)
        #expect(file.diagnostics.isEmpty)
        let p = try #require(file.promotions.first)
        let selector = try #require(p.productSelectors?.first)
        #expect(selector.brands?.map { Array($0.utf8) } == [Array(Self.composed.utf8), Array(Self.decomposed.utf8)])
        #expect(selector.tags?.map { Array($0.utf8) } == [Array(Self.decomposed.utf8), Array(Self.composed.utf8)])
        #expect(
            selector.categories?.map { $0.map { Array($0.utf8) } } == [
                [Array("D\u{E9}cor".utf8)], [Array("De\u{301}cor".utf8), Array("Lamps".utf8)],
                [Array("De\u{301}cor".utf8)]
            ])
        #expect(p.customerGroups?.map { Array($0.utf8) } == [Array("\u{E9}quipe".utf8), Array("e\u{301}quipe".utf8)])
    }

    @Test("20,000 category paths, each twice: repeats dropped by a set, in the order first given")
    func manyCategories() throws {
        // Each path was compared with every one kept before it: 20,000 took 26 s, 40,000 100 s.
        let paths = (0..<20_000).map { "Dept \($0 % 100) &gt; Shelf \($0)" }
        let file = promotion(
            "<key>products</key><dict><key>categories</key><array>"
                + (paths + paths.reversed()).map { "<string>\($0)</string>" }.joined() + "</array></dict>")
        #expect(file.diagnostics.isEmpty)
        let categories = try #require(file.promotions.first?.productSelectors?.first?.categories)
        #expect(categories.count == 20_000)
        #expect(categories.first == ["Dept 0", "Shelf 0"])
        #expect(categories.last == ["Dept 99", "Shelf 19999"])
        #expect(categories[12_345] == ["Dept 45", "Shelf 12345"])
    }

    @Test("promotion.shadowed: a promotion for a group spelt otherwise is for other customers, never shadowed")
    func shadowedGroups() {
        func promotion(_ name: String, _ percent: Int, _ groups: [String]) -> String {
            """
            <dict><key>name</key><string>\(name)</string><key>type</key><string>percent</string>
            <key>code</key><string>MUG</string><key>percent</key><integer>\(percent)</integer>
            <key>customer_groups</key><array>\(groups.map { "<string>\($0)</string>" }.joined())</array></dict>
            """
        }
        let checks = PromotionChecks(catalog: store, checksProducts: true)
        // 20 % for é-quipe (precomposed) and 10 % for e + U+0301: a customer of the second gets only the 10 %.
        let apart = load(
            arrayPlist(promotion("big", 20, ["\u{E9}quipe"]) + "\n" + promotion("small", 10, ["e\u{301}quipe"])),
            checks: checks)
        #expect(apart.diagnostics.map(\.id) == [])
        // The same spelling: the 10 % can never apply.
        let same = load(
            arrayPlist(promotion("big", 20, ["\u{E9}quipe"]) + "\n" + promotion("small", 10, ["\u{E9}quipe"])),
            checks: checks)
        #expect(same.diagnostics.map(\.id) == ["promotion.shadowed"])
    }

    @Test("with --catalog, a selector code that is the catalog's only by Unicode equivalence is unknown")
    func unknownCode() {
        let catalog = try! Catalog(products: [Product(code: "\u{C9}", name: "E acute", price: 100)])
        let xml = arrayPlist(
            """
            <dict><key>name</key><string>ten</string><key>type</key><string>percent</string>
            <key>percent</key><integer>10</integer>
            <key>products</key><dict><key>codes</key><array><string>E\u{301}</string><string>\u{C9}</string></array></dict></dict>
            """)
        let file = load(xml, checks: PromotionChecks(catalog: catalog, checksProducts: true))
        #expect(
            file.diagnostics.map { "\($0.id) \($0.severity) \($0.location.line)" } == [
                "promotion.unknown-code warning 6"
            ])
    }

    @Test("a selector's unknown code stays a warning when it gets a did-you-mean (it became an error)")
    func suggestedCodeStaysWarning() {
        let xml = arrayPlist(
            """
            <dict><key>name</key><string>ten</string><key>type</key><string>percent</string>
            <key>percent</key><integer>10</integer>
            <key>products</key><dict><key>exclude_codes</key><array><string>TSHRT</string></array></dict></dict>
            """)
        let file = load(xml, checks: PromotionChecks(catalog: store, checksProducts: true))
        #expect(
            file.diagnostics.map { "\($0.id) \($0.severity) \($0.location.line)" } == [
                "promotion.unknown-code warning 6"
            ])
        #expect(file.diagnostics.first?.message.contains("TSHIRT") == true, "\(file.diagnostics.map(\.message))")
        #expect(file.errorCount == 0)
    }
}
