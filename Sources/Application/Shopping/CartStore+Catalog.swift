import Pricing
import Suggestions

extension CartStore {
    /// Adds `quantity` units of the product of `catalog` with `code`, and returns that product.
    /// The cart keeps the catalog's spelling of the code, so that canonically equivalent spellings
    /// (NFC and NFD) make one line. Nothing is stored when the code is not the catalog's or the
    /// quantity is out of range: the checks of every cart (``CartBuilder``).
    @discardableResult
    public func add(_ code: String, quantity: Int64, from catalog: Catalog) throws -> Product {
        var check = CartBuilder(catalog: catalog, suggestions: CodeSuggestions.suggester)
        try check.add(code, quantity: quantity)
        let id = try check.product(code)
        let product = catalog[id]
        // A cart whose subtotal would not fit could not be shown or paid: refused here, where the
        // message can say what was being added (another process adding at the same moment could
        // still take it past; `cart show` then says to remove units).
        if Self.subtotalOverflows(try entries(), adding: quantity, of: id, in: catalog) {
            throw CartTotalTooLarge(code: product.code, adding: quantity, currency: catalog.currency)
        }
        try add(product.code, quantity: quantity)
        return product
    }

    /// Whether Σ quantity × price of `entries`, with `quantity` more of `product`, overflows
    /// (products no longer in the catalog left out, as pricing leaves nothing out: it refuses them)
    /// — or, with prices that exclude tax, would with its tax added (docs/taxes.md: per rate, on
    /// the lines' sums before any discount; a discount only lowers a rate's sum, and so its tax).
    static func subtotalOverflows(
        _ entries: [CartEntry], adding quantity: Int64, of product: ProductID, in catalog: Catalog
    ) -> Bool {
        var subtotal = Int64(0)
        var byRate: [Int64: Int64] = [:]  // with prices that exclude tax: each rate's sum
        let taxedOnTop = catalog.isTaxed && !catalog.pricesIncludeTax
        var added = false
        func add(_ id: ProductID, _ units: Int64) -> Bool {
            let line = catalog[id].price.multipliedReportingOverflow(by: units)
            let sum = subtotal.addingReportingOverflow(line.partialValue)
            subtotal = sum.partialValue
            guard !line.overflow, !sum.overflow else { return false }
            // Each rate's sum is at most the subtotal, which fits.
            if taxedOnTop { byRate[catalog[id].taxRate ?? 0, default: 0] += line.partialValue }
            return true
        }
        for entry in entries {
            guard let id = catalog.productID(for: entry.code) else { continue }
            var units = entry.quantity
            if id == product {
                units = units.addingReportingOverflow(quantity).partialValue
                added = true
            }
            guard add(id, units) else { return true }
        }
        if !added, !add(product, quantity) { return true }
        let tax = byRate.reduce(Int128(0)) { tax, rate in
            tax + Int128(TaxAmount(rate: rate.key, total: rate.value, pricesIncludeTax: false).tax)
        }
        return Int128(subtotal) + tax > Int128(Int64.max)
    }

    /// Removes units of a product given in any spelling the catalog knows it by (the code as
    /// given when the catalog does not know it, for a product that left the catalog). Returns the
    /// code as the cart spells it, and how many units the cart held, or nil when it held none.
    public func remove(_ code: String, quantity: Int64?, from catalog: Catalog) throws -> (code: String, held: Int64)? {
        let spelled = catalog.productID(for: code).map { catalog[$0].code } ?? code
        let entries = try entries()
        guard let entry = entries.first(where: { $0.code == spelled }) ?? entries.first(where: { $0.code == code }),
            try remove(entry.code, quantity: quantity)
        else { return nil }
        return (entry.code, entry.quantity)
    }
}
