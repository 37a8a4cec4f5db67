import Pricing
import Suggestions

extension CartStore {
    /// Adds `quantity` units of the product of `catalog` with `code`, and returns that product.
    /// Nothing is stored when the code is not the catalog's or the quantity is out of range: the
    /// checks of every cart (``CartBuilder``).
    @discardableResult
    public func add(_ code: String, quantity: Int64, from catalog: Catalog) throws -> Product {
        var check = CartBuilder(catalog: catalog, suggestions: CodeSuggestions.suggester)
        try check.add(code, quantity: quantity)
        try add(code, quantity: quantity)
        return catalog[try check.product(code)]
    }
}
