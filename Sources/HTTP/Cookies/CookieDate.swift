import Foundation

/// The `Expires` date algorithm of RFC 6265 §5.1.1: lenient about the form ("Wed, 21 Oct 2015
/// 07:28:00 GMT", "Wednesday, 21-Oct-15 07:28:00 GMT", "Wed Oct 21 07:28:00 2015"), strict
/// about the values (a day that does not exist is no date). Locale-free and allocation-light.
enum CookieDate {
  /// The date `text` names, or `nil` when it names none (the attribute is then ignored).
  static func parse(_ text: String) -> Date? {
    var time: (hour: Int, minute: Int, second: Int)?
    var day: Int?
    var month: Int?
    var year: Int?
    for token in tokens(of: Array(text.utf8)) {
      if time == nil, let parsed = parseTime(token) {
        time = parsed
      } else if day == nil, let parsed = leadingNumber(token, digits: 1...2) {
        day = parsed
      } else if month == nil, let parsed = parseMonth(token) {
        month = parsed
      } else if year == nil, let parsed = leadingNumber(token, digits: 2...4) {
        year = parsed
      }
    }
    guard let time, let day, let month, var year else { return nil }
    if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
    guard year >= 1601, time.hour <= 23, time.minute <= 59, time.second <= 59,
      day >= 1, day <= daysIn(month: month, year: year)
    else { return nil }
    let days = daysSinceEpoch(year: year, month: month, day: day)
    let seconds = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  private static func isDelimiter(_ byte: UInt8) -> Bool {
    byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
      || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
  }

  private static func tokens(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    bytes.split(whereSeparator: isDelimiter)
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// `digits` digits at the start, then a non-digit or the end (`1*2DIGIT ( non-digit *OCTET )`).
  private static func leadingNumber(_ token: ArraySlice<UInt8>, digits: ClosedRange<Int>) -> Int? {
    let count = token.prefix(while: isDigit).count
    guard digits.contains(count) else { return nil }
    return token.prefix(count).reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
  }

  /// `hms-time ( non-digit *OCTET )`, each field one or two digits.
  private static func parseTime(_ token: ArraySlice<UInt8>) -> (Int, Int, Int)? {
    var fields: [Int] = []
    var rest = token[...]
    for index in 0..<3 {
      guard let value = leadingNumber(rest, digits: 1...2) else { return nil }
      fields.append(value)
      rest = rest.dropFirst(rest.prefix(while: isDigit).count)
      if index < 2 {
        guard rest.first == UInt8(ascii: ":") else { return nil }
        rest = rest.dropFirst()
      }
    }
    return (fields[0], fields[1], fields[2])
  }

  private static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]

  private static func parseMonth(_ token: ArraySlice<UInt8>) -> Int? {
    guard token.count >= 3 else { return nil }
    let prefix = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
    return months.firstIndex(of: prefix).map { $0 + 1 }
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to the proleptic Gregorian date (H. Hinnant's `days_from_civil`).
  private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
