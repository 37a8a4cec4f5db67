import Platform
import PlistReader
import Pricing

/// What to check in a promotions file besides its format.
public struct PromotionChecks: Sendable {
    /// The catalog the promotions are for. Its currency is the promotions' currency (a file that
    /// states another is refused). Without one, the file's own `currency`, else EUR.
    public var catalog: Catalog?
    /// With a catalog, also report unknown product codes and promotions that can never lower a
    /// price (`checkout validate --catalog`). Pricing leaves this off: such rules simply never match.
    public var checksProducts: Bool
    /// Report promotions whose window ended by this instant (`promotion.expired`).
    public var expiryInstant: Instant?
    /// Also report coupon-gated promotions whose id or name contains their coupon
    /// (`promotion.coupon-exposed`, `checkout validate --exposed-coupons`). Off by default: a file
    /// may name a promotion after its coupon on purpose.
    public var exposedCoupons: Bool
    public var limits: PlistLimits
    /// How the checks that run after reading (did you mean, the shadowed check) spread over cores.
    public var parts: PartRunner
    /// How the file is read: by two parsers, decoded on a second thread, or on the calling thread.
    public var reading: PromotionReading

    public init(
        catalog: Catalog? = nil, checksProducts: Bool = false, expiryInstant: Instant? = nil,
        exposedCoupons: Bool = false, limits: PlistLimits = .default, parts: PartRunner = .oneAfterAnother,
        reading: PromotionReading = .default
    ) {
        self.catalog = catalog
        self.checksProducts = checksProducts
        self.expiryInstant = expiryInstant
        self.exposedCoupons = exposedCoupons
        self.limits = limits
        self.parts = parts
        self.reading = reading
    }
}

/// How a promotions file is read: a large file by two parsers at once, each decoding its half
/// (``PlistHalves``), or decoded on a second thread while one parser reads it, or all on the calling
/// thread. The promotions and diagnostics are the same whichever way.
public struct PromotionReading: Sendable {
    /// Files of at least this many bytes are decoded on a second thread while they are read; nil: never.
    public var secondThreadFrom: Int?
    /// Of those, files of at least this many bytes are read by two parsers; nil: never.
    public var halvingFrom: Int?

    public init(secondThreadFrom: Int?, halvingFrom: Int?) {
        self.secondThreadFrom = secondThreadFrom
        self.halvingFrom = halvingFrom
    }

    /// Everything on the calling thread, by one parser.
    public static let oneThread = PromotionReading(secondThreadFrom: nil, halvingFrom: nil)

    /// On a machine with two cores or more, files of a megabyte or more by two parsers (a second
    /// thread starts to pay for itself there); else ``oneThread``.
    public static let `default` =
        Machine.processorCount > 1
        ? PromotionReading(secondThreadFrom: PlistHalves.threshold, halvingFrom: PlistHalves.threshold) : .oneThread

    /// Whether a file of `size` bytes is decoded on a second thread, and from which size two
    /// parsers read it (nil: one parser).
    func plan(size: Int) -> (secondThread: Bool, halvingFrom: Int?) {
        guard let secondThreadFrom, size >= secondThreadFrom else { return (false, nil) }
        return (true, halvingFrom)
    }
}

/// A promotions file, read and checked: its valid promotions in file order and every diagnostic.
public struct PromotionFile: Sendable {
    /// The file's path (or the name given for bytes), as messages show it.
    public var name: String
    /// The promotions without errors, in file order.
    public var promotions: [Promotion]
    /// Every element of the promotions array, valid or not, in file order.
    public var entries: [PromotionEntry]
    /// The currency the amounts were read in.
    public var currency: Currency
    /// Every problem, ordered by position in the file.
    public var diagnostics: [Diagnostic]

    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Whether two parsers read the file (``PromotionReading``); the rest is the same either way.
    var readInHalves = false

