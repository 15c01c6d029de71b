package fiatramp

import (
	"errors"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
)

// Sentinel errors, one per condition the service documents (its err_codes,
// HTTP statuses and refusal messages) plus the library's own. An *APIError matches every sentinel whose
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
	// another payout" (and "... to another payin").
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
	// data that does not decode into the result type, data that lacks a
	// member its result cannot be used without (a payout's id or status:
	// absent, null, "" or the nil UUID; the error names the member), or a
	// response past a
	// limit on its work: nested deeper than 64 levels, or a decimal of more
	// than types.MaxDecimalDigits digits. An error status
	// with an empty body is not malformed. Such an error's Unwrap returns
	// the underlying decoding error, if any. After a malformed 2xx the
	// operation may well have taken effect.
	ErrMalformedResponse = errors.New("fiatramp: malformed response")
	// ErrPagination reports a page link that a list walk (every All and
	// BankAccounts method) or a ListPage method refuses to follow: one
	// that leaves the base path, one already visited, or one past the cap
	// of WithMaxPages.
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

	// ErrNotFound matches anything the service says is absent or not the
	// caller's: HTTP 404, err_code NOT_FOUND, USR_NOT_FOUND and
	// AUTH_ORG_MISMATCH (a record of another organization, sent as a 400:
	// "not yours" is "not found", never ErrUnauthorized), and every 4xx
	// message saying "not found" ("Customer not found or access denied",
	// "Quotation is not found", ...). The specific sentinels
	// (ErrCustomerNotFound, ErrQuotationNotFound, ...) match alongside it
	// when the message, the field or the err_code names the resource.
	ErrNotFound = errors.New("fiatramp: not found or not this organization's")
	// ErrPayoutNotFound matches AUTH_ORG_MISMATCH for a payout (its message
	// or field names the payout).
	ErrPayoutNotFound = errors.New("fiatramp: payout not found or access denied")
	// ErrPayinNotFound matches AUTH_ORG_MISMATCH for a payin (its message
	// or field names the payin).
	ErrPayinNotFound = errors.New("fiatramp: payin not found or access denied")
	// ErrServiceTimeout matches err_code NET_TIMEOUT, which the service
	// sends as a 400 when it gave up on a request: a create it answers so
	// may have taken effect (the library returns an *OutcomeUnknownError),
	// a read is retried.
	ErrServiceTimeout = errors.New("fiatramp: service timed out")
	// ErrServiceUnknown matches err_code UNKNOWN_ERROR, sent as a 400 and
	// treated like ErrServiceTimeout.
	ErrServiceUnknown = errors.New("fiatramp: service failed with an unknown error")
	// ErrUPIUnsupported matches "UPI is not supported" (a payout quotation
	// for a UPI id: payouts go to bank accounts only).
	ErrUPIUnsupported = errors.New("fiatramp: UPI is not supported")
	// ErrEDDNotRequired matches "EDD not required".
	ErrEDDNotRequired = errors.New("fiatramp: enhanced due diligence not required")
	// ErrUTRInUse matches "UTR is already linked to another payin".
	ErrUTRInUse = errors.New("fiatramp: UTR already linked to another payin")
	// ErrUTRInvalid matches "Invalid UTR format" (a UTR has 12 characters).
	ErrUTRInvalid = errors.New("fiatramp: invalid UTR format")
	// ErrPayinIDInvalid matches "Payin ID is required." and "Payin ID is
	// invalid".
	ErrPayinIDInvalid = errors.New("fiatramp: payin id missing or invalid")
	// ErrEmailInUse matches "Email already in use" (with
	// ErrDuplicateContact).
	ErrEmailInUse = errors.New("fiatramp: email already in use")
	// ErrPhoneInUse matches "Phone already in use" (with
	// ErrDuplicateContact).
	ErrPhoneInUse = errors.New("fiatramp: phone already in use")
	// ErrDuplicateContact matches err_code USR_DUPLICATE_CONTACT, "Email
	// already in use" and "Phone already in use".
	ErrDuplicateContact = errors.New("fiatramp: contact details already in use")
	// ErrInvalidCountry matches err_code REQ_INVALID_COUNTRY and "Invalid
	// country code".
	ErrInvalidCountry = errors.New("fiatramp: invalid country code")
	// ErrInvalidResidenceCountry matches err_code
	// REQ_INVALID_RESIDENCE_COUNTRY.
	ErrInvalidResidenceCountry = errors.New("fiatramp: invalid residence country")
	// ErrNonResidentUnsupported matches err_code
	// REQ_NON_RESIDENT_UNSUPPORTED.
	ErrNonResidentUnsupported = errors.New("fiatramp: non-resident customers not supported")
	// ErrInputMalformed matches err_codes INPUT_MALFORMED and
	// INPUT_MALFORMED_ADDITIONAL_INFO.
	ErrInputMalformed = errors.New("fiatramp: malformed input")
	// ErrAdditionalInfoMalformed matches err_code
	// INPUT_MALFORMED_ADDITIONAL_INFO (with ErrInputMalformed).
	ErrAdditionalInfoMalformed = errors.New("fiatramp: malformed KYC additional info")
	// ErrInvalidDateFormat matches err_code INPUT_INVALID_DATE_FORMAT.
	ErrInvalidDateFormat = errors.New("fiatramp: invalid date format")
	// ErrInvalidDateRange matches a 4xx whose errors are filed under
	// date_range (a history filter with only one of its dates).
	ErrInvalidDateRange = errors.New("fiatramp: invalid date range")
	// ErrInvalidAadhaar matches err_code KYC_INVALID_AADHAAR_INPUT.
	ErrInvalidAadhaar = errors.New("fiatramp: invalid Aadhaar input")
	// ErrInvalidDocumentType matches err_code KYC_INVALID_DOC_TYPE.
	ErrInvalidDocumentType = errors.New("fiatramp: invalid KYC document type")
	// ErrKYCExists matches "KYC already exists".
	ErrKYCExists = errors.New("fiatramp: KYC already exists")
	// ErrKYCInUse matches err_code KYC_IN_USE and "KYC already in use".
	ErrKYCInUse = errors.New("fiatramp: KYC already in use")
	// ErrUpdateLimitExceeded matches "Limit exceeded" and "Kyc update limit
	// exceeded" (at most 3 updates of each kind per customer).
	ErrUpdateLimitExceeded = errors.New("fiatramp: update limit exceeded")
	// ErrVPAInUse matches "VPA already in use".
	ErrVPAInUse = errors.New("fiatramp: VPA already in use")
	// ErrAccountNumberInUse matches "Account number already in use".
	ErrAccountNumberInUse = errors.New("fiatramp: account number already in use")
	// ErrBankAccountLimit matches "Maximum 3 bank account details allowed"
	// and "Maximum 3 UPI IDs allowed".
	ErrBankAccountLimit = errors.New("fiatramp: bank account or UPI id limit reached")

	// ErrNotCreated matches a *NotCreatedError: a create whose outcome was
	// unknown until reconciliation proved that nothing holds its reference.
	ErrNotCreated = errors.New("fiatramp: not created (reconciled)")
)

