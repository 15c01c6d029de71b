package fiatramptest

import (
	"net/http"

	"github.com/fiatramp/fiatramp-go"
)

// Refusal returns a new *fiatramp.APIError as the service sends the
// refusal that sentinel stands for (its status, err_code, message and
// field errors), for a fake to return: errors.Is matches it to sentinel as
// it would the service's own answer, and to the other sentinels that
// answer matches (ErrQuotationNotFound comes with ErrNotFound, for one).
//
// Refusal panics for a sentinel that is no refusal of the service: one of
// the library's own errors (ErrInvalidRequest, ErrOutcomeUnknown,
// ErrNotCreated, ErrPagination, ErrRetryBudgetExhausted,
// ErrMalformedResponse), which a fake builds as their types
// (*fiatramp.ValidationError, ...) or, for ErrMalformedResponse, cannot
// build at all; or an error that is no sentinel of package fiatramp.
func Refusal(sentinel error) *fiatramp.APIError {
	e := refusal(sentinel)
	if e == nil {
		panic("fiatramptest: Refusal: no refusal of the service stands for " + describe(sentinel))
	}
	return e
}

// describe names err for Refusal's panic: its sentinel names, or its text.
func describe(err error) string {
	if err == nil {
		return "a nil error"
	}
	if names := fiatramp.SentinelNames(err); len(names) > 0 {
		return names[0]
	}
	return "the error " + err.Error()
}

