import Pricing
import StrictJSON
import Suggestions

/// Reads carts (docs/files.md#carts): `["VOUCHER", "MUG"]`, or
/// `{"currency": "EUR", "at": "…", "coupons": ["SPRING"], "items": ["MUG", {"code": "TSHIRT", "quantity": 3}]}`.
/// Items are resolved against the catalog and merged into lines while reading.
///
/// Reading is fast: a byte scanner (``CartScanner``) reads the shapes carts have, interning codes
/// through the catalog's code table as it goes, and the strict tree parser, the reference, reads the
/// rest (errors included), so both always agree. Whether a large cart is scanned in two halves at
/// once is the caller's to say (``CartHalves``).
///
/// The next cart read takes the storage of the last one's lines and coupons once the caller is done
/// with it: a batch that reads cart after cart allocates none per cart.
public struct CartReader: DocumentReader {
    public let catalog: Catalog
    private let scanner: CartScanner
    private let halves: CartHalves
    /// The fast path's lines.
    private var merger: CartLineMerger
    /// The tree reader's items.
    private var builder: CartBuilder
    /// The last cart's lines and coupons, whose storage the next cart's take (copied instead while
    /// the caller still holds them).
    private var lastLines: [Cart.Line] = []
    private var lastCoupons: [String] = []

    /// `halves`: whether and how a large cart is scanned on two cores; by default never.
    public init(catalog: Catalog, halves: CartHalves = .never) {
        self.catalog = catalog
        scanner = CartScanner(codes: catalog.codes.bytes)
        self.halves = halves
        merger = CartLineMerger(productCount: catalog.products.count)
        builder = CartBuilder(catalog: catalog, suggestions: CodeSuggestions.suggester)
    }

    public mutating func scanDocument(_ bytes: UnsafeBufferPointer<UInt8>) -> Cart? {
        reuseLastCart()
        // Bound once and returned as it is: a cart copied whole costs a retain and a release of
        // each of its fields.
        guard let cart = scanner.scan(bytes, merger: &merger, spareCoupons: &lastCoupons, halves: halves) else {
            return nil
        }
        lastLines = cart.lines
        lastCoupons = cart.coupons
        return cart
    }

    /// The straightforward reader: parse the whole document, then decode it. Always right, slower.
    public mutating func readDocumentTree(_ bytes: UnsafeBufferPointer<UInt8>, name: String, line: Int)
        throws(InputError) -> Cart
    {
        let root: JSONValue
        do {
            root = try JSONParser().parse(bytes)
        } catch {
            let hint =
                Self.looksLikeSeveralCarts(bytes)
                ? "; it looks like several carts, one per line: give --batch (or name the file *.ndjson)"
                : Self.encodingHint(bytes)
            throw InputError(
                file: name, item: "line \(error.line + line - 1), column \(error.column)",
                "malformed JSON: \(error.message)\(hint)")
        }
        reuseLastCart()
        let cart = try decode(root, name: name)
        keep(cart)
        return cart
    }

    /// Lends the last cart's storage to the next: the caller has had it since it was read.
    private mutating func reuseLastCart() {
        guard !lastLines.isEmpty || lastLines.capacity > 0 else { return }
        var lines: [Cart.Line] = []
        swap(&lines, &lastLines)
        merger.recycle(lines)
    }

    /// Keeps (shares) a cart's storage for the next cart, which takes it once the caller is done.
    private mutating func keep(_ cart: Cart) {
        lastLines = cart.lines
        lastCoupons = cart.coupons
    }

    public mutating func decode(_ root: JSONValue, name: String) throws(InputError) -> Cart {
        defer { builder.reset() }
        switch root {
        case .array(let items):
            try addItems(items, file: name)
            return builder.take()
        case .object:
            var cart = Cart()
            if let value = root["id"] { cart.id = try Self.cartID(value, file: name) }
            do {
                try decodeObject(root, into: &cart, name: name)
            } catch {
                var error = error
                error.cartID = cart.id
                throw error
            }
            return cart
        default:
            throw InputError(
                file: name, "a cart must be an array of items or an object with \"items\", not \(root.typeDescription)")
        }
    }

