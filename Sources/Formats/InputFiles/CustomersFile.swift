import Pricing
import StrictJSON

/// The store's customers, `Customers.json` (docs/store.md, "Customers"):
/// `{"customers": [{"id": "C-17", "groups": ["members"]}]}` — each id a non-empty string, once;
/// `groups` an array of non-empty strings (optional). Other keys are ignored. Ids are compared byte
/// for byte: "José" with a combining accent and "José" with a precomposed é are two customers.
public enum CustomersFile {
    /// The groups of each customer id in the file at `path`.
    public static func load(_ path: String, limit: Int = 1 << 30) throws(InputError) -> [ExactText: [String]] {
        try decode(FileBytes.read(path, limit: limit), name: FileBytes.displayName(path))
    }

    public static func decode(_ bytes: [UInt8], name: String) throws(InputError) -> [ExactText: [String]] {
        let root: JSONValue
        do {
            root = try bytes.withUnsafeBufferPointer { (all) throws(JSONSyntaxError) -> JSONValue in
                try JSONParser().parse(all.droppingByteOrderMark)
            }
        } catch {
            throw InputError(
                file: name, item: "line \(error.line), column \(error.column)", "malformed JSON: \(error.message)")
        }
        guard case .object = root else {
            throw InputError(
                file: name, "the customers file must be a JSON object with \"customers\", not \(root.typeDescription)")
        }
        guard let list = root["customers"] else {
            throw InputError(file: name, "missing \"customers\", the array of customers")
        }
        guard case .array(let elements) = list else {
            throw InputError(
                file: name, item: "customers", "must be an array of customers, not \(list.typeDescription)")
        }
        var groups: [ExactText: [String]] = [:]
        for (index, element) in elements.enumerated() {
            let item = "customers[\(index)]"
            guard case .object = element else {
                throw InputError(
                    file: name, item: item,
                    "a customer must be an object such as {\"id\": \"C-17\", \"groups\": [\"members\"]}, not \(element.typeDescription)"
                )
            }
            guard case .string(let id)? = element["id"], !id.isEmpty else {
                throw InputError(file: name, item: item, "\"id\" must be a non-empty string")
            }
            let shown = "\(item) (\"\(id.forDisplay(limit: String.messageValueLimit))\")"
            guard groups[ExactText(id)] == nil else {
                throw InputError(file: name, item: shown, "the id is repeated; each customer is listed once")
            }
            var list: [String] = []
            if let value = element["groups"] {
                guard case .array(let values) = value else {
                    throw InputError(
                        file: name, item: shown, "\"groups\" must be an array of strings, not \(value.typeDescription)")
                }
                for (position, value) in values.enumerated() {
                    guard case .string(let group) = value, !group.isEmpty else {
                        throw InputError(
                            file: name, item: "\(shown): groups[\(position)]", "a group must be a non-empty string")
                    }
                    list.append(group)
                }
            }
            groups[ExactText(id)] = list
        }
        return groups
    }
}
