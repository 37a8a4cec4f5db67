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
        let product = catalog[try check.product(code)]
        try add(product.code, quantity: quantity)
        return product
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
