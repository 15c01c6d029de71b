package fiatramp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
	"github.com/fiatramp/fiatramp-go/types"
)

// This file is the response path: the envelope read in one pass, the data
// handed to its decoder, and the *APIError built from whatever came back.

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

// decodeResponse is the one place where the response of every operation is
// decoded. It returns nil when statusCode is 2xx and body is an envelope
// with status (or success) true, after decoding its data into out. The
// envelope is read as the service's own reader reads it (see readEnvelope):
// exact member names, the last of a repeated one winning. out == nil
// ignores data, and a *json.RawMessage out receives a copy of it.
// Otherwise it returns an *APIError: for any non-2xx status, for a 2xx
// envelope with status false, and, matching ErrMalformedResponse, for a 2xx
// body that is not a JSON envelope, lacks the data out needs, whose data
// does not decode into out, or, for a response type of package types,
// whose data lacks a member the result cannot be used without
// (missingMember). extra maps normalised messages
// (normalizeMessage) to further sentinels, on top of the documented ones.
//
// The body is read once: the envelope's members are checked as they are
// read, and the data goes straight to the decoder of a response type of
// package types, which checks every byte it reads; any other out gets the
// data through encoding/json. Only a body that fails is read again, to say
// why.
//
// The only other error is a plain one for an out that json.Unmarshal cannot
// write to (nil or not a pointer): a bug of the caller, not of the response.
func decodeResponse(statusCode int, body []byte, out any, extra map[string]error) error {
	success := statusCode >= 200 && statusCode <= 299
	// The data is checked here unless a decoder will check it.
	dataChecked := !success || out == nil
	var env envelope
	if !readEnvelope(body, &env, dataChecked) {
		return malformedBody(statusCode, body, extra)
	}
	if !success {
		return buildAPIError(statusCode, body, &env, "", nil, extra)
	}
	ok, known := envelopeStatus(&env)
	if !dataChecked && (!ok || !known) && env.Data != nil && !json.Valid(env.Data) {
		return malformedBody(statusCode, body, extra)
	}
	if !known {
		return buildAPIError(statusCode, body, &env,
			"response is not an envelope (no boolean status): "+excerpt(body), nil, extra)
	}
	if !ok {
		return buildAPIError(statusCode, body, &env, "", nil, extra)
	}
	if out == nil {
		return nil
	}
	data := jsonscan.TrimSpace(env.Data)
	switch {
	case len(data) == 0:
		return buildAPIError(statusCode, body, &env, "response has no data", nil, extra)
	case string(data) == "null":
		return buildAPIError(statusCode, body, &env, "response data is null", nil, extra)
	}
	if dec, own := out.(json.Unmarshaler); own && checksDecimals(out) {
		// A response type of package types reads its data in one pass,
		// checking every value it reads (and json.Valid on those it skips),
		// and refuses a decimal of more than types.MaxDecimalDigits digits
		// by itself, naming the field.
		if err := dec.UnmarshalJSON(data); err != nil {
			if !json.Valid(data) {
				return malformedBody(statusCode, body, extra)
			}
			return dataError(statusCode, body, &env, out, err, extra)
		}
		// Data that decodes but lacks what the result is known by (a
		// payout's id, say) is no success: a caller would store uuid.Nil.
		if name := missingMember(out); name != "" {
			return buildAPIError(statusCode, body, &env,
				fmt.Sprintf("response data has no %q: a %T cannot be used without it", name, out), nil, extra)
		}
		return nil
	}
	if !json.Valid(data) {
		return malformedBody(statusCode, body, extra)
	}
	if raw, isRaw := out.(*json.RawMessage); isRaw && raw != nil {
		// env.Data aliases the body: the caller gets a copy of its own.
		*raw = append(json.RawMessage(nil), data...)
		return nil
	}
	if n := jsonscan.LongestDigitRun(data); n > types.MaxDecimalDigits {
		// An out of the caller's (through Do) may hold a decimal.Decimal or
		// a big.Int, whose conversion costs the square of its digits. A
		// number is at most three runs of digits, so with every run capped
		// no conversion is slow.
		return buildAPIError(statusCode, body, &env,
			fmt.Sprintf("response data holds a run of %d digits, more than %d", n, types.MaxDecimalDigits), nil, extra)
	}
	if err := json.Unmarshal(data, out); err != nil {
		var invalidOut *json.InvalidUnmarshalError
		if errors.As(err, &invalidOut) {
			return fmt.Errorf("fiatramp: cannot decode response data: %w", err)
		}
		return dataError(statusCode, body, &env, out, err, extra)
	}
	return nil
}

