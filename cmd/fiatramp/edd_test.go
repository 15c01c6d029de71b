package main

// fiatramp payouts save-edd and payins save-edd, run as a user runs them.

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

func TestCLIEDD(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.Customer.ID.String()

	r := cli(t, w.env, "", "payouts", "save-edd", "-customer", cust, "-source", "SALARY")
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "-declare is required")
	r = cli(t, w.env, "", "payouts", "save-edd", "-customer", cust, "-source", "SALARY", "-bank-statement", "files/jan.pdf", "-declare")
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "bank_statement_url[0]")
	assert.Empty(t, w.requests(), "nothing sent")

	r = cli(t, w.env, "", "payouts", "save-edd", "-customer", cust, "-source", "SALARY", "-bank-statement", "https://files.example/jan.pdf", "-declare")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "EDD not required")
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPost, reqs[0].Method)
	assert.Equal(t, "/ren/api/v1/payout/edd/save", reqs[0].Path)
	assert.Equal(t, `{"bank_statement_passwords":[""],"bank_statement_url":["https://files.example/jan.pdf"],"customer_id":"`+cust+
		`","declaration":true,"itr_report_passwords":[],"itr_report_url":[],"source_of_income":"SALARY"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])

	require.NoError(t, w.sb.SetCustomerFlags(w.demo.Customer.ID, sandbox.CustomerFlags{EDDRequired: true}))
	r = cli(t, w.env, "", "payins", "save-edd", "-customer", cust, "-source", "OTHERS", "-itr", "https://files.example/itr.pdf",
		"-itr-password", "s3cret", "-purpose", "Investment", "-purpose-doc", "https://files.example/why.pdf", "-p2p", "-declare")
	require.Equal(t, 0, r.code, r)
	assert.Equal(t, `"PROCESSING"`, string(objectOf(json.RawMessage(r.stdout))["status"]))
	reqs = w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/ren/api/v1/payin/edd/save", reqs[0].Path)
	assert.Contains(t, string(reqs[0].Body), `"itr_report_passwords":["s3cret"]`)
	assert.Contains(t, string(reqs[0].Body), `"p2p_trading_status":true`)
	assert.Len(t, w.sb.EDDs(w.demo.Customer.ID), 1)
}
