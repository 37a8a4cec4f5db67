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

/// A value under construction: a container's children are nodes filled in later.
private final class Node {
    enum Content {
        case unset
        case value(JSONValue)
        case object([(String, Node)])
        case array([Node])
    }

    var content = Content.unset

    var value: JSONValue {
        switch content {
        case .unset: .null
        case .value(let value): value
        case .object(let members): .object(members.map { (key: $0.0, value: $0.1.value) })
        case .array(let elements): .array(elements.map(\.value))
        }
    }

    func member(_ key: String) -> Node {
        if case .object = content {} else { content = .object([]) }
        guard case .object(var members) = content else { return self }
        if let existing = members.first(where: { $0.0 == key }) { return existing.1 }
        let node = Node()
        members.append((key, node))
        content = .object(members)
        return node
    }

    func element() -> Node {
        if case .array = content {} else { content = .array([]) }
        guard case .array(var elements) = content else { return self }
        let node = Node()
        elements.append(node)
        content = .array(elements)
        return node
    }

    func set(_ value: JSONValue) { content = .value(value) }
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
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
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
        guard case .array(let elements) = node.content else { return 0 }
        return elements.count
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
