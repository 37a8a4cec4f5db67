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
    /// distinct selector once; a large file's promotions in parts of at least
    /// ``promotionsPerPart``, at most as many as `parts` runs at once (the caller decides the
    /// threads; the result does not depend on them).
    public init(_ promotions: [Promotion], catalog: Catalog, parts: PartRunner = .oneAfterAnother) {
        self.init(promotions, catalog: catalog, parts: parts, promotionsPerPart: Self.promotionsPerPart)
    }

    /// The same, with parts of at least `promotionsPerPart` promotions (tests split small files).
    public init(_ promotions: [Promotion], catalog: Catalog, parts: PartRunner, promotionsPerPart: Int) {
        let selections = Self.resolveSelectors(promotions, catalog: catalog, parts: parts)
        let partCount = parts.partCount(promotions.count, eachAtLeast: promotionsPerPart)
        let resolved = parts.collect(partCount) { part in
            Self.resolve(
                promotions, PartRunner.share(part, of: promotions.count, in: partCount),
                catalog: catalog, selections: selections)
        }
        guard resolved.count > 1 else {
            (ids, spans) = resolved.first ?? ([], [])
            return
        }
        // Joined in order, each part's spans moved past the ids before it.
        var ids: [Int32] = []
        ids.reserveCapacity(resolved.reduce(0) { $0 + $1.ids.count })
        var spans: [Span] = []
        spans.reserveCapacity(promotions.count)
        for part in resolved {
            let base = Int32(ids.count)
            ids += part.ids
            for span in part.spans {
                spans.append(
                    Span(
                        start: span.start + base, rewardsStart: span.rewardsStart < 0 ? -1 : span.rewardsStart + base,
                        end: span.end + base))
            }
        }
        self.ids = ids
        self.spans = spans
    }

    /// Files of fewer promotions than twice this are resolved in one part: a second thread pays
    /// for itself from there.
    public static let promotionsPerPart = 16_384

    /// The ids and spans of the promotions in `range` (spans counted from the range's first id).
    private static func resolve(
        _ promotions: [Promotion], _ range: Range<Int>, catalog: Catalog,
        selections: (lists: [[Int32]], products: [Int32], targets: [Int32])
    ) -> (ids: [Int32], spans: [Span]) {
        var ids: [Int32] = []
        ids.reserveCapacity(range.count)
        var spans: [Span] = []
        spans.reserveCapacity(range.count)
        let lookup = catalog.codeLookup
        // Per product, the last list it was put in (2 × promotion, + 1 for rewards): a repeat is
        // found in constant time however many products a promotion names.
        var listed = [Int32](repeating: -1, count: catalog.products.count)
        // In place: a promotion is not copied (its strings retained) to read its codes. Whether it
        // has selectors is read from `selections` (-1: none).
        promotions.withUnsafeBufferPointer { promotions in
            for position in range {
                let start = Int32(ids.count)
                let list = 2 * Int32(position)
                if selections.products[position] >= 0 {
                    // In bulk: a selector may select thousands of products.
                    let selected = selections.lists[Int(selections.products[position])]
                    ids.append(contentsOf: selected)
                    listed.withUnsafeMutableBufferPointer { listed in
                        for id in selected { listed[Int(id)] = list }
                    }
                } else {
                    append(promotions[position].codes, list: list, lookup: lookup, listed: &listed, ids: &ids)
                }
                var rewardsStart: Int32 = -1
                if selections.targets[position] >= 0 {
                    rewardsStart = Int32(ids.count)
                    // A product both bought and rewarded counts as bought only (docs/selectors.md).
                    let selected = selections.lists[Int(selections.targets[position])]
                    listed.withUnsafeBufferPointer { listed in
                        for id in selected where listed[Int(id)] != list { ids.append(id) }
                    }
                } else if let targets = promotions[position].targets {
                    rewardsStart = Int32(ids.count)
                    if selections.products[position] >= 0 {
                        for code in targets {
                            guard let id = lookup.productID(for: code), listed[id] != list, listed[id] != list + 1
                            else {
                                continue
                            }
                            listed[id] = list + 1
                            ids.append(Int32(id))
                        }
                    } else {
                        append(targets, list: list + 1, lookup: lookup, listed: &listed, ids: &ids)
                    }
                }
                spans.append(Span(start: start, rewardsStart: rewardsStart, end: Int32(ids.count)))
            }
        }
        return (ids, spans)
    }

    /// Appends the ids of `codes` the catalog has and `list` does not yet, marking them in `listed`.
    @inline(__always)
    private static func append(
        _ codes: [String], list: Int32, lookup: CodeLookup, listed: inout [Int32], ids: inout [Int32]
    ) {
        for code in codes {
            guard let id = lookup.productID(for: code), listed[id] != list else { continue }
            listed[id] = list
            ids.append(Int32(id))
        }
    }

    /// What each distinct selector list of `promotions` selects, ascending, and per promotion the
    /// position of its products' and targets' list (-1: none); resolved in `parts.width` parts.
    private static func resolveSelectors(
        _ promotions: [Promotion], catalog: Catalog, parts: PartRunner
    ) -> (lists: [[Int32]], products: [Int32], targets: [Int32]) {
        var position: [[ProductSelector]: Int32] = [:]
        var distinct: [[ProductSelector]] = []
        func slot(_ selectors: [ProductSelector]) -> Int32 {
            if let known = position[selectors] { return known }
            position[selectors] = Int32(distinct.count)
            distinct.append(selectors)
            return Int32(distinct.count - 1)
        }
        // -1 for a promotion without selectors; read in place (a promotion is not copied).
        var products = [Int32](repeating: -1, count: promotions.count)
        var targets = [Int32](repeating: -1, count: promotions.count)
        promotions.withUnsafeBufferPointer { promotions in
            for promotion in promotions.indices {
                if let selectors = promotions[promotion].productSelectors { products[promotion] = slot(selectors) }
                if let selectors = promotions[promotion].targetSelectors { targets[promotion] = slot(selectors) }
            }
        }
        guard !distinct.isEmpty else { return ([], products, targets) }
        let index = CatalogIndex(catalog)
        let results = PartSlots<[Int32]>(count: distinct.count, repeating: [])
        let work = distinct
        let partCount = min(parts.width, work.count)
        let body: @Sendable (Int) -> Void = { part in
            for slot in stride(from: part, to: work.count, by: partCount) {
                results[slot] = index.union(work[slot].map { index.resolve($0, in: catalog) })
            }
        }
        if partCount > 1 { parts.run(partCount, body) } else { body(0) }
        return (results.all(), products, targets)
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
    /// Each part lists a product once; a rewarded product that is also one of its products is left
    /// out here (only a selector's promotion may have one, and then it counts as bought).
    public func concerned(by index: Int) -> [ProductID] {
        let span = spans[index]
        let bought = ids[Int(span.start)..<Int(span.rewardsStart < 0 ? span.end : span.rewardsStart)]
        var result = bought.map { Int($0) }
        guard span.rewardsStart >= 0, span.rewardsStart < span.end else { return result }
        // A set once the products are many: a selector may select thousands.
        let lookup = bought.count > 32 ? Set(bought) : nil
        for id in ids[Int(span.rewardsStart)..<Int(span.end)] {
            let repeated = lookup.map { $0.contains(id) } ?? bought.contains(id)
            if !repeated { result.append(Int(id)) }
        }
        return result
    }

    /// Whether any product promotion `index` concerns (its products or rewards) passes `test`,
    /// without building a list.
    @inline(__always)
    public func anyConcerned(by index: Int, _ test: (ProductID) -> Bool) -> Bool {
        let span = spans[index]
        for id in ids[Int(span.start)..<Int(span.end)] where test(Int(id)) { return true }
        return false
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
