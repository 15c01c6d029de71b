package fiatramp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireSentinels checks that err matches exactly the sentinels in want
// (and, through a wrapping error, still does); for an *APIError decoded
// from a body the library understood, also that the same error built by
// hand from its exported fields matches exactly the same. (A 3xx given to
// decodeResponse by a test is left out: the client answers every 3xx with
// redirectError, as a hand-built 3xx matches.)
func requireSentinels(t *testing.T, err error, want ...error) {
	t.Helper()
	requireSentinelsOnly(t, err, want...)
	var e *APIError
	if errors.As(err, &e) && e.decoded && e.problem == "" && (e.StatusCode < 300 || e.StatusCode > 399) {
		require.Empty(t, sentinelDiff(e, rebuild(e)), "built by hand from %#v", rebuild(e))
	}
}

// requireSentinelsOnly checks that err matches exactly the sentinels in
// want, also when wrapped.
func requireSentinelsOnly(t *testing.T, err error, want ...error) {
	t.Helper()
	require.Error(t, err)
	wrapped := fmt.Errorf("call: %w", err)
	for _, s := range sentinels {
		expected := false
		for _, w := range want {
			if w == s.err {
				expected = true
			}
		}
		require.Equalf(t, expected, errors.Is(err, s.err), "errors.Is(%s) for %v", s.name, err)
		require.Equalf(t, expected, errors.Is(wrapped, s.err), "errors.Is(wrapped, %s)", s.name)
	}
}

// rebuild is e as a fake would build it: its exported fields, copied.
func rebuild(e *APIError) *APIError {
	return &APIError{StatusCode: e.StatusCode, Code: e.Code, Message: e.Message,
		FieldErrors: e.FieldErrors, ErrorText: e.ErrorText}
}

// sentinelDiff names the sentinels that one of a and b matches and the
// other does not; "" when they match the same.
func sentinelDiff(a, b error) string {
	var diff []string
	for _, s := range sentinels {
		if x, y := errors.Is(a, s.err), errors.Is(b, s.err); x != y {
			diff = append(diff, fmt.Sprintf("%s: %v vs %v", s.name, x, y))
		}
	}
	return strings.Join(diff, "; ")
}

// errBody builds a realistic error envelope; errs is the JSON of `errors`
// ("" leaves it out), code "" leaves err_code out.
func errBody(message, code, errs string) string {
	var b strings.Builder
	b.WriteString(`{"status":false,"message":`)
	m, _ := json.Marshal(message)
	b.Write(m)
	if code != "" {
		b.WriteString(`,"err_code":"` + code + `"`)
	}
	if errs != "" {
		b.WriteString(`,"errors":` + errs)
	}
	b.WriteString(`,"data":null}`)
	return b.String()
}

