import PlistReader

/// Records what the reader delivers, as plain values, for assertions.
final class Recorder: PlistStreamHandler {
    /// A materialized value rendered as `kind@line:col(text)[children]`.
    var values: [String] = []
    var events: [String] = []
    var issues: [PlistIssue] = []
    let stream: (PlistKind, Int, PlistKey?) -> Bool

    init(stream: @escaping (PlistKind, Int, PlistKey?) -> Bool = { _, depth, _ in depth == 0 }) {
        self.stream = stream
    }

    func shouldStream(_ kind: PlistKind, depth: Int, key: PlistKey?) -> Bool { stream(kind, depth, key) }

    func didOpen(_ kind: PlistKind, at location: SourceLocation, depth: Int, key: PlistKey?) {
        events.append("open \(kind)@\(location) depth \(depth)" + (key.map { " key \($0.name)@\($0.location)" } ?? ""))
    }

    func didRead(_ value: PlistValue, depth: Int, key: PlistKey?) {
        values.append(render(value))
        events.append("value depth \(depth)" + (key.map { " key \($0.name)@\($0.location)" } ?? ""))
    }

    func didClose(_ kind: PlistKind, depth: Int) { events.append("close \(kind) depth \(depth)") }

    func didFind(_ issue: PlistIssue) { issues.append(issue) }

    func render(_ value: PlistValue) -> String {
        var out = "\(value.kind)@\(value.location)"
        if value.kind.isContainer {
            out += "[" + value.children.map(render).joined(separator: ",") + "]"
        } else if !value.text.isEmpty {
            out += "(\(value.text))"
        }
        return out
    }
}

func read(
    _ xml: String, stream: @escaping (PlistKind, Int, PlistKey?) -> Bool = { _, depth, _ in depth == 0 },
    limits: PlistLimits = .default
) -> Recorder {
    let recorder = Recorder(stream: stream)
    PlistStreamReader.read(bytes: Array(xml.utf8), name: "test.plist", limits: limits, handler: recorder)
    return recorder
}

let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

    """
