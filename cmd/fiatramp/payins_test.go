package main

// fiatramp payins commands, run as a user runs them.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCLIPayinsQuote(t *testing.T) {
	w := newWorld(t)
	cust, vpa := w.demo.Customer.ID.String(), w.demo.VPA.ID.String()
	r := cli(t, w.env, "", "payins", "create-quotation", "-customer", cust, "-bank", vpa, "-method", "upi",
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
	r = cli(t, w.env, "", "payins", "get-quotation", id, "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^status +PROCESSING$`, r.stdout)
	assert.Regexp(t, `(?m)^pay_to_account +\d+$`, r.stdout)
	w.requests()

	// Refused: below the minimum.
	r = cli(t, w.env, "", "payins", "create-quotation", "-customer", cust, "-bank", vpa, "-method", "UPI", "-amount", "100")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "sentinel: ErrAmountBelowMinimum")
	w.requests()

	// Bad input: exit 2, nothing sent.
	for _, bad := range [][]string{
		{"-amount", "1e3", "-method", "UPI"},
		{"-amount", "12.5.1", "-method", "UPI"},
		{"-amount", "-5", "-method", "UPI"},
		{"-amount", "2600"},
	} {
		r = cli(t, w.env, "", append([]string{"payins", "create-quotation", "-customer", cust, "-bank", vpa}, bad...)...)
		assert.Equal(t, 2, r.code, "%v: %s", bad, r)
	}
	assert.Empty(t, w.requests())

	// A method the library does not list is sent as given (the enum is
	// open) and the service refuses it: exit 1, its field error shown.
	r = cli(t, w.env, "", "payins", "create-quotation", "-customer", cust, "-bank", vpa, "-method", "CARD", "-amount", "2600")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "payment_method")
	assert.Len(t, w.requests(), 1)
}

// quoteID creates a UPI payin quotation through the command and returns
// its id.
func quoteID(t *testing.T, w *world) string {
	t.Helper()
	cust, vpa := w.demo.Customer.ID.String(), w.demo.VPA.ID.String()
	r := cli(t, w.env, "", "payins", "create-quotation", "-customer", cust, "-bank", vpa, "-method", "UPI", "-amount", "2600.50")
	require.Equal(t, 0, r.code, r)
	var q struct{ ID string }
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &q))
	return q.ID
}

func TestCLIPayinsFlow(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.Customer.ID.String()
	qid := quoteID(t, w)
	w.requests()

	// Not confirmed: nothing sent, exit 2.
	r := cli(t, w.env, "", "payins", "initiate", "-quotation", qid, "-customer", cust, "-utr", "123456789012")
	assert.Equal(t, 2, r.code, r)
	assert.Empty(t, w.requests())

	r = cli(t, w.env, "", "payins", "initiate", "-quotation", qid, "-customer", cust, "-utr", "123456789012", "-reference", "order-1", "--yes")
	require.Equal(t, 0, r.code, r)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/pis/api/v1/payin/initiate", reqs[0].Path)
	assert.Equal(t, `{"client_reference_id":"order-1","customer_id":"`+cust+`","quotation_id":"`+qid+`","utr":"123456789012"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])
	var p struct{ ID, Status string }
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &p))
	assert.Equal(t, "PROCESSING", p.Status)

	// The same UTR again is refused.
	qid2 := quoteID(t, w)
	r = cli(t, w.env, "", "payins", "initiate", "-quotation", qid2, "-customer", cust, "-utr", "123456789012", "--yes")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "UTR is already linked to another payin")

	r = cli(t, w.env, "", "payins", "link-transfer", "-payin", p.ID, "-transfer", "778899")
	require.Equal(t, 0, r.code, r)
	r = cli(t, w.env, "", "payins", "simulate-status", p.ID, "-status", "success")
	require.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, `"payin_status": "SUCCESS"`)
	r = cli(t, w.env, "", "payins", "get", p.ID, "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^status +SUCCESS$`, r.stdout)
	assert.Regexp(t, `(?m)^exchange_transfer_id +778899$`, r.stdout)
	w.requests()

	// History: one compact JSON object per line, filters as the query.
	qid3 := quoteID(t, w)
	r = cli(t, w.env, "", "payins", "initiate", "-quotation", qid3, "-customer", cust, "-utr", "ABCDEF654321", "--yes")
	require.Equal(t, 0, r.code, r)
	w.requests()
	r = cli(t, w.env, "", "payins", "list", "-customer", cust)
	require.Equal(t, 0, r.code, r)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	require.Len(t, lines, 2, r.stdout)
	for _, l := range lines {
		assert.True(t, json.Valid([]byte(l)), l)
	}
	assert.Contains(t, lines[0], `"utr":"123456789012"`)
	assert.Contains(t, lines[1], `"utr":"ABCDEF654321"`)
	r = cli(t, w.env, "", "payins", "list", "-status", "success", "-from", "2000-01-01", "-to", "2999-12-31")
	require.Equal(t, 0, r.code, r)
	assert.Equal(t, 1, strings.Count(r.stdout, "\n"), r.stdout)
	reqs = w.requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "customer_id="+cust, reqs[0].Query)
	assert.Equal(t, "end_date=2999-12-31&payin_status=SUCCESS&start_date=2000-01-01", reqs[1].Query)

	// Bad input: exit 2, nothing sent.
	for _, bad := range [][]string{
		{"payins", "list", "-from", "2026-01-01"},
		{"payins", "list", "-from", "2026-01-02", "-to", "2026-01-01"},
		{"payins", "list", "-from", "01/01/2026", "-to", "2026-01-01"},
		{"payins", "initiate", "-quotation", qid, "-customer", cust, "--yes"},
		{"payins", "initiate", "-quotation", "x", "-customer", cust, "-utr", "123456789012", "--yes"},
		{"payins", "link-transfer", "-payin", p.ID},
		{"payins", "simulate-status", p.ID},
	} {
		r = cli(t, w.env, "", bad...)
		assert.Equal(t, 2, r.code, "%v: %s", bad, r)
	}
	assert.Empty(t, w.requests())
}