// dataError is the *APIError for data that does not decode into out.
func dataError(statusCode int, body []byte, env *envelope, out any, err error, extra map[string]error) *APIError {
	return buildAPIError(statusCode, body, env,
		fmt.Sprintf("cannot decode response data into %T: %s", out, sanitize(err.Error(), maxMessageText)), err, extra)
}

// typesPackage is the import path of package types.
var typesPackage = reflect.TypeFor[types.Payout]().PkgPath()

// checksDecimals reports whether out is a response type of package types,
// which refuses a decimal of more than types.MaxDecimalDigits digits by
// itself, naming the field. A type of the package without a decoder of its
// own (a request type) is decoded by encoding/json and is no such type.
func checksDecimals(out any) bool {
	t := reflect.TypeOf(out)
	_, decodesItself := out.(json.Unmarshaler)
	return decodesItself && t.Kind() == reflect.Pointer && t.Elem().PkgPath() == typesPackage
}

// readEnvelope reads body as an envelope into env the way the service's own
// JSON reader (Python's) does: member names match exactly, and when a name
// repeats the last one wins. Every member is checked to be valid JSON as it
// is read, the last data only when checkData is set. It reports false for
// a body that is not a JSON object of valid members nested at most
// jsonscan.MaxDepth deep; malformedBody says why.
func readEnvelope(body []byte, env *envelope, checkData bool) bool {
	if jsonscan.FirstByte(body) != '{' {
		return false
	}
	it := jsonscan.NewObjectIter(body)
	for {
		key, value, ok := it.Next()
		if !ok {
			break
		}
		if string(key) == "data" {
			// An earlier data is not decoded, but must be JSON all the same.
			if env.Data != nil && !json.Valid(env.Data) {
				return false
			}
			env.Data = value
			continue
		}
		if !json.Valid(value) {
			return false
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
		case "err_code":
			env.ErrCode = value
		case "errors":
			env.Errors = value
		}
	}
	if it.Err() != nil {
		return false
	}
	return !checkData || env.Data == nil || json.Valid(env.Data)
}

var envelopeType = reflect.TypeFor[envelope]()

// malformedBody is the *APIError for a body that is not a valid envelope:
// it reads the body once more to say why. An error status with an empty
// body is not malformed: it says all it has to say.
func malformedBody(statusCode int, body []byte, extra map[string]error) *APIError {
	if len(body) == 0 {
		if statusCode >= 200 && statusCode <= 299 {
			return buildAPIError(statusCode, body, nil, "empty response body", nil, extra)
		}
		return buildAPIError(statusCode, body, nil, "", nil, extra)
	}
	first := jsonscan.FirstByte(body)
	if !json.Valid(body) {
		// encoding/json's error says where and why.
		err := json.Unmarshal(body, new(struct{}))
		if first == '{' || first == '[' {
			return buildAPIError(statusCode, body, nil, "response is truncated or invalid JSON ("+err.Error()+"): "+excerpt(body), err, extra)
		}
		return buildAPIError(statusCode, body, nil, "response is not JSON: "+excerpt(body), err, extra)
	}
	var kind string
	switch first {
	case '{':
		// Valid JSON: only the nesting cap stops the reader.
		it := jsonscan.NewObjectIter(body)
		for _, _, ok := it.Next(); ok; _, _, ok = it.Next() {
		}
		err := it.Err()
		if err == nil {
			err = jsonscan.ErrSyntax
		}
		return buildAPIError(statusCode, body, nil, "response is not an envelope ("+err.Error()+"): "+excerpt(body), err, extra)
	case 'n':
		return buildAPIError(statusCode, body, nil, "response is a JSON null, not an envelope", nil, extra)
	case '[':
		kind = "array"
	case '"':
		kind = "string"
	case 't', 'f':
		kind = "bool"
	default:
		kind = "number"
	}
	return buildAPIError(statusCode, body, nil, "response is a JSON "+kind+", not an envelope: "+excerpt(body),
		&json.UnmarshalTypeError{Value: kind, Type: envelopeType}, extra)
}

// envelopeStatus reads the envelope's status, or success when status is
// absent or null. known is false when neither holds a boolean.
func envelopeStatus(env *envelope) (ok, known bool) {
	for _, raw := range [...][]byte{env.Status, env.Success} {
		switch string(jsonscan.TrimSpace(raw)) {
		case "true":
			return true, true
		case "false":
			return false, true
		case "", "null":
			continue
		}
		return false, false
	}
	return false, false
}

// The sentinels an *APIError matches are selected by data: its HTTP status,
// its err_code, its messages (exactly, once normalised) and word patterns
// in them.

