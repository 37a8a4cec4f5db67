import Promotions

/// The formats `checkout validate` reports in.
public enum ReporterKind: String, CaseIterable, Sendable {
    /// `FILE:LINE:COL: error: MESSAGE [ID]` and a summary: for people and editors.
    case text
    /// One JSON document (SPEC §8): for scripts.
    case json
    /// GitHub Actions workflow commands: annotations on the pull request's lines.
    case github
    /// JUnit XML, one testcase per promotion: for CI systems with a test-results view.
    case junit
    /// SARIF 2.1.0: for code-scanning dashboards (GitHub code scanning, Azure DevOps, IDEs).
    case sarif

    public func render(_ files: [PromotionFile], tool: ToolInfo = .checkout) -> String {
        switch self {
        case .text: TextReporter.render(files)
        case .json: JSONReporter.render(files)
        case .github: GitHubReporter.render(files)
        case .junit: JUnitReporter.render(files)
        case .sarif: SARIFReporter.render(files, tool: tool)
        }
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

    public static let checkout = ToolInfo(name: "checkout", version: "1.0.0", informationURI: "https://github.com/checkout-engine/checkout")
}