// TestAPIErrorSection7 builds every error row of interface.md section 7 (and
// the public notes' variants) and checks fields and the exact sentinel set.
func TestAPIErrorSection7(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		code    string
		message string
		want    []error
	}{
		// 7: err_code table.
		{"7 REQ_FIELD_MISSING", 400,
			errBody("Invalid request", "REQ_FIELD_MISSING", `{"customer_id":["This field is required."]}`),
			"REQ_FIELD_MISSING", "Invalid request", []error{ErrFieldMissing}},
		{"7 REQ_FIELD_MISSING invalid value", 400,
			errBody("Invalid request", "REQ_FIELD_MISSING", `{"customer_id":["Must be a valid UUID."]}`),
			"REQ_FIELD_MISSING", "Invalid request", []error{ErrFieldMissing}},
		{"7 SYS_INTERNAL_ERROR", 500,
			errBody("Internal Server Error", "SYS_INTERNAL_ERROR", `"database connection lost"`),
			"SYS_INTERNAL_ERROR", "Internal Server Error", []error{ErrInternal}},

		// 7.1 standard create payout, 400.
		{"7.1 client reference exists", 400, errBody("Client Reference ID already exists", "", ""),
			"", "Client Reference ID already exists", []error{ErrClientReferenceExists}},
		{"7.1 quotation not found", 400, errBody("Quotation is not found", "", ""),
			"", "Quotation is not found", []error{ErrQuotationNotFound, ErrNotFound}},
		{"7.1 customer mismatch", 400, errBody("Customer ID does not match with the quotation", "", ""),
			"", "Customer ID does not match with the quotation", []error{ErrCustomerMismatch}},
		{"7.1 quotation expired", 400, errBody("Quotation has expired", "", ""),
			"", "Quotation has expired", []error{ErrQuotationExpired}},
		{"7.1 quotation already linked", 400, errBody("Quotation is already linked to another payout", "", ""),
			"", "Quotation is already linked to another payout", []error{ErrQuotationAlreadyLinked}},
		{"7.1 exchange order in use", 400,
			errBody("Exchange Order ID already linked to a payout that is either processing or successful", "", ""),
			"", "Exchange Order ID already linked to a payout that is either processing or successful",
			[]error{ErrExchangeOrderInUse}},

		// 7.2 prefunded create payout, 400 (three messages not shown: patterns).
		{"7.2 insufficient balance", 400, errBody("Insufficient prefunded balance", "", ""),
			"", "Insufficient prefunded balance", []error{ErrInsufficientBalance}},
		{"7.2 insufficient balance variant", 400, errBody("Prefunded wallet has insufficient USDT balance.", "", ""),
			"", "Prefunded wallet has insufficient USDT balance.", []error{ErrInsufficientBalance}},
		{"7.2 insufficient balance in errors", 400,
			errBody("Bad request", "", `{"amount":["Insufficient balance"]}`),
			"", "Bad request", []error{ErrInsufficientBalance}},
		{"7.2 expired quotation", 400, errBody("Quotation expired.", "", ""),
			"", "Quotation expired.", []error{ErrQuotationExpired}},
		{"7.2 expired quotation in errors", 400,
			errBody("Bad request", "", `{"quotation_id":["The quotation is expired"]}`),
			"", "Bad request", []error{ErrQuotationExpired}},
		{"7.2 duplicate reference", 400, errBody("client_reference_id already exists", "", ""),
			"", "client_reference_id already exists", []error{ErrClientReferenceExists}},
		{"7.2 duplicate reference DRF unique", 400,
			errBody("Bad request", "REQ_FIELD_MISSING", `{"client_reference_id":["payout with this client reference id already exists."]}`),
			"REQ_FIELD_MISSING", "Bad request", []error{ErrClientReferenceExists, ErrFieldMissing}},
		{"7.2 duplicate reference by field name", 400,
			errBody("Bad request", "", `{"client_reference_id":["This field must be unique."]}`),
			"", "Bad request", []error{ErrClientReferenceExists}},
		{"7.2 missing field nested", 400,
			errBody("Invalid request", "REQ_FIELD_MISSING", `{"customer":{"receiver":{"id":["This field is required."]}}}`),
			"REQ_FIELD_MISSING", "Invalid request", []error{ErrFieldMissing}},
		{"7.2 missing field nested without code", 400,
			errBody("Invalid request", "", `{"customer":{"sender":{"id":["This field is required."]}}}`),
			"", "Invalid request", []error{ErrFieldMissing}},
		{"7.2 missing field without code", 400,
			errBody("Invalid request", "", `{"quotation_id":["This field is required."]}`),
			"", "Invalid request", []error{ErrFieldMissing}},
		{"7.2 not entitled", 400, errBody("This endpoint is not available for your organization.", "", ""),
			"", "This endpoint is not available for your organization.", []error{ErrNotEntitled}},

		// 7.3 other endpoints.
		{"7.3 payout id required", 400, errBody("Payout ID is required.", "", ""),
			"", "Payout ID is required.", []error{ErrPayoutIDInvalid}},
		{"7.3 payout id invalid", 400, errBody("Payout ID is invalid", "", ""),
			"", "Payout ID is invalid", []error{ErrPayoutIDInvalid}},
		{"7.3 quotation id required", 400, errBody("Quotation ID is required.", "", ""),
			"", "Quotation ID is required.", []error{ErrQuotationIDInvalid}},
		{"7.3 quotation id invalid", 400, errBody("Quotation ID is invalid", "", ""),
			"", "Quotation ID is invalid", []error{ErrQuotationIDInvalid}},
		{"7.3 customer not found", 400, errBody("Customer not found or access denied", "", ""),
			"", "Customer not found or access denied", []error{ErrCustomerNotFound, ErrNotFound}},
		{"7.3 customer not found in errors", 400,
			errBody("Bad request", "", `{"customer":["Customer not found or access denied."]}`),
			"", "Bad request", []error{ErrCustomerNotFound, ErrNotFound}},
		{"7.3 bank not found", 400, errBody("Bank not found or access denied", "", ""),
			"", "Bank not found or access denied", []error{ErrBankNotFound, ErrNotFound}},
		{"7.3 bank not found in errors", 400,
			errBody("", "", `{"bank":["Bank not found or access denied."]}`),
			"", "", []error{ErrBankNotFound, ErrNotFound}},
		{"7.3 internal server error", 500, errBody("Internal Server Error.", "SYS_INTERNAL_ERROR", `"Internal Server Error."`),
			"SYS_INTERNAL_ERROR", "Internal Server Error.", []error{ErrInternal}},

		// 7.4 create payin quotation.
		{"7.4 customer unverified", 400, errBody("Customer is unverified", "", ""),
			"", "Customer is unverified", []error{ErrCustomerUnverified}},
		{"7.4 bank unverified", 400, errBody("Bank account is unverified", "", ""),
			"", "Bank account is unverified", []error{ErrBankUnverified}},
		{"7.4 onramp disabled", 400, errBody("Onramp is disabled", "", ""),
			"", "Onramp is disabled", []error{ErrOnrampDisabled}},
		{"7.4 amount below minimum", 400, errBody("Entered amount is less than minimum transaction amount", "", ""),
			"", "Entered amount is less than minimum transaction amount", []error{ErrAmountBelowMinimum}},
		{"7.4 amount above maximum", 400, errBody("Entered amount exceeds maximum transaction amount", "", ""),
			"", "Entered amount exceeds maximum transaction amount", []error{ErrAmountAboveMaximum}},
		{"7.4 aml", 400, errBody("AML SCREENING FAILED", "", ""),
			"", "AML SCREENING FAILED", []error{ErrAMLScreeningFailed}},
		{"7.4 edd", 400, errBody("EDD required", "", ""),
			"", "EDD required", []error{ErrEDDRequired}},
		{"7.4 daily limit", 400, errBody("Daily onramp limit exhausted", "", ""),
			"", "Daily onramp limit exhausted", []error{ErrDailyLimitExhausted}},
		{"7.4 500", 500, errBody("Internal Server Error", "SYS_INTERNAL_ERROR", `"Internal Server Error"`),
			"SYS_INTERNAL_ERROR", "Internal Server Error", []error{ErrInternal}},
		{"7.4 503", 503, errBody("Service unavailable", "", ""),
			"", "Service unavailable", []error{ErrUnavailable}},

		// Variants of case, space and trailing full stops.
		{"upper case", 400, errBody("CUSTOMER IS UNVERIFIED", "", ""),
			"", "CUSTOMER IS UNVERIFIED", []error{ErrCustomerUnverified}},
		{"lower case, stops, space", 400, errBody("  customer is unverified...  ", "", ""),
			"", "  customer is unverified...  ", []error{ErrCustomerUnverified}},
		{"required without stop", 400, errBody("Payout ID is required", "", ""),
			"", "Payout ID is required", []error{ErrPayoutIDInvalid}},
		{"invalid with stop in errors", 400, errBody("", "", `{"quotation_id":["Quotation ID is invalid."]}`),
			"", "", []error{ErrQuotationIDInvalid}},
		{"errors single string value", 400, errBody("Bad request", "", `{"customer":"Customer not found or access denied."}`),
			"", "Bad request", []error{ErrCustomerNotFound, ErrNotFound}},
		{"errors string", 400, errBody("Bad request", "", `"Bank account is unverified."`),
			"", "Bad request", []error{ErrBankUnverified}},

		// Status codes and authentication.
		{"500 with success false and string errors", 500,
			`{"success":false,"message":"Internal Server Error","err_code":"SYS_INTERNAL_ERROR","errors":"division by zero","data":null}`,
			"SYS_INTERNAL_ERROR", "Internal Server Error", []error{ErrInternal}},
		{"401 AUTH_ code", 401, errBody("Signature mismatch", "AUTH_INVALID_SIGNATURE", ""),
			"AUTH_INVALID_SIGNATURE", "Signature mismatch", []error{ErrUnauthorized}},
		{"403 AUTH_ code", 403, errBody("Timestamp out of range", "AUTH_TIMESTAMP_EXPIRED", ""),
			"AUTH_TIMESTAMP_EXPIRED", "Timestamp out of range", []error{ErrUnauthorized, ErrClockSkew}},
		{"invalid signature field error", 400, errBody("Bad request", "", `{"signature":["Invalid Signature"]}`),
			"", "Bad request", []error{ErrUnauthorized}},
		{"401 DRF detail", 401, `{"detail":"Authentication credentials were not provided."}`,
			"", "Authentication credentials were not provided.", []error{ErrUnauthorized}},
		{"429", 429, errBody("Too many requests", "", ""),
			"", "Too many requests", []error{ErrRateLimited}},
		{"502", 502, errBody("Bad gateway", "", ""),
			"", "Bad gateway", []error{ErrUnavailable}},
		{"504", 504, errBody("Gateway timeout", "", ""),
			"", "Gateway timeout", []error{ErrUnavailable}},

		// Nothing documented: no sentinel, and no near miss.
		{"404 DRF", 404, `{"detail":"Not found."}`, "", "Not found.", []error{ErrNotFound}},
		{"unknown message", 400, errBody("Customer is unverified for this corridor", "", ""),
			"", "Customer is unverified for this corridor", nil},
		{"other field text", 400, errBody("Bad request", "", `{"email":["Enter a valid email address."]}`),
			"", "Bad request", nil},
		{"quotation without expiry", 400, errBody("Quotation is already linked to another payout.", "", ""),
			"", "Quotation is already linked to another payout.", []error{ErrQuotationAlreadyLinked}},
		{"balance without insufficient", 400, errBody("Prefunded balance is not configured", "", ""),
			"", "Prefunded balance is not configured", nil},
		{"insufficient without balance", 400, errBody("Insufficient KYC documents", "", ""),
			"", "Insufficient KYC documents", nil},
		{"expired without quotation", 400, errBody("Timestamp expired", "", ""),
			"", "Timestamp expired", []error{ErrClockSkew}},
		{"client reference without duplicate", 400, errBody("Client reference ID is too long", "", ""),
			"", "Client reference ID is too long", nil},
		{"already without client reference", 400, errBody("Wallet already exists", "", ""),
			"", "Wallet already exists", nil},
		{"client reference required", 400,
			errBody("Bad request", "", `{"client_reference_id":["This field may not be blank."]}`),
			"", "Bad request", []error{ErrFieldMissing}},
		{"several at once", 400,
			errBody("Customer is unverified", "REQ_FIELD_MISSING", `{"bank_id":["Bank account is unverified"],"x":["This field is required."]}`),
			"REQ_FIELD_MISSING", "Customer is unverified", []error{ErrCustomerUnverified, ErrBankUnverified, ErrFieldMissing}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, build := range []struct {
				name string
				err  func() error
			}{
				{"newAPIError", func() error { return newAPIError(tt.status, []byte(tt.body), nil) }},
				{"decodeResponse", func() error {
					var out json.RawMessage
					return decodeResponse(tt.status, []byte(tt.body), &out, nil)
				}},
			} {
				err := build.err()
				var apiErr *APIError
				require.ErrorAs(t, err, &apiErr, build.name)
				require.Equal(t, tt.status, apiErr.StatusCode)
				require.Equal(t, tt.code, apiErr.Code)
				require.Equal(t, tt.message, apiErr.Message)
				require.Equal(t, tt.body, string(apiErr.RawBody))
				require.NoError(t, apiErr.Unwrap())
				requireSentinels(t, err, tt.want...)
			}
		})
	}
}

