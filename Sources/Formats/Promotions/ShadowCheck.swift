import Pricing

/// Finds line promotions that another line promotion always beats (`promotion.shadowed`,
/// docs/diagnostics.md), in time proportional to the pairs of promotions that share a product.
///
/// How "every quantity" is decided without trying them all. On one product at list price U, each
/// line promotion's discount d(q) (its ``ShadowShape``) is zero below a threshold and, from a point B
/// on, a linear function plus a periodic one: combo ⌊q/N⌋(N−M)U has period N and slope (N−M)U/N;
/// bulk and amount are linear; percent round(q·U·p/10000) is linear plus a rounding error of period
/// 10000/gcd(U·p, 10000), and constant once its cap binds. So the difference of two of them is, from
/// B on, linear plus periodic with the common period L: checking every quantity up to B + L, and
/// comparing the slopes beyond, decides every quantity. When Q's slope is the larger, the walk
/// stops sooner, where the difference of the slopes has outgrown what the periodic parts can take
/// back (``ShadowShape/Profile/outruns(_:)``). A pair whose window would be too long to
/// walk is left alone, as is a product whose walks have used up its allowance: the check may then
/// miss a shadowed promotion, but it never warns about one that some cart could apply.
///
/// How it stays fast. Only promotions sharing a product can shadow each other, so each line
/// promotion P is compared with the promotions of one of its products (its "home", the one with
/// fewest), in file order, stopping at the first that shadows it. Per product, the facts a pair is
/// rejected on are laid out in flat arrays once (window, coupon, priority, a 64-bit summary of the
/// products, the slope, the discounts at 1…8 units), so that most pairs cost a few comparisons and
/// no allocation or reference counting; the exact comparison runs once per distinct unit price of
/// P's products. Products (and wide sets) are independent: ``run(part:into:)`` checks one range of
/// them, so a caller can spread ``parts`` over cores, and the answer does not depend on how.
///
/// Promotions with many products. A promotion that selects a brand or a category of a large
/// catalog has thousands of products, and a file may have thousands of such promotions on a few
/// selections. Listed under each of its products, and compared with another product by product,
/// they would take gigabytes and minutes. So a member with more than ``narrowAtMost`` products is
/// "wide": the members with one selector's products share one "wide set", held once; which wide
/// sets hold which is worked out once per set, not per pair; and a wide set's members are laid
/// out at a unit price once per part and price (the work runs in order of price), and searched as a
/// list of their own beside a product's narrow members.
struct ShadowCheck: @unchecked Sendable {
    /// Quantities walked per pair at most.
    static let maxWindow: Int64 = 100_000
    /// Quantities walked per home product (or wide set) at most: a bound on adversarial files (the
    /// generated 100,000-promotion file walks at most a few thousand per product).
    static let allowancePerProduct: Int64 = 4_000_000
    /// A member with more products than this is wide.
    static let narrowAtMost = 64

    /// The enabled line promotions with a catalog product ("members"), in file order.
    private let promotionIndex: [Int32]
    private let members: [Member]
    /// The promotions themselves, for the members' shapes: made again where needed rather than
    /// held, which would take a large file's check several megabytes more.
    private let promotions: [Promotion]

    /// What the pairs of a member compare, in one place.
    struct Member {
        /// The activation window as ranks of its instants: no start is `Int32.min`, no end `Int32.max`.
        var start: Int32
        var end: Int32
        /// Who may have it (its coupon, upper-cased, and customer groups) as a number, -1 for anyone.
        var coupon: Int32
        var priority: Int64
        /// A bit per product (by its number modulo 64): a promotion whose bits are not all in
        /// another's targets a product the other does not.
        var signature: UInt64 = 0
    }
    /// The members of a range of promotions, as one part gathers them: their windows as positions
    /// in `instants` (the part's distinct instants), who may have them as positions in `couponKeys`
    /// (a limited promotion has a number of its own), their products from 0.
    private struct Gathered: Sendable {
        var promotionIndex: [Int32] = []
        var records: [Member] = []
        var productStart: [Int32] = [0]
        var productIDs: [Int32] = []
        /// Per member, the number its products share with other promotions' when they are a
        /// selector's list of more than `narrowAtMost` (not copied: `productStart` gives it
        /// none), or -1.
        var shared: [Int32] = []
        /// The part's distinct instants, numbered in the order first seen.
        var instants: [Instant] = []
        var couponKeys: [[UInt8]] = []

