package webhook

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
)

// Type is the kind of object a webhook event is about. A value this package
// does not list decodes unchanged; see IsKnown.
type Type string

// Object types of webhook events.
const (
	// TypeCustomer is an event about a customer's KYC.
	TypeCustomer Type = "CUSTOMER"
	// TypeBank is an event about a bank account's verification.
	TypeBank Type = "BANK"
	// TypePayin is an event about a payin.
	TypePayin Type = "PAYIN"
	// TypePayout is an event about a payout.
	TypePayout Type = "PAYOUT"
	// TypeEDD is an event about an enhanced due diligence check.
	TypeEDD Type = "EDD"
)

// Values returns every documented object type. The slice is new on every
// call.
func (Type) Values() []Type {
	l := typeList()
	return l[:]
}

// IsKnown reports whether t is one of the documented object types (compared
// exactly, case-sensitively).
func (t Type) IsKnown() bool {
	l := typeList()
	return slices.Contains(l[:], t)
}

// typeList is every documented Type: the one list Values and IsKnown
// derive from.
func typeList() [5]Type {
	return [...]Type{TypeCustomer, TypeBank, TypePayin, TypePayout, TypeEDD}
}

// Events returns the events documented for objects of type t (nil for an
// unknown type). The slice is new on every call.
func (t Type) Events() []EventName {
	switch t {
	case TypeCustomer, TypeBank, TypeEDD:
		return []EventName{EventVerified, EventFailed}
	case TypePayout:
		return []EventName{EventSuccess, EventFailed, EventRefunded, EventInReview}
	case TypePayin:
		return []EventName{EventSuccess, EventFailed, EventRefunded, EventRefundInitiated, EventOnHold}
	}
	return nil
}

// EventName is the new state an event reports. A value this package does
// not list decodes unchanged; see IsKnown. No event is sent for PROCESSING.
type EventName string

// Event names: the states that are announced.
const (
	// EventVerified: a customer's KYC, a bank account or an EDD check passed
	// (types CUSTOMER, BANK, EDD).
	EventVerified EventName = "VERIFIED"
	// EventFailed: the check, payout or payin failed (every type);
	// Metadata.FailureReason usually says why.
	EventFailed EventName = "FAILED"
	// EventSuccess: the payout was paid or the payin received (types PAYOUT,
	// PAYIN); Metadata.UTR usually carries the bank reference.
	EventSuccess EventName = "SUCCESS"
	// EventRefunded: the payout or payin was refunded (types PAYOUT, PAYIN);
	// Metadata.RefundReason may say why.
	EventRefunded EventName = "REFUNDED"
	// EventInReview: the payout is held for review (type PAYOUT);
	// Metadata.RFILink may point to a request for information.
	EventInReview EventName = "IN_REVIEW"
	// EventRefundInitiated: the return of a failed payin has begun (type
	// PAYIN); Metadata.RefundReason says why.
	EventRefundInitiated EventName = "REFUND_INITIATED"
	// EventOnHold: the payin is held for review (type PAYIN).
	EventOnHold EventName = "ON_HOLD"
)

// Values returns every documented event name. The slice is new on every
// call.
func (EventName) Values() []EventName {
	l := eventNameList()
	return l[:]
}

// eventNameList is every documented EventName: the one list Values and
// IsKnown derive from.
func eventNameList() [7]EventName {
	return [...]EventName{EventVerified, EventFailed, EventSuccess, EventRefunded, EventInReview, EventRefundInitiated, EventOnHold}
}

// IsKnown reports whether e is a documented event name of any type
// (compared exactly, case-sensitively). Event.IsKnown also checks that the
// event is documented for the event's type.
func (e EventName) IsKnown() bool {
	l := eventNameList()
	return slices.Contains(l[:], e)
}

// Event is one verified webhook delivery: body
// {"type", "id", "event", "timestamp", "metadata"}.
type Event struct {
	// Type is the kind of object, e.g. TypePayout.
	Type Type
	// ID is the object's id exactly as sent (for a payout, its payout id).
	ID string
	// Event is the object's new state, e.g. EventSuccess.
	Event EventName
	// Timestamp is when the service says the state changed; the zero time
	// when the body has none (null or absent).
	Timestamp time.Time
	// Metadata holds the details of the change.
	Metadata Metadata
}

// Metadata is the "metadata" object of an event. The fields this package
// knows are typed (nil when absent or null); Raw keeps the whole object.
type Metadata struct {
	FailureReason *string // "failure_reason"
	UTR           *string // "utr": the bank's reference of a payment
	RFILink       *string // "rfi_link": where to answer a request for information
	RefundReason  *string // "refund_reason"
	// ClientReferenceID is "client_reference_id": the reference the
	// payout or payin was created under, when the service sends it. It
	// ties an event to the caller's own record even when the create's
	// answer was lost and the object's id never learned.
	ClientReferenceID *string
	// Raw is the metadata object as the service reads it: its canonical
	// JSON (keys sorted, the last of duplicate keys kept, non-ASCII
	// escaped). Nil when the body has no metadata or metadata is null.
	// Members the fields above do not take are kept here unread, even
	// NaN or Infinity, which Python writes but encoding/json cannot read.
	Raw json.RawMessage
}