func TestAPIErrorFields(t *testing.T) {
	body := `{"status":false,"message":"Invalid request","err_code":"REQ_FIELD_MISSING","errors":{` +
		`"customer_id":["This field is required.","Must be a valid UUID."],` +
		`"wallet_address":"This field may not be blank.",` +
		`"customer":{"sender":{"id":["This field is required."]}},` +
		`"limits":[1, {"a": 2}, null, "text"],` +
		`"gone":null},"data":null}`
	e := newAPIError(400, []byte(body), nil)
	require.Equal(t, map[string][]string{
		"customer_id":    {"This field is required.", "Must be a valid UUID."},
		"wallet_address": {"This field may not be blank."},
		"customer":       {`{"sender":{"id":["This field is required."]}}`},
		"limits":         {"1", `{"a":2}`, "text"},
		"gone":           {},
	}, e.FieldErrors)
	require.Empty(t, e.ErrorText)

	e = newAPIError(500, []byte(`{"success":false,"message":"Internal Server Error","errors":"boom","data":null}`), nil)
	require.Equal(t, "boom", e.ErrorText)
	require.Nil(t, e.FieldErrors)

	e = newAPIError(400, []byte(`{"status":false,"message":"Bad","errors":["Customer is unverified"]}`), nil)
	require.Equal(t, map[string][]string{"non_field_errors": {"Customer is unverified"}}, e.FieldErrors)
	requireSentinels(t, e, ErrCustomerUnverified)

	e = newAPIError(400, []byte(`{"status":false,"message":42,"err_code":7,"errors":true}`), nil)
	require.Equal(t, "42", e.Message)
	require.Equal(t, "7", e.Code)
	require.Equal(t, "true", e.ErrorText)
	requireSentinels(t, e)
}

