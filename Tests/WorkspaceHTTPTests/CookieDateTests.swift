import Foundation
import Testing

@testable import WorkspaceHTTP

@Suite("Cookie dates (RFC 6265 §5.1.1)")
struct CookieDateTests {
  @Test(arguments: [
    ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777),  // IMF-fixdate
    ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),  // RFC 850
    ("Sun Nov  6 08:49:37 1994", 784_111_777),  // asctime
    ("Wed, 21 Oct 2015 07:28:00 GMT", 1_445_412_480),
    ("wed, 21-oct-2015 07:28:00 gmt", 1_445_412_480),
    ("Tue, 29 Feb 2000 12:00:00 GMT", 951_825_600),
    ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
    ("01 Jan 69 00:00:00", 3_124_224_000),  // two-digit years 0–69 are 20xx
    ("Mon, 01 Jan 1601 00:00:00 GMT", -11_644_473_600),
  ])
  func parsesTheFormsServersSend(text: String, epochSeconds: Int) {
    #expect(CookieDate.parse(text) == Date(timeIntervalSince1970: TimeInterval(epochSeconds)))
  }

  @Test(arguments: [
    "",
    "tomorrow",
    "Wed, 30 Feb 2015 07:28:00 GMT",  // no such day
    "Wed, 32 Oct 2015 07:28:00 GMT",
    "Wed, 21 Oct 2015 24:00:00 GMT",
    "Wed, 21 Oct 2015 07:60:00 GMT",
    "Wed, 21 Oct 1600 07:28:00 GMT",  // before 1601
    "Wed, 21 Oct 2015 GMT",  // no time
    "Wed, 21 2015 07:28:00 GMT",  // no month
    "Wed, Oct 07:28:00 GMT",  // no day or year
    "Wed, 21 Foo 2015 07:28:00 GMT",
  ])
  func refusesWhatIsNoDate(text: String) {
    #expect(CookieDate.parse(text) == nil)
  }
}
