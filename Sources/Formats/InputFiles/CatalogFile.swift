import Pricing
import StrictJSON

/// Reads catalogs: the fast scanner (``CatalogScanner``) for the shapes catalogs have, the tree
/// reader as the reference, which reads the rest and words every message.
public struct CatalogReader: DocumentReader {
    public init() {}

    public mutating func scanDocument(_ bytes: UnsafeBufferPointer<UInt8>) -> Catalog? {
        CatalogScanner.scan(bytes)
    }

    /// The straightforward reader: parse the whole document, then decode it. Always right, slower.
    public mutating func readDocumentTree(_ bytes: UnsafeBufferPointer<UInt8>, name: String, line: Int)
        throws(InputError) -> Catalog
    {
        try Self.readTree(bytes, file: bytes, name: name, line: line)
    }

    /// The tree reader on `bytes`, part of `file`: the bytes a message's encoding hint looks at
    /// (``CatalogFile`` gives the whole file, its byte order mark included).
    static func readTree(
        _ bytes: UnsafeBufferPointer<UInt8>, file: UnsafeBufferPointer<UInt8>, name: String, line: Int = 1
    ) throws(InputError) -> Catalog {
        let root: JSONValue
        do {
            root = try JSONParser().parse(bytes)
        } catch {
            let hint = CartReader.encodingHint(file)
            throw InputError(
                file: name, item: "line \(error.line + line - 1), column \(error.column)",
                "malformed JSON: \(error.message)\(hint)")
        }
        return try CatalogFile.decode(root, name: name)
    }
}

/// The product catalog, `Products.json` (docs/catalog.md):
/// `{"currency": "EUR", "products": [{"code": "MUG", "name": "Cabify Coffee Mug", "price": 7.5}]}`.
public enum CatalogFile {
    /// The catalog in the file at `path` (standard input for `-`), of at most `limit` bytes.
    public static func load(_ path: String, limit: Int = InputLimits.default.maxFileSize) throws(InputError)
        -> Catalog
    {
        guard path != "-" else { return try decode(FileBytes.read(path, limit: limit), name: path) }
        // A file is scanned where it is mapped, without copying it; only one the scanner does not
        // take is read into memory for the tree reader and its message.
        var reader = CatalogReader()
        let scanned = try FileBytes.withContents(path, limit: limit) { reader.scan($0) }
        if let scanned { return scanned }
        return try decodeTree(FileBytes.read(path, limit: limit), name: path)
    }

    /// The catalog in `bytes`: scanned directly when it is valid, else read as a tree, which says
    /// what is wrong. Both give the same catalog.
    public static func decode(_ bytes: [UInt8], name: String) throws(InputError) -> Catalog {
        if let catalog = scan(bytes) { return catalog }
        return try decodeTree(bytes, name: name)
    }

    /// The fast reader alone: the catalog, or nil when it leaves the bytes to the tree reader.
    /// For differential checks (the fuzzer): whatever it gives, ``decodeTree(_:name:)`` must give too.
    public static func scan(_ bytes: [UInt8]) -> Catalog? {
        var reader = CatalogReader()
        return bytes.withUnsafeBufferPointer { reader.scan($0) }
    }

    /// The straightforward reader: parse the whole document, then decode it. Always right, slower.
    public static func decodeTree(_ bytes: [UInt8], name: String) throws(InputError) -> Catalog {
        try bytes.withUnsafeBufferPointer { (file) throws(InputError) in
            try CatalogReader.readTree(file.droppingByteOrderMark, file: file, name: name)
        }
    }

    /// The catalog in a parsed document.
    static func decode(_ root: JSONValue, name: String) throws(InputError) -> Catalog {
        guard case .object = root else {
            throw InputError(
                file: name, "a catalog must be a JSON object with \"products\", not \(root.typeDescription)")
        }
        var currency = Currency.euro
        if let value = root["currency"] {
            guard case .string(let code) = value, let parsed = Currency(code: code) else {
                throw InputError(
                    file: name, item: "currency", "must be an ISO 4217 code of three upper-case letters such as \"EUR\""
                )
            }
            currency = parsed
        }
        var pricesIncludeTax = true
        if let value = root["prices_include_tax"] {
            guard case .bool(let flag) = value else {
                throw InputError(
                    file: name, item: "prices_include_tax", "must be true or false, not \(value.typeDescription)")
            }
            pricesIncludeTax = flag
        }
        let defaultRate = try root["tax_rate"].map { (value) throws(InputError) in
            try taxRate(value, file: name, item: "tax_rate")
        }
        guard let list = root["products"] else {
            throw InputError(file: name, "missing \"products\", the array of products")
        }
        guard case .array(let elements) = list else {
            throw InputError(file: name, item: "products", "must be an array of products, not \(list.typeDescription)")
        }
        var products: [Product] = []
        products.reserveCapacity(elements.count)
        var attributes = AttributeInterner()
        for (index, element) in elements.enumerated() {
            products.append(try product(element, index: index, currency: currency, file: name, attributes: &attributes))
        }
        return try catalog(
            currency: currency, products: products, pricesIncludeTax: pricesIncludeTax, taxRate: defaultRate, file: name
        )
    }

