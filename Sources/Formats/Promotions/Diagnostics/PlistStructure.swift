import PlistReader

extension Diagnostic {
    static func plistStructure(_ message: String, at location: SourceLocation, promotion: String? = nil) -> Diagnostic {
        Diagnostic(.plistStructure, message, at: location, promotion: promotion)
    }
}
