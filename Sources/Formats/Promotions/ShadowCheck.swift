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
/// P's products. Products are independent: ``run(part:into:)`` checks one range of them, so a caller can
/// spread ``parts`` over cores, and the answer does not depend on how.
struct ShadowCheck: @unchecked Sendable {
    /// Quantities walked per pair at most.
    static let maxWindow: Int64 = 100_000
    /// Quantities walked per home product at most: a bound on adversarial files (the generated
    /// 100,000-promotion file walks at most a few thousand per product).
    static let allowancePerProduct: Int64 = 4_000_000

    /// The enabled line promotions with a catalog product ("members"), in file order.
    private let promotionIndex: [Int32]
    private let members: [Member]
    /// The promotions themselves, for the members' shapes: made again where needed rather than
    /// held, which would take a large file's check several megabytes more.
    private let promotions: [Promotion]

    /// What the pairs of a member compare, in one place.
    private struct Member {
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
        /// The part's distinct instants, numbered in the order first seen.
        var instants: [Instant] = []
        var couponKeys: [[UInt8]] = []

        init(_ promotions: [Promotion], _ range: Range<Int>, products: PromotionProducts) {
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
                    products.forEachProduct(of: index) { productIDs.append(Int32($0)) }
                    guard productIDs.count > first else { continue }
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
                                Array((promotions[index].coupon.map(ShadowCheck.uppercased) ?? "").utf8) + [1]
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

    /// Each member's products (catalog ids, ascending) `productIDs[productStart[m]..<productStart[m + 1]]`.
    private let productStart: [Int32]
    private let productIDs: [Int32]
    /// Each member's distinct unit prices.
    private let priceStart: [Int32]
    private let prices: [Int64]
    /// Per product with members ("listed", numbered in order of their ids): its unit price, its
    /// members in file order, and the members whose home it is.
    private let listedPrice: [Int64]
    private let listStart: [Int32]
    private let listMembers: [Int32]
    private let homeStart: [Int32]
    private let homeMembers: [Int32]
    /// Listed products `partStart[k]..<partStart[k + 1]` make part k.
    private let partStart: [Int32]

    /// Parts of about equal work, as many as make sense for the file (one for a small one).
    var parts: Int { partStart.count - 1 }

    /// `parts`: how the promotions' products are resolved and the members gathered (the
    /// caller's threads), in parts of at least `promotionsPerPart` promotions; the check is the
    /// same whichever way.
    init(
        promotions: [Promotion], catalog: Catalog, parts: PartRunner = .oneAfterAnother,
        promotionsPerPart: Int = PromotionProducts.promotionsPerPart
    ) {
        self.init(
            promotions: promotions,
            products: PromotionProducts(
                promotions, catalog: catalog, parts: parts, promotionsPerPart: promotionsPerPart),
            catalog: catalog, parts: parts, promotionsPerPart: promotionsPerPart)
    }

    /// `products`: the promotions' products, resolved against the catalog once.
    init(
        promotions: [Promotion], products: PromotionProducts, catalog: Catalog, parts: PartRunner = .oneAfterAnother,
        promotionsPerPart: Int = PromotionProducts.promotionsPerPart
    ) {
        // The members of a large file gathered in parts, then joined in file order.
        let gatherings = parts.partCount(promotions.count, eachAtLeast: promotionsPerPart)
        let gathered = parts.collect(gatherings) { part in
            Gathered(
                promotions, PartRunner.share(part, of: promotions.count, in: gatherings),
                products: products)
        }
        var promotionIndex: [Int32] = []
        var records: [Member] = []
        var productStart: [Int32] = [0]
        var productIDs: [Int32] = []
        if gathered.count == 1 {
            promotionIndex = gathered[0].promotionIndex
            records = gathered[0].records
            productStart = gathered[0].productStart
            productIDs = gathered[0].productIDs
        } else {
            let memberCount = gathered.reduce(0) { $0 + $1.records.count }
            promotionIndex.reserveCapacity(memberCount)
            records.reserveCapacity(memberCount)
            productStart.reserveCapacity(memberCount + 1)
            productIDs.reserveCapacity(gathered.reduce(0) { $0 + $1.productIDs.count })
            for part in gathered {
                let base = Int32(productIDs.count)
                promotionIndex += part.promotionIndex
                records += part.records
                for end in part.productStart.dropFirst() { productStart.append(end + base) }
                productIDs += part.productIDs
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
        // Products with members, numbered densely in order of their ids; their prices.
        var listedOf = [Int32](repeating: -1, count: catalog.products.count)
        for id in productIDs { listedOf[Int(id)] = 0 }
        var listedPrice: [Int64] = []
        for id in listedOf.indices where listedOf[id] == 0 {
            listedOf[id] = Int32(listedPrice.count)
            listedPrice.append(catalog.products[id].price)
        }
        let listedCount = listedPrice.count
        // Each member's signature and distinct prices.
        var priceStart: [Int32] = [0]
        var prices: [Int64] = []
        priceStart.reserveCapacity(members + 1)
        prices.reserveCapacity(productIDs.count)
        for member in 0..<members {
            let first = prices.count
            for slot in Int(productStart[member])..<Int(productStart[member + 1]) {
                records[member].signature |= 1 << UInt64(productIDs[slot] & 63)
                let price = listedPrice[Int(listedOf[Int(productIDs[slot])])]
                if !prices[first...].contains(price) { prices.append(price) }
            }
            priceStart.append(Int32(prices.count))
        }
        // Each listed product's members in file order, and each member's home: its product with fewest.
        var listStart = [Int32](repeating: 0, count: listedCount + 1)
        for id in productIDs { listStart[Int(listedOf[Int(id)]) + 1] += 1 }
        for number in 0..<listedCount { listStart[number + 1] += listStart[number] }
        var fill = listStart
        var listMembers = [Int32](repeating: 0, count: productIDs.count)
        var home = [Int32](repeating: 0, count: members)
        for member in 0..<members {
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
        for member in 0..<members { homeStart[Int(home[member]) + 1] += 1 }
        for number in 0..<listedCount { homeStart[number + 1] += homeStart[number] }
        var homeFill = homeStart
        var homeMembers = [Int32](repeating: 0, count: members)
        for member in 0..<members {
            homeMembers[Int(homeFill[Int(home[member])])] = Int32(member)
            homeFill[Int(home[member])] += 1
        }
        // Parts of about equal work (members at home × the length of the list they are compared with).
        var total = 0
        for listed in 0..<listedCount {
            total += Int(homeStart[listed + 1] - homeStart[listed]) * Int(listStart[listed + 1] - listStart[listed])
        }
        let partCount = max(1, min(32, total / 250_000, listedCount))
        var partStart: [Int32] = [0]
        var done = 0
        for listed in 0..<listedCount {
            done += Int(homeStart[listed + 1] - homeStart[listed]) * Int(listStart[listed + 1] - listStart[listed])
            if partStart.count < partCount, done * partCount >= total * partStart.count {
                partStart.append(Int32(listed + 1))
            }
        }
        if partStart.last != Int32(listedCount) { partStart.append(Int32(listedCount)) }

        self.promotionIndex = promotionIndex
        self.members = records
        self.promotions = promotions
        self.productStart = productStart
        self.productIDs = productIDs
        self.priceStart = priceStart
        self.prices = prices
        self.listedPrice = listedPrice
        self.listStart = listStart
        self.listMembers = listMembers
        self.homeStart = homeStart
        self.homeMembers = homeMembers
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

    /// Checks the members at home in part `part`'s products, writing per member the member that
    /// shadows it (-1: none) into `results`: each part writes the members at home in its products only.
    func run(part: Int, into results: PartBuffer<Int32>) {
        var scratch = Scratch()
        for listed in Int(partStart[part])..<Int(partStart[part + 1]) {
            check(listed: listed, scratch: &scratch, into: results.buffer)
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
    }

    /// A product's members as the pairs read them.
    private struct Lists {
        let member: UnsafeBufferPointer<Int32>
        let signature: UnsafeBufferPointer<UInt64>
        let slope: UnsafeBufferPointer<Double>
        let window: UnsafeBufferPointer<SIMD2<Int32>>
        let coupon: UnsafeBufferPointer<Int32>
        let priority: UnsafeBufferPointer<Int64>
        let probes: UnsafeBufferPointer<SIMD8<Int32>>
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

    private func check(listed: Int, scratch: inout Scratch, into by: UnsafeMutableBufferPointer<Int32>) {
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
        let words = (count + 63) / 64
        if scratch.candidates.count < words { scratch.candidates = [UInt64](repeating: 0, count: words) }
        var allowance = Self.allowancePerProduct
        scratch.member.withUnsafeBufferPointer { member in
            scratch.signature.withUnsafeBufferPointer { signature in
                scratch.slope.withUnsafeBufferPointer { slope in
                    scratch.window.withUnsafeBufferPointer { window in
                        scratch.coupon.withUnsafeBufferPointer { coupon in
                            scratch.priority.withUnsafeBufferPointer { priority in
                                scratch.probes.withUnsafeBufferPointer { probes in
                                    scratch.bySlope.withUnsafeBufferPointer { bySlope in
                                        scratch.candidates.withUnsafeMutableBufferPointer { bits in
                                            let lists = Lists(
                                                member: member, signature: signature, slope: slope, window: window,
                                                coupon: coupon, priority: priority, probes: probes)
                                            for home in homes {
                                                let p = homeMembers[home]
                                                by[Int(p)] = shadower(
                                                    of: p, in: lists, bySlope: sorted ? bySlope : nil, bits: bits,
                                                    allowance: &allowance)
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The first member of `lists` that shadows member `p`, or -1.
    @inline(__always)
    private func shadower(
        of p: Int32, in lists: Lists, bySlope: UnsafeBufferPointer<UInt64>?, bits: UnsafeMutableBufferPointer<UInt64>,
        allowance: inout Int64
    ) -> Int32 {
        let count = lists.member.count
        // P's position in this list: members are in file order.
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if lists.member[middle] < p { low = middle + 1 } else { high = middle }
        }
        let position = low
        let pSignature = lists.signature[position]
        // Q's slope must reach P's (when P's is positive): allow for the rounding of doubles.
        let pSlope = lists.slope[position]
        let slopeFloor = pSlope > 0 ? pSlope - pSlope * 1e-9 : 0
        let pWindow = lists.window[position]
        let pCoupon = lists.coupon[position]
        let pPriority = lists.priority[position]
        let pProbes = lists.probes[position]
        let gives = pProbes .> 0

        @inline(__always) func shadows(_ q: Int) -> Bool {
            guard lists.signature[q] & pSignature == pSignature, lists.slope[q] >= slopeFloor,
                lists.window[q].x <= pWindow.x, lists.window[q].y >= pWindow.y
            else { return false }
            let coupon = lists.coupon[q]
            guard coupon < 0 || coupon == pCoupon else { return false }
            let winsTies = lists.priority[q] > pPriority || (lists.priority[q] == pPriority && q < position)
            let qProbes = lists.probes[q]
            let loses = gives .& (winsTies ? qProbes .< pProbes : qProbes .<= pProbes)
            guard !any(loses) else { return false }
            return beats(Int(lists.member[q]), Int(p), winsTies: winsTies, allowance: &allowance)
        }

        // How many are that steep (the last `steep` by slope): when few, only they are visited
        // (in file order still).
        var steep = count
        if let bySlope, slopeFloor > 0 {
            let key = slopeFloor.bitPattern & ~0xFFFF
            var (low, high) = (0, count)
            while low < high {
                let middle = (low + high) / 2
                if bySlope[middle] & ~0xFFFF < key { low = middle + 1 } else { high = middle }
            }
            steep = count - low
        }
        if let bySlope, steep * 2 < count {
            let words = (count + 63) / 64
            for word in 0..<words { bits[word] = 0 }
            for rank in (count - steep)..<count {
                let q = Int(bySlope[rank] & 0xFFFF)
                bits[q >> 6] |= 1 << UInt64(q & 63)
            }
            for word in 0..<words {
                var set = bits[word]
                while set != 0 {
                    let q = word << 6 | set.trailingZeroBitCount
                    set &= set - 1
                    if q != position, shadows(q) { return lists.member[q] }
                }
            }
            return -1
        }
        if pSignature.nonzeroBitCount > 1 {
            // P has other products: most candidates lack one, which their signatures say alone.
            for q in 0..<count where lists.signature[q] & pSignature == pSignature && q != position {
                if shadows(q) { return lists.member[q] }
            }
            return -1
        }
        for q in 0..<count where q != position {
            if shadows(q) { return lists.member[q] }
        }
        return -1
    }

    /// Whether member `q` beats member `p` everywhere: `q` targets every product `p` does, and on
    /// each of `p`'s unit prices gives more wherever `p` gives something (as much, when it wins ties).
    private func beats(_ q: Int, _ p: Int, winsTies: Bool, allowance: inout Int64) -> Bool {
        // Every product of P is one of Q's (both ascending).
        var slot = Int(productStart[q])
        let qEnd = Int(productStart[q + 1])
        for pSlot in Int(productStart[p])..<Int(productStart[p + 1]) {
            let product = productIDs[pSlot]
            while slot < qEnd, productIDs[slot] < product { slot += 1 }
            guard slot < qEnd, productIDs[slot] == product else { return false }
        }
        let sq = ShadowShape(promotions[Int(promotionIndex[q])]) ?? .nothing
        let sp = ShadowShape(promotions[Int(promotionIndex[p])]) ?? .nothing
        for slot in Int(priceStart[p])..<Int(priceStart[p + 1]) {
            guard Self.beats(sq, sp, unitPrice: prices[slot], winsTies: winsTies, allowance: &allowance) else {
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

    static func uppercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }
}