    /// The catalog of these products, its problems said as the file's.
    static func catalog(
        currency: Currency, products: [Product], pricesIncludeTax: Bool, taxRate: Int64?, file name: String
    ) throws(InputError) -> Catalog {
        do {
            return try Catalog(
                currency: currency, products: products, pricesIncludeTax: pricesIncludeTax, taxRate: taxRate)
        } catch {
            switch error {
            case .duplicateCode(let code, let index, let first):
                throw InputError(
                    file: name, item: "products[\(index)]",
                    "the code \"\(code)\" is already used by products[\(first)]; codes must be unique")
            case .negativePrice(_, let index), .emptyCode(let index):
                throw InputError(file: name, item: "products[\(index)]", error.description)
            case .missingTaxRate(let code, let index):
                throw InputError(
                    file: name, item: "products[\(index)] (\"\(code)\")",
                    "missing \"tax_rate\": the catalog has taxes (a \"tax_rate\" at its root or on a product), so "
                        + "every product needs a rate, its own or the root's default; a missing rate is not a zero "
                        + "rate: give this product a \"tax_rate\" (0 for none) or the catalog a default \"tax_rate\"")
            case .taxRateOutOfRange:
                throw InputError(file: name, error.description)  // the readers check rates first
            }
        }
    }

    /// A `tax_rate`: a percent 0 ≤ r ≤ 100, a multiple of 0.01, as a JSON number or a decimal string;
    /// in hundredths of a percent.
    static func taxRate(_ value: JSONValue, file: String, item: String) throws(InputError) -> Int64 {
        let text: String
        switch value {
        case .number(let number): text = number
        case .string(let string): text = string
        default:
            throw InputError(
                file: file, item: item,
                "\"tax_rate\" must be a percent (a number or a decimal string such as 21 or \"7.25\"), not \(value.typeDescription)"
            )
        }
        switch Amount.parse(text, minorDigits: 2) {
        case .success(let rate) where (0...Product.largestTaxRate).contains(rate):
            return rate
        case .success, .failure(.outOfRange):
            throw InputError(file: file, item: item, "\"tax_rate\" \(text) must be a percent between 0 and 100")
        case .failure(.notWholeMinorUnits):
            throw InputError(
                file: file, item: item, "\"tax_rate\" \(text) must be a multiple of 0.01 (such as 21 or 7.25)")
        case .failure(.notANumber):
            throw InputError(
                file: file, item: item, "\"tax_rate\" must be a percent such as 21 or \"7.25\", not \"\(text)\"")
        }
    }

