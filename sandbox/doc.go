// Package sandbox is the fiatramp service in memory: every documented
// operation with its authentication, its rules and its messages,
// backed by real state, for tests, examples and local development.
//
// A Sandbox is an http.Handler. NewServer serves one on a loopback port for
// a Go test; `fiatramp sandbox` (cmd/fiatramp) serves one for programs in
// any language. What the interface cannot create (organizations,
// remitters) is added through the fixture methods (AddOrganization,
// AddRemitter, ...) or loaded from JSON (Load); customers, bank accounts
// and payout quotations are created through the interface as a caller
// creates them, or added as fixtures in the state a test needs (a
// customer already VERIFIED, a quotation with its own rate and expiry).
//
// The sandbox has its own clock (SetTime, Advance), so quotation expiry,
// the 300-second signature window and webhook retries (DeliverDue) are
// testable without sleeping, and it can
// inject faults (InjectFault) so a caller's retry logic meets 429s, 5xx and
// dropped connections on demand. A Sandbox is safe for concurrent use.
//
// A Server started WithControl also serves these fixture, fault, clock and
// state methods as JSON over HTTP under ControlPrefix, guarded by an admin
// token, so that tests in any language can drive `fiatramp sandbox -control`.
//
// # What the sandbox shares with the client, and what it does not
//
// The sandbox is there to check the client, so it re-implements on purpose
// every rule a client bug could hide behind. Where the sandbox agreed with
// the client only because both ran the same code, a test through the
// sandbox would prove nothing.
//
// Re-implemented on purpose (a second opinion, not a copy):
//
//   - The signature. The sandbox computes the HMAC-SHA256 of
//     key|timestamp|body with crypto/hmac (auth.go), not with the client's
//     fiatramp.Sign, which computes the same HMAC by hand for speed. It
//     checks every request's X-SIGNATURE with it and signs every webhook
//     it sends with it, so the client's signer and the webhook package's
//     verifier are each checked against an independent implementation.
//   - Field reading (fields.go): the service's REST framework rules for a
//     body, written from the service's behaviour: required, null and blank,
//     a string from a number, 36- or 32-character uuids, decimals from a
//     string or a number with the framework's length and digit caps, the
//     framework's messages, field errors under dotted names. The client
//     validates its own requests and decodes the answers with its own
//     readers (package types); neither is used here.
//   - Replies (replies.go and each resource's file): the envelope and every
//     answer's data are the sandbox's own structs, written with
//     encoding/json, and never the client's result types, so a member the
//     client reads under a wrong name fails its tests.
//   - The route table (routes.go): the sandbox's own list of the service's
//     operations, with method and path template. A test compares it with
//     the client's operations and names any the sandbox does not serve.
//
// Shared on purpose:
//
//   - Canonical JSON: fiatramp.CanonicalizeJSON decides whether a request
//     body is in canonical form (else AUTH_INVALID_SIGNATURE) and writes
//     the webhook bodies. It is the one reference of the rule, checked
//     byte for byte against Python's json.dumps(sort_keys=True,
//     separators=(",", ":")) by the root package's differential tests and
//     fuzz targets; a second canonicalizer would be a second thing to keep
//     identical to Python, and a disagreement between the two could only
//     be settled by Python anyway. The sandbox's authentication tests
//     send bodies written by hand, signed by python3 and by an HMAC
//     written in the test, so that they depend on no code of the client.
//   - The enums of package types (PayoutStatus, KYCStatus, PaymentMethod,
//     ...): the names of the documented values, which the sandbox must
//     spell as the service does.
//   - Server.Client, a convenience that returns a fiatramp.Client pointed
//     at the server.
package sandbox
