/// Products named by what they are (docs/selectors.md): a selector takes a product that passes every
/// inclusion key it has (AND across keys, OR among one key's values) and no exclusion key. A
/// product without a category (a brand) passes no `categories` (`brands`) test, so an exclusion of
/// them never leaves it out; a selector without inclusion keys takes every product no exclusion
/// leaves out. Comparisons are exact, byte for byte; category paths are compared name by name.
public struct ProductSelector: Sendable, Hashable {
    /// Each key's values, nil when the selector does not have the key (a key it has is non-empty).
    public var codes: [String]?
    /// Category paths, each a list of trimmed names: `["Clothing", "Shirts"]`.
    public var categories: [[String]]?
    public var brands: [String]?
    public var tags: [String]?
    public var excludeCodes: [String]?
    public var excludeCategories: [[String]]?
    public var excludeBrands: [String]?
    public var excludeTags: [String]?

    public init(
        codes: [String]? = nil, categories: [[String]]? = nil, brands: [String]? = nil, tags: [String]? = nil,
        excludeCodes: [String]? = nil, excludeCategories: [[String]]? = nil, excludeBrands: [String]? = nil,
        excludeTags: [String]? = nil
    ) {
        self.codes = codes
        self.categories = categories
        self.brands = brands
        self.tags = tags
        self.excludeCodes = excludeCodes
        self.excludeCategories = excludeCategories
        self.excludeBrands = excludeBrands
        self.excludeTags = excludeTags
    }

    /// Whether the selector has an inclusion key.
    public var hasInclusion: Bool { codes != nil || categories != nil || brands != nil || tags != nil }

    /// Whether `path` equals `prefix` or lies under it, name by name (byte for byte).
    public static func path(_ path: [String], isUnder prefix: [String]) -> Bool {
        path.count >= prefix.count && zip(path, prefix).allSatisfy { $0.isExactly($1) }
    }

    /// Whether the selector takes `product`: the definition itself, one product at a time (the
    /// catalog's index answers for a whole catalog, ``CatalogIndex``).
    public func selects(_ product: Product) -> Bool {
        func inCategories(_ paths: [[String]]) -> Bool {
            guard let category = product.category else { return false }
            return paths.contains { Self.path(category, isUnder: $0) }
        }
        func among(_ values: [String], _ value: String) -> Bool { values.contains { $0.isExactly(value) } }
        func inBrands(_ brands: [String]) -> Bool { product.brand.map { among(brands, $0) } ?? false }
        func inTags(_ tags: [String]) -> Bool { product.tags.contains { among(tags, $0) } }
        if let codes, !among(codes, product.code) { return false }
        if let categories, !inCategories(categories) { return false }
        if let brands, !inBrands(brands) { return false }
        if let tags, !inTags(tags) { return false }
        if let excludeCodes, among(excludeCodes, product.code) { return false }
        if let excludeCategories, inCategories(excludeCategories) { return false }
        if let excludeBrands, inBrands(excludeBrands) { return false }
        if let excludeTags, inTags(excludeTags) { return false }
        return true
    }
}

/// The products a promotion names: a list of codes (`code`, `codes`, or a buy-X-get-Y's `targets`
/// as an array of strings), or selectors (`products`, or `targets` as selectors), which take the
/// products any of them selects, in catalog order.
public enum ProductChoice: Sendable, Hashable {
    case codes([String])
    case selectors([ProductSelector])
}

extension ProductSelector {
    /// Equal when every key has the same values, byte for byte: two selectors that spell a value
    /// with different but equivalent Unicode select different products, so they must not be taken
    /// for one another (the promotions' table resolves each distinct selector once).
    public static func == (a: ProductSelector, b: ProductSelector) -> Bool {
        func same(_ x: [String]?, _ y: [String]?) -> Bool {
            guard let x, let y else { return x == nil && y == nil }
            return x.count == y.count && zip(x, y).allSatisfy { $0.isExactly($1) }
        }
        func same(_ x: [[String]]?, _ y: [[String]]?) -> Bool {
            guard let x, let y else { return x == nil && y == nil }
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        }
        return same(a.codes, b.codes) && same(a.categories, b.categories) && same(a.brands, b.brands)
            && same(a.tags, b.tags) && same(a.excludeCodes, b.excludeCodes)
            && same(a.excludeCategories, b.excludeCategories) && same(a.excludeBrands, b.excludeBrands)
            && same(a.excludeTags, b.excludeTags)
    }

    public func hash(into hasher: inout Hasher) {
        func combine(_ values: [String]?) {
            guard let values else { return hasher.combine(-1) }
            hasher.combine(values.count)
            for value in values { hasher.combine(ExactText(value)) }
        }
        func combine(_ paths: [[String]]?) {
            guard let paths else { return hasher.combine(-1) }
            hasher.combine(paths.count)
            for path in paths { combine(path) }
        }
        combine(codes)
        combine(categories)
        combine(brands)
        combine(tags)
        combine(excludeCodes)
        combine(excludeCategories)
        combine(excludeBrands)
        combine(excludeTags)
    }
}
