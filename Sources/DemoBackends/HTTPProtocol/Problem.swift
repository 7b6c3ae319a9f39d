extension DemoAPI {
  /// A refusal (RFC 9457, `application/problem+json`): its status, a stable ``code`` for
  /// clients, and a sentence for people. A head mismatch carries the heads.
  ///
  /// ```json
  /// {"status":412,"code":"head_moved","title":"The branch moved",
  ///  "detail":"published moved from r1 to r2","branch":"published","expected":"r1","actual":"r2"}
  /// ```
  public struct Problem: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The codes clients act on.
    public enum Code: String, Codable, Sendable {
      /// No live session (401).
      case signedOut = "signed_out"
      /// A mutation without the session's CSRF token (403).
      case csrf
      /// The grant named is not honoured for this session (403).
      case grantInvalid = "grant_invalid"
      /// The admission policy refuses this account (403).
      case admissionDenied = "admission_denied"
      /// Wrong username or password (401 on the login form).
      case badCredentials = "bad_credentials"
      /// The sign-in door's request is unknown, spent or malformed (400).
      case invalidRequest = "invalid_request"
      /// No such branch, revision or proposal (404).
      case notFound = "not_found"
      /// The branch moved away from the proposal's base (412).
      case headMoved = "head_moved"
      /// Merging needs a reviewer (an account the policy lets author) (403).
      case notReviewer = "not_reviewer"
      /// The proposal is not open (409).
      case notOpen = "not_open"
      /// The proposal changes events its branch changed since its base: not merged (409).
      case mergeConflict = "merge_conflict"
      /// The body could not be read (400).
      case invalidBody = "invalid_body"
      /// Anything else.
      case other
    }

    public var status: Int
    public var code: Code
    public var title: String
    public var detail: String
    public var branch: String?
    public var expected: String?
    public var actual: String?

    public init(
      status: Int, code: Code, title: String, detail: String, branch: String? = nil,
      expected: String? = nil, actual: String? = nil
    ) {
      self.status = status
      self.code = code
      self.title = title
      self.detail = detail
      self.branch = branch
      self.expected = expected
      self.actual = actual
    }

    /// `application/problem+json`.
    public static let contentType = "application/problem+json"

    public var description: String { detail }

    enum CodingKeys: String, CodingKey {
      case status, code, title, detail, branch, expected, actual
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      status = try container.decode(Int.self, forKey: .status)
      // An unknown code (a newer server) is still a problem, of kind `other`.
      code = (try? container.decode(Code.self, forKey: .code)) ?? .other
      title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
      detail = try container.decodeIfPresent(String.self, forKey: .detail) ?? title
      branch = try container.decodeIfPresent(String.self, forKey: .branch)
      expected = try container.decodeIfPresent(String.self, forKey: .expected)
      actual = try container.decodeIfPresent(String.self, forKey: .actual)
    }
  }
}
