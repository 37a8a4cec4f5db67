import Pricing
import StrictJSON

/// The product catalog, `Products.json` (SPEC §3):
/// `{"currency": "EUR", "products": [{"code": "MUG", "name": "Cabify Coffee Mug", "price": 7.5}]}`.
public enum CatalogFile {
    public static func load(_ path: String, limit: Int = 1 << 30) throws(InputError) -> Catalog {
        guard path != "-" else { return try decode(FileBytes.read(path, limit: limit), name: path) }
        // A file is scanned where it is mapped, without copying it; only one the scanner does not
        // take is read into memory for the tree reader and its message.
        let scanned = try FileBytes.withContents(path, limit: limit) { CatalogScanner.scan($0.droppingByteOrderMark) }
        if let scanned { return scanned }
        return try decodeTree(FileBytes.read(path, limit: limit), name: path)
    }

    /// The catalog in `bytes`: scanned directly when it is valid, else read as a tree, which says
    /// what is wrong. Both give the same catalog.
    public static func decode(_ bytes: [UInt8], name: String) throws(InputError) -> Catalog {
        if let catalog = bytes.withUnsafeBufferPointer({ CatalogScanner.scan($0.droppingByteOrderMark) }) {
            return catalog
        }
        return try decodeTree(bytes, name: name)
    }

    /// The straightforward reader: parse the whole document, then decode it. Always right, slower.
    static func decodeTree(_ bytes: [UInt8], name: String) throws(InputError) -> Catalog {
        let root: JSONValue
        do {
            root = try bytes.withUnsafeBufferPointer { (all) throws(JSONSyntaxError) -> JSONValue in
                try JSONParser().parse(all.droppingByteOrderMark)
            }
        } catch {
            let hint = bytes.withUnsafeBufferPointer { CartReader.encodingHint($0) }
            throw InputError(
                file: name, item: "line \(error.line), column \(error.column)",
                "malformed JSON: \(error.message)\(hint)")
        }
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
        guard let list = root["products"] else {
            throw InputError(file: name, "missing \"products\", the array of products")
        }
        guard case .array(let elements) = list else {
            throw InputError(file: name, item: "products", "must be an array of products, not \(list.typeDescription)")
        }
        var products: [Product] = []
        products.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            products.append(try product(element, index: index, currency: currency, file: name))
        }
        do {
            return try Catalog(currency: currency, products: products)
        } catch {
            switch error {
            case .duplicateCode(let code, let index, let first):
                throw InputError(
                    file: name, item: "products[\(index)]",
                    "the code \"\(code)\" is already used by products[\(first)]; codes must be unique")
            case .negativePrice(_, let index), .emptyCode(let index):
                throw InputError(file: name, item: "products[\(index)]", error.description)
            }
        }
    }

    static func product(_ value: JSONValue, index: Int, currency: Currency, file: String) throws(InputError) -> Product
    {
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
            return Product(code: code, name: name, price: price)
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
