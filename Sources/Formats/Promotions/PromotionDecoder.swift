import PlistReader
import Pricing
import Suggestions

/// What the decoder checks beyond the format itself. Copied into each promotion's decoding, so
/// the catalog is held by one reference (``ProductChecks``): a copy retains one object, not the
/// catalog's arrays and tables one by one.
struct DecodingContext {
    /// Money is converted in this currency's minor units.
    var currency: Currency
    /// With a catalog: unknown product codes and promotions that cannot lower a price.
    let products: ProductChecks?
    /// Promotions whose window ended by this instant draw a warning.
    var expiryInstant: Instant?
    init(currency: Currency, productCatalog: Catalog?, expiryInstant: Instant?) {
        self.currency = currency
        products = productCatalog.map(ProductChecks.init)
        self.expiryInstant = expiryInstant
    }

    /// The catalog the codes are checked against, if any.
    var productCatalog: Catalog? { products?.catalog }
}

/// The catalog a file's codes are checked against, with its codes' lookup (the table's addresses
/// loaded once for the whole file).
final class ProductChecks: Sendable {
    let catalog: Catalog
    let codeLookup: CodeLookup

    init(_ catalog: Catalog) {
        self.catalog = catalog
        codeLookup = catalog.codeLookup
    }
}

/// Per known key, the positions within its `<dict>` of its `<key>` element and its value (-1 when
/// absent), first occurrence only: one table sized from ``PromotionKey``, owned by the decoder and
/// lent to each promotion's decoding, so that decoding allocates nothing for it.
struct KeySlots {
    private let positions: UnsafeMutableBufferPointer<Int32>

    init(_ positions: UnsafeMutableBufferPointer<Int32>) {
        self.positions = positions
        positions.update(repeating: -1)
    }

    static var count: Int { 2 * PromotionKey.allCases.count }

    func key(_ key: PromotionKey) -> Int32 { positions[2 * key.rawValue] }
    func value(_ key: PromotionKey) -> Int32 { positions[2 * key.rawValue + 1] }

    func set(_ key: PromotionKey, key position: Int32, value: Int32) {
        positions[2 * key.rawValue] = position
        positions[2 * key.rawValue + 1] = value
    }
}

/// Decodes promotion `<dict>`s into ``Promotion``s, reporting every problem of each (docs/promotions-file.md).
struct PromotionDecoder {
    var context: DecodingContext
    /// Ids already used, with their first use: for `promotion.duplicate-id`.
    private(set) var ids: [String: IDUse] = [:]
    /// `promotion.unknown-code` diagnostics still without their "did you mean", and the code: one
    /// pass over the catalog answers them all when the file is read (``DecodingPipeline/Output/suggest()``).
    private(set) var unanswered: [(diagnostic: Int, code: String)] = []
    /// Later uses, reported as duplicates, with the position of their `promotion.duplicate-id`
    /// diagnostic in the results.
    private(set) var repeats: [(id: String, use: IDUse, diagnostic: Int)] = []

    /// Where a promotion uses an id: 16 bytes, as the table holds one per promotion.
    struct IDUse {
        private var line: Int32
        private var column: Int32
        /// The promotion's position in the file's entries.
        private(set) var entry: Int32
        /// Whether the id is the promotion's name, for want of an `id`.
        private(set) var defaulted: Bool

        init(location: SourceLocation, defaulted: Bool, entry: Int) {
            line = Int32(clamping: location.line)
            column = Int32(clamping: location.column)
            self.entry = Int32(clamping: entry)
            self.defaulted = defaulted
        }

        var location: SourceLocation { SourceLocation(line: Int(line), column: Int(column)) }

        /// A new slot's content until claimed.
        static let unclaimed = IDUse(location: SourceLocation(line: 0, column: 0), defaulted: false, entry: -1)
    }

