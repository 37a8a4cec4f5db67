import Dispatch
import InputFiles
import Platform
import PlistReader
import Pricing
import Promotions

/// Where a catalog or a promotions file comes from.
public enum RulesSource: Sendable, Equatable {
    case file(String)
    /// The built-in copy of the shipped store.
    case shipped

    /// `--promotions`/`--catalog` when given, else `Rules/<name>` in the current directory when
    /// present, else the built-in copy.
    public static func resolve(_ option: String?, default name: String) -> RulesSource {
        if let option { return .file(option) }
        let local = "Rules/" + name
        return FileBytes.isFile(local) ? .file(local) : .shipped
    }
}

/// Why the catalog and promotions cannot be used for pricing.
public enum PricingRulesError: Error, Sendable {
    case catalog(InputError)
    case promotionsUnreadable(PlistFileError)
    /// The promotions file has errors; pricing refuses it (docs/promotions-file.md). All its diagnostics are here.
    case promotionsInvalid(PromotionFile)
}

extension PricingRulesError: CustomStringConvertible {
    /// What is wrong, naming the file; for a promotions file with errors, the first of them.
    public var description: String {
        switch self {
        case .catalog(let error): error.description
        case .promotionsUnreadable(let error): error.description
        case .promotionsInvalid(let file):
            "\(file.name) has \(file.errorCount == 1 ? "1 error" : "\(file.errorCount) errors"); fix \(file.errorCount == 1 ? "it" : "them") before pricing"
                + (file.diagnostics.first { $0.severity == .error }.map { " (first: \($0))" } ?? "")
        }
    }
}

/// The catalog and promotions compiled for pricing.
public struct PricingRules: Sendable {
    public let catalog: Catalog
    public let promotions: PromotionFile
    public let ruleSet: RuleSet

    /// Loads the catalog, then the promotions in its currency, and compiles them. A promotions
    /// file with any error is refused; warnings never stop pricing, and a rule whose code is not in
    /// the catalog simply never matches. `limits` bound the catalog, `plistLimits` the promotions file.
    public static func load(
        catalog: RulesSource, promotions: RulesSource, limits: InputLimits = .default,
        plistLimits: PlistLimits = .default
    ) throws(PricingRulesError) -> PricingRules {
        try load(promotions: promotions, for: loadCatalog(catalog, limit: limits.maxFileSize), limits: plistLimits)
    }

    /// Loads the rules while `alongside` runs with the catalog on another thread: from the moment
    /// the promotions file is parsed, while its two halves are merged and the rules compiled. Reading
    /// a large cart then takes the core those leave idle, rather than half of a core from one of the
    /// file's two parsers (which the other would then wait for). The rules' errors come first.
    public static func load<T: Sendable>(
        catalog: RulesSource, promotions: RulesSource, limits: InputLimits = .default,
        plistLimits: PlistLimits = .default, alongside: @escaping @Sendable (Catalog) -> T
    ) throws(PricingRulesError) -> (PricingRules, T) {
        let products = try loadCatalog(catalog, limit: limits.maxFileSize)
        let result = Box<T>()
        let group = DispatchGroup()
        let file: PromotionFile
        do {
            file = try loadFile(promotions, for: products, limits: plistLimits) {
                DispatchQueue.global().async(group: group) { result.value = alongside(products) }
            }
        } catch {
            group.wait()
            throw error
        }
        let ruleSet = RuleSet(promotions: file.promotions, catalog: products, parts: twoCores)
        group.wait()
        return (PricingRules(catalog: products, promotions: file, ruleSet: ruleSet), result.value!)
    }

    /// Selectors resolved on two cores when the machine has them.
    static let twoCores = PartRunner.onCores(2)

    public static func loadCatalog(_ catalog: RulesSource, limit: Int) throws(PricingRulesError) -> Catalog {
        do {
            switch catalog {
            case .file(let path): return try CatalogFile.load(path, limit: limit)
            case .shipped:
                return try CatalogFile.decode(Array(ShippedStore.productsJSON.utf8), name: ShippedStore.catalogName)
            }
        } catch {
            throw .catalog(error)
        }
    }

    public static func load(promotions: RulesSource, for products: Catalog, limits: PlistLimits)
        throws(PricingRulesError) -> PricingRules
    {
        let file = try loadFile(promotions, for: products, limits: limits)
        return PricingRules(
            catalog: products, promotions: file,
            ruleSet: RuleSet(promotions: file.promotions, catalog: products, parts: twoCores))
    }

    /// The promotions file, read against the catalog; refused when it has errors. `whenRead` is
    /// called once it is parsed (``PromotionFile/load(contentsOf:checks:whenRead:)``), errors or not.
    static func loadFile(
        _ promotions: RulesSource, for products: Catalog, limits: PlistLimits, whenRead: () -> Void = {}
    ) throws(PricingRulesError) -> PromotionFile {
        let checks = PromotionChecks(catalog: products, limits: limits)
        let file: PromotionFile
        switch promotions {
        case .file(let path):
            do {
                file = try loadPromotions(path, checks: checks, whenRead: whenRead)
            } catch {
                throw .promotionsUnreadable(error)
            }
        case .shipped:
            file = PromotionFile.load(
                bytes: Array(ShippedStore.promotionsPlist.utf8), name: ShippedStore.promotionsName, checks: checks)
            whenRead()
        }
        guard !file.hasErrors else { throw .promotionsInvalid(file) }
        return file
    }
}

extension PricingRules {
    /// The promotions file at `path`, or read from standard input for `-` (named `<stdin>`).
    public static func loadPromotions(_ path: String, checks: PromotionChecks, whenRead: () -> Void = {})
        throws(PlistFileError) -> PromotionFile
    {
        guard path == "-" else { return try PromotionFile.load(contentsOf: path, checks: checks, whenRead: whenRead) }
        let bytes: [UInt8]
        do {
            // One byte more than the limit, if there is more: the reader refuses it as it refuses
            // a file (`xml.forbidden`), not as an unreadable input.
            bytes = try FileBytes.readBeyond(path, limit: checks.limits.maxFileSize)
        } catch {
            let prefix = "cannot read: "
            throw PlistFileError(
                path: error.file,
                reason: error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
        }
        let file = PromotionFile.load(bytes: bytes, name: FileBytes.displayName(path), checks: checks)
        whenRead()
        return file
    }
}

extension RulesSource {
    /// What a receipt's heading says of rules that are built in, when some are.
    public static func builtInLabel(catalog: RulesSource, promotions: RulesSource) -> String? {
        switch (catalog, promotions) {
        case (.shipped, .shipped): "built-in Cabify store"
        case (.shipped, _): "built-in Cabify catalog"
        case (_, .shipped): "built-in Cabify promotions"
        default: nil
        }
    }
}

/// A result written by one thread and read by another after it finished.
private final class Box<T>: @unchecked Sendable {
    var value: T?
}
