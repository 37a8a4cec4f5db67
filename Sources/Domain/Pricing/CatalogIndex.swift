/// A catalog's products by brand, by tag and by every prefix of their category paths, each list in
/// catalog order: a selector is resolved by merging a few lists, in time proportional to what it
/// selects, never by testing every product (docs/selectors.md).
public struct CatalogIndex: Sendable {
    let productCount: Int
    /// Keys compared byte for byte, as selectors compare (docs/selectors.md).
    private let byBrand: [ExactText: [Int32]]
    private let byTag: [ExactText: [Int32]]
    /// Keyed by a path prefix's names joined with U+0000 (a name holds no NUL: catalogs are JSON text,
    /// where one would be written `\u0000`; such a name simply has a key no selector spells).
    private let byCategory: [ExactText: [Int32]]

    public init(_ catalog: Catalog) {
        var byBrand: [ExactText: [Int32]] = [:]
        var byTag: [ExactText: [Int32]] = [:]
        var byCategory: [ExactText: [Int32]] = [:]
        for (index, product) in catalog.products.enumerated() {
            let id = Int32(index)
            if let brand = product.brand { byBrand[ExactText(brand), default: []].append(id) }
            for tag in product.tags { byTag[ExactText(tag), default: []].append(id) }
            if let path = product.category {
                var key = ""
                for (depth, name) in path.enumerated() {
                    if depth > 0 { key += "\u{0}" }
                    key += name
                    byCategory[ExactText(key), default: []].append(id)
                }
            }
        }
        productCount = catalog.products.count
        self.byBrand = byBrand
        self.byTag = byTag
        self.byCategory = byCategory
    }

    static func key(_ path: [String]) -> ExactText { ExactText(path.joined(separator: "\u{0}")) }

    /// The products with one of `brands`, ascending.
    public func products(brands: [String]) -> [Int32] { union(brands.map { byBrand[ExactText($0)] ?? [] }) }
    public func products(tags: [String]) -> [Int32] { union(tags.map { byTag[ExactText($0)] ?? [] }) }
    /// The products whose category equals or lies under one of `paths`.
    public func products(categories paths: [[String]]) -> [Int32] {
        union(paths.map { byCategory[Self.key($0)] ?? [] })
    }

    /// Whether some product has the brand, the tag, or a category at or under the path.
    public func hasBrand(_ brand: String) -> Bool { byBrand[ExactText(brand)] != nil }
    public func hasTag(_ tag: String) -> Bool { byTag[ExactText(tag)] != nil }
    public func hasCategory(_ path: [String]) -> Bool { byCategory[Self.key(path)] != nil }
    /// Every brand, tag and category path (with its prefixes, names joined by " > "), for "did you mean".
    public var brands: [String] { byBrand.keys.map(\.text) }
    public var tags: [String] { byTag.keys.map(\.text) }
    public var categoryPaths: [String] { byCategory.keys.map { $0.text.replacingNUL(with: " > ") } }

    /// The products `selector` selects, ascending (catalog order); `catalog` resolves its codes.
    public func resolve(_ selector: ProductSelector, in catalog: Catalog) -> [Int32] {
        var included: [Int32]?
        func restrict(_ list: [Int32]) { included = included.map { intersection($0, list) } ?? list }
        if let codes = selector.codes { restrict(ids(codes, catalog)) }
        if let categories = selector.categories { restrict(products(categories: categories)) }
        if let brands = selector.brands { restrict(products(brands: brands)) }
        if let tags = selector.tags { restrict(products(tags: tags)) }
        var excluded: [[Int32]] = []
        if let codes = selector.excludeCodes { excluded.append(ids(codes, catalog)) }
        if let categories = selector.excludeCategories { excluded.append(products(categories: categories)) }
        if let brands = selector.excludeBrands { excluded.append(products(brands: brands)) }
        if let tags = selector.excludeTags { excluded.append(products(tags: tags)) }
        let base = included ?? (0..<Int32(productCount)).map { $0 }
        guard !excluded.isEmpty else { return base }
        return difference(base, union(excluded))
    }

    /// The products with these codes, byte for byte (the catalog's table also finds a code written
    /// with other but equivalent Unicode, which a selector does not take).
    private func ids(_ codes: [String], _ catalog: Catalog) -> [Int32] {
        var ids = codes.compactMap { code in
            catalog.productID(for: code).flatMap { catalog[$0].code.isExactly(code) ? Int32($0) : nil }
        }
        ids.sortAndRemoveDuplicates()
        return ids
    }

    /// The ascending union of ascending lists.
    public func union(_ lists: [[Int32]]) -> [Int32] {
        let nonEmpty = lists.filter { !$0.isEmpty }
        if nonEmpty.count <= 1 { return nonEmpty.first ?? [] }
        var all = nonEmpty.flatMap { $0 }
        all.sortAndRemoveDuplicates()
        return all
    }

    private func intersection(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var result: [Int32] = []
        var (i, j) = (0, 0)
        while i < a.count, j < b.count {
            if a[i] < b[j] {
                i += 1
            } else if b[j] < a[i] {
                j += 1
            } else {
                result.append(a[i])
                i += 1
                j += 1
            }
        }
        return result
    }

    private func difference(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var result: [Int32] = []
        var j = 0
        for value in a {
            while j < b.count, b[j] < value { j += 1 }
            if j < b.count, b[j] == value { continue }
            result.append(value)
        }
        return result
    }
}

extension String {
    func replacingNUL(with separator: String) -> String {
        split(separator: "\u{0}", omittingEmptySubsequences: false).joined(separator: separator)
    }
}