    /// Takes over the unknown codes another decoder left unanswered, whose diagnostics now start at
    /// `offset` in the results.
    mutating func adoptUnanswered(of other: PromotionDecoder, offset: Int) {
        for (diagnostic, code) in other.unanswered { unanswered.append((diagnostic + offset, code)) }
    }

    /// Gives an unclaimed `slot` to `use`, or returns the use that has it.
    private static func claim(_ slot: inout IDUse, by use: IDUse) -> IDUse? {
        guard slot.entry < 0 else { return slot }
        slot = use
        return nil
    }

    /// Room for the ids of a file of `bytes` bytes, so that the table is not rebuilt as it grows:
    /// promotions take some 300 bytes each, whatever the layout (a table sized for the smallest
    /// possible promotions would be twice as large, and its random writes touch all of it).
    mutating func reserveIDs(forFileBytes bytes: Int) {
        ids.reserveCapacity(min(bytes / 300, 1 << 22))
    }
    /// Each promotion's key table, reused from one promotion to the next.
    private let slots = SlotStorage()
    /// The catalog's index of attributes, built when a promotion first has a selector to check.
    private let catalogIndex = CatalogIndexCache()

    final class CatalogIndexCache {
        private var index: CatalogIndex?
        /// What each list of selectors seen selects, in short: a file may have thousands of
        /// promotions on one brand of a large catalog, resolved once.
        private var selected: [[ProductSelector]: Selected] = [:]
        /// The dearest reward of selected rewards whose dearest few a promotion all buys.
        private var past: [PastKey: Int32] = [:]

        private struct PastKey: Hashable {
            var rewards: [ProductSelector]
            var own: [ProductSelector]
            var ownIDs: [Int32]
        }

        /// How many products a list of selectors selects, and the dearest few of them, dearest
        /// first (ties in catalog order): enough to find the dearest that is not one of a
        /// promotion's own products without selecting again, for all but promotions that buy
        /// more than that many of the dearest.
        struct Selected {
            var count: Int
            var dearest: [Int32]
            static let kept = 16
        }

        /// A promotion's own products or its rewards: selectors, or the catalog's products its
        /// codes name.
        enum Products {
            case selected([ProductSelector])
            case ids([Int32])
        }

        func index(of catalog: Catalog) -> CatalogIndex {
            if let index { return index }
            let built = CatalogIndex(catalog)
            index = built
            return built
        }

        /// The values "did you mean" offers for an unknown category of about a depth, brand or tag.
        enum SuggestionKind: Hashable {
            case categories(depths: ClosedRange<Int>)
            case brands
            case tags
        }
        /// Each kind's suggester, made when first asked for, for the whole file: made for every
        /// promotion, 1,000 promotions on unknown brands lower-cased 20,000 brands 1,000 times (18 s).
        private var suggesters: [SuggestionKind: WordSuggester] = [:]

        /// Each value's answer, for a file that repeats an unknown value in many promotions.
        private var answers: [Answer: String?] = [:]
        private struct Answer: Hashable {
            var kind: SuggestionKind
            var word: ExactText
        }

        /// The value of `kind` the catalog has that `word` most likely means, asked once per word.
        func suggestion(_ kind: SuggestionKind, for word: String, in catalog: Catalog) -> String? {
            let key = Answer(kind: kind, word: ExactText(word))
            if let known = answers[key] { return known }
            let answer = suggester(kind, in: catalog).suggestion(for: word)
            answers[key] = .some(answer)
            return answer
        }

        private func suggester(_ kind: SuggestionKind, in catalog: Catalog) -> WordSuggester {
            if let known = suggesters[kind] { return known }
            let index = index(of: catalog)
            let values: [String]
            switch kind {
            case .categories(let depths): values = index.categoryPaths(depths: depths)
            case .brands: values = index.brands
            case .tags: values = index.tags
            }
            let made = WordSuggester(values)
            suggesters[kind] = made
            return made
        }