// statusSentinels maps an HTTP status to the sentinel it selects.
var statusSentinels = [...]struct {
	status   int
	sentinel error
}{
	{401, ErrUnauthorized}, {429, ErrRateLimited}, {500, ErrInternal},
	{502, ErrUnavailable}, {503, ErrUnavailable}, {504, ErrUnavailable},
	// Every refusal the service documents (errors issue 18).
	{404, ErrNotFound},
}

// codeSentinels select a sentinel by the upper-cased err_code: equal to
// exact, starting with prefix or containing part (whichever is set), and
// not equal to except.
var codeSentinels = [...]struct {
	exact, prefix, part, except string
	sentinel                    error
}{
	{exact: "REQ_FIELD_MISSING", sentinel: ErrFieldMissing},
	{exact: "SYS_INTERNAL_ERROR", sentinel: ErrInternal},
	{prefix: "AUTH_", except: orgMismatchCode, sentinel: ErrUnauthorized},
	{part: "TIMESTAMP", sentinel: ErrClockSkew},
	// Every refusal the service documents (errors issue 18).
	{exact: "NOT_FOUND", sentinel: ErrNotFound},
	{exact: "USR_NOT_FOUND", sentinel: ErrNotFound},
	{exact: "USR_NOT_FOUND", sentinel: ErrCustomerNotFound},
	{exact: orgMismatchCode, sentinel: ErrNotFound},
	{exact: "TOO_MANY_REQUESTS", sentinel: ErrRateLimited},
	{prefix: "INPUT_MALFORMED", sentinel: ErrInputMalformed},
	{exact: "INPUT_MALFORMED_ADDITIONAL_INFO", sentinel: ErrAdditionalInfoMalformed},
	{exact: "INPUT_INVALID_DATE_FORMAT", sentinel: ErrInvalidDateFormat},
	{exact: "REQ_INVALID_COUNTRY", sentinel: ErrInvalidCountry},
	{exact: "REQ_NON_RESIDENT_UNSUPPORTED", sentinel: ErrNonResidentUnsupported},
	{exact: "REQ_INVALID_RESIDENCE_COUNTRY", sentinel: ErrInvalidResidenceCountry},
	{exact: "USR_DUPLICATE_CONTACT", sentinel: ErrDuplicateContact},
	{exact: "KYC_INVALID_AADHAAR_INPUT", sentinel: ErrInvalidAadhaar},
	{exact: "KYC_INVALID_DOC_TYPE", sentinel: ErrInvalidDocumentType},
	{exact: "KYC_IN_USE", sentinel: ErrKYCInUse},
	{exact: "NET_TIMEOUT", sentinel: ErrServiceTimeout},
	{exact: "UNKNOWN_ERROR", sentinel: ErrServiceUnknown},
}

// orgMismatchCode is the err_code of a record of another organization: a
// 400 meaning "not found", whose resource the message or field names
// (orgMismatchResources).
const orgMismatchCode = "AUTH_ORG_MISMATCH"

// orgMismatchResources select, for an orgMismatchCode refusal, the
// not-found sentinel of the resource a message or field name mentions.
var orgMismatchResources = [...]struct {
	word     string
	sentinel error
}{
	{"customer", ErrCustomerNotFound},
	{"quotation", ErrQuotationNotFound},
	{"bank", ErrBankNotFound},
	{"payout", ErrPayoutNotFound},
	{"payin", ErrPayinNotFound},
}

