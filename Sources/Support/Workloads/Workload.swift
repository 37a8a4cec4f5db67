@_exported import SeededRandom

/// Generated inputs for benchmarks: a catalog, promotions, a large cart and a batch of small carts,
/// as the bytes of the files users have (Products.json, Promotions.plist, cart.json, batch.ndjson).
/// The same parameters always give the same bytes.
public struct Workload: Sendable {
    public struct Parameters: Sendable, Equatable {
        /// Products in the catalog.
        public var products: Int
        /// Promotions in the plist.
        public var promotions: Int
        /// Items of the large cart.
        public var lines: Int
        /// Small carts in the batch.
        public var batchCarts: Int
        public var seed: UInt64
        /// The share of item promotions that work across lines (`bundle`, `bxgy`), from 0 to 1. At 0
        /// the file is exactly what it was before v2 existed.
        public var groupShare: Double
        /// Give every batch cart an id: odd carts a string (`"order-7"`), even ones an integer.
        public var cartIDs: Bool
        /// Give products categories (a 3-level tree of up to 10,000 shelves), brands (500) and tags
        /// (2,000), as docs/selectors.md describes.
        public var attributes = false
        /// The share of item promotions that name their products with a selector (with
        /// ``attributes``), from 0 to 1, drawn from a generator of their own.
        public var selectorShare = 0.0
        /// How those promotions are written.
        public var selectorSpelling = SelectorSpelling.selectors

        public init(
            products: Int = 1_000, promotions: Int = 100_000, lines: Int = 1_000_000, batchCarts: Int = 0,
            seed: UInt64 = 42,
            groupShare: Double = 0, cartIDs: Bool = false
        ) {
            self.cartIDs = cartIDs
            self.products = products
            self.promotions = promotions
            self.lines = lines
            self.batchCarts = batchCarts
            self.seed = seed
            self.groupShare = groupShare
        }
    }

    /// How the promotions chosen by ``Parameters/selectorShare`` name their products: by a
    /// selector, by `codes` listing exactly the products it selects, or by one code (a promotion as
    /// cheap to load as can be).
    public enum SelectorSpelling: String, Sendable, CaseIterable {
        case selectors, codes
        case oneCode = "one-code"
    }

    public let parameters: Parameters

    public init(_ parameters: Parameters) {
        self.parameters = parameters
    }

    /// Product codes: `P0000` … with as many digits as the count needs (at least 4).
    public func code(_ index: Int) -> String {
        let digits = max(4, String(max(parameters.products - 1, 0)).count)
        let text = String(index)
        return "P" + String(repeating: "0", count: digits - text.count) + text
    }

    /// `{"currency": "EUR", "products": [{"code": "P0000", "name": "Product 0", "price": "12.34"}, …]}`.
    public func catalogJSON() -> [UInt8] {
        var random = SplitMix64(seed: parameters.seed)
        var out = "{\n  \"currency\": \"EUR\",\n  \"products\": [\n"
        out.reserveCapacity(parameters.products * 64)
        for index in 0..<parameters.products {
            let cents = 50 + Int(random.next() % 9_950)
            out +=
                "    {\"code\": \"\(code(index))\", \"name\": \"Product \(index)\", \"price\": \(cents / 100).\(twoDigits(cents % 100))"
            if parameters.attributes {
                out += ", \"category\": \"\(categoryPath(shelf(index)))\""
                if let brand = brand(index) { out += ", \"brand\": \"Brand \(brand)\"" }
                out += ", \"tags\": [" + tags(index).map { "\"Tag \($0)\"" }.joined(separator: ", ") + "]"
            }
            out += index + 1 < parameters.products ? "},\n" : "}\n"
        }
        out += "  ]\n}\n"
        return Array(out.utf8)
    }