func TestAPIErrorExtraTable(t *testing.T) {
	errCustom := errors.New("custom")
	extra := map[string]error{
		normalizeMessage("Prefunded wallet low."):  ErrInsufficientBalance,
		normalizeMessage("Something new"):          errCustom,
		normalizeMessage("Customer is unverified"): ErrEDDRequired, // adds, does not replace
		"unused": nil,
	}
	e := newAPIError(400, []byte(errBody("PREFUNDED WALLET LOW", "", "")), extra)
	requireSentinelsOnly(t, e, ErrInsufficientBalance)

	e = newAPIError(400, []byte(errBody("Bad", "", `{"x":["something new."]}`)), extra)
	require.ErrorIs(t, e, errCustom)
	requireSentinelsOnly(t, e)

	e = newAPIError(400, []byte(errBody("Customer is unverified", "", "")), extra)
	requireSentinelsOnly(t, e, ErrCustomerUnverified, ErrEDDRequired)

	err := decodeResponse(200, []byte(errBody("Something new", "", "")), nil, extra)
	require.ErrorIs(t, err, errCustom)

	// Without the table the same bodies match nothing.
	requireSentinelsOnly(t, newAPIError(400, []byte(errBody("Prefunded wallet low", "", "")), nil))
}

func TestAPIErrorError(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"message and field", 400,
			errBody("Customer is unverified", "REQ_FIELD_MISSING", `{"customer_id":["This field is required."]}`),
			"fiatramp: HTTP 400 REQ_FIELD_MISSING: Customer is unverified (customer_id: This field is required.)"},
		{"sorted fields", 400,
			errBody("Invalid request", "REQ_FIELD_MISSING", `{"wallet_address":["This field may not be blank."],"customer_id":["This field is required.","Must be a valid UUID."]}`),
			"fiatramp: HTTP 400 REQ_FIELD_MISSING: Invalid request (customer_id: This field is required.; customer_id: Must be a valid UUID.; wallet_address: This field may not be blank.)"},
		{"message only", 400, errBody("Quotation has expired", "", ""),
			"fiatramp: HTTP 400: Quotation has expired"},
		{"errors string", 500,
			`{"success":false,"message":"Internal Server Error","err_code":"SYS_INTERNAL_ERROR","errors":"division by zero","data":null}`,
			"fiatramp: HTTP 500 SYS_INTERNAL_ERROR: Internal Server Error (division by zero)"},
		{"errors string repeats message", 500,
			errBody("Internal Server Error", "SYS_INTERNAL_ERROR", `"Internal Server Error."`),
			"fiatramp: HTTP 500 SYS_INTERNAL_ERROR: Internal Server Error"},
		{"fields without message", 400, errBody("", "", `{"bank":["Bank not found or access denied."]}`),
			"fiatramp: HTTP 400: bank: Bank not found or access denied."},
		{"control characters", 400, errBody("line one\nline two\t!", "", ""),
			"fiatramp: HTTP 400: line one line two !"},
		{"html", 502, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n</html>",
			`fiatramp: HTTP 502: response is not JSON: "<html>  <head><title>502 Bad Gateway</title></head>  </html>"`},
		{"empty", 503, "", "fiatramp: HTTP 503: empty response body"},
		{"object without anything", 418, `{"foo":1}`, `fiatramp: HTTP 418: "{"foo":1}"`},
		{"truncated", 400, `{"status":false,"message":"Cust`,
			`fiatramp: HTTP 400: response is truncated or invalid JSON (unexpected end of JSON input): "{"status":false,"message":"Cust"`},
		{"array", 400, `[1,2]`, `fiatramp: HTTP 400: response is a JSON array, not an envelope: "[1,2]"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, newAPIError(tt.status, []byte(tt.body), nil).Error())
		})
	}
}

func TestAPIErrorErrorIsShort(t *testing.T) {
	fields := map[string][]string{}
	for i := range 20 {
		fields[fmt.Sprintf("f%02d", i)] = []string{strings.Repeat("x", 500)}
	}
	errs, err := json.Marshal(fields)
	require.NoError(t, err)
	e := newAPIError(400, []byte(errBody(strings.Repeat("m", 1000), "REQ_FIELD_MISSING", string(errs))), nil)
	msg := e.Error()
	require.Less(t, len(msg), 2000)
	require.Contains(t, msg, "f00: "+strings.Repeat("x", 128)+"...")
	require.Contains(t, msg, "; and 12 more)")
	require.NotContains(t, msg, "f08")
	require.Contains(t, msg, strings.Repeat("m", 256)+"...")

	html := "<html>" + strings.Repeat("é\x00", 200)
	msg = newAPIError(502, []byte(html), nil).Error()
	prefix := `fiatramp: HTTP 502: response is not JSON: "`
	require.True(t, strings.HasPrefix(msg, prefix), msg)
	quoted := strings.TrimSuffix(strings.TrimPrefix(msg, prefix), `..."`)
	require.LessOrEqual(t, len(quoted), 128)
	require.NotContains(t, msg, "\x00")

	msg = newAPIError(502, []byte("\xff\xfe bad utf8"), nil).Error()
	require.Equal(t, "fiatramp: HTTP 502: response is not JSON: \"\uFFFD\uFFFD bad utf8\"", msg)
}