// sentinels names every sentinel error of the package, in the order they
// are declared: SentinelNames reads it, and a test holds it to the
// package's exported Err variables, so that a new sentinel cannot be left
// out.
var sentinels = [...]struct {
	name string
	err  error
}{
	{"ErrFieldMissing", ErrFieldMissing},
	{"ErrInternal", ErrInternal},
	{"ErrUnavailable", ErrUnavailable},
	{"ErrUnauthorized", ErrUnauthorized},
	{"ErrRateLimited", ErrRateLimited},
	{"ErrClientReferenceExists", ErrClientReferenceExists},
	{"ErrQuotationNotFound", ErrQuotationNotFound},
	{"ErrCustomerMismatch", ErrCustomerMismatch},
	{"ErrQuotationExpired", ErrQuotationExpired},
	{"ErrQuotationAlreadyLinked", ErrQuotationAlreadyLinked},
	{"ErrExchangeOrderInUse", ErrExchangeOrderInUse},
	{"ErrInsufficientBalance", ErrInsufficientBalance},
	{"ErrNotEntitled", ErrNotEntitled},
	{"ErrPayoutIDInvalid", ErrPayoutIDInvalid},
	{"ErrQuotationIDInvalid", ErrQuotationIDInvalid},
	{"ErrCustomerNotFound", ErrCustomerNotFound},
	{"ErrBankNotFound", ErrBankNotFound},
	{"ErrCustomerUnverified", ErrCustomerUnverified},
	{"ErrBankUnverified", ErrBankUnverified},
	{"ErrOnrampDisabled", ErrOnrampDisabled},
	{"ErrAmountBelowMinimum", ErrAmountBelowMinimum},
	{"ErrAmountAboveMaximum", ErrAmountAboveMaximum},
	{"ErrAMLScreeningFailed", ErrAMLScreeningFailed},
	{"ErrEDDRequired", ErrEDDRequired},
	{"ErrDailyLimitExhausted", ErrDailyLimitExhausted},
	{"ErrMalformedResponse", ErrMalformedResponse},
	{"ErrPagination", ErrPagination},
	{"ErrInvalidRequest", ErrInvalidRequest},
	{"ErrOutcomeUnknown", ErrOutcomeUnknown},
	{"ErrRedirect", ErrRedirect},
	{"ErrClockSkew", ErrClockSkew},
	{"ErrNotFound", ErrNotFound},
	{"ErrPayoutNotFound", ErrPayoutNotFound},
	{"ErrPayinNotFound", ErrPayinNotFound},
	{"ErrServiceTimeout", ErrServiceTimeout},
	{"ErrServiceUnknown", ErrServiceUnknown},
	{"ErrUPIUnsupported", ErrUPIUnsupported},
	{"ErrEDDNotRequired", ErrEDDNotRequired},
	{"ErrUTRInUse", ErrUTRInUse},
	{"ErrUTRInvalid", ErrUTRInvalid},
	{"ErrPayinIDInvalid", ErrPayinIDInvalid},
	{"ErrEmailInUse", ErrEmailInUse},
	{"ErrPhoneInUse", ErrPhoneInUse},
	{"ErrDuplicateContact", ErrDuplicateContact},
	{"ErrInvalidCountry", ErrInvalidCountry},
	{"ErrInvalidResidenceCountry", ErrInvalidResidenceCountry},
	{"ErrNonResidentUnsupported", ErrNonResidentUnsupported},
	{"ErrInputMalformed", ErrInputMalformed},
	{"ErrAdditionalInfoMalformed", ErrAdditionalInfoMalformed},
	{"ErrInvalidDateFormat", ErrInvalidDateFormat},
	{"ErrInvalidDateRange", ErrInvalidDateRange},
	{"ErrInvalidAadhaar", ErrInvalidAadhaar},
	{"ErrInvalidDocumentType", ErrInvalidDocumentType},
	{"ErrKYCExists", ErrKYCExists},
	{"ErrKYCInUse", ErrKYCInUse},
	{"ErrUpdateLimitExceeded", ErrUpdateLimitExceeded},
	{"ErrVPAInUse", ErrVPAInUse},
	{"ErrAccountNumberInUse", ErrAccountNumberInUse},
	{"ErrBankAccountLimit", ErrBankAccountLimit},
	{"ErrNotCreated", ErrNotCreated},
	{"ErrRetryBudgetExhausted", ErrRetryBudgetExhausted},
}