// refusal is the answer the service sends for sentinel; nil when it sends
// none.
func refusal(sentinel error) *fiatramp.APIError {
	const bad = http.StatusBadRequest
	msg := func(status int, message string) *fiatramp.APIError {
		return &fiatramp.APIError{StatusCode: status, Message: message}
	}
	code := func(status int, code, message string) *fiatramp.APIError {
		return &fiatramp.APIError{StatusCode: status, Code: code, Message: message}
	}
	orgMismatch := func(field string) *fiatramp.APIError {
		return &fiatramp.APIError{StatusCode: bad, Code: "AUTH_ORG_MISMATCH", Message: "Organization mismatch",
			FieldErrors: map[string][]string{field: {"Does not belong to your organization."}}}
	}
	switch sentinel {
	// The service's own refusals of a request.
	case fiatramp.ErrFieldMissing:
		return &fiatramp.APIError{StatusCode: bad, Code: "REQ_FIELD_MISSING", Message: "Invalid request",
			FieldErrors: map[string][]string{"customer_id": {"This field is required."}}}
	case fiatramp.ErrInternal:
		return code(http.StatusInternalServerError, "SYS_INTERNAL_ERROR", "Internal Server Error")
	case fiatramp.ErrUnavailable:
		return msg(http.StatusServiceUnavailable, "Service unavailable")
	case fiatramp.ErrUnauthorized:
		return code(http.StatusUnauthorized, "AUTH_INVALID_SIGNATURE", "Invalid Signature")
	case fiatramp.ErrClockSkew:
		return code(http.StatusUnauthorized, "AUTH_UNAUTHORIZED",
			"Request timestamp is outside the allowed window of 300 seconds.")
	case fiatramp.ErrRateLimited:
		return code(http.StatusTooManyRequests, "TOO_MANY_REQUESTS", "Too many requests.")
	case fiatramp.ErrRedirect:
		return &fiatramp.APIError{StatusCode: http.StatusFound}
	case fiatramp.ErrServiceTimeout:
		return code(bad, "NET_TIMEOUT", "Request timed out")
	case fiatramp.ErrServiceUnknown:
		return code(bad, "UNKNOWN_ERROR", "Something went wrong")

	// Not found, or another organization's.
	case fiatramp.ErrNotFound:
		return code(http.StatusNotFound, "NOT_FOUND", "Not found.")
	case fiatramp.ErrCustomerNotFound:
		return msg(bad, "Customer not found or access denied")
	case fiatramp.ErrBankNotFound:
		return msg(bad, "Bank not found or access denied")
	case fiatramp.ErrQuotationNotFound:
		return msg(bad, "Quotation is not found")
	case fiatramp.ErrPayoutNotFound:
		return orgMismatch("payout_id")
	case fiatramp.ErrPayinNotFound:
		return orgMismatch("payin_id")

	// Payouts and payins.
	case fiatramp.ErrClientReferenceExists:
		return msg(bad, "Client Reference ID already exists")
	case fiatramp.ErrCustomerMismatch:
		return msg(bad, "Customer ID does not match with the quotation")
	case fiatramp.ErrQuotationExpired:
		return msg(bad, "Quotation has expired")
	case fiatramp.ErrQuotationAlreadyLinked:
		return msg(bad, "Quotation is already linked to another payout")
	case fiatramp.ErrExchangeOrderInUse:
		return msg(bad, "Exchange Order ID already linked to a payout that is either processing or successful")
	case fiatramp.ErrInsufficientBalance:
		return msg(bad, "Insufficient prefunded balance")
	case fiatramp.ErrNotEntitled:
		return msg(bad, "This endpoint is not available for your organization.")
	case fiatramp.ErrPayoutIDInvalid:
		return msg(bad, "Payout ID is invalid")
	case fiatramp.ErrQuotationIDInvalid:
		return msg(bad, "Quotation ID is invalid")
	case fiatramp.ErrPayinIDInvalid:
		return msg(bad, "Payin ID is invalid")
	case fiatramp.ErrCustomerUnverified:
		return msg(bad, "Customer is unverified")
	case fiatramp.ErrBankUnverified:
		return msg(bad, "Bank account is unverified")
	case fiatramp.ErrUPIUnsupported:
		return msg(bad, "UPI is not supported")
	case fiatramp.ErrOnrampDisabled:
		return msg(bad, "Onramp is disabled")
	case fiatramp.ErrAmountBelowMinimum:
		return msg(bad, "Entered amount is less than minimum transaction amount")
	case fiatramp.ErrAmountAboveMaximum:
		return msg(bad, "Entered amount exceeds maximum transaction amount")
	case fiatramp.ErrAMLScreeningFailed:
		return msg(bad, "AML SCREENING FAILED")
	case fiatramp.ErrEDDRequired:
		return msg(bad, "EDD required")
	case fiatramp.ErrEDDNotRequired:
		return msg(bad, "EDD not required")
	case fiatramp.ErrDailyLimitExhausted:
		return msg(bad, "Daily onramp limit exhausted")
	case fiatramp.ErrUTRInUse:
		return msg(bad, "UTR is already linked to another payin")
	case fiatramp.ErrUTRInvalid:
		return msg(bad, "Invalid UTR format")
	case fiatramp.ErrInvalidDateRange:
		return &fiatramp.APIError{StatusCode: bad, Message: "Invalid request",
			FieldErrors: map[string][]string{"date_range": {"Both start_date and end_date are required."}}}

	// Customers, KYC and bank accounts.
	case fiatramp.ErrEmailInUse:
		return code(bad, "USR_DUPLICATE_CONTACT", "Email already in use")
	case fiatramp.ErrPhoneInUse:
		return code(bad, "USR_DUPLICATE_CONTACT", "Phone already in use")
	case fiatramp.ErrDuplicateContact:
		return code(bad, "USR_DUPLICATE_CONTACT", "Email already in use")
	case fiatramp.ErrInvalidCountry:
		return code(bad, "REQ_INVALID_COUNTRY", "Invalid country code")
	case fiatramp.ErrInvalidResidenceCountry:
		return code(bad, "REQ_INVALID_RESIDENCE_COUNTRY", "Invalid residence country")
	case fiatramp.ErrNonResidentUnsupported:
		return code(bad, "REQ_NON_RESIDENT_UNSUPPORTED", "Non-resident customers are not supported")
	case fiatramp.ErrInputMalformed:
		return code(bad, "INPUT_MALFORMED", "Malformed input")
	case fiatramp.ErrAdditionalInfoMalformed:
		return code(bad, "INPUT_MALFORMED_ADDITIONAL_INFO", "Malformed additional info")
	case fiatramp.ErrInvalidDateFormat:
		return &fiatramp.APIError{StatusCode: bad, Code: "INPUT_INVALID_DATE_FORMAT", Message: "Invalid request",
			FieldErrors: map[string][]string{"dob": {"Date has wrong format. Use one of these formats instead: DD-MM-YYYY."}}}
	case fiatramp.ErrInvalidAadhaar:
		return code(bad, "KYC_INVALID_AADHAAR_INPUT", "Invalid Aadhaar input")
	case fiatramp.ErrInvalidDocumentType:
		return code(bad, "KYC_INVALID_DOC_TYPE", "Invalid document type")
	case fiatramp.ErrKYCExists:
		return msg(bad, "KYC already exists")
	case fiatramp.ErrKYCInUse:
		return code(bad, "KYC_IN_USE", "KYC already in use")
	case fiatramp.ErrUpdateLimitExceeded:
		return msg(bad, "Limit exceeded")
	case fiatramp.ErrVPAInUse:
		return msg(bad, "VPA already in use")
	case fiatramp.ErrAccountNumberInUse:
		return msg(bad, "Account number already in use")
	case fiatramp.ErrBankAccountLimit:
		return msg(bad, "Maximum 3 bank account details allowed")
	}
	return nil
}
