import Pricing
import StrictJSON
import Suggestions

extension UnsafeBufferPointer where Element == UInt8 {
    /// Without a leading UTF-8 byte order mark (EF BB BF), which some editors write.
    var droppingByteOrderMark: UnsafeBufferPointer<UInt8> {
        count >= 3 && self[0] == 0xEF && self[1] == 0xBB && self[2] == 0xBF
            ? UnsafeBufferPointer(rebasing: self[3...]) : self
    }
}

/// Reads carts (docs/files.md#carts): `["VOUCHER", "MUG"]`, or
/// `{"currency": "EUR", "at": "…", "coupons": ["SPRING"], "items": ["MUG", {"code": "TSHIRT", "quantity": 3}]}`.
/// Items are resolved against the catalog and merged into lines while reading.
///
/// Reading is fast: a byte scanner reads the shapes carts have, interning codes as it goes, and the
/// strict tree parser reads the rest (errors included), so both always agree.
public struct CartReader {
    public let catalog: Catalog
    /// The fast path's lines.
    private var merger: CartLineMerger
    /// The coupons of the last cart recycled, whose storage the next cart's take.
    private var spareCoupons: [String] = []
    /// The tree reader's items.
    private var builder: CartBuilder
    /// Built once this reader has read `scanAfter` bytes: its code table costs about as much as
    /// tree-reading a few bytes per product, so a small cart against a large catalog never pays for it.
    private var scanner: CartScanner?
    private let parallelThreshold: Int
    private var scanAfter: Int

    public init(catalog: Catalog) {
        self.init(catalog: catalog, parallelThreshold: 4 << 20, scanAfter: catalog.products.count * 8)
    }

    /// `parallelThreshold`: the size from which a cart is scanned on two cores; `scanAfter`: the
    /// bytes read with the tree reader before the fast path is built.
    public init(catalog: Catalog, parallelThreshold: Int = 4 << 20, scanAfter: Int) {
        self.catalog = catalog
        merger = CartLineMerger(productCount: catalog.products.count)
        builder = CartBuilder(catalog: catalog, suggestions: CodeSuggestions.suggester)
        self.parallelThreshold = parallelThreshold
        self.scanAfter = scanAfter
    }

    /// Reads the cart in `bytes`; `name` is the file as messages show it.
    public mutating func read(_ bytes: [UInt8], name: String) throws(InputError) -> Cart {
        try bytes.withUnsafeBufferPointer { (buffer) throws(InputError) -> Cart in try read(buffer, name: name) }
    }

    /// `line`: the file's line the bytes start on (a batch's line), which a malformed JSON error names.
    public mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, name: String, line: Int = 1) throws(InputError)
        -> Cart
    {
        let bytes = bytes.droppingByteOrderMark
        if scanner == nil {
            scanAfter -= bytes.count
            if scanAfter > 0 { return try parseTree(bytes, name: name, line: line) }
            scanner = CartScanner(codes: CodeTable(catalog: catalog), parallelThreshold: parallelThreshold)
        }
        if let cart = scanner!.scan(bytes, merger: &merger, spareCoupons: &spareCoupons) { return cart }
        return try parseTree(bytes, name: name, line: line)
    }

    /// Takes back a cart done with: the next cart read reuses the storage of its lines and coupons
    /// (a batch that recycles every cart allocates none per cart).
    public mutating func recycle(_ cart: consuming Cart) {
        merger.recycle(cart.lines)
        spareCoupons = cart.coupons
    }

    /// The straightforward reader: parse the whole document, then decode it. Always right, slower.
    public mutating func readTree(_ bytes: UnsafeBufferPointer<UInt8>, name: String) throws(InputError) -> Cart {
        try parseTree(bytes.droppingByteOrderMark, name: name)
    }

    /// The tree reader on bytes whose byte order mark, if any, is already dropped (only one is).
    private mutating func parseTree(_ bytes: UnsafeBufferPointer<UInt8>, name: String, line: Int = 1)
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
        return try decode(root, name: name)
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
                    file: file, item: "customer.id", "must be a non-empty string, not \(id.typeDescription)")
            }
            customer.id = text
        }
        if let groups = value["groups"] {
            guard case .array(let elements) = groups else {
                throw InputError(
                    file: file, item: "customer.groups", "must be an array of strings, not \(groups.typeDescription)")
            }
            for (index, element) in elements.enumerated() {
                guard case .string(let group) = element, !group.isEmpty else {
                    throw InputError(
                        file: file, item: "customer.groups[\(index)]",
                        "a group must be a non-empty string, not \(element.typeDescription)")
                }
                if !customer.groups.contains(group) { customer.groups.append(group) }
            }
        }
        return customer
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
