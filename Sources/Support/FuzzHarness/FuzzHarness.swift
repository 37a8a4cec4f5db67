import InputFiles
import PlistReader
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

    /// The plist reader: every value delivered, every location sane, at most one fatal issue, last.
    public static func plistReader(_ bytes: UnsafeRawBufferPointer) {
        let handler = Walker()
        PlistStreamReader.read(bytes: bytes, name: "fuzz.plist", limits: limits, handler: handler)
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
            checks: PromotionChecks(catalog: catalog, checksProducts: true, expiryInstant: instant, limits: limits))
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
        var fast = CartReader(catalog: catalog, scanAfter: 0)
        var tree = CartReader(catalog: catalog)
        let a = Result { () throws(InputError) in try fast.read(buffer, name: "fuzz.json") }
        let b = Result { () throws(InputError) in try tree.readTree(buffer, name: "fuzz.json") }
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

/// Streams the root, materializes the rest, and looks at everything it gets.
private final class Walker: PlistStreamHandler {
    var issues: [PlistIssue] = []

    func shouldStream(_ kind: PlistKind, depth: Int, key: PlistKey?) -> Bool { depth <= 1 }
    func didOpen(_ kind: PlistKind, at location: SourceLocation, depth: Int, key: PlistKey?) {}
    func didClose(_ kind: PlistKind, depth: Int) {}
    func didFind(_ issue: PlistIssue) { issues.append(issue) }

    func didRead(_ value: PlistValue, depth: Int, key: PlistKey?) { visit(value) }

    private func visit(_ value: PlistValue) {
        precondition(value.location.line >= 1, "a value without a line")
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