        init(_ promotions: [Promotion], _ range: Range<Int>, products: PromotionProducts, narrowAtMost: Int) {
            promotionIndex.reserveCapacity(range.count)
            records.reserveCapacity(range.count)
            productStart.reserveCapacity(range.count + 1)
            var numbers = InstantNumbers()
            /// Keyed by bytes: customer groups compare byte for byte (docs/selectors.md), so two
            /// spellings of a group that are equal as strings are two groups, and two promotions
            /// needing them are not for the same customers.
            var couponSlots: [[UInt8]: Int32] = [:]
            promotions.withUnsafeBufferPointer { promotions in
                for index in range where promotions[index].isEnabled && promotions[index].rule.shadowShape != nil {
                    // Its products, ascending, each once.
                    let first = productIDs.count
                    let count = products.productCount(of: index)
                    guard count > 0 else { continue }
                    if count > narrowAtMost, let key = products.sharedProducts(of: index) {
                        shared.append(Int32(key))
                    } else {
                        shared.append(-1)
                        products.forEachProduct(of: index) { productIDs.append(Int32($0)) }
                    }
                    if productIDs.count - first > 1 {
                        let kept = productIDs.withUnsafeMutableBufferPointer { ids in
                            var own = UnsafeMutableBufferPointer(rebasing: ids[first...])
                            own.sort()
                            var kept = 1
                            for slot in 1..<own.count where own[slot] != own[kept - 1] {
                                own[kept] = own[slot]
                                kept += 1
                            }
                            return kept
                        }
                        productIDs.removeLast(productIDs.count - first - kept)
                    }
                    productStart.append(Int32(productIDs.count))
                    promotionIndex.append(Int32(index))
                    var record = Member(start: .min, end: .max, coupon: -1, priority: promotions[index].priority)
                    if let start = promotions[index].start { record.start = numbers.number(of: start) }
                    if let end = promotions[index].end { record.end = numbers.number(of: end) }
                    // Who may have it, as one number: its coupon and customer groups (a promotion that
                    // needs none shadows whatever it beats; one that needs some, only promotions that
                    // need the same). A limited one (`uses`, `uses_per_customer`) can run out, so it
                    // shadows nothing: a number of its own (docs/validate.md, `promotion.shadowed`).
                    if promotions[index].isLimited {
                        record.coupon = Int32.max - Int32(index)
                    } else if promotions[index].coupon != nil || promotions[index].customerGroups != nil {
                        let groups =
                            promotions[index].customerGroups.map {
                                Set($0.map { Array($0.utf8) }).sorted { $0.lexicographicallyPrecedes($1) }
                            } ?? []
                        if promotions[index].coupon != nil || !groups.isEmpty {
                            let key =
                                Array((promotions[index].coupon.map { CouponKey($0).text } ?? "").utf8) + [1]
                                + Array(groups.joined(separator: [1]))
                            if let known = couponSlots[key] {
                                record.coupon = known
                            } else {
                                record.coupon = Int32(couponKeys.count)
                                couponSlots[key] = record.coupon
                                couponKeys.append(key)
                            }
                        }
                    }
                    records.append(record)
                }
            }
            instants = numbers.instants
        }
    }

    /// Each narrow member's products (catalog ids, ascending) `productIDs[productStart[m]..<productStart[m + 1]]`
    /// (a wide member's, when it names them itself, are there too, unused).
    private let productStart: [Int32]
    private let productIDs: [Int32]
    /// Each narrow member's distinct unit prices (a wide member has none here: its set has them).
    private let priceStart: [Int32]
    private let prices: [Int64]
    /// Per product with narrow members ("listed", numbered in order of their ids): its catalog id,
    /// its unit price, its narrow members in file order, and the narrow members whose home it is.
    private let listedID: [Int32]
    private let listedPrice: [Int64]
    private let listStart: [Int32]
    private let listMembers: [Int32]
    private let homeStart: [Int32]
    private let homeMembers: [Int32]
    /// The wide sets.
    private let wide: WideSets
    /// The work in the order it runs: a listed product's homes (`item ≥ 0`), or a wide set's members
    /// (`item = −1 − set`); in order of price when there are wide sets. Items
    /// `work[partStart[k]..<partStart[k + 1]]` make part k.
    private let work: [Int32]
    private let partStart: [Int32]

    /// Parts of about equal work, as many as make sense for the file (one for a small one).
    var parts: Int { partStart.count - 1 }

    /// `parts`: how the promotions' products are resolved and the members gathered (the
    /// caller's threads), in parts of at least `promotionsPerPart` promotions; the check is the
    /// same whichever way. `narrowAtMost`: the most products of a narrow member (tests make
    /// small catalogs' members wide).
    init(
        promotions: [Promotion], catalog: Catalog, parts: PartRunner = .oneAfterAnother,
        promotionsPerPart: Int = PromotionProducts.promotionsPerPart, narrowAtMost: Int = Self.narrowAtMost
    ) {
        self.init(
            promotions: promotions,
            products: PromotionProducts(
                promotions, catalog: catalog, parts: parts, promotionsPerPart: promotionsPerPart),
            catalog: catalog, parts: parts, promotionsPerPart: promotionsPerPart, narrowAtMost: narrowAtMost)
    }