// messageSentinels maps the documented messages, normalised
// (normalizeMessage), to their sentinels.
var messageSentinels = map[string]error{
	"client reference id already exists":                                                   ErrClientReferenceExists,
	"quotation is not found":                                                               ErrQuotationNotFound,
	"customer id does not match with the quotation":                                        ErrCustomerMismatch,
	"quotation has expired":                                                                ErrQuotationExpired,
	"quotation is already linked to another payout":                                        ErrQuotationAlreadyLinked,
	"this endpoint is not available for your organization":                                 ErrNotEntitled,
	"exchange order id already linked to a payout that is either processing or successful": ErrExchangeOrderInUse,
	"payout id is required":                                                                ErrPayoutIDInvalid,
	"payout id is invalid":                                                                 ErrPayoutIDInvalid,
	"quotation id is required":                                                             ErrQuotationIDInvalid,
	"quotation id is invalid":                                                              ErrQuotationIDInvalid,
	"customer not found or access denied":                                                  ErrCustomerNotFound,
	"bank not found or access denied":                                                      ErrBankNotFound,
	"customer is unverified":                                                               ErrCustomerUnverified,
	"bank account is unverified":                                                           ErrBankUnverified,
	"onramp is disabled":                                                                   ErrOnrampDisabled,
	"entered amount is less than minimum transaction amount":                               ErrAmountBelowMinimum,
	"entered amount exceeds maximum transaction amount":                                    ErrAmountAboveMaximum,
	"aml screening failed":                                                                 ErrAMLScreeningFailed,
	"edd required":                                                                         ErrEDDRequired,
	"daily onramp limit exhausted":                                                         ErrDailyLimitExhausted,
	"internal server error":                                                                ErrInternal,
	"service unavailable":                                                                  ErrUnavailable,
	"this field is required":                                                               ErrFieldMissing,
	"this field may not be blank":                                                          ErrFieldMissing,
	"this field may not be null":                                                           ErrFieldMissing,
	"invalid signature":                                                                    ErrUnauthorized,
	// Every refusal the service documents (errors issue 18).
	"quotation is already linked to another payin": ErrQuotationAlreadyLinked,
	"upi is not supported":                         ErrUPIUnsupported,
	"edd not required":                             ErrEDDNotRequired,
	"utr is already linked to another payin":       ErrUTRInUse,
	"invalid utr format":                           ErrUTRInvalid,
	"payin id is required":                         ErrPayinIDInvalid,
	"payin id is invalid":                          ErrPayinIDInvalid,
	"email already in use":                         ErrEmailInUse,
	"phone already in use":                         ErrPhoneInUse,
	"invalid country code":                         ErrInvalidCountry,
	"kyc already exists":                           ErrKYCExists,
	"kyc already in use":                           ErrKYCInUse,
	"limit exceeded":                               ErrUpdateLimitExceeded,
	"kyc update limit exceeded":                    ErrUpdateLimitExceeded,
	"vpa already in use":                           ErrVPAInUse,
	"maximum 3 upi ids allowed":                    ErrBankAccountLimit,
	"account number already in use":                ErrAccountNumberInUse,
	"maximum 3 bank account details allowed":       ErrBankAccountLimit,
	"webhook url is required":                      ErrFieldMissing,
}

// clause holds when the normalised message contains one of words, or the
// field it was filed under (lower case) is one of fields.
type clause struct{ words, fields []string }

func (c clause) holds(field, n string) bool {
	for _, w := range c.words {
		if strings.Contains(n, w) {
			return true
		}
	}
	for _, f := range c.fields {
		if field == f {
			return true
		}
	}
	return false
}

// messagePatterns recognise, by conservative word patterns, the messages
// the service does not spell out: a pattern matches when all its clauses
// hold (and, with only4xx, the status is 4xx).
var messagePatterns = [...]struct {
	all      []clause
	only4xx  bool
	sentinel error
}{
	{all: []clause{{words: []string{"insufficient"}}, {words: []string{"balance"}}}, sentinel: ErrInsufficientBalance},
	{all: []clause{{words: []string{"quotation"}}, {words: []string{"expired"}}}, sentinel: ErrQuotationExpired},
	{all: []clause{
		{words: []string{"client reference", "client_reference_id"}, fields: []string{"client_reference_id"}},
		{words: []string{"exist", "already", "unique"}},
	}, sentinel: ErrClientReferenceExists},
	{all: []clause{{words: []string{"timestamp"}, fields: []string{"x-timestamp", "timestamp"}}}, only4xx: true, sentinel: ErrClockSkew},
	// Every refusal the service documents (errors issue 18).
	{all: []clause{{words: []string{"not found"}}}, only4xx: true, sentinel: ErrNotFound},
	{all: []clause{{words: []string{"email already in use", "phone already in use"}}}, sentinel: ErrDuplicateContact},
	{all: []clause{{fields: []string{"date_range"}}}, only4xx: true, sentinel: ErrInvalidDateRange},
}

// sentinelMatcher collects the sentinels of an *APIError's messages.
type sentinelMatcher struct {
	matched []error
	extra   map[string]error
	is4xx   bool
	// orgMismatch is set for an orgMismatchCode refusal: its messages and
	// fields select the resource's not-found sentinel.
	orgMismatch bool
}

