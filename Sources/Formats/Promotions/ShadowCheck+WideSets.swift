import Pricing

/// The shadowed check's wide members (docs/architecture.md, "The shadowed check"): members with
/// more products than ``ShadowCheck/narrowAtMost``, such as the promotions on a brand or a category
/// of a large catalog. Members with one selector's products share one set, held once; which sets
/// hold which is worked out once per set; and a set's slopes at a unit price are worked out once
/// per part and price, its discounts at 1…8 units only for the members that pass the other filters.
extension ShadowCheck {
    /// Wide members, by the products they share.
    struct WideSets {
        /// Per member, its wide set, or -1 when it is narrow.
        var of: [Int32]
        /// Each set's products, ascending: `ids[start[s]..<start[s + 1]]`.
        var start: [Int32] = [0]
        var ids: [Int32] = []
        /// Each set's members in file order ("slots"), with their shapes and what their pairs
        /// compare whatever the price.
        var memberStart: [Int32] = [0]
        var members: [Int32] = []
        var shapes: [ShadowShape] = []
        var window: [SIMD2<Int32>] = []
        var coupon: [Int32] = []
        var priority: [Int64] = []
        /// Each set's distinct unit prices, ascending.
        var priceStart: [Int32] = [0]
        var prices: [Int64] = []
        /// The price of each set's product in fewest wide sets (its pairs are sifted at that
        /// price), and the sets holding every product it has (itself first).
        var homePrice: [Int64] = []
        var supersetStart: [Int32] = [0]
        var supersets: [Int32] = []
        /// Per catalog product, the wide sets holding it, ascending (empty without wide sets).
        var holdingStart: [Int32] = []
        var holding: [Int32] = []

        var count: Int { start.count - 1 }

        func products(_ set: Int) -> ArraySlice<Int32> { ids[Int(start[set])..<Int(start[set + 1])] }
        func membersOf(_ set: Int) -> Range<Int> { Int(memberStart[set])..<Int(memberStart[set + 1]) }
        func holding(_ product: Int) -> ArraySlice<Int32> {
            holdingStart.isEmpty ? [] : holding[Int(holdingStart[product])..<Int(holdingStart[product + 1])]
        }
    }

    /// The wide sets' slopes at one unit price, by slot (``WideSets/members``): worked out for a
    /// set when first needed at that price, and its slots sorted by slope once two members are
    /// compared with it (sorting for one costs more than the pairs it saves).
    struct WideLayouts {
        var price: Int64?
        /// Per set: 0 not laid out at `price`, 1 its slopes worked out, 2 its slots sorted by slope too.
        var state: [UInt8]
        /// Per set, how many members have been compared with it at `price`.
        var users: [Int32]
        var laidOut: [Int32] = []
        var slope: [Double]
        /// Per set's slots, its positions by slope, as ``Scratch/bySlope`` (sorted when it has up to 65,536).
        var bySlope: [UInt64]
        /// The discounts at 1…8 units, worked out only for the members that pass the other
        /// filters, once each: at a catalog's many prices, most of a wide set's are never needed.
        let probes: ProbeMemo

        init(_ wide: WideSets) {
            state = [UInt8](repeating: 0, count: wide.count)
            users = [Int32](repeating: 0, count: wide.count)
            slope = [Double](repeating: 0, count: wide.members.count)
            bySlope = [UInt64](repeating: 0, count: wide.members.count)
            probes = ProbeMemo(count: wide.members.count)
        }

        /// Lays out `sets` at unit price `u` for `users` more members (afresh at a new price).
        mutating func layOut(_ sets: some Sequence<Int32>, of wide: WideSets, at u: Int64, users more: Int) {
            if price != u {
                for set in laidOut { (state[Int(set)], users[Int(set)]) = (0, 0) }
                laidOut.removeAll(keepingCapacity: true)
                price = u
            }
            for set in sets {
                let slots = wide.membersOf(Int(set))
                if state[Int(set)] == 0 {
                    state[Int(set)] = 1
                    laidOut.append(set)
                    for slot in slots {
                        let steepness = wide.shapes[slot].approximateSlope(unitPrice: u)
                        slope[slot] = steepness
                        bySlope[slot] = steepness.bitPattern & ~0xFFFF | UInt64((slot - slots.lowerBound) & 0xFFFF)
                    }
                    probes.reset(slots)
                }
                // Counted up to 2: all that is asked is whether two have come.
                users[Int(set)] = min(2, users[Int(set)] + Int32(min(more, 2)))
                if state[Int(set)] == 1, users[Int(set)] >= 2, slots.count <= 1 << 16 {
                    state[Int(set)] = 2
                    bySlope[slots].sort()
                }
            }
        }
    }

    /// Discounts at 1…8 units worked out when first asked for, in memory the lists write through.
    final class ProbeMemo {
        /// Not worked out yet: no discount is negative.
        static let unknown = SIMD8<Int32>(repeating: .min)
        let buffer: UnsafeMutableBufferPointer<SIMD8<Int32>>

        init(count: Int) {
            buffer = .allocate(capacity: count)
            buffer.initialize(repeating: Self.unknown)
        }

