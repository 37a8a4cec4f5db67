/// The products each promotion of a file concerns, resolved against the catalog once
/// (docs/architecture.md, "Products resolved once"). Pricing, explanations, the shadowed check and
/// the shop's words all ask this table instead of looking codes up themselves, so that the ways a
/// promotion can name its products are taught to one place.
///
/// Per promotion: its products (what `code`/`codes` name), in the order it names them, each once,
/// codes the catalog lacks left out; and, for a kind that rewards other products (a buy-X-get-Y's
/// `targets`), its rewarded products the same way. Flat storage: one array of ids for the whole
/// file, in which what a selector selects is held once however many promotions use it (a file may
/// have thousands of promotions on one brand of a large catalog).
public struct PromotionProducts: Sendable {
    /// The selectors' lists first (`ids[..<sharedCount]`), then the promotions' own.
    private let ids: [Int32]
    private let sharedCount: Int32
    private let spans: [Span]

    /// Where a promotion's products and rewards are in `ids`; `rewardsStart < 0` when it names no
    /// rewards of its own.
    private struct Span: Sendable {
        var start: Int32
        var end: Int32
        var rewardsStart: Int32 = -1
        var rewardsEnd: Int32 = -1
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
        sharedCount = selections.start.last ?? 0
        guard resolved.count > 1 || sharedCount > 0 else {
            (ids, spans) = resolved.first ?? ([], [])
            return
        }
        // The shared lists, then each part's own ids; the parts' own spans moved past what is before them.
        var ids = selections.lists.flatMap { $0 }
        ids.reserveCapacity(ids.count + resolved.reduce(0) { $0 + $1.ids.count })
        var spans: [Span] = []
        spans.reserveCapacity(promotions.count)
        var position = 0
        for part in resolved {
            let base = Int32(ids.count)
            ids += part.ids
            for var span in part.spans {
                if selections.products[position] < 0 {
                    span.start += base
                    span.end += base
                }
                if span.rewardsStart >= 0, selections.rewards[position] < 0 {
                    span.rewardsStart += base
                    span.rewardsEnd += base
                }
                spans.append(span)
                position += 1
            }
        }
        self.ids = ids
        self.spans = spans
    }

    /// Files of fewer promotions than twice this are resolved in one part: a second thread pays
    /// for itself from there.
    public static let promotionsPerPart = 16_384

    /// The selectors' lists, and per promotion which of them are its products and its rewards.
    private struct Selections: Sendable {
        /// Each distinct selector list's products, ascending; then, for each promotion whose
        /// products and rewards are both selected, the rewarded products that are not bought.
        var lists: [[Int32]] = []
        /// Where each list will start in `ids` (and, last, where they end).
        var start: [Int32] = [0]
        /// Per promotion, the position in `lists` of its products, of its targets' selection, and
        /// of its rewards when shared (-1: none).
        var products: [Int32]
        var targets: [Int32]
        var rewards: [Int32]
    }