    /// Reads and checks the file at `path`. `whenRead` is called once the file's bytes are parsed,
    /// before the halves two parsers read are merged and the file's findings gathered: the moment
    /// from which a core is free for other work.
    ///
    /// - Throws: ``PlistFileError`` when the file cannot be opened or read.
    public static func load(
        contentsOf path: String, checks: PromotionChecks = PromotionChecks(), whenRead: () -> Void = {}
    ) throws(PlistFileError) -> PromotionFile {
        try load(name: path, size: fileSize(path), checks: checks, whenRead: whenRead) {
            (from, makeHandler, whenParsed) throws(PlistFileError) in
            try PlistHalves.read(
                contentsOf: path, limits: checks.limits, from: from, makeHandler: makeHandler, whenParsed: whenParsed)
        }
    }

    /// Reads and checks a promotions file held in memory; `name` stands for it in messages.
    public static func load(bytes: [UInt8], name: String, checks: PromotionChecks = PromotionChecks()) -> PromotionFile
    {
        load(name: name, size: bytes.count, checks: checks) { from, makeHandler, whenParsed in
            PlistHalves.read(
                bytes: bytes, name: name, limits: checks.limits, from: from, makeHandler: makeHandler,
                whenParsed: whenParsed)
        }
    }

    /// The one way a file is loaded, whatever holds it: `read` reads it into a handler it makes, by
    /// two parsers from a size on (nil: by one), calling its last argument once the bytes are parsed.
    /// Read again in the file's own currency when it states one after promotions it governs
    /// (docs/promotions-file.md).
    private static func load<E: Error>(
        name: String, size: Int, checks: PromotionChecks, whenRead: () -> Void = {},
        _ read: (Int?, () -> PromotionFileHandler, () -> Void) throws(E) -> (
            handler: PromotionFileHandler, halves: Bool
        )
    ) throws(E) -> PromotionFile {
        let (secondThread, halvingFrom) = checks.reading.plan(size: size)
        let read = try withoutActuallyEscaping(whenRead) {
            (whenRead) throws(E) -> (handler: PromotionFileHandler, halves: Bool) in
            var told = false
            func pass(currency: Currency?) throws(E) -> (handler: PromotionFileHandler, halves: Bool) {
                try read(
                    halvingFrom,
                    {
                        PromotionFileHandler(
                            checks: checks, currency: currency, parallel: secondThread, expectedBytes: size)
                    },
                    {
                        if !told {
                            told = true
                            whenRead()
                        }
                    })
            }
            let first = try pass(currency: nil)
            guard let currency = first.handler.currencyForSecondPass else { return first }
            return try pass(currency: currency)
        }
        var file = read.handler.result(name: name)
        file.readInHalves = read.halves
        return file
    }
}

/// The size of the regular file at `path`, or 0.
func fileSize(_ path: String) -> Int {
    guard case .regular(let size)? = FileKind.of(path: path) else { return 0 }
    return size
}

/// One element of a file's promotions array: the promotion's id when it has one, and where it starts.
public struct PromotionEntry: Sendable, Equatable {
    public var id: String?
    public var location: SourceLocation

    /// The id, or where the promotion is when it has none: for reports.
    public var label: String { id ?? "promotion at line \(location.line)" }
}

/// Follows the reader through a promotions file: either root form (docs/promotions-file.md#the-root), root keys, and each
/// promotion as it completes, so memory holds one promotion's elements at a time.
final class PromotionFileHandler: PlistHalvingHandler {
    let checks: PromotionChecks
    var diagnostics: [Diagnostic] = []
    /// Promotions decoded here, or on a second thread through `pipeline`.
    var decoded: DecodingPipeline.Output
    private var pipeline: DecodingPipeline?
    /// Whether to decode on a second thread (unless a second parser reads half the file).
    private let parallel: Bool
    let expectedBytes: Int
    /// Whether a second handler reads the second half of the promotions.
    var splitsPromotions = false
    var rootKind: PlistKind?
    var rootLocation = SourceLocation(line: 1, column: 1)
    var rootKeys: [String: SourceLocation] = [:]
    var promotionsStarted = false
    /// Whether the currency was fixed before reading (catalog, or a second pass).
    let currencyFixed: Bool
    /// A `currency` found after the promotions it governs, with other minor digits than assumed:
    /// the file must be read again in it.
    var currencyForSecondPass: Currency?