func TestNormalizeMessage(t *testing.T) {
	for in, want := range map[string]string{
		"Quotation ID is required.":       "quotation id is required",
		"  Quotation  ID\tis required . ": "quotation id is required",
		"AML SCREENING FAILED":            "aml screening failed",
		"EDD required...":                 "edd required",
		"":                                "",
		" . ":                             "",
		"v1.2 released":                   "v1.2 released",
	} {
		require.Equal(t, want, normalizeMessage(in), "normalizeMessage(%q)", in)
	}
}

func TestValidationError(t *testing.T) {
	err := invalid("customer_id", "is required")
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.Equal(t, "customer_id", ve.Field)
	require.Equal(t, "is required", ve.Reason)
	require.Equal(t, "fiatramp: invalid request: customer_id: is required", err.Error())
	requireSentinels(t, err, ErrInvalidRequest)
	requireSentinels(t, fmt.Errorf("create payout: %w", err), ErrInvalidRequest)

	require.Equal(t, "fiatramp: invalid request: no body", (&ValidationError{Reason: "no body"}).Error())
}

func TestSentinelTexts(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range sentinels {
		require.True(t, strings.HasPrefix(s.err.Error(), "fiatramp: "), s.name)
		require.False(t, seen[s.err.Error()], "duplicate text %q", s.err.Error())
		seen[s.err.Error()] = true
	}
}

// newAPIError is the *APIError that decodeResponse returns for an error
// status with body.
func newAPIError(statusCode int, body []byte, extra map[string]error) *APIError {
	var e *APIError
	if !errors.As(decodeResponse(statusCode, body, nil, extra), &e) {
		panic(fmt.Sprint("newAPIError: no *APIError for status ", statusCode))
	}
	return e
}

