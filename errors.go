package fiatramp

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
)

// Sentinel errors, one per documented condition (interface.md section 7 and
// the service's public notes). An *APIError matches every sentinel whose
// err_code, HTTP status or documented message it carries, so test with
// errors.Is(err, fiatramp.ErrCustomerUnverified) rather than by comparing
// texts. One error may match several sentinels.
var (
	// ErrFieldMissing matches err_code REQ_FIELD_MISSING and the field
	// error "This field is required." (also "may not be blank/null").
	ErrFieldMissing = errors.New("fiatramp: required field missing or invalid")
	// ErrInternal matches HTTP 500, err_code SYS_INTERNAL_ERROR and the
	// message "Internal Server Error".
	ErrInternal = errors.New("fiatramp: internal server error")
	// ErrUnavailable matches HTTP 502, 503 and 504 and the message
	// "Service unavailable".
	ErrUnavailable = errors.New("fiatramp: service unavailable")
	// ErrUnauthorized matches HTTP 401, any err_code starting AUTH_ and the
	// message "Invalid Signature". It means the key, the signature or the
	// clock is wrong; retrying does not help.
	ErrUnauthorized = errors.New("fiatramp: unauthorized")
	// ErrRateLimited matches HTTP 429.
	ErrRateLimited = errors.New("fiatramp: rate limited")
	// ErrClientReferenceExists matches "Client Reference ID already exists"
	// and other messages saying the client_reference_id is not unique.
	ErrClientReferenceExists = errors.New("fiatramp: client reference id already exists")
	// ErrQuotationNotFound matches "Quotation is not found".
	ErrQuotationNotFound = errors.New("fiatramp: quotation not found")
	// ErrCustomerMismatch matches "Customer ID does not match with the quotation".
	ErrCustomerMismatch = errors.New("fiatramp: customer id does not match the quotation")
	// ErrQuotationExpired matches "Quotation has expired" and other messages
	// saying a quotation expired.
	ErrQuotationExpired = errors.New("fiatramp: quotation expired")
	// ErrQuotationAlreadyLinked matches "Quotation is already linked to
	// another payout".
	ErrQuotationAlreadyLinked = errors.New("fiatramp: quotation already linked to another payout")
	// ErrExchangeOrderInUse matches "Exchange Order ID already linked to a
	// payout that is either processing or successful".
	ErrExchangeOrderInUse = errors.New("fiatramp: exchange order id already linked to a payout")
	// ErrInsufficientBalance matches messages saying the prefunded balance
	// is insufficient.
	ErrInsufficientBalance = errors.New("fiatramp: insufficient prefunded balance")
	// ErrNotEntitled matches "This endpoint is not available for your
	// organization." (prefunded payouts without a prefunded wallet).
	ErrNotEntitled = errors.New("fiatramp: endpoint not available for this organization")
	// ErrPayoutIDInvalid matches "Payout ID is required." and "Payout ID is
	// invalid".
	ErrPayoutIDInvalid = errors.New("fiatramp: payout id missing or invalid")
	// ErrQuotationIDInvalid matches "Quotation ID is required." and
	// "Quotation ID is invalid".
	ErrQuotationIDInvalid = errors.New("fiatramp: quotation id missing or invalid")
	// ErrCustomerNotFound matches "Customer not found or access denied".
	ErrCustomerNotFound = errors.New("fiatramp: customer not found or access denied")
	// ErrBankNotFound matches "Bank not found or access denied".
	ErrBankNotFound = errors.New("fiatramp: bank not found or access denied")
	// ErrCustomerUnverified matches "Customer is unverified".
	ErrCustomerUnverified = errors.New("fiatramp: customer is unverified")
	// ErrBankUnverified matches "Bank account is unverified".
	ErrBankUnverified = errors.New("fiatramp: bank account is unverified")
	// ErrOnrampDisabled matches "Onramp is disabled".
	ErrOnrampDisabled = errors.New("fiatramp: onramp is disabled")
	// ErrAmountBelowMinimum matches "Entered amount is less than minimum
	// transaction amount".
	ErrAmountBelowMinimum = errors.New("fiatramp: amount below minimum")
	// ErrAmountAboveMaximum matches "Entered amount exceeds maximum
	// transaction amount".
	ErrAmountAboveMaximum = errors.New("fiatramp: amount above maximum")
	// ErrAMLScreeningFailed matches "AML SCREENING FAILED".
	ErrAMLScreeningFailed = errors.New("fiatramp: AML screening failed")
	// ErrEDDRequired matches "EDD required" (enhanced due diligence).
	ErrEDDRequired = errors.New("fiatramp: enhanced due diligence required")
	// ErrDailyLimitExhausted matches "Daily onramp limit exhausted".
	ErrDailyLimitExhausted = errors.New("fiatramp: daily onramp limit exhausted")

	// ErrMalformedResponse matches an *APIError for a response the library
	// could not understand: not JSON, truncated, not an envelope, a 2xx
	// without status true, a 2xx without the data the operation returns,
	// data that does not decode into the result type, or a response past a
	// limit on its work: nested deeper than 64 levels, or a decimal of more
	// than types.MaxDecimalDigits digits. An error status
	// with an empty body is not malformed. Such an error's Unwrap returns
	// the underlying decoding error, if any. After a malformed 2xx the
	// operation may well have taken effect.
	ErrMalformedResponse = errors.New("fiatramp: malformed response")
	// ErrPagination reports a page link that the library refuses to follow
	// (Customers.BankAccounts): one that leaves the base address, one
	// already visited, or one past the cap of WithMaxPages.
	ErrPagination = errors.New("fiatramp: bad pagination link")
	// ErrInvalidRequest matches a *ValidationError: bad input caught before
	// any request was sent.
	ErrInvalidRequest = errors.New("fiatramp: invalid request")
	// ErrOutcomeUnknown matches an *OutcomeUnknownError: a payout create
	// (or a POST or PATCH through Do) that may or may not have taken
	// effect. Reconcile before acting on it; never treat it as a failure.
	ErrOutcomeUnknown = errors.New("fiatramp: outcome unknown")
	// ErrRedirect matches an *APIError for a 3xx answer. Signed requests
	// follow no redirects: the credentials and the body stay where the
	// base address points. A 3xx answering a payout create, or a POST or
	// PATCH through Do, may come after the operation ran (a 303 says it
	// did), so such a call returns an *OutcomeUnknownError instead.
	ErrRedirect = errors.New("fiatramp: redirect refused")
	// ErrClockSkew matches an *APIError refusing the request's timestamp
	// (an err_code or message about the timestamp): the local clock and
	// the service's differ by more than 300 seconds. As a 401 it matches
	// ErrUnauthorized too. WithClockCorrection mends it.
	ErrClockSkew = errors.New("fiatramp: clock skew")
)

