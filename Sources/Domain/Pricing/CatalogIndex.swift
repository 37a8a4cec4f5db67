/// A catalog's products by brand, by tag and by every prefix of their category paths, each list in
/// catalog order: a selector is resolved by merging a few lists, in time proportional to what it
/// selects, never by testing every product (docs/selectors.md). Keys are compared byte for byte, as
/// selectors compare.
///
/// Built in one pass that looks each product's category and tags up by the identity of their
/// storage first (the catalog readers share one array between the products that repeat a list), so
/// that a million products cost a million pointer lookups and only the distinct lists are hashed
/// and split into prefixes.
public struct CatalogIndex: Sendable {
    let productCount: Int
    private let byBrand: [ExactText: [Int32]]
    /// The products of each distinct category path, and, per path prefix (names joined by U+0000:
    /// a name holds no NUL, catalogs being JSON text where one would be `\u0000`, and such a name
    /// simply has a key no selector spells), the distinct paths at or under it.
    private let productsOfCategory: [[Int32]]
    private let categoriesUnder: [ExactText: [Int32]]
    /// The products of each distinct tag list, and, per tag, the distinct lists that hold it.
    private let productsOfTagList: [[Int32]]
    private let tagListsWith: [ExactText: [Int32]]

    public init(_ catalog: Catalog) {
        var byBrand: [ExactText: [Int32]] = [:]
        var productsOfCategory: [[Int32]] = []
        var categoryPaths: [[String]] = []
        var productsOfTagList: [[Int32]] = []
        var tagLists: [[String]] = []
        // Distinct lists by the address of their storage, then by their exact text.
        var categoryByStorage: [Int: Int32] = [:]
        var categoryByValue: [ExactText: Int32] = [:]
        var tagsByStorage: [Int: Int32] = [:]
        var tagsByValue: [ExactText: Int32] = [:]
        func distinct(
            _ list: [String], _ byStorage: inout [Int: Int32], _ byValue: inout [ExactText: Int32],
            _ lists: inout [[String]], _ products: inout [[Int32]]
        ) -> Int {
            let address = list.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
            if let id = byStorage[address] { return Int(id) }
            let key = Self.key(list[...])
            let id = byValue[key] ?? Int32(lists.count)
            if Int(id) == lists.count {
                byValue[key] = id
                lists.append(list)
                products.append([])
            }
            byStorage[address] = id
            return Int(id)
        }
        for (index, product) in catalog.products.enumerated() {
            let id = Int32(index)
            if let brand = product.brand { byBrand[ExactText(brand), default: []].append(id) }
            if let path = product.category, !path.isEmpty {
                let category = distinct(
                    path, &categoryByStorage, &categoryByValue, &categoryPaths, &productsOfCategory)
                productsOfCategory[category].append(id)
            }
            if !product.tags.isEmpty {
                let list = distinct(product.tags, &tagsByStorage, &tagsByValue, &tagLists, &productsOfTagList)
                productsOfTagList[list].append(id)
            }
        }
        var categoriesUnder: [ExactText: [Int32]] = [:]
        for (category, path) in categoryPaths.enumerated() {
            for depth in 1...path.count {
                categoriesUnder[Self.key(path[..<depth]), default: []].append(Int32(category))
            }
        }
        var tagListsWith: [ExactText: [Int32]] = [:]
        for (list, tags) in tagLists.enumerated() {
            var listed: Set<ExactText> = []
            for tag in tags where listed.insert(ExactText(tag)).inserted {
                tagListsWith[ExactText(tag), default: []].append(Int32(list))
            }
        }
        productCount = catalog.products.count
        self.byBrand = byBrand
        self.productsOfCategory = productsOfCategory
        self.categoriesUnder = categoriesUnder
        self.productsOfTagList = productsOfTagList
        self.tagListsWith = tagListsWith
    }

    static func key(_ path: ArraySlice<String>) -> ExactText { ExactText(path.joined(separator: "\u{0}")) }
    static func key(_ path: [String]) -> ExactText { key(path[...]) }

    /// The products with one of `brands`, ascending.
    public func products(brands: [String]) -> [Int32] { union(brands.map { byBrand[ExactText($0)] ?? [] }) }

    /// The products with one of `tags`, ascending.
    public func products(tags: [String]) -> [Int32] {
        union(tags.flatMap { (tagListsWith[ExactText($0)] ?? []).map { productsOfTagList[Int($0)] } })
    }

    /// The products whose category equals or lies under one of `paths`, ascending.
    public func products(categories paths: [[String]]) -> [Int32] {
        union(paths.flatMap { (categoriesUnder[Self.key($0)] ?? []).map { productsOfCategory[Int($0)] } })
    }

    /// Whether some product has the brand, the tag, or a category at or under the path.
    public func hasBrand(_ brand: String) -> Bool { byBrand[ExactText(brand)] != nil }
    public func hasTag(_ tag: String) -> Bool { tagListsWith[ExactText(tag)] != nil }
    public func hasCategory(_ path: [String]) -> Bool { categoriesUnder[Self.key(path)] != nil }
    /// Every brand, tag and category path (with its prefixes, names joined by " > "), for "did you mean".
    public var brands: [String] { byBrand.keys.map(\.text) }
    public var tags: [String] { tagListsWith.keys.map(\.text) }
    public var categoryPaths: [String] { categoriesUnder.keys.map { $0.text.replacingNUL(with: " > ") } }

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
