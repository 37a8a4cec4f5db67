import Pricing

/// Why units of a product cannot be added to the cart.
public enum CartAdditionError: Error, Sendable, Equatable {
    /// No product of the catalog has this code.
    case unknownProduct(code: String)
    /// Outside ``Cart/itemQuantities``.
    case quantityOutOfRange(Int64)
}

extension CartStore {
    /// Adds `quantity` units of the product of `catalog` with `code`, and returns that product.
    /// Nothing is stored when the code is not the catalog's or the quantity is out of range.
    @discardableResult
    public func add(_ code: String, quantity: Int64, from catalog: Catalog) throws -> Product {
        guard let id = catalog.productID(for: code) else { throw CartAdditionError.unknownProduct(code: code) }
        guard Cart.itemQuantities.contains(quantity) else { throw CartAdditionError.quantityOutOfRange(quantity) }
        try add(code, quantity: quantity)
        return catalog[id]
    }
}