    /// `products`: the promotions' products, resolved against the catalog once.
    init(
        promotions: [Promotion], products: PromotionProducts, catalog: Catalog, parts: PartRunner = .oneAfterAnother,
        promotionsPerPart: Int = PromotionProducts.promotionsPerPart, narrowAtMost: Int = Self.narrowAtMost
    ) {
        // The members of a large file gathered in parts, then joined in file order.
        let gatherings = parts.partCount(promotions.count, eachAtLeast: promotionsPerPart)
        let gathered = parts.collect(gatherings) { part in
            Gathered(
                promotions, PartRunner.share(part, of: promotions.count, in: gatherings),
                products: products, narrowAtMost: narrowAtMost)
        }
        var promotionIndex: [Int32] = []
        var records: [Member] = []
        var productStart: [Int32] = [0]
        var productIDs: [Int32] = []
        var shared: [Int32] = []
        if gathered.count == 1 {
            promotionIndex = gathered[0].promotionIndex
            records = gathered[0].records
            productStart = gathered[0].productStart
            productIDs = gathered[0].productIDs
            shared = gathered[0].shared
        } else {
            let memberCount = gathered.reduce(0) { $0 + $1.records.count }
            promotionIndex.reserveCapacity(memberCount)
            records.reserveCapacity(memberCount)
            productStart.reserveCapacity(memberCount + 1)
            shared.reserveCapacity(memberCount)
            productIDs.reserveCapacity(gathered.reduce(0) { $0 + $1.productIDs.count })
            for part in gathered {
                let base = Int32(productIDs.count)
                promotionIndex += part.promotionIndex
                records += part.records
                for end in part.productStart.dropFirst() { productStart.append(end + base) }
                productIDs += part.productIDs
                shared += part.shared
            }
        }
        // Windows as ranks of their instants (equal instants, equal ranks), and who may have each
        // member as one number for the whole file: each part numbered its own.
        var instantRanks: [Instant: Int32] = [:]
        for part in gathered {
            for instant in part.instants where instantRanks[instant] == nil { instantRanks[instant] = 0 }
        }
        for (rank, instant) in instantRanks.keys.sorted().enumerated() { instantRanks[instant] = Int32(rank) }
        var couponNumbers: [[UInt8]: Int32] = [:]
        var first = 0
        for part in gathered {
            let ranks = part.instants.map { instantRanks[$0]! }
            let numbers = part.couponKeys.map { key in
                let number = couponNumbers[key] ?? Int32(couponNumbers.count)
                couponNumbers[key] = number
                return number
            }
            for member in first..<(first + part.records.count) {
                if records[member].start != .min { records[member].start = ranks[Int(records[member].start)] }
                if records[member].end != .max { records[member].end = ranks[Int(records[member].end)] }
                // A limited promotion's own number (Int32.max − its index) is above any part's count of keys.
                let coupon = records[member].coupon
                if coupon >= 0, coupon < numbers.count { records[member].coupon = numbers[Int(coupon)] }
            }
            first += part.records.count
        }
        let members = promotionIndex.count
        let wide = WideSets(
            records: records, shared: shared, productStart: productStart, productIDs: productIDs,
            narrowAtMost: narrowAtMost,
            promotions: promotions, promotionIndex: promotionIndex, products: products, catalog: catalog)
        // Products with narrow members, numbered densely in order of their ids; their prices.
        var listedOf = [Int32](repeating: -1, count: catalog.products.count)
        if wide.count == 0 {
            for id in productIDs { listedOf[Int(id)] = 0 }
        } else {
            for member in 0..<members where wide.of[member] < 0 {
                for slot in Int(productStart[member])..<Int(productStart[member + 1]) {
                    listedOf[Int(productIDs[slot])] = 0
                }
            }
        }
        var listedID: [Int32] = []
        var listedPrice: [Int64] = []
        for id in listedOf.indices where listedOf[id] == 0 {
            listedOf[id] = Int32(listedPrice.count)
            listedID.append(Int32(id))
            listedPrice.append(catalog.products[id].price)
        }
        let listedCount = listedPrice.count
        // Each narrow member's signature and distinct prices.
        var priceStart: [Int32] = [0]
        var prices: [Int64] = []
        priceStart.reserveCapacity(members + 1)
        prices.reserveCapacity(productIDs.count)
        for member in 0..<members {
            let first = prices.count
            if wide.of[member] < 0 {
                for slot in Int(productStart[member])..<Int(productStart[member + 1]) {
                    records[member].signature |= 1 << UInt64(productIDs[slot] & 63)
                    let price = listedPrice[Int(listedOf[Int(productIDs[slot])])]
                    if !prices[first...].contains(price) { prices.append(price) }
                }
            }
            priceStart.append(Int32(prices.count))
        }
        // Each listed product's narrow members in file order, and each narrow member's home: its
        // product with fewest.
        var listStart = [Int32](repeating: 0, count: listedCount + 1)
        if wide.count == 0 {
            for id in productIDs { listStart[Int(listedOf[Int(id)]) + 1] += 1 }
        } else {
            for member in 0..<members where wide.of[member] < 0 {
                for slot in Int(productStart[member])..<Int(productStart[member + 1]) {
                    listStart[Int(listedOf[Int(productIDs[slot])]) + 1] += 1
                }
            }
        }
        for number in 0..<listedCount { listStart[number + 1] += listStart[number] }
        var fill = listStart
        var listMembers = [Int32](repeating: 0, count: Int(listStart[listedCount]))
        var home = [Int32](repeating: -1, count: members)
        for member in 0..<members where wide.of[member] < 0 {
            var best: Int32 = -1
            var bestSize = Int32.max
            for slot in Int(productStart[member])..<Int(productStart[member + 1]) {
                let listed = Int(listedOf[Int(productIDs[slot])])
                listMembers[Int(fill[listed])] = Int32(member)
                fill[listed] += 1
                let size = listStart[listed + 1] - listStart[listed]
                if size < bestSize { (best, bestSize) = (Int32(listed), size) }
            }
            home[member] = best
        }
        var homeStart = [Int32](repeating: 0, count: listedCount + 1)
        for member in 0..<members where home[member] >= 0 { homeStart[Int(home[member]) + 1] += 1 }
        for number in 0..<listedCount { homeStart[number + 1] += homeStart[number] }
        var homeFill = homeStart
        var homeMembers = [Int32](repeating: 0, count: Int(homeStart[listedCount]))
        for member in 0..<members where home[member] >= 0 {
            homeMembers[Int(homeFill[Int(home[member])])] = Int32(member)
            homeFill[Int(home[member])] += 1
        }
        // The work, and its cost: members at home × the members they are compared with.
        var work: [Int32] = []
        var cost: [Int] = []
        for listed in 0..<listedCount where homeStart[listed + 1] > homeStart[listed] {
            var compared = Int(listStart[listed + 1] - listStart[listed])
            for set in wide.holding(Int(listedID[listed])) { compared += wide.membersOf(Int(set)).count }
            work.append(Int32(listed))
            cost.append(Int(homeStart[listed + 1] - homeStart[listed]) * compared)
        }
        if wide.count > 0 {
            for set in 0..<wide.count {
                var compared = 0
                for superset in wide.supersets[Int(wide.supersetStart[set])..<Int(wide.supersetStart[set + 1])] {
                    compared += wide.membersOf(Int(superset)).count
                }
                work.append(-1 - Int32(set))
                cost.append(wide.membersOf(set).count * compared)
            }
            // In order of price, so that a part lays a wide set out once per price.
            let price = { (item: Int32) in
                item >= 0 ? listedPrice[Int(item)] : wide.homePrice[Int(-1 - item)]
            }
            let order = work.indices.sorted { (price(work[$0]), $0) < (price(work[$1]), $1) }
            work = order.map { work[$0] }
            cost = order.map { cost[$0] }
        }
        // Parts of about equal work.
        let total = cost.reduce(0, +)
        let partCount = max(1, min(32, total / 250_000, work.count))
        var partStart: [Int32] = [0]
        var done = 0
        for (item, itemCost) in cost.enumerated() {
            done += itemCost
            if partStart.count < partCount, done * partCount >= total * partStart.count {
                partStart.append(Int32(item + 1))
            }
        }
        if partStart.last != Int32(work.count) { partStart.append(Int32(work.count)) }

        self.promotionIndex = promotionIndex
        self.members = records
        self.promotions = promotions
        self.productStart = productStart
        self.productIDs = productIDs
        self.priceStart = priceStart
        self.prices = prices
        self.listedID = listedID
        self.listedPrice = listedPrice
        self.listStart = listStart
        self.listMembers = listMembers
        self.homeStart = homeStart
        self.homeMembers = homeMembers
        self.wide = wide
        self.work = work
        self.partStart = partStart
    }

