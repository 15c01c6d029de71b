// Package types holds the request and response shapes of the fiatramp
// service, and its enums.
//
// Each type's comment says which operation sends or returns it. The
// conventions are the same throughout:
//
//   - Identifiers are [uuid.UUID]; an absent, null or empty id decodes as
//     [uuid.Nil]. Ids the service may send as null are *uuid.UUID.
//   - Money, rates and fees are [decimal.Decimal], decoded exactly (never via
//     float64, never rounded) from a JSON number or from a decimal string.
//     JSON null and the empty string leave the zero value. Any other value
//     (an object, an array, a boolean, a string that is not a decimal, a
//     decimal of more than [MaxDecimalDigits] digits) is a decode error.
//   - Timestamps are [time.Time], decoded from RFC 3339 strings with or
//     without fractional seconds (the service sends both
//     2025-03-08T07:31:24.770179Z and 2025-02-11T01:30:08.000Z), with `Z` or a
//     numeric offset. A timestamp with no zone at all is taken as UTC.
//     Digits beyond nanoseconds are dropped. null, "" and an absent field
//     leave the zero time; anything else is a decode error naming the field.
//   - Strings the service may send as null (failure_reason, utr,
//     client_reference_id, ...) are *string; null decodes as nil.
//   - Enums are string types. A value this package does not list
//     still decodes and keeps its text; IsKnown tells the two apart.
//   - Every response type that is the `data` payload of an endpoint (and
//     [BankAccountListItem]) keeps a copy of the exact JSON it was decoded
//     from in its Raw field, so a field this package does not type is never
//     lost. The outermost result owns its copy, independent of the bytes it
//     was decoded from. A Raw of an object nested inside it (each item of a
//     [Page], a nested result) is the part of that copy holding the object,
//     not a copy of its own: it shares the enclosing result's storage, so
//     treat it as read-only (an append to it cannot write over the
//     enclosing copy, but a write into it changes both) and clone it
//     (bytes.Clone) to modify it, or to keep it without keeping the whole
//     enclosing object alive.
//   - A wrong-typed value is a decode error (a *json.UnmarshalTypeError naming
//     the type and the field), never a panic. On error the destination is
//     left unchanged.
//   - Object keys match exactly (case-sensitively, unlike encoding/json's
//     default); when a key repeats, its last occurrence alone decides the
//     field, as in a Python dict (the service reads JSON with Python's
//     json.loads): a later null gives the field's zero value (nil for a
//     pointer, slice or map, the zero struct for a nested object such as
//     Fees), a later object replaces an earlier one whole (nothing of it is
//     merged or kept) and a later scalar replaces an earlier one. Unknown
//     keys are ignored (and kept in Raw).
//   - An object nested deeper than 64 levels (the object itself counting
//     as one) is a decode error naming the member that nests too deep.
//   - Request types hold the fields of a request body; the client writes
//     the body itself, in the canonical form it signs. Their json tags name
//     the wire fields. They do no validation; the client validates before
//     sending.
//   - The `fiatramp` struct tags (alias=, brand=, rest, fromrest, raw,
//     lower) state the rules above for the decoder and the client's body
//     writer; every response type is decoded by that one decoder.
//
// The statuses of a payout and of a payin move along one table each:
// [PayoutStatus.Next] and [PayinStatus.Next] give the moves, and IsFinal,
// IsPaid, MayStillPay and FundsReturned say for each status whether it can
// still move, whether fiat was paid or may still be, and whether the funds
// have come back (when to re-credit a user). The library's docs/states.md
// draws both tables as state diagrams.
//
// A response type decoded from JSON null by itself (json.Unmarshal of null
// into it) is left unchanged, as encoding/json does for its own types; as a
// member of another response type, a null clears it, as above.
package types
