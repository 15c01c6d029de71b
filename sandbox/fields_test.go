package sandbox_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// capPayin is a canonical payin quotation body of the env's customer whose
// sending_amount is the JSON text amount.
func capPayin(e *env, amount string) authReq {
	return authReq{method: http.MethodPost, path: "/pis/api/v1/payin/quotation", body: []byte(fmt.Sprintf(
		`{"asset":"USDT","bank_id":%q,"customer_id":%q,"fiat":"INR","payment_method":"IMPS","sending_amount":%s}`,
		e.bank.ID, e.cust.ID, amount))}
}

// A decimal is parsed from at most 1000 characters and has at most 1000
// digits in total, exponent written out; the refusals are the REST
// framework's DecimalField messages, under the field's name.
func TestDecimalParseCaps(t *testing.T) {
	e := newEnv(t)
	const tooLarge = "String value too large."
	const tooMany = "Ensure that there are no more than 1000 digits in total."
	const above = "Entered amount exceeds maximum transaction amount"
	const below = "Entered amount is less than minimum transaction amount"
	for _, tc := range []struct {
		name, amount string
		field        string // the field error, or "" for a rule refusal
		message      string
	}{
		{"a million digits", `"` + strings.Repeat("7", 1_000_000) + `"`, tooLarge, tooLarge},
		{"1001 characters", `"` + strings.Repeat("7", 1001) + `"`, tooLarge, tooLarge},
		{"1001 characters with a point", `"1.` + strings.Repeat("0", 999) + `"`, tooLarge, tooLarge},
		{"a 4300-digit JSON integer", strings.Repeat("9", 4300), tooLarge, tooLarge},
		{"1000 digits", `"` + strings.Repeat("7", 1000) + `"`, "", above},
		{"exponent adds digits past the cap", `"1e1000"`, tooMany, tooMany},
		{"exponent up to the cap", `"1e999"`, "", above},
		{"fraction past the cap", `"1e-1001"`, tooMany, tooMany},
		{"fraction up to the cap", `"1e-1000"`, "", below},
		{"huge exponent", `"1e2000000000"`, "A valid number is required.", "A valid number is required."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := authSend(t, e, capPayin(e, tc.amount))
			require.Equal(t, http.StatusBadRequest, r.status, string(r.raw[:min(len(r.raw), 300)]))
			assert.Equal(t, tc.message, r.body.Message)
			if tc.field == "" {
				assert.Empty(t, r.body.ErrCode)
				return
			}
			assert.Equal(t, "REQ_FIELD_MISSING", r.body.ErrCode)
			assert.JSONEq(t, fmt.Sprintf(`{"sending_amount":[%q]}`, tc.field), string(r.body.Errors))
		})
	}
}

// A body nested deeper than 1000 levels is a JSON parse error; brackets
// inside strings do not count.
func TestBodyNestingCap(t *testing.T) {
	e := newEnv(t)
	nested := func(levels int) string { return strings.Repeat("[", levels) + strings.Repeat("]", levels) }
	wallet := func(address string) authReq {
		return authWallet(fmt.Sprintf(`{"customer_id":%q,"wallet_address":%s}`, e.cust.ID, address))
	}

	// 999 arrays inside the body's object: 1000 levels, decoded, and
	// refused as a field that is not a string.
	r := authSend(t, e, wallet(nested(999)))
	require.Equal(t, http.StatusBadRequest, r.status, string(r.raw))
	assert.Equal(t, "Not a valid string.", r.body.Message)

	r = authSend(t, e, wallet(nested(1000)))
	require.Equal(t, http.StatusBadRequest, r.status, string(r.raw))
	assert.Equal(t, "JSON parse error.", r.body.Message)
	assert.Empty(t, r.body.ErrCode)

	// The canonical form of 10,000 levels is still checked (and signed).
	r = authSend(t, e, wallet(nested(9999)))
	require.Equal(t, http.StatusBadRequest, r.status, string(r.raw))
	assert.Equal(t, "JSON parse error.", r.body.Message)

	// Brackets and escaped quotes in a string are text.
	address := `"` + strings.Repeat(`[{\"`, 300) + `"`
	r = authSend(t, e, wallet(address))
	require.Equal(t, http.StatusBadRequest, r.status, string(r.raw))
	assert.Equal(t, "Ensure this field has no more than 255 characters.", r.body.Message)
	r = authSend(t, e, wallet(`"`+strings.Repeat(`[`, 2000)+`"`))
	require.Equal(t, http.StatusBadRequest, r.status, string(r.raw))
	assert.Equal(t, "Ensure this field has no more than 255 characters.", r.body.Message)
	r = authSend(t, e, wallet(`"[[{\"x"`))
	require.Equal(t, http.StatusOK, r.status, string(r.raw))
}
