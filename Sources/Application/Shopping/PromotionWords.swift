import Pricing

/// Promotions in the shoppers' words: "2 for 1", "3 or more: 19.00 € each", "12.5% off". A
/// promotion's coupon is never shown (coupons can be secret): "with a coupon". The product codes
/// the words name are escaped for display (`String.forDisplay`), as names are.
public enum PromotionWords {
    /// `code`: the product the words are shown with; a product a promotion rewards reads as the
    /// reward ("1 free with every 1 TSHIRT bought"), not as the offer on what triggers it.
    public static func describe(_ promotion: Promotion, currency: Currency, for code: String? = nil) -> String {
        let part = promotion.rule.isCartRule ? promotion.productSelectors.map(Self.products) : nil
        var words = promotion.rule.kind.words(
            PromotionKindWords(
                money: MoneyStyle(currency: currency), codes: promotion.codes.map { $0.forDisplay() },
                rewards: promotion.targets?.map { $0.forDisplay() }, shownWith: code?.forDisplay(), part: part))
        if promotion.coupon != nil { words += " with a coupon" }
        return words
    }

    /// The products `selectors` take, in words (docs/selectors.md): "products in Clothing not tagged
    /// sale", "TSHIRT or CAP", several selectors joined by "or".
    static func products(_ selectors: [ProductSelector]) -> String {
        func list(_ values: [String]) -> String { values.map { $0.forDisplay() }.joined(separator: " or ") }
        func paths(_ paths: [[String]]) -> String { list(paths.map { $0.joined(separator: " > ") }) }
        return selectors.map { selector in
            var words: [String] = []
            if let codes = selector.codes { words.append(list(codes)) } else { words.append("products") }
            if let categories = selector.categories { words.append("in " + paths(categories)) }
            if let brands = selector.brands { words.append("of brand " + list(brands)) }
            if let tags = selector.tags { words.append("tagged " + list(tags)) }
            if let codes = selector.excludeCodes { words.append("except " + list(codes)) }
            if let categories = selector.excludeCategories { words.append("not in " + paths(categories)) }
            if let brands = selector.excludeBrands { words.append("not of brand " + list(brands)) }
            if let tags = selector.excludeTags { words.append("not tagged " + list(tags)) }
            return words.joined(separator: " ")
        }.joined(separator: ", or ")
    }

    /// The promotions that can apply to `code` at `instant`, in file order; with `open`, only those
    /// it says the shopper may get (``CheckoutService/openPromotions()``).
    public static func active(
        for code: String, in rules: RuleSet, at instant: Instant, open: (Int) -> Bool = { _ in true }
    ) -> [Promotion] {
        guard let product = rules.catalog.productID(for: code) else { return [] }
        return rules.promotions.indices.filter { index in
            let promotion = rules.promotions[index]
            return promotion.isEnabled && promotion.isActive(at: instant) && !promotion.rule.isCartRule
                && rules.products.concerns(index, product) && open(index)
        }.map { rules.promotions[$0] }
    }

    /// The cart promotions that can apply at `instant`; with `open`, only those it says the shopper
    /// may get.
    public static func activeCartPromotions(
        in rules: RuleSet, at instant: Instant, open: (Int) -> Bool = { _ in true }
    ) -> [Promotion] {
        rules.promotions.indices.filter { index in
            let promotion = rules.promotions[index]
            return promotion.isEnabled && promotion.isActive(at: instant) && promotion.rule.isCartRule && open(index)
        }.map { rules.promotions[$0] }
    }
}