    static let rootKeyNames = ["promotions", "currency", "version"]

    /// `parallel`: decode on a second thread while reading (for large files on several cores).
    /// `expectedBytes`: the file's size, when known, to size the results once.
    init(checks: PromotionChecks, currency: Currency?, parallel: Bool = false, expectedBytes: Int = 0) {
        self.checks = checks
        currencyFixed = checks.catalog != nil || currency != nil
        let context = DecodingContext(
            currency: checks.catalog?.currency ?? currency ?? .euro,
            productCatalog: checks.checksProducts ? checks.catalog : nil,
            expiryInstant: checks.expiryInstant)
        decoded = DecodingPipeline.Output(decoder: PromotionDecoder(context: context), expectedBytes: expectedBytes)
        self.parallel = parallel
        self.expectedBytes = expectedBytes
    }

    /// A handler given up before its result was taken (the file is read again by another reader)
    /// stops its decoding thread, which would otherwise wait for promotions forever.
    deinit {
        pipeline?.abandon()
    }

    /// For the second half of a file: continues from where `first` stands when the promotions
    /// array opens (root keys, currency), with a decoder of its own.
    init(continuing first: PromotionFileHandler) {
        checks = first.checks
        currencyFixed = first.currencyFixed
        decoded = DecodingPipeline.Output(
            decoder: PromotionDecoder(context: first.decoded.decoder.context), expectedBytes: first.expectedBytes / 2)
        decoded.chunked = true
        parallel = false
        expectedBytes = first.expectedBytes / 2
        rootKind = first.rootKind
        rootLocation = first.rootLocation
        rootKeys = first.rootKeys
        promotionsStarted = first.promotionsStarted
    }

    /// The currency amounts are read in.
    var currency: Currency { decoded.decoder.context.currency }

    func result(name: String) -> PromotionFile {
        if let pipeline {
            decoded = pipeline.finish()
            self.pipeline = nil
        }
        decoded.suggest(parts: checks.parts)
        // Decoding is over: its table of ids (a few MB for a large file) is no longer needed.
        decoded.decoder = PromotionDecoder(context: decoded.decoder.context)
        // Taken over, not copied: a file can have tens of thousands.
        var diagnostics: [Diagnostic] = []
        swap(&diagnostics, &decoded.diagnostics)
        if !self.diagnostics.isEmpty { diagnostics.insert(contentsOf: self.diagnostics, at: 0) }
        if checks.exposedCoupons {
            // At the promotion's `<dict>`, and filed under it (its entry).
            diagnostics += Diagnostic.couponsExposed(decoded.promotions) { index in
                let entry = Int(decoded.promotionEntries[index])
                return (entry, decoded.entries[entry].location)
            }
        }
        var ordered = Self.inOrderOfPosition(diagnostics)
        if checks.checksProducts, let catalog = checks.catalog {
            // Line promotions another always beats: at their `<dict>`, naming the first such one. They
            // come in file order, after any other diagnostic at the same place.
            let shadowed = shadowedDiagnostics(catalog: catalog)
            if !shadowed.isEmpty { ordered = Self.merge(ordered, shadowed) }
        }
        return PromotionFile(
            name: name, promotions: decoded.promotions, entries: decoded.entries, currency: currency,
            diagnostics: ordered)
    }