    /// The ids and spans of the promotions in `range` (own spans counted from the range's first
    /// id, shared ones where the shared lists will be).
    private static func resolve(
        _ promotions: [Promotion], _ range: Range<Int>, catalog: Catalog, selections: Selections
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
                let list = 2 * Int32(position)
                let bought = selections.products[position]
                var span = Span(start: Int32(ids.count), end: 0)
                if bought >= 0 {
                    // Selected: the shared list, not a copy.
                    span.start = selections.start[Int(bought)]
                    span.end = selections.start[Int(bought) + 1]
                } else {
                    append(promotions[position].codes, list: list, lookup: lookup, listed: &listed, ids: &ids)
                    span.end = Int32(ids.count)
                }
                if selections.rewards[position] >= 0 {
                    let rewards = Int(selections.rewards[position])
                    span.rewardsStart = selections.start[rewards]
                    span.rewardsEnd = selections.start[rewards + 1]
                } else if selections.targets[position] >= 0 {
                    // A product both bought and rewarded counts as bought only (docs/selectors.md).
                    span.rewardsStart = Int32(ids.count)
                    listed.withUnsafeBufferPointer { listed in
                        for id in selections.lists[Int(selections.targets[position])] where listed[Int(id)] != list {
                            ids.append(id)
                        }
                    }
                    span.rewardsEnd = Int32(ids.count)
                } else if let targets = promotions[position].targets {
                    span.rewardsStart = Int32(ids.count)
                    if bought >= 0 {
                        let selected = selections.lists[Int(bought)]
                        for code in targets {
                            guard let id = lookup.productID(for: code), listed[id] != list + 1,
                                !selected.containsSorted(Int32(id))
                            else { continue }
                            listed[id] = list + 1
                            ids.append(Int32(id))
                        }
                    } else {
                        append(targets, list: list + 1, lookup: lookup, listed: &listed, ids: &ids)
                    }
                    span.rewardsEnd = Int32(ids.count)
                }
                spans.append(span)
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
    /// position of its products', targets' and shared rewards' list (-1: none); the selectors
    /// resolved in `parts.width` parts.
    private static func resolveSelectors(
        _ promotions: [Promotion], catalog: Catalog, parts: PartRunner
    ) -> Selections {
        var position: [[ProductSelector]: Int32] = [:]
        var distinct: [[ProductSelector]] = []
        func slot(_ selectors: [ProductSelector]) -> Int32 {
            if let known = position[selectors] { return known }
            position[selectors] = Int32(distinct.count)
            distinct.append(selectors)
            return Int32(distinct.count - 1)
        }
        // -1 for a promotion without selectors; read in place (a promotion is not copied).
        var selections = Selections(
            products: [Int32](repeating: -1, count: promotions.count),
            targets: [Int32](repeating: -1, count: promotions.count),
            rewards: [Int32](repeating: -1, count: promotions.count))
        promotions.withUnsafeBufferPointer { promotions in
            for promotion in promotions.indices {
                if let selectors = promotions[promotion].productSelectors {
                    selections.products[promotion] = slot(selectors)
                }
                if let selectors = promotions[promotion].targetSelectors {
                    selections.targets[promotion] = slot(selectors)
                }
            }
        }
        guard !distinct.isEmpty else { return selections }
        let index = CatalogIndex(catalog)
        let results = PartSlots<[Int32]>(count: distinct.count, repeating: [])
        let work = distinct
        let partCount = min(parts.width, work.count)
        let body: @Sendable (Int) -> Void = { part in
            for slot in stride(from: part, to: work.count, by: partCount) {
                results[slot] = index.selection(of: work[slot], in: catalog)
            }
        }
        if partCount > 1 { parts.run(partCount, body) } else { body(0) }
        selections.lists = results.all()
        // Rewards selected beside selected products: the targets' list less the products', once
        // per distinct pair.
        var pairs: [SIMD2<Int32>: Int32] = [:]
        for promotion in promotions.indices
        where selections.products[promotion] >= 0 && selections.targets[promotion] >= 0 {
            let pair = SIMD2(selections.products[promotion], selections.targets[promotion])
            if let known = pairs[pair] {
                selections.rewards[promotion] = known
                continue
            }
            let bought = selections.lists[Int(pair.x)]
            selections.lists.append(selections.lists[Int(pair.y)].filter { !bought.containsSorted($0) })
            pairs[pair] = Int32(selections.lists.count - 1)
            selections.rewards[promotion] = Int32(selections.lists.count - 1)
        }
        for list in selections.lists { selections.start.append(selections.start.last! + Int32(list.count)) }
        return selections
    }

    /// The products of promotion `index`, in the order it names them.
    public func products(of index: Int) -> [ProductID] {
        let span = spans[index]
        return ids[Int(span.start)..<Int(span.end)].map { Int($0) }
    }

    /// How many products promotion `index` has (not counting its rewards).
    public func productCount(of index: Int) -> Int {
        Int(spans[index].end - spans[index].start)
    }

    /// A number that promotions whose products are one selector's list share (the list is held
    /// once), nil for a promotion that names its own; for a promotion with products (an empty
    /// list's number may be another's).
    public func sharedProducts(of index: Int) -> Int? {
        spans[index].start < sharedCount ? Int(spans[index].start) : nil
    }

    /// The products promotion `index` rewards when it names them apart from its products; nil when
    /// it rewards its own products (or rewards none).
    public func rewards(of index: Int) -> [ProductID]? {
        let span = spans[index]
        guard span.rewardsStart >= 0 else { return nil }
        return ids[Int(span.rewardsStart)..<Int(span.rewardsEnd)].map { Int($0) }
    }

    /// Its products, then its rewarded products (a product in both is listed once).
    /// Each part lists a product once; a rewarded product that is also one of its products is left
    /// out here (only a selector's promotion may have one, and then it counts as bought).
    public func concerned(by index: Int) -> [ProductID] {
        let span = spans[index]
        let bought = ids[Int(span.start)..<Int(span.end)]
        var result = bought.map { Int($0) }
        guard span.rewardsStart >= 0, span.rewardsStart < span.rewardsEnd else { return result }
        // A set once the products are many: a selector may select thousands.
        let lookup = bought.count > 32 ? Set(bought) : nil
        for id in ids[Int(span.rewardsStart)..<Int(span.rewardsEnd)] {
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
        guard span.rewardsStart >= 0 else { return false }
        for id in ids[Int(span.rewardsStart)..<Int(span.rewardsEnd)] where test(Int(id)) { return true }
        return false
    }

    /// Whether `test` holds for one of the products promotion `index` could reward: its rewarded
    /// products when it has them, else its own.
    public func anyRewarded(by index: Int, _ test: (ProductID) -> Bool) -> Bool {
        let span = spans[index]
        let (start, end) = span.rewardsStart >= 0 ? (span.rewardsStart, span.rewardsEnd) : (span.start, span.end)
        for id in ids[Int(start)..<Int(end)] where test(Int(id)) { return true }
        return false
    }

    /// Whether promotion `index` concerns `product` (as one of its products or of its rewards).
    public func concerns(_ index: Int, _ product: ProductID) -> Bool {
        anyConcerned(by: index) { $0 == product }
    }

    /// Calls `body` with each product of promotion `index` (not its rewards), without building an array.
    @inline(__always)
    public func forEachProduct(of index: Int, _ body: (ProductID) -> Void) {
        let span = spans[index]
        for id in ids[Int(span.start)..<Int(span.end)] { body(Int(id)) }
    }
}
