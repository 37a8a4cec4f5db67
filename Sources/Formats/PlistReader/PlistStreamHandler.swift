/// Receives a property list as it is read.
///
/// The reader walks the file once. Containers the handler chooses to *stream* are announced with
/// `didOpen`/`didClose` and their children arrive one by one through `didRead`; every other value
/// arrives whole (materialized, with its subtree) through `didRead` of its streamed parent. The root
/// value has depth 0 and its parent, `<plist>`, counts as streamed. A `PlistValue` passed to `didRead`
/// stays valid after the call, but the reader reuses its storage when nothing holds it, so keep only
/// what you need.
public protocol PlistStreamHandler: AnyObject {
    /// Whether the container about to open at `depth` should be streamed. `key` is its key when its
    /// parent is a streamed dict.
    func shouldStream(_ kind: PlistKind, depth: Int, key: PlistKey?) -> Bool
    /// A streamed container opened.
    func didOpen(_ kind: PlistKind, at location: SourceLocation, depth: Int, key: PlistKey?)
    /// A complete value whose parent is streamed.
    func didRead(_ value: PlistValue, depth: Int, key: PlistKey?)
    /// A streamed container closed.
    func didClose(_ kind: PlistKind, depth: Int)
    /// A problem. After a fatal one (`issue.isFatal`) nothing else is delivered.
    func didFind(_ issue: PlistIssue)
    /// Whether a second parser should read the rest of the file from the middle on (below).
    func handlerForSecondHalf(of kind: PlistKind, depth: Int, key: PlistKey?) -> PlistStreamHandler?
}

extension PlistStreamHandler {
    /// Asked, when the reader may read a large file with two parsers, right after a streamed
    /// container opened: the handler that should receive everything from the middle of the file on.
    ///
    /// The second parser starts at once, at a line near the middle where one child of this container
    /// ends and the next begins; `self` keeps receiving what comes before that point, the returned
    /// handler what comes after it, each in file order, exactly as one parser would deliver them
    /// (locations included). If the file does not allow it after all, `self` receives everything
    /// and the returned handler is dropped: see ``PlistReading``. Return nil (the default) to read on
    /// with one parser.
    public func handlerForSecondHalf(of kind: PlistKind, depth: Int, key: PlistKey?) -> PlistStreamHandler? { nil }
}

/// How a file was read.
public enum PlistReading {
    /// By one parser: the handler received everything.
    case whole
    /// By two parsers: the handler received everything before the middle, `second` (which it gave
    /// the reader) everything after; merge them.
    case halves(second: PlistStreamHandler)
    /// The second parser found malformed XML, whose libxml2 messages only a parser that read the
    /// whole file words right (they name lines of tags it opened): both handlers received part of the
    /// file; read it again with one parser.
    case readAgainWhole
}