    /// For each promotion shadowed by another, the position of the first such one in file order;
    /// the parts run as `concurrently` runs them (`concurrently(n, body)` runs `body(0)`…`body(n − 1)`).
    func shadowed(
        concurrently: (Int, @Sendable (Int) -> Void) -> Void = { count, body in for part in 0..<count { body(part) } }
    ) -> [(promotion: Int, by: Int)] {
        var by = [Int32](repeating: -1, count: promotionIndex.count)
        by.withUnsafeMutableBufferPointer { buffer in
            let results = PartBuffer(buffer)
            concurrently(parts) { part in run(part: part, into: results) }
        }
        var found: [(promotion: Int, by: Int)] = []
        for member in by.indices where by[member] >= 0 {
            found.append((Int(promotionIndex[member]), Int(promotionIndex[Int(by[member])])))
        }
        return found
    }

    /// Checks the members of part `part`'s work, writing per member the member that shadows it
    /// (-1: none) into `results`: each part writes the members of its own work only.
    func run(part: Int, into results: PartBuffer<Int32>) {
        var scratch = Scratch()
        var layouts = WideLayouts(wide)
        for item in work[Int(partStart[part])..<Int(partStart[part + 1])] {
            if item >= 0 {
                check(listed: Int(item), scratch: &scratch, layouts: &layouts, into: results.buffer)
            } else {
                check(wideSet: Int(-1 - item), scratch: &scratch, layouts: &layouts, into: results.buffer)
            }
        }
    }