    /// `promotion.shadowed` for each promotion another always beats, in file order.
    private func shadowedDiagnostics(catalog: Catalog) -> [Diagnostic] {
        let promotions = decoded.promotions
        let found = ShadowCheck(promotions: promotions, catalog: catalog, parts: checks.parts).shadowed(
            concurrently: checks.parts.run)
        guard !found.isEmpty else { return [] }
        let entries = decoded.entries
        let entryOf = decoded.promotionEntries
        // In parts (their reads of promotions and entries far apart wait on memory; on two cores
        // the waits overlap), each writing its own range of the result in place.
        let partCount = checks.parts.partCount(found.count, eachAtLeast: Self.diagnosticsPerPart)
        return [Diagnostic](unsafeUninitializedCapacity: found.count) { buffer, initialized in
            let slots = PartBuffer(buffer)
            checks.parts.run(partCount) { part in
                // One message per shadowing promotion in the part, shared (strings are
                // reference-counted) by every promotion it shadows: tens of thousands of warnings
                // name a few thousand promotions.
                var templates: [Int: Diagnostic] = [:]
                promotions.withUnsafeBufferPointer { promotions in
                    entries.withUnsafeBufferPointer { entries in
                        for k in PartRunner.share(part, of: found.count, in: partCount) {
                            let (index, by) = found[k]
                            var diagnostic: Diagnostic
                            if let template = templates[by] {
                                diagnostic = template
                            } else {
                                diagnostic = .shadowed(
                                    by: promotions[by].id, at: entries[Int(entryOf[by])].location,
                                    at: SourceLocation(line: 0, column: 0), promotion: "")
                                templates[by] = diagnostic
                            }
                            diagnostic.location = entries[Int(entryOf[index])].location
                            diagnostic.promotion = promotions[index].id
                            // Filed under the shadowed promotion (its JUnit testcase).
                            diagnostic.entry = Int(entryOf[index])
                            slots.buffer.initializeElement(at: k, to: diagnostic)
                        }
                    }
                }
            }
            initialized = found.count
        }
    }

    /// The warnings are written in parts of at least this many: fewer do not pay for a thread.
    static let diagnosticsPerPart = 2_048

    /// `diagnostics` in order of position; at one position in the order they were found (a stable
    /// sort). Moved, not copied; those already in order (most files' are) are returned as they are.
    static func inOrderOfPosition(_ diagnostics: consuming [Diagnostic]) -> [Diagnostic] {
        let locations = diagnostics.map(\.location)
        if zip(locations, locations.dropFirst()).allSatisfy({ $0 <= $1 }) { return diagnostics }
        let order = locations.indices.sorted { a, b in
            locations[a] != locations[b] ? locations[a] < locations[b] : a < b
        }
        var sorted: [Diagnostic] = []
        sorted.reserveCapacity(order.count)
        let vacated = Diagnostic(.shadowed, "", at: SourceLocation(line: 0, column: 0))
        diagnostics.withUnsafeMutableBufferPointer { buffer in
            for index in order {
                sorted.append(buffer.moveElement(from: index))
                buffer.initializeElement(at: index, to: vacated)
            }
        }
        return sorted
    }

    /// The diagnostics of `a` and `b`, each in order of position, in order of position: at one
    /// position `a`'s first (what a stable sort of `a + b` gives). Moved, not copied.
    static func merge(_ a: consuming [Diagnostic], _ b: consuming [Diagnostic]) -> [Diagnostic] {
        var merged: [Diagnostic] = []
        merged.reserveCapacity(a.count + b.count)
        let vacated = Diagnostic(.shadowed, "", at: SourceLocation(line: 0, column: 0))
        a.withUnsafeMutableBufferPointer { a in
            b.withUnsafeMutableBufferPointer { b in
                var (i, j) = (0, 0)
                func take(_ buffer: UnsafeMutableBufferPointer<Diagnostic>, _ k: inout Int) {
                    merged.append(buffer.moveElement(from: k))
                    buffer.initializeElement(at: k, to: vacated)
                    k += 1
                }
                while i < a.count, j < b.count {
                    if b[j].location < a[i].location { take(b, &j) } else { take(a, &i) }
                }
                while i < a.count { take(a, &i) }
                while j < b.count { take(b, &j) }
            }
        }
        return merged
    }

    // MARK: PlistStreamHandler

    func shouldStream(_ kind: PlistKind, depth: Int, key: PlistKey?) -> Bool {
        switch depth {
        case 0:
            rootKind = kind
            return kind.isContainer
        case 1:
            return rootKind == .dict && kind == .array && key?.name == "promotions" && rootKeys["promotions"] == nil
        default:
            return false
        }
    }

