import Foundation

/// Renders a value as indented lines for readable diffs: one property, element or case per
/// line. For diagnostics only — `TestStore` failures and `_printChanges` — never a hot path:
/// it reflects with `Mirror`.
package enum StateDump {
  /// `value` rendered one property, element or case per line.
  package static func lines(of value: Any) -> [String] {
    var lines: [String] = []
    append(value, label: nil, indent: 0, to: &lines)
    if let last = lines.indices.last, lines[last].hasSuffix(",") {
      lines[last].removeLast()
    }
    return lines
  }

  private static func append(_ value: Any, label: String?, indent: Int, to lines: inout [String]) {
    let pad = String(repeating: "  ", count: indent)
    let prefix = pad + (label.map { "\($0): " } ?? "")
    let mirror = Mirror(reflecting: value)

    if let leaf = leafDescription(value, mirror: mirror) {
      lines.append(prefix + leaf + (indent > 0 ? "," : ""))
      return
    }
    let children = Array(mirror.children)
    let (open, close): (String, String)
    switch mirror.displayStyle {
    case .optional:
      if let wrapped = children.first?.value {
        append(wrapped, label: label, indent: indent, to: &lines)
      } else {
        lines.append(prefix + "nil" + (indent > 0 ? "," : ""))
      }
      return
    case .collection, .set:
      (open, close) = ("[", "]")
    case .dictionary:
      (open, close) = ("[", "]")
    case .tuple:
      (open, close) = ("(", ")")
    case .enum:
      let caseName = children.first?.label ?? String(describing: value)
      guard let payload = children.first?.value else {
        lines.append(prefix + ".\(caseName)" + (indent > 0 ? "," : ""))
        return
      }
      let payloadMirror = Mirror(reflecting: payload)
      if payloadMirror.displayStyle == .tuple {
        lines.append(prefix + ".\(caseName)(")
        for child in payloadMirror.children {
          append(
            child.value, label: child.label.flatMap(tupleLabel), indent: indent + 1, to: &lines)
        }
      } else {
        lines.append(prefix + ".\(caseName)(")
        append(payload, label: nil, indent: indent + 1, to: &lines)
      }
      lines.append(pad + ")" + (indent > 0 ? "," : ""))
      return
    default:
      (open, close) = ("\(typeName(value))(", ")")
    }
    if children.isEmpty {
      lines.append(prefix + open + close + (indent > 0 ? "," : ""))
      return
    }
    lines.append(prefix + open)
    var rendered: [(String?, Any)] = children.map { ($0.label, $0.value) }
    if mirror.displayStyle == .dictionary {
      rendered = children.map { child -> (String?, Any) in
        let pair = Array(Mirror(reflecting: child.value).children)
        let key = pair.first.map { describeKey($0.value) } ?? "?"
        return (key, pair.last?.value ?? ())
      }
      .sorted { ($0.0 ?? "") < ($1.0 ?? "") }
    } else if mirror.displayStyle == .set {
      rendered.sort { String(describing: $0.1) < String(describing: $1.1) }
    }
    for (childLabel, childValue) in rendered {
      let shown = mirror.displayStyle == .tuple ? childLabel.flatMap(tupleLabel) : childLabel
      append(childValue, label: shown, indent: indent + 1, to: &lines)
    }
    lines.append(pad + close + (indent > 0 ? "," : ""))
  }

  private static func leafDescription(_ value: Any, mirror: Mirror) -> String? {
    switch value {
    case let string as String: return string.debugDescription
    case let character as Character: return String(character).debugDescription
    case is Bool, is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16,
      is UInt32, is UInt64, is Double, is Float:
      return "\(value)"
    case let date as Date: return "Date(\(date.timeIntervalSince1970))"
    case let uuid as UUID: return "UUID(\(uuid.uuidString))"
    case let url as URL: return "URL(\(url.absoluteString))"
    case let data as Data: return "Data(\(data.count) bytes)"
    case let duration as Duration: return "\(duration)"
    default: break
    }
    if mirror.children.isEmpty, mirror.displayStyle != .collection, mirror.displayStyle != .set,
      mirror.displayStyle != .dictionary, mirror.displayStyle != .enum,
      mirror.displayStyle != .struct, mirror.displayStyle != .class
    {
      return String(describing: value)
    }
    if mirror.displayStyle == .class, let object = value as? CustomStringConvertible,
      mirror.children.isEmpty
    {
      return object.description
    }
    return nil
  }

  private static func describeKey(_ key: Any) -> String {
    (key as? String)?.debugDescription ?? String(describing: key)
  }

  /// Unnamed tuple elements are reflected as ".0", ".1"; show them without labels.
  private static func tupleLabel(_ label: String) -> String? {
    label.hasPrefix(".") ? nil : label
  }

  private static func typeName(_ value: Any) -> String {
    let full = String(reflecting: type(of: value))
    // Drop the module prefix, and the anonymous context of a private type:
    // "MyModule.(unknown context at $10e4c).Feature.State" -> "Feature.State".
    return full.split(separator: ".", omittingEmptySubsequences: false)
      .dropFirst(full.contains(".") ? 1 : 0)
      .filter { !$0.hasPrefix("(unknown context at ") }
      .joined(separator: ".")
  }
}