// SentinelNames returns the names of this package's sentinel errors that
// err matches by errors.Is, in the order the package declares them, e.g.
// ["ErrUnauthorized" "ErrClockSkew"] for a refused timestamp; nil when it
// matches none (a nil err, a network error, a context's end). The names
// are the Go identifiers, which stay as long as the sentinels do: fit for
// a log field, or, as a bounded set, for a metric label (the first name,
// or all of them joined).
func SentinelNames(err error) []string {
	if err == nil {
		return nil
	}
	var names []string
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			names = append(names, s.name)
		}
	}
	return names
}

// OutcomeUnknownError reports a payout create (or another call not safe to
// repeat blindly: a payin initiate, an EDD save, a bank account add, ...)
// whose outcome the library could not learn: an attempt may have reached the service (the connection
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
// Or settle it with reads only: Payouts.ReconcileOutcome (Payins' for a
// payin initiate) reads the quotation and, as far as needed, the newest
// page of the payout history; WithReconcile makes the create do so before
// it returns.
type OutcomeUnknownError struct {
	// ClientReferenceID is the client_reference_id every attempt carried;
	// empty for a Do call or a create sent without one.
	ClientReferenceID string
	// QuotationID is the quotation of the payout; uuid.Nil for a Do call.
	QuotationID uuid.UUID
	// CustomerID is the customer the payout was for (Payouts.Create: the
	// quotation's customer; payin initiate: the paying customer); uuid.Nil
	// when the call does not name one.
	CustomerID uuid.UUID
	// UTR is the bank transfer's reference of a payin initiate; "" for
	// other calls.
	UTR string
	// Started and Ended bound the attempts on the client's clock: the
	// window in which a payout they created would have been created.
	Started, Ended time.Time
	// Unsettled, when the call reconciled on its own (WithReconcile) and
	// could not settle the outcome, says why.
	Unsettled string
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

	// operation is the operation's name in the index ("Payins.Initiate"),
	// "" for a call through Do; created is what it creates ("the payin").
	operation, created string
}