// match adds the sentinels of one message msg, filed under field (lower
// case; "" for a top-level message).
func (s *sentinelMatcher) match(field, msg string) {
	n := normalizeMessage(msg)
	if s.orgMismatch {
		for _, r := range orgMismatchResources {
			if strings.Contains(n, r.word) || strings.Contains(field, r.word) {
				s.matched = append(s.matched, r.sentinel)
			}
		}
	}
	if n == "" {
		return
	}
	if e := messageSentinels[n]; e != nil {
		s.matched = append(s.matched, e)
	}
	if e := s.extra[n]; e != nil {
		s.matched = append(s.matched, e)
	}
patterns:
	for _, p := range messagePatterns {
		if p.only4xx && !s.is4xx {
			continue
		}
		for _, c := range p.all {
			if !c.holds(field, n) {
				continue patterns
			}
		}
		s.matched = append(s.matched, p.sentinel)
	}
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

// buildAPIError fills an *APIError from an envelope (nil when the body was
// not one) and computes the sentinels it matches. problem, when set, says
// why the body could not be understood (ErrMalformedResponse), err the
// decoding error behind it.
func buildAPIError(statusCode int, body []byte, env *envelope, problem string, err error, extra map[string]error) *APIError {
	e := &APIError{StatusCode: statusCode, problem: problem, err: err}
	if len(body) > 0 {
		n := min(len(body), maxRawBody)
		e.RawBody = append(make([]byte, 0, n), body[:n]...)
	}
	s := sentinelMatcher{extra: extra, is4xx: statusCode >= 400 && statusCode <= 499}
	if problem != "" {
		s.matched = append(s.matched, ErrMalformedResponse)
	}
	for _, r := range statusSentinels {
		if r.status == statusCode {
			s.matched = append(s.matched, r.sentinel)
		}
	}
	if env == nil {
		switch {
		case problem != "":
		case len(body) == 0:
			e.fallback = "empty response body"
		default:
			e.fallback = excerpt(body)
		}
		e.matched = dedupe(s.matched)
		return e
	}

	e.Code = strings.TrimSpace(jsonText(env.ErrCode))
	code := strings.ToUpper(e.Code)
	for _, r := range codeSentinels {
		if r.except != "" && code == r.except {
			continue
		}
		if (r.exact != "" && code == r.exact) || (r.prefix != "" && strings.HasPrefix(code, r.prefix)) ||
			(r.part != "" && strings.Contains(code, r.part)) {
			s.matched = append(s.matched, r.sentinel)
		}
	}
	s.orgMismatch = code == orgMismatchCode
	e.Message = jsonText(env.Message)
	if e.Message == "" {
		e.Message = jsonText(env.Detail)
	}
	s.match("", e.Message)
	readErrors(e, env.Errors, s.match)
	if problem == "" && e.Message == "" && e.ErrorText == "" && len(e.FieldErrors) == 0 && len(body) > 0 {
		e.fallback = excerpt(body)
	}
	e.matched = dedupe(s.matched)
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

// redirectError refuses a 3xx answer; the target was not contacted.
func redirectError(status int, location string, body []byte) *APIError {
	e := &APIError{StatusCode: status, matched: []error{ErrRedirect}}
	if len(body) > 0 {
		e.RawBody = append([]byte(nil), body[:min(len(body), maxRawBody)]...)
	}
	e.fallback = "redirect to " + strconv.Quote(sanitize(location, maxMessageText)) +
		" not followed: signed requests follow no redirects (is the base address right?)"
	return e
}

// skewHint says plainly that the clocks disagree, and by how much when the
// response carried a Date.
func skewHint(res *attemptResult, correcting bool) string {
	hint := "clock skew: the service refused the request's timestamp; its clock and this machine's must agree within 300 s"
	if date, ok := res.responseDate(); ok {
		d := res.stamp.Sub(date).Round(time.Second)
		side := "ahead of"
		if d < 0 {
			d, side = -d, "behind"
		}
		hint = fmt.Sprintf("clock skew: the request was stamped %s, %s %s the service's Date %s; they must agree within 300 s",
			res.stamp.UTC().Format(time.RFC3339), d, side, date.UTC().Format(time.RFC3339))
	}
	if !correcting {
		hint += "; correct this machine's clock or use WithClockCorrection"
	}
	return hint
}

// decodedInTime returns err, the outcome of decoding a response of status,
// unless ctx ended meanwhile: then it returns an error saying so that wraps
// ctx's error (and err, when there is one), so that a call never reports a
// result its context's deadline came before. The request was answered, so
// the retry code judges a success turned late like any attempt that may
// have acted: a payout create ends in an *OutcomeUnknownError.
func decodedInTime(ctx context.Context, op *operation, status int, err error) error {
	cerr := ctx.Err()
	if cerr == nil {
		return err
	}
	const late = "fiatramp: %s %s: HTTP %d: the context ended while the response was decoded: %w"
	if err == nil {
		return fmt.Errorf(late, op.method, op.url.Path, status, cerr)
	}
	return fmt.Errorf(late+": %w", op.method, op.url.Path, status, cerr, err)
}