// TestDocumentedRefusals enumerates every refusal message and err_code the
// service documents for its payouts, payins, customers, KYC, bank accounts
// and organization (service-map.md, written from it by hand) and checks
// that each matches exactly its sentinels, as a message, in `errors` and
// with its case and full stop changed.
func TestDocumentedRefusals(t *testing.T) {
	messages := []struct {
		operation string
		message   string
		want      []error
	}{
		{"payout limits", "Customer not found or access denied", []error{ErrCustomerNotFound, ErrNotFound}},
		{"payout quotation", "Customer is unverified", []error{ErrCustomerUnverified}},
		{"payout quotation", "Bank account is unverified", []error{ErrBankUnverified}},
		{"payout quotation", "UPI is not supported", []error{ErrUPIUnsupported}},
		{"payout quotation", "Entered amount is less than minimum transaction amount", []error{ErrAmountBelowMinimum}},
		{"fetch payout quotation", "Quotation ID is required.", []error{ErrQuotationIDInvalid}},
		{"fetch payout quotation", "Quotation ID is invalid", []error{ErrQuotationIDInvalid}},
		{"payout EDD", "EDD not required", []error{ErrEDDNotRequired}},
		{"payin initiate", "UTR is already linked to another payin", []error{ErrUTRInUse}},
		{"payin initiate", "Client Reference ID already exists", []error{ErrClientReferenceExists}},
		{"payin initiate", "Invalid UTR format", []error{ErrUTRInvalid}},
		{"payin initiate", "Quotation is not found", []error{ErrQuotationNotFound, ErrNotFound}},
		{"payin initiate", "Customer ID does not match with the quotation", []error{ErrCustomerMismatch}},
		{"payin initiate", "Quotation has expired", []error{ErrQuotationExpired}},
		{"payin initiate", "Quotation is already linked to another payin", []error{ErrQuotationAlreadyLinked}},
		{"fetch payin", "Payin ID is required.", []error{ErrPayinIDInvalid}},
		{"fetch payin", "Payin ID is invalid", []error{ErrPayinIDInvalid}},
		{"create customer", "Email already in use", []error{ErrEmailInUse, ErrDuplicateContact}},
		{"create customer", "Phone already in use", []error{ErrPhoneInUse, ErrDuplicateContact}},
		{"create customer", "Invalid country code", []error{ErrInvalidCountry}},
		{"add KYC data", "KYC already exists", []error{ErrKYCExists}},
		{"add KYC data", "KYC already in use", []error{ErrKYCInUse}},
		{"update tax info", "Limit exceeded", []error{ErrUpdateLimitExceeded}},
		{"update selfie", "Kyc update limit exceeded", []error{ErrUpdateLimitExceeded}},
		{"add bank account", "VPA already in use", []error{ErrVPAInUse}},
		{"add bank account", "Maximum 3 UPI IDs allowed", []error{ErrBankAccountLimit}},
		{"add bank account", "Account number already in use", []error{ErrAccountNumberInUse}},
		{"add bank account", "Maximum 3 bank account details allowed", []error{ErrBankAccountLimit}},
		{"register webhook", "Webhook URL is required", []error{ErrFieldMissing}},
	}
	for _, m := range messages {
		t.Run(m.operation+": "+m.message, func(t *testing.T) {
			requireSentinels(t, newAPIError(400, []byte(errBody(m.message, "", "")), nil), m.want...)
			shouted := strings.ToUpper(strings.TrimSuffix(m.message, ".")) + "."
			requireSentinels(t, newAPIError(400, []byte(errBody("Bad request", "", `{"field":["`+shouted+`"]}`)), nil), m.want...)
			requireSentinels(t, newAPIError(400, []byte(errBody("", "", `"`+strings.ToLower(m.message)+`"`)), nil), m.want...)
		})
	}

	codes := []struct {
		status int
		code   string
		want   []error
	}{
		{401, "AUTH_UNAUTHORIZED", []error{ErrUnauthorized}},
		{401, "AUTH_MISSING_HEADERS", []error{ErrUnauthorized}},
		{401, "AUTH_INVALID_SIGNATURE", []error{ErrUnauthorized}},
		{404, "NOT_FOUND", []error{ErrNotFound}},
		{429, "TOO_MANY_REQUESTS", []error{ErrRateLimited}},
		{500, "SYS_INTERNAL_ERROR", []error{ErrInternal}},
		{400, "REQ_FIELD_MISSING", []error{ErrFieldMissing}},
		{400, "INPUT_MALFORMED", []error{ErrInputMalformed}},
		{400, "INPUT_MALFORMED_ADDITIONAL_INFO", []error{ErrInputMalformed, ErrAdditionalInfoMalformed}},
		{400, "INPUT_INVALID_DATE_FORMAT", []error{ErrInvalidDateFormat}},
		{400, "REQ_INVALID_COUNTRY", []error{ErrInvalidCountry}},
		{400, "REQ_NON_RESIDENT_UNSUPPORTED", []error{ErrNonResidentUnsupported}},
		{400, "REQ_INVALID_RESIDENCE_COUNTRY", []error{ErrInvalidResidenceCountry}},
		{400, "USR_DUPLICATE_CONTACT", []error{ErrDuplicateContact}},
		{400, "USR_NOT_FOUND", []error{ErrCustomerNotFound, ErrNotFound}},
		{400, "KYC_INVALID_AADHAAR_INPUT", []error{ErrInvalidAadhaar}},
		{400, "KYC_INVALID_DOC_TYPE", []error{ErrInvalidDocumentType}},
		{400, "KYC_IN_USE", []error{ErrKYCInUse}},
		{400, "AUTH_ORG_MISMATCH", []error{ErrNotFound}},
		{400, "NET_TIMEOUT", []error{ErrServiceTimeout}},
		{400, "UNKNOWN_ERROR", []error{ErrServiceUnknown}},
	}
	for _, c := range codes {
		t.Run(c.code, func(t *testing.T) {
			requireSentinels(t, newAPIError(c.status, []byte(errBody("", c.code, "")), nil), c.want...)
			requireSentinels(t, newAPIError(c.status, []byte(errBody("", strings.ToLower(c.code), "")), nil), c.want...)
		})
	}

	// A history filter with one date.
	requireSentinels(t, newAPIError(400, []byte(errBody("Bad request", "", `{"date_range":["Both start_date and end_date are required."]}`)), nil),
		ErrInvalidDateRange)
}

