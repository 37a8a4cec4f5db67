import InputFiles
@_spi(Reference) import PlistReader
import Pricing
import Promotions

/// The fuzz targets' bodies: each reads one input as a user's file would be read and traps when
/// an invariant breaks. libFuzzer calls them (Fuzz/), and the tests replay the seed corpora and
/// every input that ever crashed through them.
public enum FuzzHarness {
    static let catalog = try! Catalog(products: [
        Product(code: "VOUCHER", name: "Cabify Voucher", price: 500),
        Product(code: "TSHIRT", name: "Cabify T-Shirt", price: 2000),
        Product(code: "MUG", name: "Cabify Coffee Mug", price: 750), Product(code: "FREE", name: "Free", price: 0),
        Product(code: "GOLD", name: "Gold", price: Int64.max / 3)
    ])
    static let instant = Instant(seconds: 1_795_255_200)
    static let limits = PlistLimits(
        maxFileSize: 1 << 20, maxDepth: 32, maxTextLength: 1 << 16, maxValueElements: 10_000)

    /// The plist reader: every value delivered, every location sane, at most one fatal issue, last;
    /// and what it delivers is what libxml2 alone delivers (the scanner reads what it takes).
    public static func plistReader(_ bytes: UnsafeRawBufferPointer) {
        let handler = Walker()
        PlistStreamReader.read(bytes: bytes, name: "fuzz.plist", limits: limits, handler: handler)
        let reference = Walker()
        PlistStreamReader.read(bytes: bytes, name: "fuzz.plist", limits: limits, handler: reference, engine: .libxml2)
        precondition(handler.delivered == reference.delivered, "the scanner and libxml2 differ")
        precondition(handler.issues.filter(\.isFatal).count <= 1, "more than one fatal issue")
        if let fatal = handler.issues.firstIndex(where: \.isFatal) {
            precondition(fatal == handler.issues.count - 1, "issues after a fatal one")
        }
        precondition(handler.issues.allSatisfy { $0.location.line >= 0 && $0.location.column >= 0 })
    }

    /// The promotion decoder, with and without a catalog: diagnostics ordered, valid promotions
    /// compile and price a cart without trapping.
    public static func promotions(_ bytes: UnsafeRawBufferPointer) {
        let array = Array(bytes)
        let plain = PromotionFile.load(
            bytes: array, name: "fuzz.plist", checks: PromotionChecks(expiryInstant: instant, limits: limits))
        let checked = PromotionFile.load(
            bytes: array, name: "fuzz.plist",
            checks: PromotionChecks(
                catalog: catalog, checksProducts: true, expiryInstant: instant, exposedCoupons: true, limits: limits))
        for file in [plain, checked] {
            precondition(
                zip(file.diagnostics, file.diagnostics.dropFirst()).allSatisfy { $0.location <= $1.location },
                "unordered")
            precondition(file.entries.count >= file.promotions.count)
        }
        let rules = RuleSet(promotions: checked.promotions, catalog: catalog)
        var merger = CartLineMerger(productCount: catalog.products.count)
        for product in catalog.products.indices { _ = merger.add(product, quantity: Int64(product + 2)) }
        let cart = Cart(lines: merger.takeLines(), coupons: ["spring", "VIP"])
        if let receipt = try? PricingEngine(rules: rules).price(cart, at: instant, now: instant) {
            precondition(receipt.total >= 0 && receipt.total <= receipt.subtotal, "price raised or negative")
            precondition(receipt.lines.reduce(0) { $0 + $1.total } == receipt.total, "lines do not add up")
            for line in receipt.lines {
                precondition(
                    line.promotions.reduce(0) { $0 + $1.units } <= line.quantity, "more units used than the line has")
                precondition(
                    line.promotions.allSatisfy { $0.discount >= 0 && $0.units > 0 },
                    "a promotion entry without units or below zero")
            }
        }
    }

    /// The cart readers: the fast scanner and the tree parser must agree, cart for cart and message
    /// for message; a cart that reads prices within bounds.
    public static func cart(_ bytes: UnsafeRawBufferPointer) {
        let buffer = bytes.bindMemory(to: UInt8.self)
        var fast = CartReader(catalog: catalog)
        var tree = CartReader(catalog: catalog)
        let a = Result { () throws(InputError) in try fast.read(buffer, name: "fuzz.json") }
        let b = Result { () throws(InputError) in try tree.readTree(buffer, name: "fuzz.json") }
        // The scanner alone, when it takes the bytes, reads the tree reader's cart.
        if let scanned = CartReader(catalog: catalog).scanned(buffer) {
            guard case .success(let read) = b else { preconditionFailure("the scanner accepts what the tree refuses") }
            precondition(scanned == read, "the scanner and the tree reader disagree on the cart")
        }
        switch (a, b) {
        case (.success(let x), .success(let y)): precondition(x == y, "readers disagree on the cart")
        case (.failure(let x), .failure(let y)): precondition(x == y, "readers disagree on the error")
        default: preconditionFailure("one reader accepts what the other refuses")
        }
        if case .success(let cart) = a,
            let receipt = try? PricingEngine(rules: RuleSet(promotions: [], catalog: catalog)).price(cart, now: instant)
        {
            precondition(receipt.total == receipt.subtotal)
        }
    }
}