        /// What `selectors` select of `catalog`, in short.
        func selected(_ selectors: [ProductSelector], in catalog: Catalog) -> Selected {
            if let known = selected[selectors] { return known }
            let ids = index(of: catalog).selection(of: selectors, in: catalog)
            let summary = Selected(count: ids.count, dearest: Self.dearest(ids, in: catalog, keeping: Selected.kept))
            selected[selectors] = summary
            return summary
        }

        /// The dearest of `rewards` that is none of `own` (a bxgy's rewards: a product of both
        /// counts as one it buys, docs/selectors.md); -1 when there is none. Selected rewards are
        /// taken from their list's dearest few, and a product is told to be one of `own` by the
        /// selectors' own test, one product at a time: no selection per promotion.
        func dearestReward(_ rewards: Products, own: Products, in catalog: Catalog) -> Int32 {
            catalog.products.withUnsafeBufferPointer { products in
                func isOwn(_ id: Int32) -> Bool {
                    switch own {
                    case .ids(let ids): ids.contains(id)
                    case .selected(let selectors): selectors.contains { $0.selects(products[Int(id)]) }
                    }
                }
                /// The dearest of `ids` that is none of `own`; -1 when there is none.
                func dearestNotOwn(_ ids: [Int32]) -> Int32 {
                    Self.dearest(ids.filter { !isOwn($0) }, in: catalog, keeping: 1).first ?? -1
                }
                switch rewards {
                case .ids(let ids):
                    return dearestNotOwn(ids)
                case .selected(let selectors):
                    let summary = selected(selectors, in: catalog)
                    if let first = summary.dearest.first(where: { !isOwn($0) }) { return first }
                    guard summary.count > summary.dearest.count else { return -1 }
                    // It buys every one of the dearest few: all of them, then, once per pair.
                    let key: PastKey
                    switch own {
                    case .ids(let ids): key = PastKey(rewards: selectors, own: [], ownIDs: ids)
                    case .selected(let own): key = PastKey(rewards: selectors, own: own, ownIDs: [])
                    }
                    if let known = past[key] { return known }
                    let dearest = dearestNotOwn(index(of: catalog).selection(of: selectors, in: catalog))
                    past[key] = dearest
                    return dearest
                }
            }
        }

        /// The `count` dearest of `ids`, dearest first, ties in the order of `ids` (catalog order
        /// for a selection, whose ids come ascending; file order for codes, where only the price
        /// is used); the products' prices read in place (a product copied out would retain its
        /// texts).
        private static func dearest(_ ids: [Int32], in catalog: Catalog, keeping count: Int) -> [Int32] {
            catalog.products.withUnsafeBufferPointer { products in
                var kept: [Int32] = []
                for id in ids {
                    let price = products[Int(id)].price
                    if kept.count == count, price <= products[Int(kept[count - 1])].price { continue }
                    // After the kept ones of the same price or dearer: ties keep the order of `ids`.
                    var at = kept.count
                    while at > 0, products[Int(kept[at - 1])].price < price { at -= 1 }
                    kept.insert(id, at: at)
                    if kept.count > count { kept.removeLast() }
                }
                return kept
            }
        }
    }

    private final class SlotStorage {
        let buffer = UnsafeMutableBufferPointer<Int32>.allocate(capacity: KeySlots.count)
        deinit { buffer.deallocate() }
    }

    init(context: DecodingContext) {
        self.context = context
    }

    /// The promotion `dict` defines, or nil when it has errors (all of them appended to
    /// `diagnostics`, tagged with `entry`), and the promotion's id when it has one.
    mutating func decode(_ dict: PlistValue, entry: Int, into diagnostics: inout [Diagnostic]) -> (
        promotion: Promotion?, id: String?
    ) {
        decode(dict, entry: entry, slots: KeySlots(slots.buffer), into: &diagnostics)
    }