    func didOpen(_ kind: PlistKind, at location: SourceLocation, depth: Int, key: PlistKey?) {
        if depth == 0 {
            rootLocation = location
        } else if let key {
            rootKeys[key.name] = key.location
            promotionsStarted = true
        }
    }

    func didRead(_ value: PlistValue, depth: Int, key: PlistKey?) {
        switch (depth, rootKind) {
        case (0, _):
            report(
                .plistStructure(
                    "the root must be an <array> of promotions or a <dict> with a `promotions` array, not a <\(value.kind)>",
                    at: value.location))
        case (1, .array?), (2, _):
            readPromotion(value)
        case (1, _):
            if let key { readRootEntry(key, value) }
        default:
            break
        }
    }

    func didClose(_ kind: PlistKind, depth: Int) {
        if depth == 0, kind == .dict, rootKeys["promotions"] == nil {
            report(
                .missingKey(
                    "key `promotions`", needed: "a dict root holds the promotions in an <array> under `promotions`",
                    at: rootLocation, promotion: nil))
        }
    }

    func didFind(_ issue: PlistIssue) {
        switch issue.kind {
        case .malformed: report(.xmlMalformed(issue))
        case .forbidden: report(.xmlForbidden(issue))
        case .structure: report(.plistStructure(issue.message, at: issue.location))
        }
    }

    // MARK: Content

    private func report(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    private func readPromotion(_ value: PlistValue) {
        if pipeline == nil, parallel, !splitsPromotions {
            pipeline = DecodingPipeline(decoder: decoded.decoder, expectedBytes: expectedBytes)
        }
        if let pipeline {
            pipeline.submit(value, currency: currency)
        } else {
            decoded.decode(value)
        }
    }

    private func readRootEntry(_ key: PlistKey, _ value: PlistValue) {
        if let first = rootKeys[key.name] {
            report(.duplicateKey(key.name, first: first, at: key.location, promotion: nil))
            return
        }
        rootKeys[key.name] = key.location
        switch key.name {
        case "promotions":
            report(
                .plistStructure(
                    "`promotions` must be an <array> of promotion <dict>s, not a <\(value.kind)>", at: value.location))
        case "currency":
            readCurrency(value)
        case "version":
            guard value.kind == .integer, case .success(let version) = Amount.parseInteger(value.text) else {
                report(.invalidValue(.versionNotAnInteger, at: value.location, promotion: nil))
                return
            }
            if version != 1 {
                report(.invalidValue(.unsupportedVersion(version), at: value.location, promotion: nil))
            }
        default:
            report(.unknownKey(key.name, known: Self.rootKeyNames, at: key.location, promotion: nil))
        }
    }

    private func readCurrency(_ value: PlistValue) {
        guard value.kind == .string else {
            report(.invalidValue(.currencyNotAString(value.kind), at: value.location, promotion: nil))
            return
        }
        let text = value.text.trimmed
        guard let currency = Currency(code: text) else {
            report(.invalidCurrency(text, at: value.location))
            return
        }
        if let catalog = checks.catalog {
            if currency != catalog.currency {
                report(.currencyMismatch(file: currency.code, catalog: catalog.currency.code, at: value.location))
            }
        } else if !currencyFixed {
            if promotionsStarted, currency.minorDigits != self.currency.minorDigits {
                currencyForSecondPass = currency
            }
            decoded.decoder.context.currency = currency
        }
    }
}

extension Collection where Element == PromotionFile {
    /// Errors in all the files.
    public var errorCount: Int { reduce(0) { $0 + $1.errorCount } }
    /// Warnings in all the files.
    public var warningCount: Int { reduce(0) { $0 + $1.warningCount } }

    /// Whether a check of these files fails: any error, or with `strict` any warning (docs/validate.md#exit-codes).
    public func failCheck(strict: Bool) -> Bool { errorCount > 0 || (strict && warningCount > 0) }
}
