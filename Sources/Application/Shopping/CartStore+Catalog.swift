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
    /// — or, with prices that exclude tax, could with the tax added (at the catalog's highest rate,
    /// before any discount: the bound is safe, not tight).
    static func subtotalOverflows(
        _ entries: [CartEntry], adding quantity: Int64, of product: ProductID, in catalog: Catalog
    ) -> Bool {
        var subtotal = Int64(0)
        var added = false
        func add(_ price: Int64, _ units: Int64) -> Bool {
            let line = price.multipliedReportingOverflow(by: units)
            let sum = subtotal.addingReportingOverflow(line.partialValue)
            subtotal = sum.partialValue
            return !line.overflow && !sum.overflow
        }
        for entry in entries {
            guard let id = catalog.productID(for: entry.code) else { continue }
            var units = entry.quantity
            if id == product {
                units = units.addingReportingOverflow(quantity).partialValue
                added = true
            }
            guard add(catalog[id].price, units) else { return true }
        }
        if !added, !add(catalog[product].price, quantity) { return true }
        guard catalog.isTaxed, !catalog.pricesIncludeTax, let rate = catalog.taxRates.max() else { return false }
        // Each rate's tax rounds by at most half a minor unit: one more per rate covers it.
        let withTax = Int128(subtotal) * Int128(10_000 + rate) / 10_000 + Int128(catalog.taxRates.count)
        return withTax > Int128(Int64.max)
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