    private mutating func decode(_ dict: PlistValue, entry: Int, slots: KeySlots, into diagnostics: inout [Diagnostic])
        -> (promotion: Promotion?, id: String?)
    {
        var d = Decoding(dict: dict, context: context, entry: entry, slots: slots, catalogIndex: catalogIndex)
        let promotion = d.decode()
        if let identity = d.identity {
            let use = IDUse(location: identity.location, defaulted: identity.defaulted, entry: entry)
            // One lookup: the slot is created holding this use unless the id has one already.
            if let first = Self.claim(&ids[identity.id, default: IDUse.unclaimed], by: use) {
                d.report(
                    .duplicateID(
                        identity.id, first: first.location, at: identity.location, defaulted: identity.defaulted))
                repeats.append((identity.id, use, diagnostics.count + d.diagnostics.count - 1))
            }
        }
        for (local, code) in d.unanswered { unanswered.append((diagnostics.count + local, code)) }
        if !d.diagnostics.isEmpty { diagnostics.append(contentsOf: d.diagnostics) }
        return (d.errors == 0 ? promotion : nil, d.identity?.id)
    }
}

/// The decoding of one promotion: the fields its kind reads.
struct Decoding: PromotionFields {
    let dict: PlistValue
    let context: DecodingContext
    let entry: Int
    var diagnostics: [Diagnostic] = []
    var errors = 0
    let slots: KeySlots
    /// The promotion's id, once known, for every diagnostic.
    var identity: (id: String, location: SourceLocation, defaulted: Bool)?
    /// Unknown codes reported here, by position in `diagnostics`, to suggest codes for.
    var unanswered: [(Int, String)] = []

    let catalogIndex: PromotionDecoder.CatalogIndexCache

    init(
        dict: PlistValue, context: DecodingContext, entry: Int, slots: KeySlots,
        catalogIndex: PromotionDecoder.CatalogIndexCache
    ) {
        self.catalogIndex = catalogIndex
        self.dict = dict
        self.context = context
        self.entry = entry
        self.slots = slots
    }

    var promotionID: String? { identity?.id }

    mutating func report(_ diagnostic: Diagnostic) {
        var diagnostic = diagnostic
        if diagnostic.promotion == nil { diagnostic.promotion = promotionID }
        diagnostic.entry = entry
        if diagnostic.severity == .error { errors += 1 }
        diagnostics.append(diagnostic)
    }

    mutating func invalid(_ problem: InvalidValue, _ at: PlistValue) {
        report(.invalidValue(problem, at: at.location, promotion: promotionID))
    }

    subscript(key: PromotionKey) -> PlistValue? {
        let position = slots.value(key)
        return position < 0 ? nil : dict.value(at: Int(position))
    }

    func keyElement(_ key: PromotionKey) -> PlistValue { dict.value(at: Int(slots.key(key))) }

    func order(of key: PromotionKey) -> Int? {
        let position = slots.key(key)
        return position < 0 ? nil : Int(position)
    }

    mutating func reject(_ key: PromotionKey, _ message: String) {
        report(Diagnostic(.invalidValue, message, at: self[key]!.location, promotion: promotionID))
    }

    mutating func missing(_ what: String, needed: String) {
        report(.missingKey(what, needed: needed, at: dict.location, promotion: promotionID))
    }

