import Promotions
import StrictJSON

/// SARIF 2.1.0: one run, every diagnostic rule listed in the driver, one result per diagnostic with
/// its rule, level, message and region, and its notes as related locations.
public enum SARIFReporter {
    public static func render(_ checked: [CheckedFile], tool: ToolInfo) -> String {
        let out = JSONWriter(pretty: true)
        // Every member is a string, an integer, a boolean or a container: encoding cannot fail.
        out.write(try! JSONValueEncoder().encode(SARIFLog(checked, tool: tool)))
        return out.text + "\n"
    }

    /// A relative path as a relative URI reference; an absolute one as a `file://` URI. Characters
    /// outside the unreserved set and `/` are percent-encoded.
    static func uri(_ path: String) -> String {
        var out = path.hasPrefix("/") ? "file://" : ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}

/// The SARIF 2.1.0 log `validate --format sarif` writes: one run, every diagnostic rule listed in
/// the driver, one result per diagnostic with its rule, level, message and region, and its notes as
/// related locations; a file that could not be read is a failed invocation's notification.
struct SARIFLog: Encodable {
    var schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var version = "2.1.0"
    var runs: [Run]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, runs
    }

    struct Run: Encodable {
        var tool: Tool
        /// Columns count characters (code points), as every reporter's do.
        var columnKind = "unicodeCodePoints"
        var invocations: [Invocation]
        var artifacts: [Artifact]
        var results: [Result]
    }

    struct Tool: Encodable {
        var driver: Driver
    }

    struct Driver: Encodable {
        var name: String
        var version: String
        var informationUri: String
        var rules: [Rule]
    }

    struct Rule: Encodable {
        var id: String
        var shortDescription: Message
        var defaultConfiguration: Configuration
    }

    struct Configuration: Encodable {
        var level: String
    }

    struct Message: Encodable {
        var text: String
    }

    struct Invocation: Encodable {
        var executionSuccessful: Bool
        var toolExecutionNotifications: [Notification]
    }

    struct Notification: Encodable {
        var level: String
        var message: Message
        var locations: [Location]
        var descriptor: Descriptor
    }

    struct Descriptor: Encodable {
        var id: String
    }

    struct Artifact: Encodable {
        var location: ArtifactLocation
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        /// The artifact's position in the run's `artifacts`.
        var index: Int?
    }

    struct Location: Encodable {
        var physicalLocation: PhysicalLocation
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
    }

    struct RelatedLocation: Encodable {
        var id: Int
        var physicalLocation: PhysicalLocation
        var message: Message
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Message
        var locations: [Location]
        var relatedLocations: [RelatedLocation]?
        var properties: Properties?
    }

    struct Properties: Encodable {
        var promotion: String
    }

    init(_ checked: [CheckedFile], tool: ToolInfo) {
        let rules = DiagnosticRule.allCases
        let files = checked.read
        func place(_ file: String, index: Int, line: Int, column: Int) -> PhysicalLocation {
            PhysicalLocation(
                artifactLocation: ArtifactLocation(uri: SARIFReporter.uri(file), index: index),
                region: Region(startLine: line, startColumn: column))
        }
        var results: [Result] = []
        for (index, file) in files.enumerated() {
            for d in file.diagnostics {
                results.append(
                    Result(
                        // Every rule is listed, so the index exists.
                        ruleId: d.id, ruleIndex: rules.firstIndex(of: d.rule)!, level: d.severity.rawValue,
                        message: Message(text: d.message),
                        locations: [
                            Location(
                                physicalLocation: place(
                                    file.name, index: index, line: d.location.line, column: d.location.column))
                        ],
                        relatedLocations: d.notes.isEmpty
                            ? nil
                            : d.notes.enumerated().map { number, note in
                                RelatedLocation(
                                    id: number + 1,
                                    physicalLocation: place(
                                        file.name, index: index, line: note.location.line,
                                        column: note.location.column),
                                    message: Message(text: note.message))
                            },
                        properties: d.promotion.map(Properties.init)))
            }
        }
        // A file that could not be read: the run did not fully succeed, and says why.
        let notifications = checked.filter { $0.problem != nil }.map { file in
            Notification(
                level: "error", message: Message(text: "\(file.name): \(file.problem ?? "")"),
                locations: [
                    Location(
                        physicalLocation: PhysicalLocation(
                            artifactLocation: ArtifactLocation(uri: SARIFReporter.uri(file.name))))
                ],
                descriptor: Descriptor(id: "file.unreadable"))
        }
        runs = [
            Run(
                tool: Tool(
                    driver: Driver(
                        name: tool.name, version: tool.version, informationUri: tool.informationURI,
                        rules: rules.map {
                            Rule(
                                id: $0.id, shortDescription: Message(text: $0.summary),
                                defaultConfiguration: Configuration(level: $0.severity.rawValue))
                        })),
                invocations: [
                    Invocation(
                        executionSuccessful: checked.unreadableCount == 0, toolExecutionNotifications: notifications)
                ],
                artifacts: files.map { Artifact(location: ArtifactLocation(uri: SARIFReporter.uri($0.name))) },
                results: results)
        ]
    }
}