    /// A dict-root plist of promotions of every type, each on a product or three, some with
    /// windows, coupons and priorities; about 370 bytes per promotion. With a group share, that
    /// share of the item promotions are bundles and buy-X-get-Ys, drawn from a generator of their
    /// own so that the others stay as they were.
    public func promotionsPlist() -> [UInt8] {
        var random = SplitMix64(seed: parameters.seed &+ 1)
        var groups = SplitMix64(seed: parameters.seed &+ 4)
        var selecting = SplitMix64(seed: parameters.seed &+ 5)
        var byTag: [Int: [Int]]?
        let products = UInt64(max(parameters.products, 1))
        var out: [UInt8] = []
        out.reserveCapacity(parameters.promotions * 380 + 512)
        func add(_ text: String) { out.append(contentsOf: text.utf8) }
        add(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
              <key>currency</key><string>EUR</string>
              <key>promotions</key>
              <array>

            """)
        let types = ["combo", "bulk", "percent", "amount", "cart"]
        for index in 0..<parameters.promotions {
            var type = index % 20 == 19 ? "cart" : types[Int(random.next() % 4)]
            // One draw per item promotion whatever the share, so the share changes only which ones.
            if type != "cart", parameters.groupShare > 0,
                Double(groups.next() % 1_000_000) < parameters.groupShare * 1_000_000
            {
                type = groups.next() % 2 == 0 ? "bundle" : "bxgy"
            }
            add("    <dict>\n      <key>id</key><string>promo-\(index)</string>\n")
            add(
                "      <key>name</key><string>Promotion \(index)</string>\n      <key>type</key><string>\(type)</string>\n"
            )
            var targeted: [Int] = []
            if type != "cart" {
                let count = 1 + Int(random.next() % 3)
                // The main generator draws the codes whatever happens next, so that the rest of the
                // file stays as it is.
                for _ in 0..<count { targeted.append(Int(random.next() % products)) }
                let selector =
                    parameters.attributes && parameters.selectorShare > 0
                        && Double(selecting.next() % 1_000_000) < parameters.selectorShare * 1_000_000
                    ? drawSelector(&selecting) : nil
                switch (selector, parameters.selectorSpelling) {
                case (let selector?, .selectors):
                    add("      <key>products</key>\(selector.plist)\n")
                case (let selector?, .codes):
                    if byTag == nil, case .tagButBrand = selector.kind { byTag = tagIndex() }
                    let selected = self.selected(selector, byTag: byTag)
                    if selected.isEmpty {
                        // A code no product has: like a selector that selects nothing, it never applies.
                        add("      <key>code</key><string>NO-SUCH-PRODUCT</string>\n")
                    } else {
                        add("      <key>codes</key><array>")
                        for product in selected { add("<string>\(code(product))</string>") }
                        add("</array>\n")
                    }
                case (.some, .oneCode):
                    add("      <key>code</key><string>\(code(targeted[0]))</string>\n")
                case (nil, _) where count == 1:
                    add("      <key>code</key><string>\(code(targeted[0]))</string>\n")
                default:
                    add("      <key>codes</key><array>")
                    for product in targeted { add("<string>\(code(product))</string>") }
                    add("</array>\n")
                }
                if selector != nil { targeted = Array(targeted.prefix(1)) }
            }
            switch type {
            case "bundle":
                add("      <key>quantity</key><integer>\(2 + groups.next() % 3)</integer>\n")
                switch groups.next() % 3 {
                case 0: add("      <key>price</key><real>\(5 + groups.next() % 100).00</real>\n")
                case 1: add("      <key>percent</key><integer>\(5 + groups.next() % 30)</integer>\n")
                default: add("      <key>amount</key><string>\(1 + groups.next() % 9).50</string>\n")
                }
                if groups.next() % 4 == 0 { add("      <key>limit</key><integer>\(1 + groups.next() % 3)</integer>\n") }
            case "bxgy":
                add("      <key>quantity</key><integer>\(1 + groups.next() % 3)</integer>\n")
                if groups.next() % 3 == 0 { add("      <key>get</key><integer>2</integer>\n") }
                if groups.next() % 2 == 0, products > 3 {
                    // A rewarded product that is not one of the codes.
                    var reward = Int(groups.next() % products)
                    while targeted.contains(reward) { reward = (reward + 1) % Int(products) }
                    add("      <key>targets</key><array><string>\(code(reward))</string></array>\n")
                }
                if groups.next() % 3 == 0 { add("      <key>percent</key><integer>50</integer>\n") }
                if groups.next() % 4 == 0 { add("      <key>limit</key><integer>\(1 + groups.next() % 3)</integer>\n") }
            case "combo":
                let n = 2 + Int(random.next() % 3)
                add(
                    "      <key>quantity</key><integer>\(n)</integer>\n      <key>paid</key><integer>\(n - 1)</integer>\n"
                )
            case "bulk":
                let cents = 25 + Int(random.next() % 2_000)
                add(
                    "      <key>quantity</key><integer>\(2 + random.next() % 5)</integer>\n      <key>price</key><real>\(cents / 100).\(twoDigits(cents % 100))</real>\n"
                )
            case "percent":
                add("      <key>percent</key><real>\(1 + random.next() % 50).5</real>\n")
            case "amount":
                add("      <key>amount</key><string>0.\(twoDigits(5 + Int(random.next() % 90)))</string>\n")
            default:
                add(
                    "      <key>percent</key><integer>\(1 + random.next() % 10)</integer>\n      <key>minimum</key><real>\(50 + random.next() % 200).00</real>\n"
                )
            }
            if index % 3 == 0 {
                add(
                    "      <key>start</key><date>2026-01-01T00:00:00Z</date>\n      <key>end</key><date>2027-01-01T00:00:00Z</date>\n"
                )
            }
            if index % 7 == 0 { add("      <key>priority</key><integer>\(random.next() % 5)</integer>\n") }
            if index % 50 == 0 { add("      <key>coupon</key><string>CODE\(index)</string>\n") }
            add("    </dict>\n")
        }
        add("  </array>\n</dict>\n</plist>\n")
        return out
    }

    /// `[{"code": "P0042", "quantity": 3}, …]`, one item per line: about 35 bytes per line.
    public func cartJSON() -> [UInt8] {
        var random = SplitMix64(seed: parameters.seed &+ 2)
        var out: [UInt8] = []
        out.reserveCapacity(parameters.lines * 36 + 4)
        out.append(contentsOf: "[\n".utf8)
        let codes = (0..<max(parameters.products, 1)).map { Array(code($0).utf8) }
        for index in 0..<parameters.lines {
            out.append(contentsOf: "  {\"code\": \"".utf8)
            out.append(contentsOf: codes[Int(random.next() % UInt64(codes.count))])
            out.append(contentsOf: "\", \"quantity\": ".utf8)
            out.append(contentsOf: String(1 + random.next() % 9).utf8)
            out.append(contentsOf: index + 1 < parameters.lines ? "},\n".utf8 : "}\n".utf8)
        }
        out.append(contentsOf: "]\n".utf8)
        return out
    }

    /// One small cart per line: 1 to 6 scanned codes, sometimes an object with quantities and a coupon.
    public func batchNDJSON() -> [UInt8] {
        var random = SplitMix64(seed: parameters.seed &+ 3)
        var out: [UInt8] = []
        out.reserveCapacity(parameters.batchCarts * 48)
        for index in 0..<parameters.batchCarts {
            let count = 1 + Int(random.next() % 6)
            let items = (0..<count).map { _ in "\"\(code(Int(random.next() % UInt64(max(parameters.products, 1)))))\"" }
            let id =
                parameters.cartIDs
                ? (index % 2 == 0 ? "\"id\": \"order-\(index + 1)\", " : "\"id\": \(index + 1), ") : ""
            if index % 10 == 9 {
                out.append(
                    contentsOf:
                        "{\(id)\"coupons\": [\"CODE\(index / 10 * 50)\"], \"items\": [\(items.joined(separator: ", ")), {\"code\": \"\(code(0))\", \"quantity\": 3}]}\n"
                        .utf8)
            } else if parameters.cartIDs {
                out.append(contentsOf: "{\(id)\"items\": [\(items.joined(separator: ", "))]}\n".utf8)
            } else {
                out.append(contentsOf: "[\(items.joined(separator: ", "))]\n".utf8)
            }
        }
        return out
    }
}

// MARK: Attributes and selectors

extension Workload {
    /// Shelves (leaf categories): up to 10,000, 20 per aisle, 25 aisles per department.
    var shelves: Int { max(1, min(10_000, parameters.products)) }

    func shelf(_ product: Int) -> Int { product % shelves }

    func categoryPath(_ shelf: Int) -> String { "Dept \(shelf / 500) > Aisle \(shelf / 20) > Shelf \(shelf)" }

    /// One product in 11 has no brand.
    func brand(_ product: Int) -> Int? { product % 11 == 0 ? nil : (product / 7) % 500 }

    func tags(_ product: Int) -> [Int] {
        let first = (product &* 31) % 2_000
        let second = (product &* 17 &+ 5) % 2_000
        return product % 3 == 0 && second != first ? [first, second] : [first]
    }

    struct DrawnSelector {
        enum Kind {
            case shelf(Int)
            case shelfButTag(Int, tag: Int)
            case aisleAndBrand(Int, brand: Int)
            case tagButBrand(Int, brand: Int)
        }

        var kind: Kind

        var plist: String {
            func array(_ key: String, _ value: String) -> String {
                "<key>\(key)</key><array><string>\(value)</string></array>"
            }
            func path(_ shelf: Int) -> String { "Dept \(shelf / 500) &gt; Aisle \(shelf / 20) &gt; Shelf \(shelf)" }
            switch kind {
            case .shelf(let shelf): return "<dict>" + array("categories", path(shelf)) + "</dict>"
            case .shelfButTag(let shelf, let tag):
                return "<dict>" + array("categories", path(shelf)) + array("exclude_tags", "Tag \(tag)") + "</dict>"
            case .aisleAndBrand(let aisle, let brand):
                return "<dict>" + array("categories", "Dept \(aisle / 25) &gt; Aisle \(aisle)")
                    + array("brands", "Brand \(brand)") + "</dict>"
            case .tagButBrand(let tag, let brand):
                return "<dict>" + array("tags", "Tag \(tag)") + array("exclude_brands", "Brand \(brand)") + "</dict>"
            }
        }
    }

    /// A selector of one of four shapes, each selecting products that exist.
    func drawSelector(_ random: inout SplitMix64) -> DrawnSelector {
        let product = Int(random.next() % UInt64(max(parameters.products, 1)))
        let shelf = shelf(product)
        switch random.next() % 4 {
        case 0: return DrawnSelector(kind: .shelf(shelf))
        case 1: return DrawnSelector(kind: .shelfButTag(shelf, tag: tags(product)[0]))
        case 2:
            guard let brand = brand(product) else { return DrawnSelector(kind: .shelf(shelf)) }
            return DrawnSelector(kind: .aisleAndBrand(shelf / 20, brand: brand))
        default: return DrawnSelector(kind: .tagButBrand(tags(product)[0], brand: brand(product) ?? 0))
        }
    }

    /// The products `selector` selects, in catalog order, worked out from the attributes' formulas.
    func selected(_ selector: DrawnSelector, byTag: [Int: [Int]]?) -> [Int] {
        let products = parameters.products
        func onShelf(_ shelf: Int) -> [Int] { Array(stride(from: shelf, to: products, by: shelves)) }
        switch selector.kind {
        case .shelf(let shelf): return onShelf(shelf)
        case .shelfButTag(let shelf, let tag): return onShelf(shelf).filter { !tags($0).contains(tag) }
        case .aisleAndBrand(let aisle, let brand):
            let shelves = (aisle * 20..<min(aisle * 20 + 20, self.shelves)).flatMap(onShelf)
            return shelves.filter { self.brand($0) == brand }.sorted()
        case .tagButBrand(let tag, let brand):
            return (byTag?[tag] ?? []).filter { self.brand($0) != brand }
        }
    }

    /// Products by tag, in catalog order.
    func tagIndex() -> [Int: [Int]] {
        var index: [Int: [Int]] = [:]
        for product in 0..<parameters.products { for tag in tags(product) { index[tag, default: []].append(product) } }
        return index
    }
}

private func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : String(value)
}