    static func product(
        _ value: JSONValue, index: Int, currency: Currency, file: String, attributes: inout AttributeInterner
    ) throws(InputError) -> Product {
        var item = "products[\(index)]"
        guard case .object = value else {
            throw InputError(
                file: file, item: item,
                "a product must be an object with \"code\" and \"price\", not \(value.typeDescription)")
        }
        guard case .string(let code)? = value["code"], !code.isEmpty else {
            throw InputError(
                file: file, item: item,
                value["code"] == nil ? "missing \"code\"" : "\"code\" must be a non-empty string")
        }
        item += " (\"\(code)\")"
        var name = code
        if let given = value["name"] {
            guard case .string(let text) = given else {
                throw InputError(file: file, item: item, "\"name\" must be a string")
            }
            name = text
        }
        guard let priceValue = value["price"] else { throw InputError(file: file, item: item, "missing \"price\"") }
        let text: String
        switch priceValue {
        case .number(let number): text = number
        case .string(let string): text = string
        default:
            throw InputError(
                file: file, item: item,
                "\"price\" must be a number or a decimal string, not \(priceValue.typeDescription)")
        }
        switch Amount.parse(text, minorDigits: currency.minorDigits) {
        case .success(let price):
            guard price >= 0 else {
                throw InputError(file: file, item: item, "\"price\" must not be negative, not \(text)")
            }
            var product = Product(code: code, name: name, price: price)
            try readAttributes(value, into: &product, file: file, item: item, attributes: &attributes)
            return product
        case .failure(.notWholeMinorUnits):
            throw InputError(
                file: file, item: item,
                "\"price\" \(text) is not a whole number of minor units of \(currency.code) (\(currency.minorDigitsDescription))"
            )
        case .failure(.outOfRange):
            throw InputError(
                file: file, item: item,
                "\"price\" \(text) is out of range (the largest amount is \(Amount.largest(minorDigits: currency.minorDigits)))"
            )
        case .failure(.notANumber):
            throw InputError(file: file, item: item, "\"price\" must be a decimal amount such as 7.50, not \"\(text)\"")
        }
    }
}

extension CatalogFile {
    /// A product's `category`, `brand`, `tags` and `tax_rate` (docs/catalog.md, docs/taxes.md).
    static func readAttributes(
        _ value: JSONValue, into product: inout Product, file: String, item: String, attributes: inout AttributeInterner
    ) throws(InputError) {
        if let given = value["category"] {
            guard case .string(let text) = given else {
                throw InputError(
                    file: file, item: item,
                    "\"category\" must be a string, a path of names separated by \">\" such as \"Clothing > Shirts\", not \(given.typeDescription)"
                )
            }
            guard let path = attributes.category(text) else {
                throw InputError(
                    file: file, item: item,
                    "\"category\" \"\(text)\" has an empty name; write non-empty names separated by \">\", such as \"Clothing > Shirts\""
                )
            }
            product.category = path
        }
        if let given = value["brand"] {
            guard case .string(let text) = given, !text.isEmpty else {
                throw InputError(
                    file: file, item: item,
                    given == .string("")
                        ? "\"brand\" must not be empty" : "\"brand\" must be a string, not \(given.typeDescription)")
            }
            product.brand = attributes.brand(text)
        }
        if let given = value["tags"] {
            guard case .array(let elements) = given else {
                throw InputError(
                    file: file, item: item, "\"tags\" must be an array of strings, not \(given.typeDescription)")
            }
            var tags: [String] = []
            tags.reserveCapacity(elements.count)
            for (position, element) in elements.enumerated() {
                guard case .string(let tag) = element, !tag.isEmpty else {
                    throw InputError(
                        file: file, item: item,
                        element == .string("")
                            ? "\"tags\"[\(position)] is empty; tags must be non-empty strings"
                            : "\"tags\"[\(position)] must be a string, not \(element.typeDescription)")
                }
                tags.append(tag)
            }
            product.tags = attributes.tags(tags)
        }
        if let given = value["tax_rate"] {
            product.taxRate = try taxRate(given, file: file, item: item)
        }
    }
}

/// Products' attributes as read, shared: a category path, brand or set of tags that many products
/// have is stored once (a catalog of a million products has a few thousand categories). Only
/// byte-for-byte equal texts share: Swift's string equality would also join canonically equivalent
/// spellings, which attributes keep apart.
struct AttributeInterner {
    private var categories: [String: (text: String, path: [String])] = [:]
    private var brands: Set<String> = []
    private var tagLists: [[String]: (given: [String], unique: [String])] = [:]

    /// The path of `text`, or nil when a name is empty.
    mutating func category(_ text: String) -> [String]? {
        if let known = categories[text], same(known.text, text) { return known.path }
        guard let path = Product.categoryPath(text) else { return nil }
        if categories[text] == nil { categories[text] = (text, path) }
        return path
    }

    mutating func brand(_ text: String) -> String {
        let member = brands.insert(text).memberAfterInsert
        return same(member, text) ? member : text
    }

    /// `tags` in the order first given, each once.
    mutating func tags(_ tags: [String]) -> [String] {
        guard !tags.isEmpty else { return [] }
        if let known = tagLists[tags], known.given.elementsEqual(tags, by: same) { return known.unique }
        let unique = Product.uniqueTags(tags)
        if tagLists[tags] == nil { tagLists[tags] = (tags, unique) }
        return unique
    }

    private func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }
}