// TestOrgMismatchIsNotFound checks that AUTH_ORG_MISMATCH, a 400 for a
// record of another organization, reads as "not found" for the resource its
// message or field names, and never as ErrUnauthorized.
func TestOrgMismatchIsNotFound(t *testing.T) {
	tests := []struct {
		name, message, errs string
		want                []error
	}{
		{"bare", "", "", []error{ErrNotFound}},
		{"customer", "Customer does not belong to your organization", "", []error{ErrNotFound, ErrCustomerNotFound}},
		{"quotation", "Quotation belongs to another organization", "", []error{ErrNotFound, ErrQuotationNotFound}},
		{"bank", "Bank account of another organization", "", []error{ErrNotFound, ErrBankNotFound}},
		{"payout", "Payout does not belong to your organization", "", []error{ErrNotFound, ErrPayoutNotFound}},
		{"payin", "Payin does not belong to your organization", "", []error{ErrNotFound, ErrPayinNotFound}},
		{"by field", "Organization mismatch", `{"customer_id":["Not yours."]}`, []error{ErrNotFound, ErrCustomerNotFound}},
		{"documented message", "Customer not found or access denied", "", []error{ErrNotFound, ErrCustomerNotFound}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := newAPIError(400, []byte(errBody(tt.message, "AUTH_ORG_MISMATCH", tt.errs)), nil)
			requireSentinels(t, err, tt.want...)
			require.NotErrorIs(t, err, ErrUnauthorized)
		})
	}
	// The other AUTH_ codes still mean unauthorized.
	require.ErrorIs(t, newAPIError(400, []byte(errBody("", "AUTH_UNAUTHORIZED", "")), nil), ErrUnauthorized)
}

// handBuiltRefusals are *APIErrors as a fake in a user's test builds them,
// with the sentinels the same answer from the service matches.
func handBuiltRefusals() []struct {
	e    *APIError
	want []error
} {
	return []struct {
		e    *APIError
		want []error
	}{
		{&APIError{StatusCode: 429}, []error{ErrRateLimited}},
		{&APIError{Message: "Customer is unverified"}, []error{ErrCustomerUnverified}},
		{&APIError{StatusCode: 400, Message: "customer is unverified."}, []error{ErrCustomerUnverified}},
		{&APIError{StatusCode: 401, Code: "AUTH_TIMESTAMP_EXPIRED"}, []error{ErrUnauthorized, ErrClockSkew}},
		{&APIError{StatusCode: 400, Code: "req_field_missing", Message: "Invalid request",
			FieldErrors: map[string][]string{"customer_id": {"This field is required."}}}, []error{ErrFieldMissing}},
		{&APIError{StatusCode: 400, FieldErrors: map[string][]string{
			"client_reference_id": {"payout with this client reference id already exists."}}}, []error{ErrClientReferenceExists}},
		{&APIError{StatusCode: 400, Code: "AUTH_ORG_MISMATCH",
			FieldErrors: map[string][]string{"Payout_ID": {"Not yours."}}}, []error{ErrNotFound, ErrPayoutNotFound}},
		{&APIError{StatusCode: 400, FieldErrors: map[string][]string{
			"date_range": {"Both start_date and end_date are required."}}}, []error{ErrInvalidDateRange}},
		{&APIError{StatusCode: 400, FieldErrors: map[string][]string{
			"customer": {`{"sender":{"id":["This field is required."]}}`}}}, []error{ErrFieldMissing}},
		{&APIError{StatusCode: 400, FieldErrors: map[string][]string{
			"non_field_errors": {"Quotation has expired"}}}, []error{ErrQuotationExpired}},
		{&APIError{StatusCode: 400, Message: "Insufficient prefunded balance"}, []error{ErrInsufficientBalance}},
		{&APIError{StatusCode: 400, Message: "Email already in use"}, []error{ErrEmailInUse, ErrDuplicateContact}},
		{&APIError{StatusCode: 500, ErrorText: "Internal Server Error"}, []error{ErrInternal}},
		{&APIError{StatusCode: 503}, []error{ErrUnavailable}},
		{&APIError{StatusCode: 404, Message: "Not found."}, []error{ErrNotFound}},
		{&APIError{StatusCode: 302, Message: "Customer is unverified"}, []error{ErrRedirect}},
		{&APIError{StatusCode: 400, Message: "Something we never documented"}, nil},
		{&APIError{}, nil},
	}
}

// decodeAlike returns the error the client makes of the answer e
// describes: a 3xx refused as a redirect, anything else written as the
// service's error envelope and decoded. A message holding the JSON text of
// an array or object goes into the body as that JSON, as FieldErrors keeps
// a nested value.
func decodeAlike(e *APIError) error {
	if e.StatusCode >= 300 && e.StatusCode <= 399 {
		return redirectError(e.StatusCode, "", nil)
	}
	env := map[string]any{"status": false, "data": nil}
	if e.Message != "" {
		env["message"] = e.Message
	}
	if e.Code != "" {
		env["err_code"] = e.Code
	}
	if e.ErrorText != "" {
		env["errors"] = e.ErrorText
	}
	if e.FieldErrors != nil {
		fields := map[string][]any{}
		for k, msgs := range e.FieldErrors {
			for _, m := range msgs {
				if t := strings.TrimSpace(m); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
					fields[k] = append(fields[k], json.RawMessage(t))
				} else {
					fields[k] = append(fields[k], m)
				}
			}
		}
		env["errors"] = fields
	}
	body, err := json.Marshal(env)
	if err != nil {
		panic(err)
	}
	return decodeResponse(e.StatusCode, body, nil, nil)
}

