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

    /// Whether `path` equals `prefix` or lies under it, name by name.
    public static func path(_ path: [String], isUnder prefix: [String]) -> Bool {
        path.count >= prefix.count && zip(path, prefix).allSatisfy { $0 == $1 }
    }

    /// Whether the selector takes `product`: the definition itself, one product at a time (the
    /// catalog's index answers for a whole catalog, ``CatalogIndex``).
    public func selects(_ product: Product) -> Bool {
        func inCategories(_ paths: [[String]]) -> Bool {
            guard let category = product.category else { return false }
            return paths.contains { Self.path(category, isUnder: $0) }
        }
        func inBrands(_ brands: [String]) -> Bool { product.brand.map(brands.contains) ?? false }
        func inTags(_ tags: [String]) -> Bool { product.tags.contains(where: tags.contains) }
        if let codes, !codes.contains(product.code) { return false }
        if let categories, !inCategories(categories) { return false }
        if let brands, !inBrands(brands) { return false }
        if let tags, !inTags(tags) { return false }
        if let excludeCodes, excludeCodes.contains(product.code) { return false }
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
