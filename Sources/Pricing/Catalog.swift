/// A product that can be sold: its code (as scanned), the name shown to shoppers and its list price.
public struct Product: Sendable, Equatable {
    public var code: String
    public var name: String
    /// List price in minor units of the catalog's currency, ≥ 0.
    public var price: Int64

    public init(code: String, name: String, price: Int64) {
        self.code = code
        self.name = name
        self.price = price
    }
}

/// A product's position in its catalog: the dense integer every later stage uses instead of the code.
public typealias ProductID = Int

/// The products on sale, in one currency. Codes are unique and case-sensitive.
public struct Catalog: Sendable {
    public let currency: Currency
    public let products: [Product]
    private let ids: [String: ProductID]

    /// Why products cannot form a catalog. `index` is the product's position in the list.
    public enum Problem: Error, Equatable, Sendable {
        case emptyCode(index: Int)
        case duplicateCode(String, index: Int, firstIndex: Int)
        case negativePrice(String, index: Int)
    }

    public init(currency: Currency = .euro, products: [Product]) throws(Problem) {
        var ids: [String: ProductID] = [:]
        ids.reserveCapacity(products.count)
        for (index, product) in products.enumerated() {
            guard !product.code.isEmpty else { throw .emptyCode(index: index) }
            guard product.price >= 0 else { throw .negativePrice(product.code, index: index) }
            if let first = ids.updateValue(index, forKey: product.code) {
                throw .duplicateCode(product.code, index: index, firstIndex: first)
            }
        }
        self.currency = currency
        self.products = products
        self.ids = ids
    }

    /// The id of the product with this exact code.
    public func productID(for code: String) -> ProductID? { ids[code] }

    public subscript(id: ProductID) -> Product { products[id] }
}

extension Catalog.Problem: CustomStringConvertible {
    public var description: String {
        switch self {
        case .emptyCode(let index): "products[\(index)]: the code is empty"
        case .duplicateCode(let code, let index, let first):
            "products[\(index)]: the code \"\(code)\" is already used by products[\(first)]; codes must be unique"
        case .negativePrice(let code, let index):
            "products[\(index)] (\"\(code)\"): the price is negative; prices must be ≥ 0"
        }
    }
}