// IsKnown reports whether the event's type is documented and its event is
// documented for that type.
func (e Event) IsKnown() bool {
	for _, n := range e.Type.Events() {
		if n == e.Event {
			return true
		}
	}
	return false
}

// DedupeKey returns the key that identifies the event for deduplication:
// type, event and id, each path-escaped and joined by "/" (for example
// "PAYOUT/SUCCESS/0b5e..."), so that distinct events never share a key.
// Deliveries of one event repeat; the service says to deduplicate on id and
// event (the type is included so ids of different kinds of object can
// never collide).
func (e Event) DedupeKey() string {
	return url.PathEscape(string(e.Type)) + "/" + url.PathEscape(string(e.Event)) + "/" + url.PathEscape(e.ID)
}

// maxEventDepth is the deepest nesting the event reader reads: the cap of
// fiatramp.CanonicalizeJSON, 10,000 levels, the top object counting as 1.
// The reader only ever sees a body that has been canonicalized and whose
// signature matched, so the canonicalizer has already bounded it, and the
// scan does not recurse, so depth costs no stack. A lower cap, such as the
// 64 levels of the client's response readers (jsonscan.MaxDepth), would
// refuse a genuine, signed delivery for the shape of a metadata member this
// package does not even read; the service would deliver it again and be
// refused each time, and the event would be lost.
const maxEventDepth = 10000

// decodeEvent reads the canonical JSON of a verified body. Canonical JSON
// has already resolved duplicate keys as the service does (the last one
// wins, keys compared after unescaping), so each key appears once; keys
// are compared exactly, after unescaping.
func decodeEvent(canonical []byte) (*Event, error) {
	if len(canonical) == 0 || canonical[0] != '{' {
		return nil, malformed("body is not a JSON object")
	}
	var typ, id, name, ts, md []byte
	it := jsonscan.NewObjectIterDepth(canonical, maxEventDepth)
	for {
		key, value, ok := it.Next()
		if !ok {
			break
		}
		switch string(key) {
		case "type":
			typ = value
		case "id":
			id = value
		case "event":
			name = value
		case "timestamp":
			ts = value
		case "metadata":
			md = value
		}
	}
	if it.Err() != nil {
		return nil, malformed("body could not be read")
	}
	var ev Event
	var err error
	if ev.Type, err = requiredString[Type](typ, "type"); err != nil {
		return nil, err
	}
	if ev.ID, err = requiredString[string](id, "id"); err != nil {
		return nil, err
	}
	if ev.Event, err = requiredString[EventName](name, "event"); err != nil {
		return nil, err
	}
	if ev.Timestamp, err = decodeTimestamp(ts); err != nil {
		return nil, err
	}
	if ev.Metadata, err = decodeMetadata(md); err != nil {
		return nil, err
	}
	return &ev, nil
}

// requiredString reads a member (raw canonical value, nil when absent) that
// must be a non-empty JSON string.
func requiredString[T ~string](raw []byte, key string) (T, error) {
	if raw == nil || string(raw) == "null" {
		return "", malformed("body has no %q", key)
	}
	s, ok := stringValue(raw)
	if !ok {
		return "", malformed("%q is not a string", key)
	}
	if s == "" {
		return "", malformed("%q is empty", key)
	}
	return T(s), nil
}

// decodeTimestamp reads "timestamp": null or absent gives the zero time; a
// string is an RFC 3339 date-time (fractions optional, no zone meaning UTC,
// "t", "z" and a space separator accepted) or decimal Unix seconds; a
// number is Unix seconds, possibly with a fraction.
func decodeTimestamp(raw []byte) (time.Time, error) {
	if raw == nil || string(raw) == "null" {
		return time.Time{}, nil
	}
	if raw[0] == '"' {
		s, ok := stringValue(raw)
		if ok {
			if t, ok := jsonscan.ParseTime(s); ok {
				return t, nil
			}
			if t, ok := unixSeconds(s); ok {
				return t, nil
			}
		}
		return time.Time{}, malformed("\"timestamp\" %s is neither an RFC 3339 date-time nor Unix seconds", clip(raw))
	}
	if t, ok := unixSeconds(string(raw)); ok {
		return t, nil
	}
	return time.Time{}, malformed("\"timestamp\" %s is neither an RFC 3339 date-time nor Unix seconds", clip(raw))
}