extension FuzzHarness {
    /// The catalog readers: the fast scanner, when it takes the bytes, gives exactly the tree
    /// reader's catalog; a catalog read has valid attributes, a rate on every product or on none,
    /// and prices a cart of all its products to taxes that add up (docs/taxes.md).
    public static func catalog(_ bytes: UnsafeRawBufferPointer) {
        let array = Array(bytes)
        let tree = Result { () throws(InputError) in try CatalogFile.decodeTree(array, name: "fuzz.json") }
        if let scanned = CatalogFile.scan(array) {
            guard case .success(let read) = tree else {
                preconditionFailure("the scanner accepts what the tree refuses")
            }
            precondition(describe(scanned) == describe(read), "readers disagree on the catalog")
        }
        guard case .success(let catalog) = tree else { return }
        precondition(catalog.products.allSatisfy { ($0.taxRate != nil) == catalog.isTaxed }, "a rate missing or stray")
        for product in catalog.products {
            precondition(product.taxRate.map { (0...10_000).contains($0) } ?? true, "rate out of range")
            precondition(product.brand.map { !$0.isEmpty } ?? true, "empty brand")
            precondition(
                product.category.map { path in
                    !path.isEmpty
                        && path.allSatisfy { name in
                            !name.isEmpty && !name.utf8.contains(UInt8(ascii: ">"))
                                && ![0x20, 0x09].contains(name.utf8.first!) && ![0x20, 0x09].contains(name.utf8.last!)
                        }
                } ?? true, "a category name empty, untrimmed or split wrongly")
            precondition(product.tags.allSatisfy { !$0.isEmpty }, "empty tag")
            precondition(Set(product.tags.map { Array($0.utf8) }).count == product.tags.count, "a tag repeated")
        }
        guard catalog.products.count <= 64 else { return }
        var merger = CartLineMerger(productCount: catalog.products.count)
        for product in catalog.products.indices { _ = merger.add(product, quantity: Int64(product % 3 + 1)) }
        let cart = Cart(lines: merger.takeLines())
        guard
            let receipt = try? PricingEngine(rules: RuleSet(promotions: [], catalog: catalog)).price(cart, now: instant)
        else { return }
        precondition(receipt.linesTotal == receipt.subtotal, "no promotion, yet a discount")
        guard let taxes = receipt.taxes else {
            return precondition(!catalog.isTaxed && receipt.total == receipt.subtotal)
        }
        precondition(catalog.isTaxed, "taxes from an untaxed catalog")
        let rates = taxes.rates.map(\.rate)
        precondition(zip(rates, rates.dropFirst()).allSatisfy { $0 < $1 }, "rates not ascending")
        precondition(Set(receipt.lines.map { $0.taxRate! }) == Set(rates), "an entry per rate of the lines")
        precondition(taxes.tax == taxes.rates.reduce(0) { $0 + $1.tax }, "the tax is not the entries' sum")
        for entry in taxes.rates {
            let gross = receipt.lines.filter { $0.taxRate == entry.rate }.reduce(Int64(0)) { $0 + $1.total }
            precondition(entry.tax >= 0 && entry.base >= 0, "negative tax or base")
            precondition(
                catalog.pricesIncludeTax ? entry.base + entry.tax == gross : entry.base == gross,
                "base and tax do not add up")
            precondition(entry.tax <= gross, "tax above the amount taxed")
        }
        precondition(receipt.total == receipt.linesTotal + taxes.added, "the total is not what the customer pays")
    }

    static func describe(_ catalog: Catalog) -> String {
        "\(catalog.currency.code) \(catalog.pricesIncludeTax) \(catalog.isTaxed) \(catalog.products)"
    }
}

/// Streams the root, materializes the rest, and looks at everything it gets.
private final class Walker: PlistStreamHandler {
    var issues: [PlistIssue] = []
    /// Everything delivered, written out: two readers of one file must agree on it.
    var delivered: [String] = []

    func shouldStream(_ kind: PlistKind, depth: Int, key: PlistKey?) -> Bool { depth <= 1 }
    func didOpen(_ kind: PlistKind, at location: SourceLocation, depth: Int, key: PlistKey?) {
        delivered.append("open \(kind) \(location) \(depth) \(key?.name ?? "-") \(key?.location.description ?? "-")")
    }
    func didClose(_ kind: PlistKind, depth: Int) { delivered.append("close \(kind) \(depth)") }
    func didFind(_ issue: PlistIssue) {
        issues.append(issue)
        delivered.append("issue \(issue.kind) \(issue.location) \(issue.message)")
    }

    func didRead(_ value: PlistValue, depth: Int, key: PlistKey?) {
        delivered.append("value \(depth) \(key?.name ?? "-") \(key?.location.description ?? "-")")
        visit(value)
    }

    private func visit(_ value: PlistValue) {
        precondition(value.location.line >= 1, "a value without a line")
        delivered.append("\(value.kind) \(value.location) \(value.kind.isContainer ? "" : value.text)")
        if value.kind == .dict {
            for (key, child) in value.entries {
                precondition(key.kind == .key, "a dict entry without a key")
                visit(child)
            }
        } else {
            for child in value.children { visit(child) }
        }
    }
}

extension CartReader {
    /// What the scanner alone makes of `bytes`.
    fileprivate func scanned(_ bytes: UnsafeBufferPointer<UInt8>) -> Cart? {
        var reader = self
        return reader.scan(bytes)
    }
}
