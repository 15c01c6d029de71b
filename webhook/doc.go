// Package webhook verifies and decodes the service's webhook deliveries and
// serves them to a receiver's function exactly once per event.
//
// The service POSTs a JSON body {"type", "id", "event", "timestamp",
// "metadata"} to the organization's webhook URL whenever an object reaches a
// new state (no event is sent for PROCESSING), signed like a request: an
// X-TIMESTAMP header and an X-SIGNATURE header computed with the
// organization's own API key and secret over the canonical JSON of the body.
// Deliveries repeat; a receiver deduplicates on id and event.
//
// Verify checks one delivery (the timestamp within 300 s, the signature in
// constant time) and returns its typed Event. Handler wraps a function of
// the receiver in an http.Handler that also caps the body, answers the
// service with the right status codes and runs the function once per event
// through a Deduper. Sign and NewTestDelivery build signed deliveries for a
// receiver's own tests.
package webhook
