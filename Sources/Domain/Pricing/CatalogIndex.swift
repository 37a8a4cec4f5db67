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
    /// Per category path prefix, by its parent prefix (-1 for none) and its last name: its id, whose
    /// list holds the products at or under it — a selector's category is one list, however many
    /// shelves lie under it. A path of n names is n lookups, never a key of all its names: a path
    /// of 20,000 names cost as many keys of up to 20,000 names (minutes, gigabytes), and names
    /// joined by a separator took a name holding it for two.
    private let prefixes: [PrefixKey: Int32]
    /// Per prefix id, its parent's id (-1 for none) and its last name: the paths for "did you mean".
    private let prefixParents: [Int32]
    private let prefixNames: [String]
    private let productsUnderPrefix: [[Int32]]
    /// Per tag, the products that have it.
    private let tagIDs: [ExactText: Int32]
    private let productsWithTag: [[Int32]]

    /// A category path prefix: its parent prefix's id (-1 for none) and its last name.
    private struct PrefixKey: Hashable {
        let parent: Int32
        let name: ExactText
    }

    public init(_ catalog: Catalog) {
        var byBrand: [ExactText: [Int32]] = [:]
        // Distinct category paths and tag lists, found by the address of their storage, then by
        // their exact text; per distinct one, its prefixes' (tags') ids.
        var categoryByStorage: [Int: Int32] = [:]
        var categoryByValue: [[ExactText]: Int32] = [:]
        var prefixesOfCategory: [[Int32]] = []
        var prefixes: [PrefixKey: Int32] = [:]
        var prefixParents: [Int32] = []
        var prefixNames: [String] = []
        var tagsByStorage: [Int: Int32] = [:]
        var tagsByValue: [[ExactText]: Int32] = [:]
        var tagsOfList: [[Int32]] = []
        var tagIDs: [ExactText: Int32] = [:]
        /// The id of `list` among the distinct ones, with `ids(list)` recorded for a new one.
        func distinct(
            _ list: [String], _ byStorage: inout [Int: Int32], _ byValue: inout [[ExactText]: Int32],
            _ lists: inout [[Int32]], _ ids: ([String]) -> [Int32]
        ) -> Int32 {
            let address = list.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
            if let id = byStorage[address] { return id }
            let key = list.map { ExactText($0) }
            let id = byValue[key] ?? Int32(lists.count)
            if Int(id) == lists.count {
                byValue[key] = id
                lists.append(ids(list))
            }
            byStorage[address] = id
            return id
        }
        func prefixIDs(_ path: [String]) -> [Int32] {
            var parent: Int32 = -1
            return path.map { name in
                let key = PrefixKey(parent: parent, name: ExactText(name))
                if let id = prefixes[key] {
                    parent = id
                    return id
                }
                let id = Int32(prefixes.count)
                prefixes[key] = id
                prefixParents.append(parent)
                prefixNames.append(name)
                parent = id
                return id
            }
        }
        func tagIDList(_ tags: [String]) -> [Int32] {
            var ids: [Int32] = []
            for tag in tags {
                let key = ExactText(tag)
                let id = tagIDs[key] ?? Int32(tagIDs.count)
                tagIDs[key] = id
                if !ids.contains(id) { ids.append(id) }
            }
            return ids
        }
        var categoryOfProduct = [Int32](repeating: -1, count: catalog.products.count)
        var tagListOfProduct = [Int32](repeating: -1, count: catalog.products.count)
        // Fields read in place: a product copied whole retained its code and name too.
        catalog.products.withUnsafeBufferPointer { products in
            for index in products.indices {
                if let brand = products[index].brand { byBrand[ExactText(brand), default: []].append(Int32(index)) }
                if let path = products[index].category, !path.isEmpty {
                    categoryOfProduct[index] = distinct(
                        path, &categoryByStorage, &categoryByValue, &prefixesOfCategory, prefixIDs)
                }
                if !products[index].tags.isEmpty {
                    tagListOfProduct[index] = distinct(
                        products[index].tags, &tagsByStorage, &tagsByValue, &tagsOfList, tagIDList)
                }
            }
        }
        // In catalog order, so that every list is ascending.
        var productsUnderPrefix = [[Int32]](repeating: [], count: prefixes.count)
        var productsWithTag = [[Int32]](repeating: [], count: tagIDs.count)
        for product in categoryOfProduct.indices {
            if categoryOfProduct[product] >= 0 {
                for prefix in prefixesOfCategory[Int(categoryOfProduct[product])] {
                    productsUnderPrefix[Int(prefix)].append(Int32(product))
                }
            }
            if tagListOfProduct[product] >= 0 {
                for tag in tagsOfList[Int(tagListOfProduct[product])] {
                    productsWithTag[Int(tag)].append(Int32(product))
                }
            }
        }
        productCount = catalog.products.count
        self.byBrand = byBrand
        self.prefixes = prefixes
        self.prefixParents = prefixParents
        self.prefixNames = prefixNames
        self.productsUnderPrefix = productsUnderPrefix
        self.tagIDs = tagIDs
        self.productsWithTag = productsWithTag
    }

    /// The id of the prefix `path` names, if some product's category is at or under it.
    private func prefixID(_ path: [String]) -> Int32? {
        var id: Int32 = -1
        for name in path {
            guard let next = prefixes[PrefixKey(parent: id, name: ExactText(name))] else { return nil }
            id = next
        }
        return path.isEmpty ? nil : id
    }

    /// The products with one of `brands`, ascending.
    public func products(brands: [String]) -> [Int32] { union(brands.map { byBrand[ExactText($0)] ?? [] }) }

    /// The products with one of `tags`, ascending.
    public func products(tags: [String]) -> [Int32] {
        union(tags.map { tagIDs[ExactText($0)].map { productsWithTag[Int($0)] } ?? [] })
    }

    /// The products whose category equals or lies under one of `paths`, ascending.
    public func products(categories paths: [[String]]) -> [Int32] {
        union(paths.map { prefixID($0).map { productsUnderPrefix[Int($0)] } ?? [] })
    }

    /// Whether some product has the brand, the tag, or a category at or under the path.
    public func hasBrand(_ brand: String) -> Bool { byBrand[ExactText(brand)] != nil }
    public func hasTag(_ tag: String) -> Bool { tagIDs[ExactText(tag)] != nil }
    public func hasCategory(_ path: [String]) -> Bool { prefixID(path) != nil }
    /// Every brand, tag and category path (with its prefixes, names joined by " > "), for "did you mean".
    public var brands: [String] { byBrand.keys.map(\.text) }
    public var tags: [String] { tagIDs.keys.map(\.text) }
    public var categoryPaths: [String] {
        // A parent's id is below its children's: its path is written first, and a child's is its
        // parent's and one name more.
        var paths: [String] = []
        paths.reserveCapacity(prefixNames.count)
        for id in prefixNames.indices {
            let parent = Int(prefixParents[id])
            paths.append(parent < 0 ? prefixNames[id] : paths[parent] + " > " + prefixNames[id])
        }
        return paths
    }

    /// The category paths and prefixes of `depths` names, for "did you mean" near a path of about
    /// that depth: each written from its names (a catalog's every prefix written out takes time
    /// growing with the square of its deepest path's length).
    public func categoryPaths(depths: ClosedRange<Int>) -> [String] {
        var depthOf: [Int] = []
        depthOf.reserveCapacity(prefixNames.count)
        var paths: [String] = []
        for id in prefixNames.indices {
            let parent = Int(prefixParents[id])
            let depth = parent < 0 ? 1 : depthOf[parent] + 1
            depthOf.append(depth)
            guard depths.contains(depth) else { continue }
            var names: [String] = []
            var at = id
            while at >= 0 {
                names.append(prefixNames[at])
                at = Int(prefixParents[at])
            }
            paths.append(names.reversed().joined(separator: " > "))
        }
        return paths
    }

    /// The depths of the category paths offered for a path of `count` names: one name fewer to one more.
    public static func suggestedDepths(near count: Int) -> ClosedRange<Int> { max(1, count - 1)...(count + 1) }

    /// What a promotion's list of selectors selects: the products any of them selects, ascending,
    /// each once.
    public func selection(of selectors: [ProductSelector], in catalog: Catalog) -> [Int32] {
        union(selectors.map { resolve($0, in: catalog) })
    }

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

    /// The ascending union of ascending lists: sorted when they are short, else marked in a bitmap
    /// of the catalog and read back in order (a department's or a tag's products may be tens of
    /// thousands, which sorting cost more than a pass over a million bits).
    public func union(_ lists: [[Int32]]) -> [Int32] {
        let nonEmpty = lists.filter { !$0.isEmpty }
        if nonEmpty.count <= 1 { return nonEmpty.first ?? [] }
        let total = nonEmpty.reduce(0) { $0 + $1.count }
        guard total >= productCount / 256 else {
            var all = nonEmpty.flatMap { $0 }
            all.sortAndRemoveDuplicates()
            return all
        }
        var words = [UInt64](repeating: 0, count: (productCount + 63) / 64)
        for list in nonEmpty {
            for id in list { words[Int(id) >> 6] |= 1 << UInt64(id & 63) }
        }
        var result: [Int32] = []
        result.reserveCapacity(total)
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                result.append(Int32(index << 6 | bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
        return result
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
