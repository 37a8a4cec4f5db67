/// A handler whose work on a large file can be split between two parsers reading at once
/// (``PlistHalves``): the first half's handler is this one, the second half's one it makes.
public protocol PlistHalvingHandler: PlistStreamHandler {
    /// Asked right after a streamed container opened: the handler that should receive everything
    /// from the middle of the file on, or nil to read on with one parser.
    ///
    /// The second parser starts at once, at a line near the middle where one child of this container
    /// ends and the next begins; `self` keeps receiving what comes before that point, the returned
    /// handler what comes after it, each in file order, exactly as one parser would deliver them
    /// (locations included). If the file does not allow it after all, `self` receives everything and
    /// the returned handler is dropped.
    func handlerForSecondHalf(of kind: PlistKind, depth: Int, key: PlistKey?) -> Self?

    /// Takes in what `second`, the second half's handler, received: this handler then holds what it
    /// would hold had one parser delivered it the whole file.
    func absorb(_ second: Self)
}

/// Reading a large property list with two parsers at once, around the plain reader
/// (``PlistStreamReader``): the second parser starts at a line near the middle where one child of a
/// streamed container ends and the next begins, with the first parser's open elements given ahead of
/// it; the first parser proves the cut (a child must end exactly there) or the second half is dropped
/// and the first reads on; if the second half meets malformed XML, the file is read again by one
/// parser, whose libxml2 messages name the right lines. What the handler holds in the end is exactly
/// what one parser gives (docs/performance.md, "The promotions file").
public enum PlistHalves {
    /// Files smaller than this are best read by one parser: a second thread would not pay for itself.
    public static let threshold = 1 << 20

    /// Reads the file at `path` into a handler `makeHandler` makes: by two parsers when it is a
    /// regular file of at least `from` bytes (nil: never) and the handler splits it, else by one.
    /// Returns the handler that holds the whole file, and whether two parsers read it. `whenParsed`
    /// is called once the file's bytes are parsed, before the halves are merged: the moment from
    /// which a core is free for other work.
    ///
    /// - Throws: ``PlistFileError`` when the file cannot be opened or read.
    public static func read<Handler: PlistHalvingHandler>(
        contentsOf path: String, limits: PlistLimits = .default, from: Int?, makeHandler: () -> Handler,
        whenParsed: () -> Void = {}
    ) throws(PlistFileError) -> (handler: Handler, halves: Bool) {
        try read(from: from, makeHandler: makeHandler, whenParsed: whenParsed) {
            (handler, halving, engine) throws(PlistFileError) in
            try PlistStreamReader.read(
                contentsOf: path, limits: limits, handler: handler, halving: halving, engine: engine)
        }
    }

    /// As ``read(contentsOf:limits:from:makeHandler:)``, for a property list held in memory; `name`
    /// stands for the file in messages.
    public static func read<Handler: PlistHalvingHandler>(
        bytes: [UInt8], name: String, limits: PlistLimits = .default, from: Int?, makeHandler: () -> Handler,
        whenParsed: () -> Void = {}
    ) -> (handler: Handler, halves: Bool) {
        bytes.withUnsafeBytes { bytes in
            read(from: from, makeHandler: makeHandler, whenParsed: whenParsed) { handler, halving, engine in
                PlistStreamReader.read(
                    bytes: bytes, name: name, limits: limits, handler: handler, halving: halving, engine: engine)
            }
        }
    }

    private static func read<Handler: PlistHalvingHandler, E: Error>(
        from: Int?, makeHandler: () -> Handler, whenParsed: () -> Void,
        _ reading: (Handler, PlistStreamReader.Halving?, PlistStreamReader.Engine) throws(E) ->
            PlistStreamReader.Reading
    ) throws(E) -> (handler: Handler, halves: Bool) {
        func halving(for handler: Handler) -> PlistStreamReader.Halving? {
            from.map { from in
                PlistStreamReader.Halving(from: from) { [unowned handler] kind, depth, key in
                    handler.handlerForSecondHalf(of: kind, depth: depth, key: key)
                }
            }
        }
        // The scanner without its first pass: a handler is made again if it meets what it leaves
        // to libxml2 (docs/performance.md, "The promotions file").
        var handler = makeHandler()
        var outcome = try reading(handler, halving(for: handler), .scannerSpeculative)
        if case .readAgainWithLibxml2 = outcome {
            handler = makeHandler()
            outcome = try reading(handler, halving(for: handler), .libxml2)
        }
        whenParsed()
        switch outcome {
        case .whole:
            return (handler, false)
        case .halves(let second):
            handler.absorb(second as! Handler)
            return (handler, true)
        case .readAgainWhole, .readAgainWithLibxml2:
            let again = makeHandler()
            _ = try reading(again, nil, .scannerFirst)
            return (again, false)
        }
    }
}
