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
}
