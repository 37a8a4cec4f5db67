import Pricing
import Promotions

/// The formats `checkout validate` reports in.
public enum ReporterKind: String, CaseIterable, Sendable {
    /// `FILE:LINE:COL: error: MESSAGE [ID]` and a summary: for people and editors.
    case text
    /// One JSON document (docs/command-line.md): for scripts.
    case json
    /// GitHub Actions workflow commands: annotations on the pull request's lines.
    case github
    /// JUnit XML, one testcase per promotion: for CI systems with a test-results view.
    case junit
    /// SARIF 2.1.0: for code-scanning dashboards (GitHub code scanning, Azure DevOps, IDEs).
    case sarif

    public func render(_ files: [PromotionFile], tool: ToolInfo = .checkout, notes: Bool = false, strict: Bool = false)
        -> String
    {
        render(files.map(CheckedFile.read), tool: tool, notes: notes, strict: strict)
    }

    /// Every file given, in order: a file that could not be read is reported too, so that no report
    /// looks clean when a file was never checked. `notes`: the text and GitHub formats also write each
    /// diagnostic's notes on lines of their own (JUnit, SARIF and JSON always carry them). `strict`
    /// (`validate --strict`, where warnings fail the run): JUnit counts them as failures too, so that
    /// its results view is not green for a run that failed.
    public func render(_ files: [CheckedFile], tool: ToolInfo = .checkout, notes: Bool = false, strict: Bool = false)
        -> String
    {
        switch self {
        case .text: TextReporter.render(files, notes: notes)
        case .json: JSONReporter.render(files)
        case .github: GitHubReporter.render(files, notes: notes)
        case .junit: JUnitReporter.render(files, warningsFail: strict)
        case .sarif: SARIFReporter.render(files, tool: tool)
        }
    }

    /// ``render(_:tool:)``'s bytes, a chunk at a time: text and JSON are written as they are made,
    /// so that a report of tens of thousands of diagnostics is never held whole (`checkout
    /// validate`), with blocks of diagnostics made on `parts` at once; the other formats whole.
    public func write(
        _ files: [CheckedFile], parts: PartRunner? = nil, tool: ToolInfo = .checkout, notes: Bool = false,
        strict: Bool = false, into write: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        switch self {
        case .text: TextReporter.render(files, parts: parts, notes: notes, bytesInto: write)
        case .json: JSONReporter.render(files, parts: parts, into: write)
        case .github, .junit, .sarif:
            var report = render(files, tool: tool, notes: notes, strict: strict)
            report.withUTF8(write)
        }
    }
}

/// A file `validate` was given: read and checked, or not readable at all.
public enum CheckedFile: Sendable {
    case read(PromotionFile)
    case unreadable(path: String, reason: String)

    public var name: String {
        switch self {
        case .read(let file): file.name
        case .unreadable(let path, _): path
        }
    }

    /// `cannot read: No such file or directory`.
    public var problem: String? {
        switch self {
        case .read: nil
        case .unreadable(_, let reason): "cannot read: \(reason)"
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .read(let file): file.diagnostics
        case .unreadable: []
        }
    }
}

extension [CheckedFile] {
    var read: [PromotionFile] {
        compactMap { if case .read(let file) = $0 { file } else { nil } }
    }

    var unreadableCount: Int { count { $0.problem != nil } }

    /// `1 error, 0 warnings in 2 files`, and `; 1 could not be read` when so.
    var summary: String {
        let files = read
        return TextReporter.summary(errors: files.errorCount, warnings: files.warningCount, files: count)
            + (unreadableCount > 0 ? "; \(counted(unreadableCount, "file")) could not be read" : "")
    }
}

/// The tool as SARIF names it.
public struct ToolInfo: Sendable {
    public var name: String
    public var version: String
    public var informationURI: String

    public init(name: String, version: String, informationURI: String) {
        self.name = name
        self.version = version
        self.informationURI = informationURI
    }

    /// Checkout's version, everywhere it is shown (`--version`, SARIF).
    public static let version = "2.0.0"

    public static let checkout = ToolInfo(
        name: "checkout", version: ToolInfo.version, informationURI: "https://github.com/checkout-engine/checkout")
}