// unixSeconds reads a JSON number (or its text in a string) as Unix seconds,
// keeping a fraction to the nanosecond. Only plain decimal numbers without
// an exponent, within the years 1 to 9999, are accepted.
func unixSeconds(s string) (time.Time, bool) {
	if s == "" || len(s) > 40 {
		return time.Time{}, false
	}
	intPart, frac := s, ""
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			intPart, frac = s[:i], s[i+1:]
			break
		}
	}
	sec, err := strconv.ParseInt(intPart, 10, 64)
	if err != nil || intPart == "" || intPart[0] == '+' || (intPart[0] == '-' && len(intPart) == 1) {
		return time.Time{}, false
	}
	const minSec, maxSec = -62135596800, 253402300799 // 0001-01-01 .. 9999-12-31
	if sec < minSec || sec > maxSec {
		return time.Time{}, false
	}
	var nsec int64
	if len(s) != len(intPart) {
		if frac == "" {
			return time.Time{}, false
		}
		for i := 0; i < len(frac); i++ {
			c := frac[i]
			if c < '0' || c > '9' {
				return time.Time{}, false
			}
			if i < 9 {
				nsec = nsec*10 + int64(c-'0')
			}
		}
		for i := len(frac); i < 9; i++ {
			nsec *= 10
		}
		if intPart[0] == '-' {
			nsec = -nsec
		}
	}
	return time.Unix(sec, nsec).UTC(), true
}

// metadataKeys are the metadata members typed in Metadata.
var metadataKeys = [...]string{"failure_reason", "utr", "rfi_link", "refund_reason", "client_reference_id"}

func (m *Metadata) field(key string) **string {
	switch key {
	case "failure_reason":
		return &m.FailureReason
	case "utr":
		return &m.UTR
	case "rfi_link":
		return &m.RFILink
	case "refund_reason":
		return &m.RefundReason
	case "client_reference_id":
		return &m.ClientReferenceID
	}
	return nil
}

// decodeMetadata reads "metadata" (raw canonical value, nil when absent):
// absent or null gives an empty Metadata; otherwise it must be an object
// whose known members are strings or null. Members this package does not
// type are kept in Raw unread.
func decodeMetadata(raw []byte) (Metadata, error) {
	var md Metadata
	if raw == nil || string(raw) == "null" {
		return md, nil
	}
	if raw[0] != '{' {
		return md, malformed("\"metadata\" is not an object")
	}
	var known [len(metadataKeys)][]byte
	// The metadata object is a level of the event: its members may nest
	// one level less.
	it := jsonscan.NewObjectIterDepth(raw, maxEventDepth-1)
	for {
		key, value, ok := it.Next()
		if !ok {
			break
		}
		for i, k := range metadataKeys {
			if string(key) == k {
				known[i] = value
			}
		}
	}
	if it.Err() != nil {
		return Metadata{}, malformed("\"metadata\" could not be read")
	}
	for i, k := range metadataKeys {
		v := known[i]
		if v == nil || string(v) == "null" {
			continue
		}
		s, ok := stringValue(v)
		if !ok {
			return Metadata{}, malformed("\"metadata.%s\" is not a string", k)
		}
		*md.field(k) = &s
	}
	md.Raw = append(json.RawMessage(nil), raw...)
	return md, nil
}

// stringValue decodes a JSON string value; false when raw is not one.
func stringValue(raw []byte) (string, bool) {
	s, ok := jsonscan.StringContent(raw)
	return string(s), ok
}

// clip returns raw for an error message, shortened when long.
func clip(raw []byte) string {
	if len(raw) <= 40 {
		return string(raw)
	}
	return string(raw[:30]) + "..." + fmt.Sprintf(" (%d bytes)", len(raw))
}

// MarshalJSON writes the event as the service sends it: type, id, event,
// timestamp (RFC 3339 in UTC with nanoseconds as needed; null for the zero
// time) and metadata (see Metadata.MarshalJSON).
func (e Event) MarshalJSON() ([]byte, error) {
	md, err := e.Metadata.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var ts any
	if !e.Timestamp.IsZero() {
		ts = e.Timestamp.UTC().Format(time.RFC3339Nano)
	}
	return json.Marshal(struct {
		Type      Type            `json:"type"`
		ID        string          `json:"id"`
		Event     EventName       `json:"event"`
		Timestamp any             `json:"timestamp"`
		Metadata  json.RawMessage `json:"metadata"`
	}{e.Type, e.ID, e.Event, ts, md})
}

// MarshalJSON writes the metadata object: the members of Raw (when set)
// with the typed fields that are not nil written over the same keys. It
// fails when Raw is set but is not a JSON object.
func (m Metadata) MarshalJSON() ([]byte, error) {
	obj := map[string]json.RawMessage{}
	if len(m.Raw) > 0 && string(m.Raw) != "null" {
		if err := json.Unmarshal(m.Raw, &obj); err != nil || obj == nil {
			return nil, fmt.Errorf("webhook: Metadata.Raw is not a JSON object")
		}
	}
	for _, k := range metadataKeys {
		if p := *m.field(k); p != nil {
			b, err := json.Marshal(*p)
			if err != nil {
				return nil, err
			}
			obj[k] = b
		}
	}
	return json.Marshal(obj) // encoding/json writes map keys sorted
}