// OutcomeUnknownError reports a payout create whose outcome the library
// could not learn: an attempt may have reached the service (the connection
// broke after sending, an attempt timed out, the service answered 5xx, 3xx
// or an unreadable 2xx), and no later attempt settled it. errors.Is(err,
// ErrOutcomeUnknown) is true for it.
//
// It deliberately does not unwrap to the last attempt's error (kept in
// Err): if errors.Is(err, ErrQuotationExpired) held for it, a pipeline
// would take a payout that may exist for a refusal, quote again and pay
// twice.
//
// The payout may exist. Before paying again, reconcile on
// ClientReferenceID: repeat the same create (same reference, same
// quotation), which cannot pay twice, until it succeeds (the payout is new)
// or is refused with ErrClientReferenceExists or ErrQuotationAlreadyLinked
// (the earlier attempt created it).
type OutcomeUnknownError struct {
	// ClientReferenceID is the client_reference_id every attempt carried;
	// empty for a Do call or a create sent without one.
	ClientReferenceID string
	// QuotationID is the quotation of the payout; uuid.Nil for a Do call.
	QuotationID uuid.UUID
	// Method and Path name the operation.
	Method, Path string
	// Attempts is the number of attempts made.
	Attempts int
	// ProbablyCreated is true when a later attempt was refused because the
	// reference or the quotation was already used: an earlier attempt all
	// but certainly created the payout.
	ProbablyCreated bool
	// Err is the last attempt's error, for the record; see above for why
	// it is not unwrapped.
	Err error
}