    mutating func decode() -> Promotion? {
        var late: [Diagnostic] = []
        for (key, value) in dict.entries {
            guard let known = key.withTextBytes(PromotionKey.init) else {
                late.append(.unknownKey(key.text, known: PromotionKey.allTexts, at: key.location, promotion: nil))
                continue
            }
            if slots.key(known) >= 0 {
                late.append(
                    .duplicateKey(known.text, first: keyElement(known).location, at: key.location, promotion: nil))
                continue
            }
            slots.set(known, key: Int32(key.position), value: Int32(value.position))
        }

        // Identity first, so that every diagnostic can name the promotion.
        let name = requiredString(.name, needed: "every promotion needs a `name` to show shoppers")
        let id = self[.id] == nil ? nil : string(.id)
        if let id {
            identity = (id, self[.id]!.location, false)
        } else if self[.id] == nil, let name {
            identity = (name, self[.name]!.location, true)
        }
        for diagnostic in late { report(diagnostic) }

        let type = decodeType()
        var start: Instant?
        var end: Instant?
        if self[.start] != nil { start = date(.start) }
        if self[.end] != nil { end = date(.end) }
        // A window that can never be active is not also reported as ended.
        if let location = self[.end]?.location,
            let finding = Diagnostic.dateRange(start: start, end: end, at: location, promotion: promotionID)
                ?? Diagnostic.expired(end: end, instant: context.expiryInstant, at: location, promotion: promotionID)
        {
            report(finding)
        }
        let priority = self[.priority] == nil ? 0 : integer(.priority)
        let enabled = self[.enabled] == nil ? true : bool(.enabled)
        let coupon = self[.coupon] == nil ? nil : string(.coupon)

        guard let type else {
            // Without a type the rest cannot be checked against the table, but the targets can.
            _ = targets(required: false)
            return nil
        }
        for key in type.forbiddenKeys {
            if let value = self[key] {
                invalid(.notAllowed(key: key.text, type: type.rawValue), value)
            }
        }
        let rule = decodeRule(type)
        var codes: [String]?
        var rewards: [String]?
        var productSelectors: [ProductSelector]?
        var targetSelectors: [ProductSelector]?
        // `targets` as selectors (a <dict>, or an <array> of them) rather than codes, valid or not.
        let targetsBySelector = self[.targets].map(Self.isSelectors) ?? false
        var rewardsValid = true
        var productsValid = true
        switch type.scope {
        case .cart:
            codes = []
            if let value = self[.products] {
                productSelectors = selectors(value, key: "products")
                productsValid = productSelectors != nil
            }
        case .line, .group:
            if let value = self[.products] {
                // Exactly one of `code`, `codes`, `products`.
                if let other = [PromotionKey.code, .codes].first(where: { self[$0] != nil }) {
                    let later = keyElement(other).location > keyElement(.products).location ? other : .products
                    reject(later, "give `code`, `codes` or `products`, not several; remove one")
                    productsValid = false
                } else {
                    productSelectors = selectors(value, key: "products")
                    productsValid = productSelectors != nil
                    codes = []
                }
            } else {
                codes = targets(required: true)
            }
            if let value = self[.targets], type.kind.keys.contains(.targets) {
                if targetsBySelector {
                    targetSelectors = selectors(value, key: "targets")
                    rewardsValid = targetSelectors != nil
                } else {
                    // With selectors, a product in both counts as one of its products only
                    // (docs/selectors.md); two code lists may not share a code.
                    rewards = rewardTargets(codes: productSelectors == nil ? codes ?? [] : [])
                    rewardsValid = rewards != nil
                }
            }
        }
        let customerGroups = customerGroups()
        let uses = optionalCount(.uses, what: "the most orders that may redeem the promotion")
        let usesPerCustomer = optionalCount(
            .usesPerCustomer, what: "the most orders of one customer that may redeem the promotion")
        // Product checks need readable targets; the no-discount one a valid rule too.
        if codes != nil, let targets = self[.code] ?? self[.codes], let products = context.products {
            // Targets given by a selector are no codes: their selection is checked with the
            // selectors (docs/selectors.md), and there are no list prices of theirs to compare here.
            let rewards: ProductCheckRewards =
                targetsBySelector ? .selected(targetSelectors) : rewardsValid ? .codes(self[.targets]) : .codes(nil)
            checkProducts(rule: rule, targets: targets, rewards: rewards, products: products)
        } else if let productSelectors, let rule, rewardsValid {
            checkSelectedProducts(rule: rule, productSelectors, targets: targetSelectors, targetCodes: rewards)
        }
        guard errors == 0, let name, let rule, let codes, let priority, let enabled, rewardsValid, productsValid,
            let uses, let usesPerCustomer
        else { return nil }
        // Built in one piece: setting the v3 fields afterwards copied the promotion.
        return Promotion(
            id: identity?.id ?? name, name: name, rule: rule, codes: codes, targets: rewards, start: start, end: end,
            priority: priority, isEnabled: enabled, coupon: coupon, productSelectors: productSelectors,
            targetSelectors: targetSelectors, customerGroups: customerGroups, uses: uses,
            usesPerCustomer: usesPerCustomer)
    }

