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
    private let ids: CodeIndex

    /// Why products cannot form a catalog. `index` is the product's position in the list.
    public enum Problem: Error, Equatable, Sendable {
        case emptyCode(index: Int)
        case duplicateCode(String, index: Int, firstIndex: Int)
        case negativePrice(String, index: Int)
    }

    public init(currency: Currency = .euro, products: [Product]) throws(Problem) {
        // The first problem in catalog order: an empty code or a negative price, or a code that
        // repeats an earlier one.
        let bad = products.firstIndex { $0.code.isEmpty || $0.price < 0 }
        let (ids, duplicate) = CodeIndex.build(products)
        if let duplicate, duplicate.index < bad ?? .max {
            throw .duplicateCode(products[duplicate.index].code, index: duplicate.index, firstIndex: duplicate.first)
        }
        if let bad {
            throw products[bad].code.isEmpty ? .emptyCode(index: bad) : .negativePrice(products[bad].code, index: bad)
        }
        self.currency = currency
        self.products = products
        self.ids = ids
    }

    /// The id of the product with this exact code.
    public func productID(for code: String) -> ProductID? { ids.position(of: code, in: products) }

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