// Error says that the payout may exist, with its reference and quotation.
func (e *OutcomeUnknownError) Error() string {
	var b strings.Builder
	b.WriteString("fiatramp: outcome unknown: ")
	b.WriteString(e.Method + " " + e.Path)
	if e.ClientReferenceID != "" {
		b.WriteString(" client_reference_id " + strconv.Quote(sanitize(e.ClientReferenceID, maxDetailText)))
	}
	if e.QuotationID != uuid.Nil {
		b.WriteString(" quotation_id " + e.QuotationID.String())
	}
	if e.ProbablyCreated {
		b.WriteString(": the payout was probably created by an earlier attempt (a retry was refused as a duplicate)")
	} else {
		b.WriteString(": the operation may have taken effect")
	}
	b.WriteString("; reconcile before acting (attempts: " + strconv.Itoa(e.Attempts) + ")")
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// maxRawBody caps APIError.RawBody.
const maxRawBody = 64 << 10

// Limits that keep APIError.Error short.
const (
	maxExcerpt      = 128 // bytes of a non-JSON body quoted in Error
	maxMessageText  = 256 // bytes of a message or error text
	maxDetailText   = 128 // bytes of one field error
	maxDetailFields = 8   // field errors listed before "and N more"
)

// APIError is the error for every response the service refused or that the
// library could not understand. errors.Is(err, ErrX) tells the kinds apart;
// errors.As(err, &apiErr) gives the details.
type APIError struct {
	// StatusCode is the HTTP status of the response.
	StatusCode int
	// Code is the envelope's err_code, e.g. REQ_FIELD_MISSING; may be empty.
	Code string
	// Message is the envelope's top-level message as sent (DRF's "detail"
	// when there is no message).
	Message string
	// FieldErrors holds `errors` when it is an object: field name to
	// messages. A single string is kept as a one-element slice; a
	// non-string value as its JSON text. An `errors` array is kept under
	// "non_field_errors". Field names match exactly, and a repeated field
	// counts with its last value. At most 64 fields and 256 messages are
	// kept; Error counts the rest.
	FieldErrors map[string][]string
	// ErrorText holds `errors` when it is a string (e.g. on a 500).
	ErrorText string
	// RawBody is the response body as received, capped at 64 KiB.
	RawBody []byte
	// Header is a copy of the response's headers.
	Header http.Header
	// RequestID is the id the service or a gateway gave the request, for
	// quoting to support: the first of the response headers X-Request-Id,
	// Request-Id, X-Correlation-Id and X-Amzn-Requestid present, when it is
	// printable ASCII of at most 128 bytes; else "".
	RequestID string

	problem  string  // why the body could not be understood; "" if it could
	err      error   // the decoding error behind problem, returned by Unwrap
	matched  []error // sentinels this error matches, computed once
	omitted  int     // fields and messages of `errors` not kept in FieldErrors
	fallback string  // what Error says when the body offers nothing better
	hint     string  // a remedy Error appends, e.g. for clock skew
}

// Error returns a one-line summary: status, err_code, message and the field
// errors in field order, e.g.
//
//	fiatramp: HTTP 400 REQ_FIELD_MISSING: Customer is unverified (customer_id: This field is required.)
func (e *APIError) Error() string {
	if e.hint == "" {
		return e.summary()
	}
	return e.summary() + " [" + e.hint + "]"
}

func (e *APIError) summary() string {
	var b strings.Builder
	b.WriteString("fiatramp: HTTP ")
	b.WriteString(strconv.Itoa(e.StatusCode))
	if e.Code != "" {
		b.WriteByte(' ')
		b.WriteString(sanitize(e.Code, maxDetailText))
	}
	if e.problem != "" {
		b.WriteString(": ")
		b.WriteString(e.problem)
		return b.String()
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(sanitize(e.Message, maxMessageText))
	}
	var details []string
	if e.ErrorText != "" && normalizeMessage(e.ErrorText) != normalizeMessage(e.Message) {
		details = append(details, sanitize(e.ErrorText, maxMessageText))
	}
	if len(e.FieldErrors) > 0 {
		keys := make([]string, 0, len(e.FieldErrors))
		for k := range e.FieldErrors {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		n := 0
		for _, k := range keys {
			msgs := e.FieldErrors[k]
			if len(msgs) == 0 {
				if n < maxDetailFields {
					details = append(details, sanitize(k, maxDetailText))
				}
				n++
			}
			for _, m := range msgs {
				if n < maxDetailFields {
					details = append(details, sanitize(k, maxDetailText)+": "+sanitize(m, maxDetailText))
				}
				n++
			}
		}
		if more := max(n-maxDetailFields, 0) + e.omitted; more > 0 {
			details = append(details, "and "+strconv.Itoa(more)+" more")
		}
	}
	switch {
	case len(details) > 0 && e.Message == "":
		b.WriteString(": ")
		b.WriteString(strings.Join(details, "; "))
	case len(details) > 0:
		b.WriteString(" (")
		b.WriteString(strings.Join(details, "; "))
		b.WriteByte(')')
	case e.Message == "" && e.fallback != "":
		b.WriteString(": ")
		b.WriteString(e.fallback)
	}
	return b.String()
}

// Is reports whether e matches target: one of the sentinels its err_code,
// HTTP status or message selects, ErrMalformedResponse when the body could
// not be understood, or a sentinel of the client's extra message table.
func (e *APIError) Is(target error) bool {
	for _, s := range e.matched {
		if s == target {
			return true
		}
	}
	return false
}

// Is reports whether target is ErrOutcomeUnknown.
func (e *OutcomeUnknownError) Is(target error) bool { return target == ErrOutcomeUnknown }

// Unwrap returns the error that kept the body from being understood (a
// *json.SyntaxError, a *json.UnmarshalTypeError, an error for a body
// nested too deep, ...), or nil.
func (e *APIError) Unwrap() error { return e.err }

// ValidationError reports bad input caught before any request was sent.
// errors.Is(err, ErrInvalidRequest) is true for it.
type ValidationError struct {
	// Field names the offending request field (its JSON name).
	Field string
	// Reason says what is wrong with it.
	Reason string
}

// Error returns "fiatramp: invalid request: <field>: <reason>".
func (e *ValidationError) Error() string {
	if e.Field == "" {
		return "fiatramp: invalid request: " + e.Reason
	}
	return "fiatramp: invalid request: " + e.Field + ": " + e.Reason
}

// Is reports whether target is ErrInvalidRequest.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidRequest }

// invalid returns a *ValidationError for field.
func invalid(field, reason string) error {
	return &ValidationError{Field: field, Reason: reason}
}

// normalizeMessage returns the form in which messages are compared: lower
// case, runs of white space collapsed to one space, surrounding space and
// trailing full stops removed. "  Quotation ID is required. " and
// "quotation id is required" normalise alike.
func normalizeMessage(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimRight(s, ". ")
	return strings.ToLower(s)
}

// messageSentinel returns the sentinel of a documented message, given in
// its normalised form, or nil.
func messageSentinel(n string) error {
	switch n {
	case "client reference id already exists":
		return ErrClientReferenceExists
	case "quotation is not found":
		return ErrQuotationNotFound
	case "customer id does not match with the quotation":
		return ErrCustomerMismatch
	case "quotation has expired":
		return ErrQuotationExpired
	case "quotation is already linked to another payout":
		return ErrQuotationAlreadyLinked
	case "exchange order id already linked to a payout that is either processing or successful":
		return ErrExchangeOrderInUse
	case "this endpoint is not available for your organization":
		return ErrNotEntitled
	case "payout id is required", "payout id is invalid":
		return ErrPayoutIDInvalid
	case "quotation id is required", "quotation id is invalid":
		return ErrQuotationIDInvalid
	case "customer not found or access denied":
		return ErrCustomerNotFound
	case "bank not found or access denied":
		return ErrBankNotFound
	case "customer is unverified":
		return ErrCustomerUnverified
	case "bank account is unverified":
		return ErrBankUnverified
	case "onramp is disabled":
		return ErrOnrampDisabled
	case "entered amount is less than minimum transaction amount":
		return ErrAmountBelowMinimum
	case "entered amount exceeds maximum transaction amount":
		return ErrAmountAboveMaximum
	case "aml screening failed":
		return ErrAMLScreeningFailed
	case "edd required":
		return ErrEDDRequired
	case "daily onramp limit exhausted":
		return ErrDailyLimitExhausted
	case "internal server error":
		return ErrInternal
	case "service unavailable":
		return ErrUnavailable
	case "this field is required", "this field may not be blank", "this field may not be null":
		return ErrFieldMissing
	case "invalid signature":
		return ErrUnauthorized
	}
	return nil
}

// patternSentinels appends the sentinels of the messages interface.md does
// not spell out (7.2/7.5), recognised by conservative word patterns. n is
// the normalised message; field the (lower-case) field it was filed under,
// or "".
func patternSentinels(dst []error, field, n string) []error {
	if strings.Contains(n, "insufficient") && strings.Contains(n, "balance") {
		dst = append(dst, ErrInsufficientBalance)
	}
	if strings.Contains(n, "quotation") && strings.Contains(n, "expired") {
		dst = append(dst, ErrQuotationExpired)
	}
	if (strings.Contains(n, "client reference") || strings.Contains(n, "client_reference_id") ||
		field == "client_reference_id") &&
		(strings.Contains(n, "exist") || strings.Contains(n, "already") || strings.Contains(n, "unique")) {
		dst = append(dst, ErrClientReferenceExists)
	}
	return dst
}

// envelope is the response envelope: status (or success), message (or
// DRF's detail), data, err_code and errors. Every field stays raw, and
// aliases the body, so that a wrongly typed field spoils only itself.
type envelope struct {
	Status  []byte
	Success []byte
	Message []byte
	Detail  []byte
	Data    []byte
	ErrCode []byte
	Errors  []byte
}

// Limits on the work and memory one error body can cost. Any body under
// the size cap is read in one pass, without copying a subtree per level;
// these bound what is kept of it.
const (
	// maxFields is the most fields of an `errors` object kept in
	// APIError.FieldErrors.
	maxFields = 64
	// maxMessages is the most messages kept in APIError.FieldErrors, all
	// fields together.
	maxMessages = 256
	// maxMatched is the most strings of `errors` compared with the
	// documented messages.
	maxMatched = 1024
)

// newAPIError builds the *APIError for a response of statusCode with body,
// whatever the body is. extra maps normalised messages (normalizeMessage)
// to further sentinels, on top of the documented ones.
func newAPIError(statusCode int, body []byte, extra map[string]error) *APIError {
	env, problem, err := parseEnvelope(body)
	if env == nil && len(body) == 0 {
		// An error status with no body says all it has to say.
		problem, err = "", nil
	}
	return buildAPIError(statusCode, body, env, problem, err, extra)
}

var envelopeType = reflect.TypeFor[envelope]()

// parseEnvelope reads body as an envelope the way the service's own JSON
// reader (Python's) does: member names match exactly, and when a name
// repeats the last one wins. The body must be valid JSON, nested at most
// jsonscan.MaxDepth deep. When it cannot be read, env is nil and problem
// says why (for Error), with err the decoding error if there is one.
func parseEnvelope(body []byte) (env *envelope, problem string, err error) {
	if len(body) == 0 {
		return nil, "empty response body", nil
	}
	first := jsonscan.FirstByte(body)
	if !json.Valid(body) {
		// Invalid JSON fails encoding/json's validation before anything is
		// decoded: the error says where and why, at the cost of one pass.
		err := json.Unmarshal(body, new(struct{}))
		if first == '{' || first == '[' {
			return nil, "response is truncated or invalid JSON (" + err.Error() + "): " + excerpt(body), err
		}
		return nil, "response is not JSON: " + excerpt(body), err
	}
	var kind string
	switch first {
	case '{':
	case 'n':
		return nil, "response is a JSON null, not an envelope", nil
	case '[':
		kind = "array"
	case '"':
		kind = "string"
	case 't', 'f':
		kind = "bool"
	default:
		kind = "number"
	}
	if kind != "" {
		return nil, "response is a JSON " + kind + ", not an envelope: " + excerpt(body),
			&json.UnmarshalTypeError{Value: kind, Type: envelopeType}
	}
	env = new(envelope)
	it := jsonscan.NewObjectIter(body)
	for {
		key, value, ok := it.Next()
		if !ok {
			break
		}
		switch string(key) {
		case "status":
			env.Status = value
		case "success":
			env.Success = value
		case "message":
			env.Message = value
		case "detail":
			env.Detail = value
		case "data":
			env.Data = value
		case "err_code":
			env.ErrCode = value
		case "errors":
			env.Errors = value
		}
	}
	if err := it.Err(); err != nil {
		// The body is valid JSON: only the nesting cap stops the reader.
		return nil, "response is not an envelope (" + err.Error() + "): " + excerpt(body), err
	}
	return env, "", nil
}

// buildAPIError fills an *APIError from an already parsed envelope (nil
// when the body was not one) and computes the sentinels it matches.
func buildAPIError(statusCode int, body []byte, env *envelope, problem string, err error, extra map[string]error) *APIError {
	e := &APIError{StatusCode: statusCode, problem: problem, err: err}
	if len(body) > 0 {
		n := min(len(body), maxRawBody)
		e.RawBody = append(make([]byte, 0, n), body[:n]...)
	}
	var m []error
	if problem != "" {
		m = append(m, ErrMalformedResponse)
	}
	switch statusCode {
	case 401:
		m = append(m, ErrUnauthorized)
	case 429:
		m = append(m, ErrRateLimited)
	case 500:
		m = append(m, ErrInternal)
	case 502, 503, 504:
		m = append(m, ErrUnavailable)
	}
	if env == nil {
		switch {
		case problem != "":
		case len(body) == 0:
			e.fallback = "empty response body"
		default:
			e.fallback = excerpt(body)
		}
		e.matched = dedupe(m)
		return e
	}

	e.Code = strings.TrimSpace(jsonText(env.ErrCode))
	switch code := strings.ToUpper(e.Code); {
	case code == "REQ_FIELD_MISSING":
		m = append(m, ErrFieldMissing)
	case code == "SYS_INTERNAL_ERROR":
		m = append(m, ErrInternal)
	case strings.HasPrefix(code, "AUTH_"):
		m = append(m, ErrUnauthorized)
	}
	if strings.Contains(strings.ToUpper(e.Code), "TIMESTAMP") {
		m = append(m, ErrClockSkew)
	}
	e.Message = jsonText(env.Message)
	if e.Message == "" {
		e.Message = jsonText(env.Detail)
	}

	match := func(field, msg string) {
		n := normalizeMessage(msg)
		if n == "" {
			return
		}
		if s := messageSentinel(n); s != nil {
			m = append(m, s)
		}
		m = patternSentinels(m, field, n)
		if s := extra[n]; s != nil {
			m = append(m, s)
		}
		if statusCode >= 400 && statusCode <= 499 && (strings.Contains(n, "timestamp") || field == "x-timestamp" || field == "timestamp") {
			m = append(m, ErrClockSkew)
		}
	}
	match("", e.Message)
	readErrors(e, env.Errors, match)
	if problem == "" && e.Message == "" && e.ErrorText == "" && len(e.FieldErrors) == 0 && len(body) > 0 {
		e.fallback = excerpt(body)
	}
	e.matched = dedupe(m)
	return e
}

// readErrors fills e.ErrorText or e.FieldErrors from the envelope's errors
// member raw, and calls match with every string in it (field, the
// lower-case field it was filed under, or ""). It reads raw once, copying
// only what it keeps: at most maxFields fields and maxMessages messages
// (e.omitted counts the rest), and at most maxMatched strings matched.
func readErrors(e *APIError, raw []byte, match func(field, msg string)) {
	raw = jsonscan.TrimSpace(raw)
	if len(raw) == 0 {
		return
	}
	budget := messageBudget{keep: maxMessages, match: maxMatched}
	switch raw[0] {
	case '"':
		e.ErrorText = jsonText(raw)
		match("", e.ErrorText)
	case '{':
		// Fields in order of first appearance, each with its last value.
		type field struct {
			key string
			raw []byte
		}
		var fields []field
		index := make(map[string]int)
		it := jsonscan.NewObjectIter(raw)
		for {
			k, v, ok := it.Next()
			if !ok {
				break
			}
			if i, seen := index[string(k)]; seen {
				fields[i].raw = v
				continue
			}
			if len(fields) == maxFields {
				e.omitted++
				continue
			}
			index[string(k)] = len(fields)
			fields = append(fields, field{string(k), v})
		}
		e.FieldErrors = make(map[string][]string, len(fields))
		for _, f := range fields {
			e.FieldErrors[f.key] = budget.messages(f.raw, &e.omitted)
			budget.matchAll(f.raw, strings.ToLower(f.key), match)
		}
	case '[':
		e.FieldErrors = map[string][]string{"non_field_errors": budget.messages(raw, &e.omitted)}
		budget.matchAll(raw, "", match)
	case 'n': // null
	default:
		e.ErrorText = string(raw)
	}
}

// messageBudget counts down what readErrors may still keep and match.
type messageBudget struct {
	keep  int // messages to keep
	match int // strings to match
}

// messages turns one value of an `errors` object into messages: the
// strings of an array, a lone string as one message, anything else as its
// JSON text. Nulls are left out. Messages past the budget are counted in
// *omitted, not kept.
func (b *messageBudget) messages(v []byte, omitted *int) []string {
	v = jsonscan.TrimSpace(v)
	out := []string{}
	add := func(s func() string) {
		if b.keep == 0 {
			*omitted++
			return
		}
		b.keep--
		out = append(out, s())
	}
	switch {
	case len(v) == 0 || v[0] == 'n':
	case v[0] == '"':
		add(func() string { return jsonText(v) })
	case v[0] == '[':
		it := jsonscan.NewArrayIter(v)
		for {
			item, ok := it.Next()
			if !ok {
				break
			}
			switch item[0] {
			case 'n':
			case '"':
				add(func() string { return jsonText(item) })
			default:
				add(func() string { return compactJSON(item) })
			}
		}
	default:
		add(func() string { return compactJSON(v) })
	}
	return out
}

// matchAll calls match with every string value inside v, object keys
// excluded, so that messages nested by a serializer, e.g.
// {"customer": {"sender": {"id": ["This field is required."]}}}, still
// match; one pass, however deep, until the budget runs out.
func (b *messageBudget) matchAll(v []byte, field string, match func(field, msg string)) {
	jsonscan.Strings(v, func(raw []byte) bool {
		if b.match == 0 {
			return false
		}
		b.match--
		match(field, jsonText(raw))
		return true
	})
}

// jsonText returns the string a JSON string holds, "" for null or absent,
// and the JSON text of any other value.
func jsonText(raw []byte) string {
	raw = jsonscan.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		if s, ok := jsonscan.StringContent(raw); ok {
			return string(s)
		}
	}
	return compactJSON(raw)
}

// compactJSON returns raw without insignificant white space.
func compactJSON(raw []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}

// dedupe removes repeated sentinels, keeping the first of each.
func dedupe(m []error) []error {
	if len(m) < 2 {
		return m
	}
	out := m[:0]
outer:
	for _, s := range m {
		for _, o := range out {
			if o == s {
				continue outer
			}
		}
		out = append(out, s)
	}
	return out
}

// excerpt returns the start of body (at most maxExcerpt bytes) in double
// quotes, with control characters and invalid UTF-8 replaced, and "..."
// when it was cut.
func excerpt(body []byte) string {
	return `"` + sanitize(string(body), maxExcerpt) + `"`
}

// sanitize makes s fit for a one-line error message: control characters
// become spaces, invalid UTF-8 becomes U+FFFD, and the result is cut to at
// most limit bytes (plus "...") on a character boundary.
func sanitize(s string, limit int) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= utf8.RuneSelf {
			clean = false
			break
		}
	}
	if clean && len(s) <= limit {
		return s
	}
	var b strings.Builder
	b.Grow(min(len(s), limit) + 3)
	for _, r := range s {
		if unicode.IsControl(r) {
			r = ' '
		}
		if b.Len()+utf8.RuneLen(r) > limit {
			b.WriteString("...")
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}
