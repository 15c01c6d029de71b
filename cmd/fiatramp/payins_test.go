package main

// fiatramp payins quote and get, run as a user runs them.

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCLIPayinsQuote(t *testing.T) {
	w := newWorld(t)
	cust, vpa := w.demo.Customer.ID.String(), w.demo.VPA.ID.String()
	r := cli(t, w.env, "", "payins", "quote", "-customer", cust, "-bank", vpa, "-method", "upi",
		"-amount", "2600.50", "-ip", "203.0.113.9", "-device", "dev-1")
	require.Equal(t, 0, r.code, r)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPost, reqs[0].Method)
	assert.Equal(t, "/pis/api/v1/payin/quotation", reqs[0].Path)
	assert.Equal(t, `{"asset":"usdt","bank_id":"`+vpa+`","customer_id":"`+cust+`","fiat":"inr","payment_method":"UPI",`+
		`"risk_parameters":{"device_id":"dev-1","ip_address":"203.0.113.9","law_enforcement_agency_report":false,"suspicious_activity_report":false},`+
		`"sending_amount":"2600.50"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])
	q := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, "2600.5", string(q["sending_amount"]))

	var id string
	require.NoError(t, json.Unmarshal(q["id"], &id))
	r = cli(t, w.env, "", "payins", "get", id, "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^status +PROCESSING$`, r.stdout)
	assert.Regexp(t, `(?m)^pay_to_account +\d+$`, r.stdout)
	w.requests()

	// Refused: below the minimum.
	r = cli(t, w.env, "", "payins", "quote", "-customer", cust, "-bank", vpa, "-method", "UPI", "-amount", "100")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "sentinel: ErrAmountBelowMinimum")
	w.requests()

	// Bad input: exit 2, nothing sent.
	for _, bad := range [][]string{
		{"-amount", "1e3", "-method", "UPI"},
		{"-amount", "12.5.1", "-method", "UPI"},
		{"-amount", "-5", "-method", "UPI"},
		{"-amount", "2600", "-method", "CARD"},
		{"-amount", "2600"},
	} {
		r = cli(t, w.env, "", append([]string{"payins", "quote", "-customer", cust, "-bank", vpa}, bad...)...)
		assert.Equal(t, 2, r.code, "%v: %s", bad, r)
	}
	assert.Empty(t, w.requests())
}