    // MARK: Type and rule

    mutating func decodeType() -> PromotionType? {
        guard
            let text = requiredString(
                .type, needed: "`type` is one of " + PromotionType.allCases.map(\.rawValue).joined(separator: ", "))
        else {
            return nil
        }
        guard let type = PromotionType(name: text) else {
            report(.unknownType(text, at: self[.type]!.location, promotion: promotionID))
            return nil
        }
        return type
    }

    /// The kind's own keys, read by the kind.
    mutating func decodeRule(_ type: PromotionType) -> Promotion.Rule? {
        Promotion.Rule.decode(type, &self)
    }

    // MARK: Targets

    /// The target codes: exactly one of `code` (a string) and `codes` (a non-empty array of strings).
    mutating func targets(required: Bool) -> [String]? {
        switch (self[.code], self[.codes]) {
        case (nil, nil):
            if required {
                report(
                    .missingKey(
                        "key `code`, `codes` or `products`", needed: "say which products the promotion applies to",
                        at: dict.location, promotion: promotionID))
            }
            return nil
        case (.some, .some):
            let later = keyElement(.code).location > keyElement(.codes).location ? self[.code]! : self[.codes]!
            invalid(.codeAndCodes, later)
            return nil
        case (.some, nil):
            return string(.code).map { [$0] }
        case (nil, let list?):
            guard list.kind == .array else {
                invalid(.notAnArrayOfStrings(key: "codes", list.kind), list)
                return nil
            }
            var codes: [String] = []
            codes.reserveCapacity(list.children.count)
            var valid = true
            for element in list.children {
                guard element.kind == .string else {
                    invalid(.elementNotAString(key: "codes", element.kind), element)
                    valid = false
                    continue
                }
                let code = element.text
                if code.isEmpty {
                    invalid(.emptyCode(key: "codes"), element)
                    valid = false
                }
                codes.append(code)
            }
            if codes.isEmpty, valid {
                invalid(.emptyList(key: "codes"), list)
                return nil
            }
            return valid ? codes : nil
        }
    }

    /// `targets` (kinds that reward other products): a non-empty array of non-empty strings, none of
    /// them also a target code.
    mutating func rewardTargets(codes: [String]) -> [String]? {
        guard let list = self[.targets] else { return nil }
        guard list.kind == .array else {
            invalid(.notAnArrayOfStrings(key: "targets", list.kind), list)
            return nil
        }
        var rewards: [String] = []
        var valid = true
        for element in list.children {
            guard element.kind == .string, !element.text.isEmpty else {
                invalid(
                    element.kind == .string
                        ? .emptyCode(key: "targets") : .elementNotAString(key: "targets", element.kind), element)
                valid = false
                continue
            }
            if codes.contains(element.text) {
                invalid(.boughtAndRewarded(code: element.text), element)
                valid = false
            }
            rewards.append(element.text)
        }
        if rewards.isEmpty, valid {
            invalid(.emptyList(key: "targets"), list)
            return nil
        }
        return valid ? rewards : nil
    }

