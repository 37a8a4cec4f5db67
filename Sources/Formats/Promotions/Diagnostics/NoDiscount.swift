import PlistReader

extension Diagnostic {
    static func noDiscount(_ reason: String, at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(.noDiscount, "\(reason): the promotion never lowers its price", at: location, promotion: promotion)
    }
}