    /// What to do about a file in another encoding than UTF-8: UTF-16 or UTF-32 (a byte order mark,
    /// or the NUL bytes that ASCII text has in them), which editors on Windows often write.
    static func encodingHint(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let start = Array(bytes.prefix(4))
        let utf16 =
            start.starts(with: [0xFF, 0xFE]) || start.starts(with: [0xFE, 0xFF])
            || (start.count >= 2 && (start[0] == 0) != (start[1] == 0))
        return utf16
            ? "; the file looks like UTF-16 or UTF-32 text: save it as UTF-8 (e.g. `iconv -f UTF-16 -t UTF-8`)" : ""
    }

    /// Whether the bytes hold several JSON documents on lines of their own, each one a cart: what a
    /// batch looks like.
    static func looksLikeSeveralCarts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let lines = bytes.split(separator: UInt8(ascii: "\n")).filter { line in
            line.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) }
        }
        guard lines.count >= 2 else { return false }
        return lines.allSatisfy { line in
            guard let first = line.first(where: { !($0 == 0x20 || $0 == 0x09) }),
                first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
            else { return false }
            return Array(line).withUnsafeBufferPointer { (try? JSONParser().parse($0)) != nil }
        }
    }

    /// A cart's customer (docs/selectors.md, "Customer groups"): an object with an optional `id` (a
    /// non-empty string) and optional `groups` (an array of non-empty strings); its other keys are
    /// ignored.
    static func customer(_ value: JSONValue, file: String) throws(InputError) -> Cart.Customer {
        guard case .object = value else {
            throw InputError(
                file: file, item: "customer",
                "must be an object such as {\"id\": \"C-17\", \"groups\": [\"members\"]}, not \(value.typeDescription)")
        }
        var customer = Cart.Customer()
        if let id = value["id"] {
            guard case .string(let text) = id, !text.isEmpty else {
                throw InputError(
                    file: file, item: "customer.id", "must be a non-empty string, not \(Self.shown(id))")
            }
            customer.id = text
        }
        if let groups = value["groups"] {
            guard case .array(let elements) = groups else {
                throw InputError(
                    file: file, item: "customer.groups", "must be an array of strings, not \(groups.typeDescription)")
            }
            // Repeats count once, byte for byte (a set: a cart may list many groups).
            var seen: Set<[UInt8]> = []
            for (index, element) in elements.enumerated() {
                guard case .string(let group) = element, !group.isEmpty else {
                    throw InputError(
                        file: file, item: "customer.groups[\(index)]",
                        "a group must be a non-empty string, not \(Self.shown(element))")
                }
                // Groups compare byte for byte: two spellings of one text are two groups.
                if seen.insert(Array(group.utf8)).inserted { customer.groups.append(group) }
            }
        }
        return customer
    }

    /// What a value that should have been a non-empty string is, for messages: "an empty string"
    /// rather than "a string".
    private static func shown(_ value: JSONValue) -> String {
        if case .string(let text) = value, text.isEmpty { return "an empty string" }
        return value.typeDescription
    }

    /// A cart's id: a string, or an integer literal (no fraction, no exponent).
    static func cartID(_ value: JSONValue, file: String) throws(InputError) -> CartID {
        switch value {
        case .string(let text): return .string(text)
        case .number(let text) where !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }):
            return .integer(text)
        case .number(let text):
            throw InputError(
                file: file, item: "id", "a cart's id must be a string or an integer literal such as 17, not \(text)")
        default:
            throw InputError(
                file: file, item: "id",
                "a cart's id must be a string or an integer literal such as 17, not \(value.typeDescription)")
        }
    }

    private mutating func decodeObject(_ root: JSONValue, into cart: inout Cart, name: String) throws(InputError) {
        if let value = root["currency"] {
            guard case .string(let code) = value, let currency = Currency(code: code) else {
                throw InputError(
                    file: name, item: "currency", "must be an ISO 4217 code of three upper-case letters such as \"EUR\""
                )
            }
            cart.currency = currency
        }
        if let value = root["at"] {
            guard case .string(let text) = value else {
                throw InputError(
                    file: name, item: "at",
                    "must be an RFC 3339 date-time string such as \"2026-11-21T10:00:00Z\", not \(value.typeDescription)"
                )
            }
            do {
                cart.at = try Instant(rfc3339: text)
            } catch {
                throw InputError(file: name, item: "at", error.description)
            }
        }
        if let value = root["coupons"] {
            guard case .array(let coupons) = value else {
                throw InputError(
                    file: name, item: "coupons", "must be an array of strings, not \(value.typeDescription)")
            }
            for (index, coupon) in coupons.enumerated() {
                guard case .string(let text) = coupon else {
                    throw InputError(
                        file: name, item: "coupons[\(index)]",
                        "a coupon must be a string, not \(coupon.typeDescription)")
                }
                cart.coupons.append(text)
            }
        }
        if let value = root["customer"] { cart.customer = try Self.customer(value, file: name) }
        guard let value = root["items"] else {
            throw InputError(
                file: name, "missing \"items\", the array of items (codes or {\"code\", \"quantity\"} objects)")
        }
        guard case .array(let items) = value else {
            throw InputError(file: name, item: "items", "must be an array of items, not \(value.typeDescription)")
        }
        try addItems(items, file: name)
        cart.lines = builder.take().lines
    }

    private mutating func addItems(_ items: [JSONValue], file: String) throws(InputError) {
        for (index, item) in items.enumerated() {
            let (code, quantity) = try parseItem(item, index: index, file: file)
            do {
                try builder.add(code, quantity: quantity)
            } catch {
                throw InputError(file: file, item: "items[\(index)]", error.description)
            }
        }
    }

    private func parseItem(_ item: JSONValue, index: Int, file: String) throws(InputError) -> (String, Int64) {
        let path = "items[\(index)]"
        switch item {
        case .string(let code):
            return (code, 1)
        case .object(let members):
            for member in members where member.key == "price" || member.key == "unit_price" {
                throw InputError(
                    file: file, item: path,
                    "a cart cannot set prices (\"\(member.key)\"); remove it: prices come from the catalog")
            }
            guard let codeValue = item["code"] else { throw InputError(file: file, item: path, "missing \"code\"") }
            guard case .string(let code) = codeValue else {
                throw InputError(file: file, item: path, "\"code\" must be a string, not \(codeValue.typeDescription)")
            }
            guard let quantityValue = item["quantity"] else { return (code, 1) }
            guard case .number(let text) = quantityValue else {
                throw InputError(
                    file: file, item: path,
                    "\"quantity\" must be a whole number from \(Cart.itemQuantities.lowerBound) to \(Cart.itemQuantities.upperBound), not \(quantityValue.typeDescription)"
                )
            }
            return (code, try Self.quantity(text, file: file, item: path))
        default:
            throw InputError(
                file: file, item: path,
                "an item must be a product code or an object with \"code\", not \(item.typeDescription)")
        }
    }

    /// A quantity: a JSON integer literal (`3`, not `3.0` or `3e0`) from 1 to 1,000,000,000.
    static func quantity(_ text: String, file: String, item: String) throws(InputError) -> Int64 {
        let range = Cart.itemQuantities
        guard !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
            throw InputError(file: file, item: item, "\"quantity\" must be an integer literal such as 3, not \(text)")
        }
        guard case .success(let value) = Amount.parseInteger(text), range.contains(value) else {
            throw InputError(
                file: file, item: item,
                "\"quantity\" must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(text)")
        }
        return value
    }
}
