import PlistReader
import Pricing
import Suggestions

/// The keys of a selector `<dict>` (docs/selectors.md), in the order messages list them.
enum SelectorKey: String, CaseIterable {
    case codes, categories, brands, tags
    case excludeCodes = "exclude_codes"
    case excludeCategories = "exclude_categories"
    case excludeBrands = "exclude_brands"
    case excludeTags = "exclude_tags"

    static let allTexts = allCases.map(\.rawValue)

    /// Whether a product that passes the key's test is left out.
    var excludes: Bool {
        switch self {
        case .excludeCodes, .excludeCategories, .excludeBrands, .excludeTags: true
        case .codes, .categories, .brands, .tags: false
        }
    }
}

extension Decoding {
    /// Whether `value` (a `targets`) is written as selectors — a `<dict>`, or an `<array>` whose first
    /// element is one — rather than as an array of codes.
    static func isSelectors(_ value: PlistValue) -> Bool {
        value.kind == .dict
            || (value.kind == .array && value.children.contains { _ in true }
                && value.children.allSatisfy { $0.kind == .dict })
    }

    /// The selectors `value` holds: one `<dict>`, or a non-empty `<array>` of them; nil (reported)
    /// when any is not valid. `key` names it in messages.
    mutating func selectors(_ value: PlistValue, key: String) -> [ProductSelector]? {
        switch value.kind {
        case .dict:
            guard let selector = selector(value, key: key) else { return nil }
            checkSelects([selector], value, key: key)
            return [selector]
        case .array:
            guard !value.children.isEmpty else {
                reject(value, "`\(key)` must hold at least one selector <dict>; an empty <array> selects nothing")
                return nil
            }
            var selectors: [ProductSelector] = []
            var valid = true
            for element in value.children {
                guard element.kind == .dict else {
                    reject(element, "each selector of `\(key)` must be a <dict>, not a <\(element.kind)>")
                    valid = false
                    continue
                }
                if let selector = selector(element, key: key) { selectors.append(selector) } else { valid = false }
            }
            guard valid else { return nil }
            checkSelects(selectors, value, key: key)
            return selectors
        default:
            reject(
                value, "`\(key)` must be a selector <dict> (or an <array> of them), not a <\(value.kind)>")
            return nil
        }
    }

    /// One selector `<dict>`: known keys only (a typo would widen the promotion), each a non-empty
    /// `<array>` of non-empty `<string>`s; category paths with no empty name.
    private mutating func selector(_ dict: PlistValue, key: String) -> ProductSelector? {
        var selector = ProductSelector()
        var valid = true
        var seen: [SelectorKey: SourceLocation] = [:]
        for (name, value) in dict.entries {
            guard let known = SelectorKey(rawValue: name.text) else {
                let hint =
                    closestMatch(to: name.text, in: SelectorKey.allTexts).map { "; did you mean `\($0)`?" }
                    ?? "; a selector takes " + SelectorKey.allTexts.map { "`\($0)`" }.joined(separator: ", ")
                reject(
                    name,
                    "unknown selector key `\(name.text.escapedForDisplay)` in `\(key)`: it would select more than meant\(hint)"
                )
                valid = false
                continue
            }
            if let first = seen[known] {
                report(.duplicateKey(known.rawValue, first: first, at: name.location, promotion: promotionID))
                continue
            }
            seen[known] = name.location
            guard let strings = strings(value, key: known.rawValue) else {
                valid = false
                continue
            }
            checkValues(known, value)
            switch known {
            case .codes: selector.codes = strings
            case .brands: selector.brands = strings
            case .tags: selector.tags = strings
            case .excludeCodes: selector.excludeCodes = strings
            case .excludeBrands: selector.excludeBrands = strings
            case .excludeTags: selector.excludeTags = strings
            case .categories, .excludeCategories:
                var paths: [[String]] = []
                var seen: Set<[ExactText]> = []  // byte for byte; a set, so that n paths take n lookups
                for (text, element) in zip(strings, value.children) {
                    guard let path = Self.categoryPath(text) else {
                        reject(
                            element,
                            "the category path \"\(text.escapedForDisplay)\" has an empty name; write names separated by `>`, such as \"Clothing > Shirts\""
                        )
                        valid = false
                        continue
                    }
                    if seen.insert(path.map { ExactText($0) }).inserted { paths.append(path) }
                }
                if known == .categories { selector.categories = paths } else { selector.excludeCategories = paths }
            }
        }
        return valid ? selector : nil
    }