        /// Positions `range` not worked out.
        func reset(_ range: Range<Int>) {
            for position in range { buffer[position] = Self.unknown }
        }

        deinit { buffer.deallocate() }
    }
}

extension ShadowCheck.WideSets {
    /// The wide members' sets: a selector's list of more than `narrowAtMost` products is one set
    /// however many members share it; a member naming more codes than that has a set of its own.
    init(
        records: [ShadowCheck.Member], shared: [Int32], productStart: [Int32], productIDs: [Int32], narrowAtMost: Int,
        promotions: [Promotion],
        promotionIndex: [Int32], products: PromotionProducts, catalog: Catalog
    ) {
        let members = shared.count
        var wide = Self(of: [Int32](repeating: -1, count: members))
        // One set per distinct list of products, however it was named: a selector's lists are
        // looked at once each, and members naming the same codes (or two selector lists that
        // select the same products) share a set, so that sets are as few as the distinct lists.
        var setOfShared: [Int32: Int32] = [:]
        var setOfProducts: [[Int32]: Int32] = [:]
        func set(of list: [Int32]) -> Int32 {
            if let known = setOfProducts[list] { return known }
            let set = Int32(wide.count)
            setOfProducts[list] = set
            wide.ids += list
            wide.start.append(Int32(wide.ids.count))
            return set
        }
        for member in 0..<members {
            if shared[member] >= 0 {
                if let known = setOfShared[shared[member]] {
                    wide.of[member] = known
                    continue
                }
                // A selector's list: ascending, each once.
                var list: [Int32] = []
                list.reserveCapacity(products.productCount(of: Int(promotionIndex[member])))
                products.forEachProduct(of: Int(promotionIndex[member])) { list.append(Int32($0)) }
                wide.of[member] = set(of: list)
                setOfShared[shared[member]] = wide.of[member]
            } else if productStart[member + 1] - productStart[member] > narrowAtMost {
                wide.of[member] = set(of: Array(productIDs[Int(productStart[member])..<Int(productStart[member + 1])]))
            }
        }
        guard wide.count > 0 else {
            self = wide
            return
        }
        // Members per set, in file order, with their shapes.
        wide.memberStart = [Int32](repeating: 0, count: wide.count + 1)
        for member in 0..<members where wide.of[member] >= 0 { wide.memberStart[Int(wide.of[member]) + 1] += 1 }
        for set in 0..<wide.count { wide.memberStart[set + 1] += wide.memberStart[set] }
        var fill = wide.memberStart
        wide.members = [Int32](repeating: 0, count: Int(wide.memberStart[wide.count]))
        wide.shapes = [ShadowShape](repeating: .nothing, count: wide.members.count)
        wide.window = [SIMD2<Int32>](repeating: .zero, count: wide.members.count)
        wide.coupon = [Int32](repeating: 0, count: wide.members.count)
        wide.priority = [Int64](repeating: 0, count: wide.members.count)
        for member in 0..<members where wide.of[member] >= 0 {
            let slot = Int(fill[Int(wide.of[member])])
            wide.members[slot] = Int32(member)
            wide.shapes[slot] = ShadowShape(promotions[Int(promotionIndex[member])]) ?? .nothing
            wide.window[slot] = SIMD2(records[member].start, records[member].end)
            wide.coupon[slot] = records[member].coupon
            wide.priority[slot] = records[member].priority
            fill[Int(wide.of[member])] += 1
        }
        // The sets holding each product.
        wide.holdingStart = [Int32](repeating: 0, count: catalog.products.count + 1)
        for id in wide.ids { wide.holdingStart[Int(id) + 1] += 1 }
        for id in 0..<catalog.products.count { wide.holdingStart[id + 1] += wide.holdingStart[id] }
        var holdingFill = wide.holdingStart
        wide.holding = [Int32](repeating: 0, count: wide.ids.count)
        for set in 0..<wide.count {
            for id in wide.products(set) {
                wide.holding[Int(holdingFill[Int(id)])] = Int32(set)
                holdingFill[Int(id)] += 1
            }
        }
        // Each set's prices, home and supersets (found among the sets holding its home).
        for set in 0..<wide.count {
            let setPrices = wide.products(set).map { catalog.products[Int($0)].price }.sorted()
            for (slot, price) in setPrices.enumerated() where slot == 0 || price != setPrices[slot - 1] {
                wide.prices.append(price)
            }
            wide.priceStart.append(Int32(wide.prices.count))
            let home = wide.products(set).min { wide.holding(Int($0)).count < wide.holding(Int($1)).count }!
            wide.homePrice.append(catalog.products[Int(home)].price)
            wide.supersets.append(Int32(set))
            let own = wide.products(set)
            for other in wide.holding(Int(home)) where other != set {
                let theirs = wide.products(Int(other))
                if theirs.count >= own.count, own.allSatisfy({ theirs.containsSorted($0) }) {
                    wide.supersets.append(other)
                }
            }
            wide.supersetStart.append(Int32(wide.supersets.count))
        }
        self = wide
    }
}