    /// With a catalog: codes it lacks, and products the promotion can never make cheaper.
    mutating func checkProducts(
        rule: Promotion.Rule?, targets: PlistValue, rewards: ProductCheckRewards, products checks: ProductChecks
    ) {
        let catalog = checks.catalog
        let lookup = checks.codeLookup
        let digits = catalog.currency.minorDigits
        /// A catalog product a promotion names: where, by which code, its list price and its id.
        typealias Listed = (location: SourceLocation, code: String, price: Int64, id: Int32)
        /// The catalog's products among `value`'s codes, each with where it is, its list price and its id
        /// (each code looked up once); the others are reported: `value`'s elements when it is an
        /// array, else `value` alone.
        func listPrices(_ value: PlistValue) -> [Listed] {
            var found: [Listed] = []
            func look(_ element: PlistValue) {
                // By the text's bytes: no string is made for a code the catalog has byte for byte
                // (its own code is that text).
                guard let (id, sameBytes) = element.withTextBytes({ lookup.productID(utf8: $0) }) else {
                    report(.unknownCodeToAnswer(at: element.location, promotion: promotionID))
                    unanswered.append((diagnostics.count - 1, element.text))
                    return
                }
                let code = sameBytes ? catalog.products[id].code : element.text
                // Room for the codes most promotions name once one is found (growing one at a time
                // reallocated twice; a promotion whose codes are all unknown allocates nothing).
                if found.capacity == 0 { found.reserveCapacity(8) }
                found.append((location: element.location, code: code, price: catalog.products[id].price, id: Int32(id)))
            }
            if value.kind == .array {
                for element in value.children { look(element) }
            } else {
                look(value)
            }
            return found
        }
        func shown(_ prices: [Listed]) -> [(code: String, price: Int64)] {
            prices.map { (code: $0.code.escapedForDisplay, price: $0.price) }
        }
        let targetPrices = listPrices(targets)
        let rewardPrices: [Listed]?
        switch rewards {
        case .codes(let value): rewardPrices = value.map(listPrices)
        case .selected(nil): rewardPrices = []
        case .selected(let selectors?):
            // The dearest product the targets select that is none of the promotion's own: what a
            // kind's reward check asks of every reward holds for all when it holds for that one.
            let own = targetPrices.map(\.id)
            let dearest = catalogIndex.dearestReward(.selected(selectors), own: .ids(own), in: catalog)
            checkRewardsLeft(dearest, targetsSelectSome: catalogIndex.selected(selectors, in: catalog).count > 0)
            rewardPrices =
                dearest < 0
                ? []
                : [
                    (
                        location: targets.location, code: catalog.products[Int(dearest)].code,
                        price: catalog.products[Int(dearest)].price, id: dearest
                    )
                ]
        }
        guard let rule else { return }
        let products = shown(targetPrices)
        let context = NoDiscountContext(
            products: products, rewards: rewardPrices.map(shown) ?? products, minorDigits: digits)
        for finding in rule.kind.noDiscountFindings(context) {
            let location =
                switch finding.site {
                case .key(let key): self[key]!.location
                case .product(let index): targetPrices[index].location
                }
            report(.noDiscount(finding.message, at: location, promotion: promotionID))
        }
    }

    // MARK: Typed values

    mutating func expect(_ key: PromotionKey, _ kinds: [PlistKind], _ what: String) -> PlistValue? {
        guard let value = self[key] else { return nil }
        guard kinds.contains(value.kind) else {
            invalid(.wrongType(key: key.text, expected: what, value.kind), value)
            return nil
        }
        return value
    }

    mutating func requiredString(_ key: PromotionKey, needed: @autoclosure () -> String) -> String? {
        guard self[key] != nil else {
            report(.missingKey("key `\(key.text)`", needed: needed(), at: dict.location, promotion: promotionID))
            return nil
        }
        return string(key)
    }

    mutating func string(_ key: PromotionKey) -> String? {
        guard let value = expect(key, [.string], "a <string>") else { return nil }
        let text = value.text
        if text.isEmpty {
            invalid(.empty(key: key.text), value)
            return nil
        }
        return text
    }

