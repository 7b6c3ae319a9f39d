// The session layer speaks in HTTP's shared message types (headers, methods, events,
// idempotency keys, PKCE): an app importing WorkspaceHTTP has them all.
@_exported import HTTPMessages