// TestHandBuiltAPIError checks that an *APIError built from its exported
// fields matches the sentinels the same answer from the service would, so
// that a fake can return a realistic refusal.
func TestHandBuiltAPIError(t *testing.T) {
	for _, tc := range handBuiltRefusals() {
		t.Run(fmt.Sprintf("%d %s %s %v", tc.e.StatusCode, tc.e.Code, tc.e.Message, tc.e.FieldErrors), func(t *testing.T) {
			if tc.want == nil {
				require.Empty(t, SentinelNames(tc.e))
				for _, s := range sentinels {
					require.NotErrorIs(t, tc.e, s.err)
				}
			} else {
				requireSentinelsOnly(t, tc.e, tc.want...)
			}
			require.NotPanics(t, func() { _ = tc.e.Error() })
		})
	}

	// Fields changed after a first errors.Is count: nothing is cached.
	e := &APIError{StatusCode: 400}
	require.NotErrorIs(t, e, ErrCustomerUnverified)
	e.Message = "Customer is unverified"
	require.ErrorIs(t, e, ErrCustomerUnverified)

	// No fields, or no error at all: no sentinel, no panic.
	require.Equal(t, "fiatramp: HTTP 0", (&APIError{}).Error())
	var nilErr *APIError
	require.False(t, nilErr.Is(ErrInternal))
	require.Nil(t, SentinelNames(&APIError{}))
}

// TestHandBuiltMatchesDecoded holds the two ways to the same sentinels
// together: a hand-built *APIError matches what the client's decoding of
// the same answer matches, and (requireSentinels, in every test of decoded
// refusals) a decoded one rebuilt from its exported fields matches what
// it did. A hand-built error that matched only what decoding computed
// (what the library did before: a broken variant kept here) is caught.
func TestHandBuiltMatchesDecoded(t *testing.T) {
	check := func(build func(*APIError) *APIError) []string {
		var failures []string
		for _, tc := range handBuiltRefusals() {
			if d := sentinelDiff(build(tc.e), decodeAlike(tc.e)); d != "" {
				failures = append(failures, fmt.Sprintf("%+v: %s", *tc.e, d))
			}
		}
		return failures
	}
	require.Empty(t, check(func(e *APIError) *APIError { return e }))

	decodedOnly := func(e *APIError) *APIError {
		c := *e
		c.decoded = true // matched is nil: only decoding fills it
		return &c
	}
	failures := check(decodedOnly)
	expected := 0
	for _, tc := range handBuiltRefusals() {
		if len(tc.want) > 0 {
			expected++
		}
	}
	require.Len(t, failures, expected, "the broken variant must fail on every refusal that matches a sentinel")
}

// TestSentinelNames checks the names of what errors match, wrapped or not.
func TestSentinelNames(t *testing.T) {
	skew := newAPIError(401, []byte(errBody("Timestamp expired", "AUTH_TIMESTAMP_EXPIRED", "")), nil)
	require.Equal(t, []string{"ErrUnauthorized", "ErrClockSkew"}, SentinelNames(skew))
	require.Equal(t, []string{"ErrUnauthorized", "ErrClockSkew"}, SentinelNames(fmt.Errorf("payout: %w", skew)))
	require.Equal(t, []string{"ErrRateLimited"}, SentinelNames(&APIError{StatusCode: 429}))
	require.Equal(t, []string{"ErrInvalidRequest"}, SentinelNames(invalid("amount", "must be positive")))
	require.Equal(t, []string{"ErrOutcomeUnknown"}, SentinelNames(&OutcomeUnknownError{}))
	require.Equal(t, []string{"ErrNotCreated"}, SentinelNames(&NotCreatedError{}))
	require.Equal(t, []string{"ErrRetryBudgetExhausted"}, SentinelNames(ErrRetryBudgetExhausted))
	require.Nil(t, SentinelNames(nil))
	require.Nil(t, SentinelNames(errors.New("connection reset by peer")))
	require.Nil(t, SentinelNames(context.DeadlineExceeded))
}

// TestSentinelTableComplete parses the package and checks that every
// exported Err variable, and nothing else, is in the sentinel table, under
// its own name: SentinelNames cannot miss a sentinel added later.
func TestSentinelTableComplete(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	require.NoError(t, err)
	var exported []string
	for _, file := range pkgs["fiatramp"].Files {
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				for _, name := range spec.(*ast.ValueSpec).Names {
					if strings.HasPrefix(name.Name, "Err") && name.IsExported() {
						exported = append(exported, name.Name)
					}
				}
			}
		}
	}
	require.NotEmpty(t, exported)
	var named []string
	seen := map[error]bool{}
	for _, s := range sentinels {
		named = append(named, s.name)
		require.False(t, seen[s.err], "%s twice in the table", s.name)
		seen[s.err] = true
		// The name is the variable's: its text names the same condition.
		require.Equal(t, []string{s.name}, SentinelNames(s.err), "the table's entry for %s", s.name)
	}
	require.ElementsMatch(t, exported, named)
}

// TestSentinelsDocumented checks that every sentinel of the table has its
// row in the Sentinels section of docs/responses.md.
func TestSentinelsDocumented(t *testing.T) {
	doc, err := os.ReadFile("docs/responses.md")
	require.NoError(t, err)
	text := string(doc)
	start := strings.Index(text, "\n## Sentinels\n")
	require.GreaterOrEqual(t, start, 0, "docs/responses.md has a Sentinels section")
	section := text[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	for _, s := range sentinels {
		require.Truef(t, strings.Contains(section, "| `"+s.name+"`"), "docs/responses.md has no row for %s", s.name)
	}
}
