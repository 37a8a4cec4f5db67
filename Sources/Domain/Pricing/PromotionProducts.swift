/// The products each promotion of a file concerns, resolved against the catalog once
/// (docs/architecture.md, "Products resolved once"). Pricing, explanations, the shadowed check and
/// the shop's words all ask this table instead of looking codes up themselves, so that the ways a
/// promotion can name its products are taught to one place.
///
/// Per promotion: its products (what `code`/`codes` name), in the order it names them, each once,
/// codes the catalog lacks left out; and, for a kind that rewards other products (a buy-X-get-Y's
/// `targets`), its rewarded products the same way. Flat storage: one array of ids for the whole file.
public struct PromotionProducts: Sendable {
    private let ids: [Int32]
    /// Per promotion: where its products start, where its rewards start and where they end;
    /// `rewardsStart < 0` when it names no rewards of its own.
    private let spans: [Span]

    private struct Span: Sendable {
        var start: Int32
        var rewardsStart: Int32
        var end: Int32
    }

    /// Resolves every promotion against `catalog`: codes by the catalog's code table, selectors by
    /// its index of brands, tags and category paths (built when a promotion has selectors), each
    /// distinct selector once.
    public init(_ promotions: [Promotion], catalog: Catalog) {
        var ids: [Int32] = []
        ids.reserveCapacity(promotions.count)
        var spans: [Span] = []
        spans.reserveCapacity(promotions.count)
        // Per product, the last list it was put in (2 × promotion, + 1 for rewards): a repeat is
        // found in constant time however many products a promotion names.
        var listed = [Int32](repeating: -1, count: catalog.products.count)
        func append(_ codes: [String], list: Int32) {
            for code in codes {
                guard let id = catalog.productID(for: code), listed[id] != list else { continue }
                listed[id] = list
                ids.append(Int32(id))
            }
        }
        var index: CatalogIndex?
        var resolved: [[ProductSelector]: [Int32]] = [:]
        /// The products `selectors` select, ascending (catalog order).
        func select(_ selectors: [ProductSelector]) -> [Int32] {
            if let known = resolved[selectors] { return known }
            if index == nil { index = CatalogIndex(catalog) }
            let products = index!.union(selectors.map { index!.resolve($0, in: catalog) })
            resolved[selectors] = products
            return products
        }
        // By index: a promotion is not copied (its strings retained) to read its fields.
        for position in promotions.indices {
            let start = Int32(ids.count)
            let list = 2 * Int32(position)
            if let selectors = promotions[position].productSelectors {
                for id in select(selectors) {
                    listed[Int(id)] = list
                    ids.append(id)
                }
            } else {
                append(promotions[position].codes, list: list)
            }
            var rewardsStart: Int32 = -1
            if let selectors = promotions[position].targetSelectors {
                rewardsStart = Int32(ids.count)
                // A product both bought and rewarded counts as bought only (docs/selectors.md).
                for id in select(selectors) where listed[Int(id)] != list { ids.append(id) }
            } else if let targets = promotions[position].targets {
                rewardsStart = Int32(ids.count)
                if promotions[position].productSelectors != nil {
                    for code in targets {
                        guard let id = catalog.productID(for: code), listed[id] != list, listed[id] != list + 1 else {
                            continue
                        }
                        listed[id] = list + 1
                        ids.append(Int32(id))
                    }
                } else {
                    append(targets, list: list + 1)
                }
            }
            spans.append(Span(start: start, rewardsStart: rewardsStart, end: Int32(ids.count)))
        }
        self.ids = ids
        self.spans = spans
    }

    /// The products of promotion `index`, in the order it names them.
    public func products(of index: Int) -> [ProductID] {
        let span = spans[index]
        return ids[Int(span.start)..<Int(span.rewardsStart < 0 ? span.end : span.rewardsStart)].map { Int($0) }
    }

    /// The products promotion `index` rewards when it names them apart from its products; nil when
    /// it rewards its own products (or rewards none).
    public func rewards(of index: Int) -> [ProductID]? {
        let span = spans[index]
        guard span.rewardsStart >= 0 else { return nil }
        return ids[Int(span.rewardsStart)..<Int(span.end)].map { Int($0) }
    }

    /// Its products, then its rewarded products (a product in both is listed once).
    public func concerned(by index: Int) -> [ProductID] {
        let span = spans[index]
        var result: [ProductID] = []
        for id in ids[Int(span.start)..<Int(span.end)] where !result.contains(Int(id)) { result.append(Int(id)) }
        return result
    }

    /// Whether promotion `index` concerns `product` (as one of its products or of its rewards).
    public func concerns(_ index: Int, _ product: ProductID) -> Bool {
        let span = spans[index]
        return ids[Int(span.start)..<Int(span.end)].contains(Int32(product))
    }

    /// Calls `body` with each product of promotion `index` (not its rewards), without building an array.
    @inline(__always)
    public func forEachProduct(of index: Int, _ body: (ProductID) -> Void) {
        let span = spans[index]
        for id in ids[Int(span.start)..<Int(span.rewardsStart < 0 ? span.end : span.rewardsStart)] { body(Int(id)) }
    }
}
