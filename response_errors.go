package fiatramp

// The *APIError of a refused or unreadable response: its fields read from
// the error envelope under bounded work, and the sentinels it matches.

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
)

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
	{all: []clause{{words: []string{"not found"}}}, only4xx: true, sentinel: ErrNotFound},
	{all: []clause{{words: []string{"email already in use", "phone already in use"}}}, sentinel: ErrDuplicateContact},
	{all: []clause{{fields: []string{"date_range"}}}, only4xx: true, sentinel: ErrInvalidDateRange},
}

// sentinelMatcher collects the sentinels of an *APIError: status first,
// then err_code, then messages.
type sentinelMatcher struct {
	matched []error
	extra   map[string]error
	is4xx   bool
	// orgMismatch is set for an orgMismatchCode refusal: its messages and
	// fields select the resource's not-found sentinel.
	orgMismatch bool
}

// status adds the sentinel of an HTTP status.
func (s *sentinelMatcher) status(statusCode int) {
	s.is4xx = statusCode >= 400 && statusCode <= 499
	for _, r := range statusSentinels {
		if r.status == statusCode {
			s.matched = append(s.matched, r.sentinel)
		}
	}
}

// code adds the sentinels of an err_code, compared in upper case.
func (s *sentinelMatcher) code(errCode string) {
	code := strings.ToUpper(strings.TrimSpace(errCode))
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
	e := &APIError{StatusCode: statusCode, problem: problem, err: err, decoded: true}
	if len(body) > 0 {
		n := min(len(body), maxRawBody)
		e.RawBody = append(make([]byte, 0, n), body[:n]...)
	}
	s := sentinelMatcher{extra: extra}
	if problem != "" {
		s.matched = append(s.matched, ErrMalformedResponse)
	}
	s.status(statusCode)
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
	s.code(e.Code)
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

// fieldSentinels returns the sentinels of an *APIError built from its
// exported fields, by the rules buildAPIError applies to a response: a
// 3xx status is a refused redirect and nothing else (the library reads no
// body of a 3xx); otherwise the status, the err_code, the message,
// ErrorText and every message of FieldErrors under its field's name, a
// message holding the JSON text of an array or object (how FieldErrors
// keeps a nested value) by the strings inside it.
func (e *APIError) fieldSentinels() []error {
	if e.StatusCode >= 300 && e.StatusCode <= 399 {
		return []error{ErrRedirect}
	}
	var s sentinelMatcher
	s.status(e.StatusCode)
	s.code(e.Code)
	s.match("", e.Message)
	if e.ErrorText != "" {
		s.match("", e.ErrorText)
	}
	keys := make([]string, 0, len(e.FieldErrors))
	for k := range e.FieldErrors {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		field := strings.ToLower(k)
		for _, m := range e.FieldErrors[k] {
			raw := []byte(m)
			if t := jsonscan.TrimSpace(raw); len(t) > 0 && (t[0] == '[' || t[0] == '{') && json.Valid(t) {
				jsonscan.Strings(t, func(str []byte) bool {
					s.match(field, jsonText(str))
					return true
				})
				continue
			}
			s.match(field, m)
		}
	}
	return dedupe(s.matched)
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
