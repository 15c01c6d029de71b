package payoutjobs

import (
	"errors"
	"net/http"
	"strconv"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// genericSentinels are the sentinels that name a kind of answer rather
// than the refusal itself: a refusal matching a more specific one is named
// by that.
var genericSentinels = map[string]bool{
	"ErrFieldMissing": true, "ErrInvalidRequest": true, "ErrNotFound": true,
}

// refusalName names a refusal by its sentinel (fiatramp.SentinelNames,
// the most specific when it matches several), so that a dashboard's
// refusal counts read as code; when none matches, by its HTTP status and
// err_code ("HTTP 400 SOME_CODE").
func refusalName(err error) string {
	names := fiatramp.SentinelNames(err)
	for _, n := range names {
		if !genericSentinels[n] {
			return n
		}
	}
	if len(names) > 0 {
		return names[0]
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
