// The server answers in HTTP's shared message types (headers, methods, request heads, events):
// a router importing LoopbackHTTPServer has them all.
@_exported import HTTPMessages