    /// With a catalog: `promotion.selects-nothing` when `selectors` select no product of it.
    private mutating func checkSelects(_ selectors: [ProductSelector], _ value: PlistValue, key: String) {
        guard let catalog = context.productCatalog else { return }
        if catalogIndex.selected(selectors, in: catalog).count == 0 {
            report(.selectsNothing(key, at: value.location, promotion: promotionID))
        }
    }

    /// With a catalog: a selector's codes the catalog lacks (`promotion.unknown-code`, a warning
    /// here: the selector still selects the others), and categories, brands and tags no product has
    /// (`promotion.unknown-attribute`, with the closest of the catalog's values).
    private mutating func checkValues(_ key: SelectorKey, _ list: PlistValue) {
        guard let catalog = context.productCatalog else { return }
        let index = catalogIndex.index(of: catalog)
        // Repeated values count once (docs/selectors.md), and unknown ones are reported once: byte
        // for byte, as values compare (a String set would take two spellings of one text for one).
        // A value is its names: a category's trimmed names, any other value's text.
        var reported: Set<[ExactText]> = []
        for element in list.children where element.kind == .string {
            let text = element.text
            switch key {
            case .codes, .excludeCodes:
                // Byte for byte: the catalog's table also finds a code spelt with equivalent Unicode.
                if element.withTextBytes({ catalog.productID(utf8: $0) })?.sameBytes == true { continue }
                guard reported.insert([ExactText(text)]).inserted else { continue }
                var diagnostic = Diagnostic.unknownCodeToAnswer(at: element.location, promotion: promotionID)
                diagnostic.severity = .warning
                report(diagnostic)
                unanswered.append((diagnostics.count - 1, text))
            case .categories, .excludeCategories, .brands, .excludeBrands, .tags, .excludeTags:
                // The attribute, whether the catalog has it, and what makes two values one: a
                // category's trimmed names.
                let what: String
                let shown: String
                let same: [String]
                switch key {
                case .categories, .excludeCategories:
                    guard let path = Self.categoryPath(text), !index.hasCategory(path) else { continue }
                    (what, shown, same) = ("category", path.joined(separator: " > "), path)
                case .brands, .excludeBrands:
                    guard !index.hasBrand(text) else { continue }
                    (what, shown, same) = ("brand", text, [text])
                default:
                    guard !index.hasTag(text) else { continue }
                    (what, shown, same) = ("tag", text, [text])
                }
                // Reported once, before any candidate is gathered: 20,000 repeats of ten unknown
                // categories gathered the catalog's paths 20,000 times (21 s).
                guard reported.insert(same.map { ExactText($0) }).inserted else { continue }
                let kind: PromotionDecoder.CatalogIndexCache.SuggestionKind
                switch key {
                case .categories, .excludeCategories:
                    kind = .categories(depths: CatalogIndex.suggestedDepths(near: same.count))
                case .brands, .excludeBrands: kind = .brands
                default: kind = .tags
                }
                report(
                    .unknownAttribute(
                        what, text, excluding: key.excludes,
                        suggestion: catalogIndex.suggestion(kind, for: shown, in: catalog),
                        at: element.location, promotion: promotionID))
            }
        }
    }

    /// A non-empty `<array>` of non-empty `<string>`s, repeats counted once.
    private mutating func strings(_ value: PlistValue, key: String) -> [String]? {
        guard value.kind == .array else {
            reject(value, "`\(key)` must be an <array> of <string>s, not a <\(value.kind)>")
            return nil
        }
        guard !value.children.isEmpty else {
            reject(value, "`\(key)` must list at least one value")
            return nil
        }
        var strings: [String] = []
        var valid = true
        for element in value.children {
            guard element.kind == .string, !element.text.isEmpty else {
                reject(
                    element,
                    element.kind == .string
                        ? "a value of `\(key)` must not be empty"
                        : "each of `\(key)` must be a <string>, not a <\(element.kind)>")
                valid = false
                continue
            }
            // Kept in place (one per element) so that paths line up with their elements; repeats
            // are dropped where the values are used.
            strings.append(element.text)
        }
        guard valid else { return nil }
        return key.hasSuffix("categories") ? strings : Self.unique(strings)
    }