    /// One product's members, laid out for the pairs: reused from product to product. Each field
    /// in an array of its own, so that a pass over one filter reads only what it compares.
    private struct Scratch {
        var records: [Member] = []
        var shapes: [ShadowShape] = []
        var member: [Int32] = []
        var signature: [UInt64] = []
        var slope: [Double] = []
        var window: [SIMD2<Int32>] = []
        var coupon: [Int32] = []
        var priority: [Int64] = []
        var probes: [SIMD8<Int32>] = []
        /// Positions by slope, steepest last: the slope's bits with its low 16 bits replaced by
        /// the position (lists of up to 65,536 members).
        var bySlope: [UInt64] = []
        /// The positions of the candidates of one member, as bits.
        var candidates: [UInt64] = []

        mutating func removeAll() {
            records.removeAll(keepingCapacity: true)
            shapes.removeAll(keepingCapacity: true)
            member.removeAll(keepingCapacity: true)
            signature.removeAll(keepingCapacity: true)
            slope.removeAll(keepingCapacity: true)
            window.removeAll(keepingCapacity: true)
            coupon.removeAll(keepingCapacity: true)
            priority.removeAll(keepingCapacity: true)
            probes.removeAll(keepingCapacity: true)
            bySlope.removeAll(keepingCapacity: true)
        }

        /// Room for the bits of a list of `count`.
        mutating func makeRoom(for count: Int) {
            let words = (count + 63) / 64
            if candidates.count < words { candidates = [UInt64](repeating: 0, count: words) }
        }
    }

    /// A list of members as the pairs read them.
    private struct Lists {
        let member: UnsafeBufferPointer<Int32>
        /// Empty in a wide set's list.
        let signature: UnsafeBufferPointer<UInt64>
        let slope: UnsafeBufferPointer<Double>
        let window: UnsafeBufferPointer<SIMD2<Int32>>
        let coupon: UnsafeBufferPointer<Int32>
        let priority: UnsafeBufferPointer<Int64>
        /// The discounts at 1…8 units; empty in a wide set's list, whose `shapes` give them at
        /// `unitPrice`, kept in `memo` once worked out.
        let probes: UnsafeBufferPointer<SIMD8<Int32>>
        let shapes: UnsafeBufferPointer<ShadowShape>
        let unitPrice: Int64
        var memo: UnsafeMutablePointer<SIMD8<Int32>>? = nil

        @inline(__always)
        func probes(_ position: Int) -> SIMD8<Int32> {
            guard probes.isEmpty, let memo else { return probes[position] }
            if memo[position] == ProbeMemo.unknown {
                memo[position] = ShadowCheck.probes(shapes[position], unitPrice: unitPrice)
            }
            return memo[position]
        }
        /// Positions by slope, nil when the list is too long to have them.
        let bySlope: UnsafeBufferPointer<UInt64>?

        /// The facts of the member at `position`, as the search for what shadows it reads them.
        func sought(_ position: Int) -> Sought {
            let slope = self.slope[position]
            return Sought(
                member: member[position], signature: signature.isEmpty ? 0 : signature[position],
                slopeFloor: slope > 0 ? slope - slope * 1e-9 : 0, window: window[position],
                coupon: coupon[position], priority: priority[position], probes: probes(position))
        }

        /// The same of positions `range` (a wide set's slots), by slope when `sorted`.
        func slice(_ range: Range<Int>, sorted: Bool) -> Lists {
            func cut<T>(_ buffer: UnsafeBufferPointer<T>) -> UnsafeBufferPointer<T> {
                UnsafeBufferPointer(rebasing: buffer[range])
            }
            return Lists(
                member: cut(member), signature: signature.isEmpty ? signature : cut(signature), slope: cut(slope),
                window: cut(window),
                coupon: cut(coupon), priority: cut(priority), probes: probes.isEmpty ? probes : cut(probes),
                shapes: shapes.isEmpty ? shapes : cut(shapes), unitPrice: unitPrice,
                memo: memo.map { $0 + range.lowerBound },
                bySlope: sorted && range.count <= 1 << 16 ? bySlope.map(cut) : nil)
        }
    }

    /// What a member's pairs are compared on: its facts at one unit price.
    private struct Sought {
        var member: Int32
        var signature: UInt64
        /// Q's slope must reach P's (when P's is positive): this allows for the rounding of doubles.
        var slopeFloor: Double
        var window: SIMD2<Int32>
        var coupon: Int32
        var priority: Int64
        var probes: SIMD8<Int32>
    }

