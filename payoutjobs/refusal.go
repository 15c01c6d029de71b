package payoutjobs

import (
	"errors"
	"net/http"
	"strconv"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// refusalSentinels are the sentinels a refusal of a quotation or a create
// is named by, most specific first. The name is the one a caller would
// write in errors.Is, so that a dashboard's refusal counts read as code.
var refusalSentinels = [...]struct {
	name string
	err  error
}{
	{"ErrClientReferenceExists", fiatramp.ErrClientReferenceExists},
	{"ErrQuotationNotFound", fiatramp.ErrQuotationNotFound},
	{"ErrCustomerMismatch", fiatramp.ErrCustomerMismatch},
	{"ErrQuotationExpired", fiatramp.ErrQuotationExpired},
	{"ErrQuotationAlreadyLinked", fiatramp.ErrQuotationAlreadyLinked},
	{"ErrExchangeOrderInUse", fiatramp.ErrExchangeOrderInUse},
	{"ErrInsufficientBalance", fiatramp.ErrInsufficientBalance},
	{"ErrNotEntitled", fiatramp.ErrNotEntitled},
	{"ErrCustomerNotFound", fiatramp.ErrCustomerNotFound},
	{"ErrBankNotFound", fiatramp.ErrBankNotFound},
	{"ErrCustomerUnverified", fiatramp.ErrCustomerUnverified},
	{"ErrBankUnverified", fiatramp.ErrBankUnverified},
	{"ErrAmountBelowMinimum", fiatramp.ErrAmountBelowMinimum},
	{"ErrAmountAboveMaximum", fiatramp.ErrAmountAboveMaximum},
	{"ErrAMLScreeningFailed", fiatramp.ErrAMLScreeningFailed},
	{"ErrEDDRequired", fiatramp.ErrEDDRequired},
	{"ErrDailyLimitExhausted", fiatramp.ErrDailyLimitExhausted},
	{"ErrQuotationIDInvalid", fiatramp.ErrQuotationIDInvalid},
	{"ErrFieldMissing", fiatramp.ErrFieldMissing},
	{"ErrInvalidRequest", fiatramp.ErrInvalidRequest},
}

// refusalName names a refusal by its sentinel, or, when none matches, by
// its HTTP status and err_code ("HTTP 400 SOME_CODE").
func refusalName(err error) string {
	for _, s := range refusalSentinels {
		if errors.Is(err, s.err) {
			return s.name
		}
	}
	var apiErr *fiatramp.APIError
	if errors.As(err, &apiErr) {
		name := "HTTP " + strconv.Itoa(apiErr.StatusCode)
		if apiErr.Code != "" {
			name += " " + apiErr.Code
		}
		return name
	}
	return "refused"
}

// isRefusal reports whether err is the service's refusal of the request
// itself: an answer that proves nothing ran, and that asking again with
// the same contents would meet again. Rate limits, the service giving up
// (NET_TIMEOUT, UNKNOWN_ERROR), authentication and clock trouble are not
// refusals of the instruction: they are retried. Bad input caught before
// sending (a *fiatramp.ValidationError) is one.
func isRefusal(err error) bool {
	if errors.Is(err, fiatramp.ErrInvalidRequest) {
		return true
	}
	var apiErr *fiatramp.APIError
	if !errors.As(err, &apiErr) || errors.Is(err, fiatramp.ErrOutcomeUnknown) {
		return false
	}
	switch {
	case errors.Is(err, fiatramp.ErrMalformedResponse):
		return false
	case apiErr.StatusCode >= 200 && apiErr.StatusCode <= 299:
		// An envelope with status false: refused, whatever the HTTP status.
	case apiErr.StatusCode < 400 || apiErr.StatusCode > 499:
		return false
	case apiErr.StatusCode == http.StatusTooManyRequests, apiErr.StatusCode == http.StatusRequestTimeout,
		apiErr.StatusCode == http.StatusUnauthorized, apiErr.StatusCode == http.StatusForbidden:
		return false
	case errors.Is(err, fiatramp.ErrServiceTimeout), errors.Is(err, fiatramp.ErrServiceUnknown),
		errors.Is(err, fiatramp.ErrClockSkew), errors.Is(err, fiatramp.ErrRateLimited),
		errors.Is(err, fiatramp.ErrUnauthorized), errors.Is(err, fiatramp.ErrInternal), errors.Is(err, fiatramp.ErrUnavailable):
		return false
	}
	return true
}