// Error says that what the operation creates may exist, with its
// reference and quotation.
func (e *OutcomeUnknownError) Error() string {
	var b strings.Builder
	b.WriteString("fiatramp: outcome unknown: ")
	b.WriteString(e.Method + " " + e.Path)
	if e.operation != "" {
		b.WriteString(" (" + e.operation + ")")
	}
	if e.ClientReferenceID != "" {
		b.WriteString(" client_reference_id " + strconv.Quote(sanitize(e.ClientReferenceID, maxDetailText)))
	}
	if e.QuotationID != uuid.Nil {
		b.WriteString(" quotation_id " + e.QuotationID.String())
	}
	if e.ProbablyCreated {
		created := e.created
		if created == "" {
			created = "what the call creates"
		}
		b.WriteString(": " + created + " was probably created by an earlier attempt (a retry was refused as a duplicate)")
	} else {
		b.WriteString(": the operation may have taken effect")
	}
	b.WriteString("; reconcile before acting (attempts: " + strconv.Itoa(e.Attempts) + ")")
	if e.Unsettled != "" {
		b.WriteString("; reconciliation left it unknown: " + sanitize(e.Unsettled, maxMessageText))
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// NotCreatedError reports a payout create or payin initiate whose outcome
// was unknown (an attempt may have reached the service) until the
// reconciliation WithReconcile asked for proved that nothing holds its
// reference. Creating again with the same ClientReferenceID is safe: if
// the lost attempt still lands, the service refuses whichever comes
// second. A new reference is safe only once the quotation can no longer
// be used (EXPIRED).
//
// Like *OutcomeUnknownError it does not unwrap to the last attempt's
// error (kept in Err): a refusal met on a retry is no reason to quote
// again under a new reference.
type NotCreatedError struct {
	// ClientReferenceID is the reference the attempts carried.
	ClientReferenceID string
	// QuotationID is the quotation of the create.
	QuotationID uuid.UUID
	// Reason says what proves it.
	Reason string
	// Attempts is the number of attempts the create made.
	Attempts int
	// Err is the last attempt's error, for the record.
	Err error
}

// Error says that nothing was created and why.
func (e *NotCreatedError) Error() string {
	var b strings.Builder
	b.WriteString("fiatramp: not created: client_reference_id ")
	b.WriteString(`"` + sanitize(e.ClientReferenceID, maxDetailText) + `"`)
	if e.QuotationID != uuid.Nil {
		b.WriteString(" quotation_id " + e.QuotationID.String())
	}
	b.WriteString(": " + e.Reason + "; safe to create again with the same reference")
	if e.Err != nil {
		b.WriteString(" (last attempt: " + e.Err.Error() + ")")
	}
	return b.String()
}

// Is reports whether target is ErrNotCreated.
func (e *NotCreatedError) Is(target error) bool { return target == ErrNotCreated }

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
	decoded  bool    // made by the library from a response: matched holds its sentinels
	matched  []error // sentinels a decoded error matches, computed once
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
// not be understood, or a sentinel of the client's WithErrorMessage table.
//
// An *APIError built by hand, e.g. by a fake in a test, matches by the same
// rules from its exported fields (StatusCode, Code, Message, ErrorText and
// FieldErrors), read each time Is is called: &APIError{StatusCode: 429}
// matches ErrRateLimited, and &APIError{StatusCode: 400, Message:
// "Customer is unverified"} ErrCustomerUnverified, as the same answer from
// the service would. Only a client's WithErrorMessage table does not apply
// to it. An *APIError with no fields set matches nothing.
func (e *APIError) Is(target error) bool {
	if e == nil {
		return false
	}
	matched := e.matched
	if !e.decoded {
		matched = e.fieldSentinels()
	}
	for _, s := range matched {
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
