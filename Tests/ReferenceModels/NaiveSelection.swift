import Pricing

/// Selectors (docs/selectors.md) read the plain way: every catalog product tested against every key
/// of every selector, each time a promotion's products are asked for. Nothing here comes from the
/// engine's ``ProductSelector/selects(_:)`` or its catalog index.
public enum NaiveSelection {
    /// Byte for byte: no Unicode equivalence, no case folding.
    static func same(_ a: String, _ b: String) -> Bool { Array(a.utf8) == Array(b.utf8) }

    static func oneOf(_ value: String, _ values: [String]) -> Bool { values.contains { same($0, value) } }

    /// A category `path` equals `wanted` or lies under it: its names begin with all of `wanted`'s,
    /// compared name by name.
    static func under(_ path: [String], _ wanted: [String]) -> Bool {
        guard path.count >= wanted.count else { return false }
        for depth in 0..<wanted.count where !same(path[depth], wanted[depth]) { return false }
        return true
    }

    /// Whether one selector selects `product`: it passes every inclusion key the selector has (one
    /// value of each is enough) and no exclusion key. No category (brand) passes no category
    /// (brand) test, included or excluded.
    public static func selects(_ selector: ProductSelector, _ product: Product) -> Bool {
        func code(_ codes: [String]) -> Bool { oneOf(product.code, codes) }
        func category(_ paths: [[String]]) -> Bool {
            guard let path = product.category else { return false }
            return paths.contains { under(path, $0) }
        }
        func brand(_ brands: [String]) -> Bool { product.brand.map { oneOf($0, brands) } ?? false }
        func tag(_ tags: [String]) -> Bool { product.tags.contains { oneOf($0, tags) } }
        var inclusions: [Bool] = []
        if let codes = selector.codes { inclusions.append(code(codes)) }
        if let categories = selector.categories { inclusions.append(category(categories)) }
        if let brands = selector.brands { inclusions.append(brand(brands)) }
        if let tags = selector.tags { inclusions.append(tag(tags)) }
        var exclusions: [Bool] = []
        if let codes = selector.excludeCodes { exclusions.append(code(codes)) }
        if let categories = selector.excludeCategories { exclusions.append(category(categories)) }
        if let brands = selector.excludeBrands { exclusions.append(brand(brands)) }
        if let tags = selector.excludeTags { exclusions.append(tag(tags)) }
        return inclusions.allSatisfy { $0 } && !exclusions.contains(true)
    }

    /// The codes of the catalog's products that any of `selectors` selects, in catalog order.
    public static func codes(_ selectors: [ProductSelector], in catalog: Catalog) -> [String] {
        catalog.products.filter { product in selectors.contains { selects($0, product) } }.map(\.code)
    }

    /// A promotion's products and rewarded products as code lists, as if written with `codes` and
    /// `targets`: selections in catalog order; with a selector on either side, a product in both
    /// counts as one of its products only. Nil targets: it rewards its own products.
    public static func products(of promotion: Promotion, in catalog: Catalog) -> (codes: [String], targets: [String]?) {
        let codes = promotion.productSelectors.map { self.codes($0, in: catalog) } ?? promotion.codes
        var targets = promotion.targetSelectors.map { self.codes($0, in: catalog) } ?? promotion.targets
        if promotion.productSelectors != nil || promotion.targetSelectors != nil {
            let own = Set(codes.compactMap { catalog.productID(for: $0) })
            targets = targets?.filter { code in catalog.productID(for: code).map { !own.contains($0) } ?? true }
        }
        return (codes, targets)
    }

    /// The products a cart promotion with `products` works on; nil: every line.
    public static func cartProducts(of promotion: Promotion, in catalog: Catalog) -> Set<ProductID>? {
        promotion.productSelectors.map { selectors in
            Set(catalog.products.indices.filter { id in selectors.contains { selects($0, catalog[id]) } })
        }
    }
}