    /// The discounts at 1…8 units, saturated to 32 bits (a saturated value still compares right
    /// against one that is not).
    static func probes(_ shape: ShadowShape, unitPrice u: Int64) -> SIMD8<Int32> {
        var values = SIMD8<Int32>()
        // The usual case without a division per quantity: no overflow possible, one term.
        if u >= 0, u <= Int32.max, shape.minimumQuantity <= 8 {
            let first = Int(max(1, shape.minimumQuantity)) - 1
            if shape.savesPerUnit, shape.groupSize == 0, shape.hundredths == 0 {
                let each = shape.perUnit(u)
                for lane in first..<8 { values[lane] = Int32(clamping: Int64(lane + 1) * each) }
                return values
            }
            if shape.hundredths > 0, shape.groupSize == 0, !shape.savesPerUnit {
                let k = u * shape.hundredths
                let cap = shape.hasCap ? max(0, shape.cap) : .max
                for lane in first..<8 {
                    values[lane] = Int32(clamping: min((Int64(lane + 1) * k + 5_000) / 10_000, cap))
                }
                return values
            }
        }
        for lane in 0..<8 {
            values[lane] = Int32(clamping: shape.discount(quantity: Int64(lane + 1), unitPrice: u))
        }
        return values
    }

    /// Calls `body` with the lists in these arrays (`signature` empty for a wide set's, whose
    /// members hold every product of those they are compared with; `bySlope` nil when too long).
    private static func withLists<R>(
        _ member: [Int32], _ signature: [UInt64], _ slope: [Double], _ window: [SIMD2<Int32>], _ coupon: [Int32],
        _ priority: [Int64], _ probes: [SIMD8<Int32>], _ shapes: [ShadowShape], unitPrice: Int64, _ bySlope: [UInt64]?,
        _ body: (Lists) -> R
    ) -> R {
        member.withUnsafeBufferPointer { member in
            signature.withUnsafeBufferPointer { signature in
                slope.withUnsafeBufferPointer { slope in
                    window.withUnsafeBufferPointer { window in
                        coupon.withUnsafeBufferPointer { coupon in
                            priority.withUnsafeBufferPointer { priority in
                                probes.withUnsafeBufferPointer { probes in
                                    shapes.withUnsafeBufferPointer { shapes in
                                        func lists(_ bySlope: UnsafeBufferPointer<UInt64>?) -> Lists {
                                            Lists(
                                                member: member, signature: signature, slope: slope, window: window,
                                                coupon: coupon, priority: priority, probes: probes, shapes: shapes,
                                                unitPrice: unitPrice, bySlope: bySlope)
                                        }
                                        guard let bySlope else { return body(lists(nil)) }
                                        return bySlope.withUnsafeBufferPointer { body(lists($0)) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The members at home in listed product `listed`: compared with its narrow members, then
    /// with the members of the wide sets that hold all their products.
    private func check(
        listed: Int, scratch: inout Scratch, layouts: inout WideLayouts, into by: UnsafeMutableBufferPointer<Int32>
    ) {
        let homes = Int(homeStart[listed])..<Int(homeStart[listed + 1])
        guard !homes.isEmpty else { return }
        let u = listedPrice[listed]
        scratch.removeAll()
        // First the records, in a loop that does nothing else: the reads of members far apart
        // then overlap instead of waiting for one another.
        members.withUnsafeBufferPointer { members in
            promotions.withUnsafeBufferPointer { promotions in
                listMembers.withUnsafeBufferPointer { listMembers in
                    for slot in Int(listStart[listed])..<Int(listStart[listed + 1]) {
                        let member = Int(listMembers[slot])
                        scratch.records.append(members[member])
                        scratch.shapes.append(ShadowShape(promotions[Int(promotionIndex[member])]) ?? .nothing)
                    }
                }
            }
        }
        for (slot, (record, shape)) in zip(Int(listStart[listed])..., zip(scratch.records, scratch.shapes)) {
            scratch.member.append(listMembers[slot])
            scratch.signature.append(record.signature)
            scratch.slope.append(shape.approximateSlope(unitPrice: u))
            scratch.window.append(SIMD2(record.start, record.end))
            scratch.coupon.append(record.coupon)
            scratch.priority.append(record.priority)
            scratch.probes.append(Self.probes(shape, unitPrice: u))
        }
        let count = scratch.member.count
        // Slopes are never negative, so their bits order as they do.
        let sorted = count <= 1 << 16
        if sorted {
            for (position, slope) in scratch.slope.enumerated() {
                scratch.bySlope.append(slope.bitPattern & ~0xFFFF | UInt64(position))
            }
            scratch.bySlope.sort()
        }
        scratch.makeRoom(for: count)
        let holding = wide.holding(Int(listedID[listed]))
        if !holding.isEmpty {
            layouts.layOut(holding, of: wide, at: u, users: homes.count)
            for set in holding { scratch.makeRoom(for: wide.membersOf(Int(set)).count) }
        }
        var allowance = Self.allowancePerProduct
        // The lists passed by value (the bits, written below, are not among them: not copied).
        Self.withLists(
            scratch.member, scratch.signature, scratch.slope, scratch.window, scratch.coupon, scratch.priority,
            scratch.probes, [], unitPrice: u, sorted ? scratch.bySlope : nil
        ) { lists in
            let l = layouts
            Self.withLists(
                wide.members, [], l.slope, wide.window, wide.coupon, wide.priority, [], wide.shapes, unitPrice: u,
                l.bySlope
            ) { wideLists in
                var wideLists = wideLists
                wideLists.memo = l.probes.buffer.baseAddress
                scratch.candidates.withUnsafeMutableBufferPointer { bits in
                    for home in homes {
                        let p = homeMembers[home]
                        // P's position in this list: members are in file order.
                        var (low, high) = (0, count)
                        while low < high {
                            let middle = (low + high) / 2
                            if lists.member[middle] < p { low = middle + 1 } else { high = middle }
                        }
                        let sought = lists.sought(low)
                        var best = first(
                            shadowing: sought, in: lists, before: .max, subsetKnown: false, bits: bits,
                            allowance: &allowance)
                        for set in holding where isHeld(p, by: set) {
                            let found = first(
                                shadowing: sought,
                                in: wideLists.slice(wide.membersOf(Int(set)), sorted: l.state[Int(set)] == 2),
                                before: best < 0 ? .max : best, subsetKnown: true, bits: bits, allowance: &allowance)
                            if found >= 0 { best = found }
                        }
                        by[Int(p)] = best
                    }
                }
            }
        }
    }

    /// The members of wide set `set`: compared with the members of the wide sets that hold all
    /// its products (itself among them).
    private func check(
        wideSet set: Int, scratch: inout Scratch, layouts: inout WideLayouts, into by: UnsafeMutableBufferPointer<Int32>
    ) {
        let supersets = wide.supersets[Int(wide.supersetStart[set])..<Int(wide.supersetStart[set + 1])]
        layouts.layOut(supersets, of: wide, at: wide.homePrice[set], users: wide.membersOf(set).count)
        for other in supersets { scratch.makeRoom(for: wide.membersOf(Int(other)).count) }
        var allowance = Self.allowancePerProduct
        let l = layouts
        Self.withLists(
            wide.members, [], l.slope, wide.window, wide.coupon, wide.priority, [], wide.shapes,
            unitPrice: wide.homePrice[set], l.bySlope
        ) { all in
            var all = all
            all.memo = l.probes.buffer.baseAddress
            scratch.candidates.withUnsafeMutableBufferPointer { bits in
                let own = all.slice(wide.membersOf(set), sorted: false)
                for position in 0..<own.member.count {
                    let sought = own.sought(position)
                    var best: Int32 = -1
                    for other in supersets {
                        let found = first(
                            shadowing: sought,
                            in: all.slice(wide.membersOf(Int(other)), sorted: l.state[Int(other)] == 2),
                            before: best < 0 ? .max : best,
                            subsetKnown: true, bits: bits, allowance: &allowance)
                        if found >= 0 { best = found }
                    }
                    by[Int(sought.member)] = best
                }
            }
        }
    }

    /// Whether wide set `set` holds every product of narrow member `p`.
    private func isHeld(_ p: Int32, by set: Int32) -> Bool {
        let theirs = wide.products(Int(set))
        for slot in Int(productStart[Int(p)])..<Int(productStart[Int(p) + 1])
        where !theirs.containsSorted(productIDs[slot]) {
            return false
        }
        return true
    }

    /// The first member of `lists`, before member `before` in file order, that shadows P, or -1.
    /// `subsetKnown`: every member of `lists` has all of P's products (a wide set's list).
    @inline(__always)
    private func first(
        shadowing p: Sought, in lists: Lists, before: Int32, subsetKnown: Bool,
        bits: UnsafeMutableBufferPointer<UInt64>,
        allowance: inout Int64
    ) -> Int32 {
        let total = lists.member.count
        // Members are in file order: those before `before` are the first `count`.
        var count = total
        if before != .max {
            var (low, high) = (0, total)
            while low < high {
                let middle = (low + high) / 2
                if lists.member[middle] < before { low = middle + 1 } else { high = middle }
            }
            count = low
        }
        let gives = p.probes .> 0

        @inline(__always) func shadows(_ q: Int) -> Bool {
            if !subsetKnown {
                guard lists.signature[q] & p.signature == p.signature else { return false }
            }
            guard lists.slope[q] >= p.slopeFloor, lists.window[q].x <= p.window.x, lists.window[q].y >= p.window.y
            else { return false }
            let coupon = lists.coupon[q]
            guard coupon < 0 || coupon == p.coupon else { return false }
            let winsTies =
                lists.priority[q] > p.priority || (lists.priority[q] == p.priority && lists.member[q] < p.member)
            let qProbes = lists.probes(q)
            let loses = gives .& (winsTies ? qProbes .< p.probes : qProbes .<= p.probes)
            guard !any(loses) else { return false }
            return beats(
                Int(lists.member[q]), Int(p.member), winsTies: winsTies, subsetKnown: subsetKnown, allowance: &allowance
            )
        }

        // How many are that steep (the last `steep` by slope): when few, only they are visited
        // (in file order still).
        var steep = total
        if let bySlope = lists.bySlope, p.slopeFloor > 0 {
            let key = p.slopeFloor.bitPattern & ~0xFFFF
            var (low, high) = (0, total)
            while low < high {
                let middle = (low + high) / 2
                if bySlope[middle] & ~0xFFFF < key { low = middle + 1 } else { high = middle }
            }
            steep = total - low
        }
        if let bySlope = lists.bySlope, steep * 2 < total {
            let words = (count + 63) / 64
            for word in 0..<words { bits[word] = 0 }
            for rank in (total - steep)..<total {
                let q = Int(bySlope[rank] & 0xFFFF)
                if q < count { bits[q >> 6] |= 1 << UInt64(q & 63) }
            }
            for word in 0..<words {
                var set = bits[word]
                while set != 0 {
                    let q = word << 6 | set.trailingZeroBitCount
                    set &= set - 1
                    if lists.member[q] != p.member, shadows(q) { return lists.member[q] }
                }
            }
            return -1
        }
        if !subsetKnown, p.signature.nonzeroBitCount > 1 {
            // P has other products: most candidates lack one, which their signatures say alone.
            for q in 0..<count where lists.signature[q] & p.signature == p.signature && lists.member[q] != p.member {
                if shadows(q) { return lists.member[q] }
            }
            return -1
        }
        for q in 0..<count where lists.member[q] != p.member {
            if shadows(q) { return lists.member[q] }
        }
        return -1
    }

    /// Whether member `q` beats member `p` everywhere: `q` targets every product `p` does (known
    /// already when `subsetKnown`), and on each of `p`'s unit prices gives more wherever `p` gives
    /// something (as much, when it wins ties).
    private func beats(_ q: Int, _ p: Int, winsTies: Bool, subsetKnown: Bool, allowance: inout Int64) -> Bool {
        if !subsetKnown {
            // Every product of P is one of Q's (both ascending).
            var slot = Int(productStart[q])
            let qEnd = Int(productStart[q + 1])
            for pSlot in Int(productStart[p])..<Int(productStart[p + 1]) {
                let product = productIDs[pSlot]
                while slot < qEnd, productIDs[slot] < product { slot += 1 }
                guard slot < qEnd, productIDs[slot] == product else { return false }
            }
        }
        let sq = ShadowShape(promotions[Int(promotionIndex[q])]) ?? .nothing
        let sp = ShadowShape(promotions[Int(promotionIndex[p])]) ?? .nothing
        let set = Int(wide.of[p])
        let (source, range) =
            set < 0
            ? (prices, Int(priceStart[p])..<Int(priceStart[p + 1]))
            : (wide.prices, Int(wide.priceStart[set])..<Int(wide.priceStart[set + 1]))
        for slot in range {
            guard Self.beats(sq, sp, unitPrice: source[slot], winsTies: winsTies, allowance: &allowance) else {
                return false
            }
        }
        return true
    }

    /// Whether, on a product at `unitPrice`, Q's discount beats P's at every quantity where P gives one.
    static func beats(
        _ q: ShadowShape, _ p: ShadowShape, unitPrice u: Int64, winsTies: Bool, allowance: inout Int64
    ) -> Bool {
        let sp = p.profile(unitPrice: u)
        let sq = q.profile(unitPrice: u)
        // Beyond B both are linear plus periodic: a smaller slope for Q loses in the end whenever P keeps giving.
        if sp.slope.numerator > 0 {
            guard let less = sq.slope.isLess(than: sp.slope), !less else { return false }
        }
        let b = max(sp.start, sq.start)
        let l = lcm(sp.period, sq.period)
        guard l > 0, l <= maxWindow, b <= maxWindow, b + l <= maxWindow, allowance >= b + l else { return false }
        @inline(__always) func holds(at quantity: Int64) -> Bool {
            let dp = p.discount(quantity: quantity, unitPrice: u)
            guard dp > 0 else { return true }
            let dq = q.discount(quantity: quantity, unitPrice: u)
            return dq > dp || (dq == dp && winsTies)
        }
        // Most pairs fail at once: P's own threshold, or the far end of the window.
        guard holds(at: max(1, sp.start)), holds(at: b + l) else { return false }
        allowance -= b + l
        // Where Q's steeper slope has outrun the periodic parts, Q gives more at every quantity:
        // the walk ends there (discounts of up to 100,000 units at up to 2⁴⁰ never overflow).
        var end = b + l
        if u >= 0, u <= 1 << 40, let outrun = sq.outruns(sp) {
            end = min(end, max(outrun, b, p.minimumQuantity, q.minimumQuantity, 1))
        }
        var quantity: Int64 = 1
        while quantity <= end {
            guard holds(at: quantity) else { return false }
            quantity += 1
        }
        // Equal slopes repeat the window's pattern; a larger one for Q only widens its lead.
        return true
    }
}
