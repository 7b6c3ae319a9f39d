import Foundation
import HTTPMessages

/// The status line and header section of a response, as bytes.
enum ResponseHead {
  /// `contentLength` `nil`: a body delimited by closing the connection (event streams).
  static func serialize(status: Int, headers: HTTPHeaders, contentLength: Int?, close: Bool)
    -> Data
  {
    var text = "HTTP/1.1 \(status) \(reason(for: status))\r\n"
    for field in headers {
      let name = field.name.lowercased()
      guard name != "content-length", name != "transfer-encoding", name != "connection" else {
        continue
      }
      text += "\(field.name): \(field.value)\r\n"
    }
    if let contentLength { text += "Content-Length: \(contentLength)\r\n" }
    text += close ? "Connection: close\r\n" : "Connection: keep-alive\r\n"
    text += "\r\n"
    return Data(text.utf8)
  }

  static func reason(for status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 102: "Processing"
    case 200: "OK"
    case 201: "Created"
    case 202: "Accepted"
    case 204: "No Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 413: "Content Too Large"
    case 422: "Unprocessable Content"
    case 428: "Precondition Required"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    default: "Status \(status)"
    }
  }
}
