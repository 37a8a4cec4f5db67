/// Turns an `Encodable` value into a ``JSONValue``, members in the order the value encodes them:
/// reports are typed values (`Codable` structs, as GRDB and the SARIF schema model them) written
/// by ``JSONWriter``, which decides the layout. Optionals that are nil are left out, as the
/// synthesized `encode(to:)` does with `encodeIfPresent`.
public struct JSONValueEncoder {
    public init() {}

    public func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node()
        try value.encode(to: TreeEncoder(node: root, codingPath: []))
        return root.value
    }
}

extension JSONWriter {
    /// Writes `value` as it is.
    public func write(_ value: JSONValue) {
        switch value {
        case .object(let members):
            object { for member in members { self.member(member.key) { self.write(member.value) } } }
        case .array(let elements): array(elements) { self.write($0) }
        case .string(let text): string(text)
        case .number(let text): raw(text)
        case .bool(let flag): raw(flag ? "true" : "false")
        case .null: raw("null")
        }
    }
}

/// A value under construction: a container's children are nodes filled in later. Children are
/// kept in the node's own arrays, appended in place: a container of n elements costs O(n) (an
/// enum payload taken out, appended to and put back was copied on every append: O(n²)).
private final class Node {
    enum Kind {
        case unset, value, object, array
    }

    var kind = Kind.unset
    var scalar = JSONValue.null
    var members: [(String, Node)] = []
    var elements: [Node] = []

    var value: JSONValue {
        switch kind {
        case .unset: .null
        case .value: scalar
        case .object: .object(members.map { (key: $0.0, value: $0.1.value) })
        case .array: .array(elements.map(\.value))
        }
    }

    /// The member `key` of this node, made an object (emptied) if it was not one.
    func member(_ key: String) -> Node {
        become(.object)
        if let existing = members.first(where: { $0.0 == key }) { return existing.1 }
        let node = Node()
        members.append((key, node))
        return node
    }

    /// A new last element of this node, made an array (emptied) if it was not one.
    func element() -> Node {
        become(.array)
        let node = Node()
        elements.append(node)
        return node
    }

    func set(_ value: JSONValue) {
        become(.value)
        scalar = value
    }

    /// Makes this node a container or value of `kind`, emptied if it was another kind.
    func become(_ kind: Kind) {
        guard self.kind != kind else { return }
        self.kind = kind
        scalar = .null
        members = []
        elements = []
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ index: Int) {
        stringValue = String(index)
        intValue = index
    }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}

private struct TreeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.become(.object)
        return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.become(.array)
        return Unkeyed(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
}

/// Scalars as JSON values: integers as their digits, strings as strings; floating-point numbers
/// are refused (reports carry exact amounts as strings).
private func scalar(_ value: some Encodable, at node: Node, codingPath: [any CodingKey]) throws {
    switch value {
    case let text as String: node.set(.string(text))
    case let flag as Bool: node.set(.bool(flag))
    case let number as any BinaryInteger: node.set(.number(String(describing: number)))
    case is Float, is Double:
        throw EncodingError.invalidValue(
            value, .init(codingPath: codingPath, debugDescription: "a binary float has no exact JSON text here"))
    default: try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
    }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).set(.null) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try scalar(value, at: node.member(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.member("super"), codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int {
        node.kind == .array ? node.elements.count : 0
    }

    mutating func encodeNil() throws { node.element().set(.null) }

    mutating func encode(_ value: some Encodable) throws {
        let path = codingPath + [IndexKey(count)]
        try scalar(value, at: node.element(), codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        TreeEncoder(node: node.element(), codingPath: codingPath + [IndexKey(count)]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        TreeEncoder(node: node.element(), codingPath: codingPath + [IndexKey(count)]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.element(), codingPath: codingPath) }
}

private struct Single: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(.null) }
    mutating func encode(_ value: some Encodable) throws { try scalar(value, at: node, codingPath: codingPath) }
}