    /// Repeats dropped byte for byte, as selectors and customer groups compare (docs/selectors.md): a
    /// value spelt with other but equivalent Unicode is another value, and stays.
    static func unique(_ values: [String]) -> [String] {
        var seen: Set<[UInt8]> = []
        return values.filter { seen.insert(Array($0.utf8)).inserted }
    }

    /// "Clothing > Shirts" → ["Clothing", "Shirts"]: names separated by `>`, each trimmed of spaces
    /// and tabs; nil when a name is empty. Exactly as the catalog reads a product's path (by bytes,
    /// so that a `>` or a space followed by a combining mark splits and trims alike on both sides).
    static func categoryPath(_ text: String) -> [String]? { Product.categoryPath(text) }

    /// `customer_groups`: a non-empty `<array>` of non-empty `<string>`s.
    mutating func customerGroups() -> [String]? {
        guard let value = self[.customerGroups] else { return nil }
        return strings(value, key: "customer_groups")
    }

    /// Reports `promotion.invalid-value` at `value`.
    mutating func reject(_ value: PlistValue, _ message: String) {
        report(Diagnostic(.invalidValue, message, at: value.location, promotion: promotionID))
    }
}

extension Decoding {
    /// With a catalog, a promotion whose `products` are selectors (docs/selectors.md):
    /// `promotion.no-discount` when it can lower the price of none of the products it selects.
    /// Its kind's check is asked of the dearest product it selects (and the dearest it could
    /// reward): what keeps a kind from lowering a dearer product's price keeps it from lowering
    /// every cheaper one's, so this is the check a list of codes gets, asked of them all, said once.
    /// `targets` or `targetCodes`: a `bxgy`'s rewards, when given.
    mutating func checkSelectedProducts(
        rule: Promotion.Rule, _ selectors: [ProductSelector], targets: [ProductSelector]?, targetCodes: [String]?
    ) {
        guard let catalog = context.productCatalog, let value = self[.products] else { return }
        let selected = catalogIndex.selected(selectors, in: catalog)
        // A selector that selects nothing has its own warning.
        guard let dearestProduct = selected.dearest.first else { return }
        func shown(_ id: Int32) -> (code: String, price: Int64) {
            (code: catalog.products[Int(id)].code.escapedForDisplay, price: catalog.products[Int(id)].price)
        }
        let products = [shown(dearestProduct)]
        var rewards = products
        if let targets {
            let dearest = catalogIndex.dearestReward(.selected(targets), own: .selected(selectors), in: catalog)
            rewards = dearest < 0 ? [] : [shown(dearest)]
            checkRewardsLeft(dearest, targetsSelectSome: catalogIndex.selected(targets, in: catalog).count > 0)
        } else if targetCodes != nil, let list = self[.targets] {
            // Codes as targets, found as pricing finds them (the catalog's table); a code it lacks is
            // reported as in a list of codes.
            var ids: [Int32] = []
            for element in list.children where element.kind == .string {
                if let (id, _) = element.withTextBytes({ catalog.productID(utf8: $0) }) {
                    ids.append(Int32(id))
                } else {
                    report(.unknownCodeToAnswer(at: element.location, promotion: promotionID))
                    unanswered.append((diagnostics.count - 1, element.text))
                }
            }
            let dearest = catalogIndex.dearestReward(.ids(ids), own: .selected(selectors), in: catalog)
            rewards = dearest < 0 ? [] : [shown(dearest)]
            checkRewardsLeft(dearest, targetsSelectSome: !ids.isEmpty)
        }
        let context = NoDiscountContext(
            products: products, rewards: rewards, minorDigits: catalog.currency.minorDigits, selected: selected.count)
        for finding in rule.kind.noDiscountFindings(context) {
            let location =
                switch finding.site {
                case .key(let key): self[key]!.location
                case .product: value.location
                }
            report(.noDiscount(finding.message, at: location, promotion: promotionID))
        }
    }
}

extension Decoding {
    /// With a catalog: `promotion.selects-nothing` at `targets` when they name products of the
    /// catalog (`targetsSelectSome`) but none that is not also one of the promotion's own
    /// (`dearest`: the dearest that is not, or -1). Targets that select nothing at all have their
    /// warning already.
    mutating func checkRewardsLeft(_ dearest: Int32, targetsSelectSome: Bool) {
        guard dearest < 0, targetsSelectSome, let value = self[.targets] else { return }
        report(.targetsOnlyOwnProducts(at: value.location, promotion: promotionID))
    }
}
