package main

// fiatramp payouts create-quotation, quotation, link-transfer and history, run as a
// user runs them.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

func TestCLIPayoutsQuoteAndQuotation(t *testing.T) {
	w := newWorld(t)
	cust, bank := w.demo.Customer.ID.String(), w.demo.BankAccount.ID.String()

	r := cli(t, w.env, "", "payouts", "create-quotation", "-customer", cust, "-bank", bank, "-amount", "10.50", "-ip", "203.0.113.9")
	require.Equal(t, 0, r.code, r)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPost, reqs[0].Method)
	assert.Equal(t, "/pos/api/v1/payout/quotation", reqs[0].Path)
	assert.Equal(t, `{"asset":"usdt","bank_id":"`+bank+`","customer_id":"`+cust+`","fiat":"inr",`+
		`"risk_parameters":{"ip_address":"203.0.113.9","law_enforcement_agency_report":false,"suspicious_activity_report":false},`+
		`"sending_amount":"10.50"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])
	q := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, "918.29", string(q["receiving_amount"]), "the number as sent")
	var id string
	require.NoError(t, json.Unmarshal(q["id"], &id))

	r = cli(t, w.env, "", "payouts", "get-quotation", id, "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^status +UNLINKED$`, r.stdout)
	w.requests()

	// Bad input: nothing sent, exit 2.
	for _, args := range [][]string{
		{"-customer", cust, "-bank", bank},
		{"-customer", cust, "-bank", bank, "-amount", "1e3"},
		{"-customer", "nope", "-bank", bank, "-amount", "1"},
	} {
		r = cli(t, w.env, "", append([]string{"payouts", "create-quotation"}, args...)...)
		assert.Equal(t, 2, r.code, r)
	}
	assert.Empty(t, w.requests())

	// A refusal: exit 1 with the message.
	r = cli(t, w.env, "", "payouts", "create-quotation", "-customer", cust, "-bank", w.demo.VPA.ID.String(), "-amount", "10")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "UPI is not supported")
}

func TestCLIPayoutsLinkTransfer(t *testing.T) {
	w := newWorld(t)
	r := cli(t, w.env, "", "payouts", "create", "-quotation", w.demo.Quotations[0].ID.String(),
		"-customer", w.demo.Customer.ID.String(), "-exchange-order", "EXO-CLI-1", "--yes")
	require.Equal(t, 0, r.code, r)
	var payoutID string
	require.NoError(t, json.Unmarshal(objectOf(json.RawMessage(r.stdout))["id"], &payoutID))
	w.requests()

	r = cli(t, w.env, "", "payouts", "link-transfer", "-exchange-order", "EXO-CLI-1", "-transfer", "0042")
	require.Equal(t, 0, r.code, r)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPatch, reqs[0].Method)
	assert.Equal(t, "/pos/api/v1/payout/update-transfer-id", reqs[0].Path)
	assert.Equal(t, `{"exchange_order_id":"EXO-CLI-1","exchange_transfer_id":"0042"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])
	assert.Equal(t, `"0042"`, string(objectOf(json.RawMessage(r.stdout))["exchange_transfer_id"]))

	r = cli(t, w.env, "", "payouts", "get", payoutID)
	require.Equal(t, 0, r.code, r)
	assert.Equal(t, `"0042"`, string(objectOf(json.RawMessage(r.stdout))["exchange_transfer_id"]))

	r = cli(t, w.env, "", "payouts", "link-transfer", "-exchange-order", "EXO-CLI-1")
	assert.Equal(t, 2, r.code, r)
}

// The history streams one compact JSON object a line over every page,
// with the filters as flags.
func TestCLIPayoutsHistory(t *testing.T) {
	w := newWorld(t, func(s *sandbox.Settings) { s.PageSize = 2 })
	cust := w.demo.Customer.ID.String()
	for i, q := range w.demo.Quotations {
		r := cli(t, w.env, "", "payouts", "create", "-quotation", q.ID.String(), "-customer", cust,
			"-reference", fmt.Sprintf("order-%d", i), "--yes")
		require.Equal(t, 0, r.code, r)
	}
	w.requests()

	day := w.sb.Now().UTC().Format("2006-01-02")
	r := cli(t, w.env, "", "payouts", "list", "-customer", cust, "-status", "PROCESSING", "-from", day, "-to", day)
	require.Equal(t, 0, r.code, r)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	require.Len(t, lines, len(w.demo.Quotations))
	for i, line := range lines {
		var p map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &p), line)
		assert.Equal(t, fmt.Sprintf("order-%d", i), p["client_reference_id"])
		assert.NotContains(t, line, "\n  ", "compact")
	}
	reqs := w.requests()
	require.Len(t, reqs, 2, "two pages")
	assert.Equal(t, "customer_id="+cust+"&end_date="+day+"&payout_status=PROCESSING&start_date="+day, reqs[0].Query)
	for _, rq := range reqs {
		assert.Equal(t, "/pos/api/v1/payout/history", rq.Path)
		w.checkSigned(t, rq)
	}

	r = cli(t, w.env, "", "payouts", "list", "-status", "SUCCESS")
	require.Equal(t, 0, r.code, r)
	assert.Empty(t, r.stdout)

	r = cli(t, w.env, "", "payouts", "list", "-o", "table")
	require.Equal(t, 0, r.code, r)
	rows := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	require.Len(t, rows, 1+len(w.demo.Quotations))
	assert.True(t, strings.HasPrefix(rows[0], "ID\tSTATUS\tCLIENT_REFERENCE_ID"), rows[0])
	w.requests()

	for _, args := range [][]string{{"-from", day}, {"-to", day}, {"-from", "01-11-2026", "-to", day},
		{"-from", "2026-11-02", "-to", "2026-11-01"}, {"-customer", "nope"}} {
		r = cli(t, w.env, "", append([]string{"payouts", "list"}, args...)...)
		assert.Equal(t, 2, r.code, r)
	}
	assert.Empty(t, w.requests(), "bad filters send nothing")
}