    mutating func integer(_ key: PromotionKey) -> Int64? {
        guard let value = expect(key, [.integer], "an <integer>") else { return nil }
        switch value.withTextBytes(Amount.parseInteger) {
        case .success(let number): return number
        case .failure(.outOfRange): invalid(.integerOutOfRange(key: key.text, value.text.trimmed), value)
        case .failure: invalid(.notAWholeNumber(key: key.text, value.text.trimmed), value)
        }
        return nil
    }

    mutating func bool(_ key: PromotionKey) -> Bool? {
        guard let value = expect(key, [.true, .false], "<true/> or <false/>") else { return nil }
        return value.kind == .true
    }

    mutating func date(_ key: PromotionKey) -> Instant? {
        guard let value = expect(key, [.date], "a <date>") else { return nil }
        let parsed = value.withTextBytes { bytes in
            Result<Instant, Instant.ParseError> { () throws(Instant.ParseError) in
                try Instant(rfc3339: trimmedBytes(bytes))
            }
        }
        switch parsed {
        case .success(let instant):
            return instant
        case .failure(let error):
            invalid(.badDate(key: key.text, error.description), value)
            return nil
        }
    }

    /// Money in the context's currency: exact, a whole number of minor units, within bounds.
    mutating func money(_ key: PromotionKey, minimum: Int64? = nil, positive: Bool = false) -> Int64? {
        guard let value = expect(key, [.real, .integer, .string], "an amount (<real>, <integer> or <string>)") else {
            return nil
        }
        let currency = context.currency
        let parsed = value.withTextBytes { Amount.parse($0, minorDigits: currency.minorDigits) }
        if case .success(let amount) = parsed, amount > 0 || (!positive && amount >= (minimum ?? .min)) {
            return amount
        }
        let text = value.text.trimmed
        switch parsed {
        case .success(let amount):
            if positive, amount <= 0 {
                invalid(.notPositive(key: key.text, text), value)
                return nil
            }
            if let minimum, amount < minimum {
                invalid(.negative(key: key.text, text), value)
                return nil
            }
            return amount
        case .failure(.notWholeMinorUnits):
            invalid(.notWholeMinorUnits(key: key.text, text, currency), value)
        case .failure(.outOfRange):
            invalid(.amountOutOfRange(key: key.text, text, currency), value)
        case .failure(.notANumber):
            invalid(.notAnAmount(key: key.text, text), value)
        }
        return nil
    }

    /// `percent`: a <real> or <integer>, a multiple of 0.01 in (0, 100], as hundredths of a percent.
    mutating func percentage() -> Int64? {
        guard let value = expect(.percent, [.real, .integer], "a <real> or <integer>") else { return nil }
        let parsed = value.withTextBytes { Amount.parse($0, minorDigits: 2) }
        if case .success(let hundredths) = parsed, hundredths > 0, hundredths <= 10_000 { return hundredths }
        let text = value.text.trimmed
        switch parsed {
        case .success, .failure(.outOfRange):
            invalid(.percentOutOfRange(text), value)
        case .failure(.notWholeMinorUnits):
            invalid(.percentNotHundredths(text), value)
        case .failure(.notANumber):
            invalid(.percentNotANumber(text), value)
        }
        return nil
    }
}

extension String {
    /// Without surrounding XML whitespace (space, tab, CR, LF).
    var trimmed: String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(scalars[first...last])
    }
}

/// `bytes` without surrounding XML whitespace.
func trimmedBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0
    var end = bytes.count
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
}

/// What a promotion's product checks take as the products it rewards: its `targets` codes (nil:
/// none given, or unreadable — its own products then), or selectors (nil: not valid, no rewards
/// to compare).
enum ProductCheckRewards {
    case codes(PlistValue?)
    case selected([ProductSelector]?)
}
