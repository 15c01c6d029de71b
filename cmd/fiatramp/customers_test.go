package main

// fiatramp customers bank-accounts, run as a user runs it.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

func TestCLICustomersBanks(t *testing.T) {
	w := newWorld(t, func(s *sandbox.Settings) { s.PageSize = 1 })
	_, err := w.sb.AddBankAccount(sandbox.BankAccount{
		CustomerID: w.demo.Customer.ID, AccountNumber: "999900001111", IFSC: "HDFC0000002",
		AccountName: "Evil\x1b[31mRed", BankName: "HDFC",
	})
	require.NoError(t, err)
	cust := w.demo.Customer.ID.String()

	r := cli(t, w.env, "", "customers", "bank-accounts", cust)
	require.Equal(t, 0, r.code, r)
	var items []map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &items))
	require.Len(t, items, 3, "every page")
	assert.Equal(t, w.demo.BankAccount.ID.String(), items[0]["id"])
	assert.Equal(t, w.demo.VPA.ID.String(), items[1]["id"])
	reqs := w.requests()
	require.Len(t, reqs, 3)
	for i, want := range []string{"", "page=2", "page=3"} {
		assert.Equal(t, http.MethodGet, reqs[i].Method)
		assert.Equal(t, "/cms/api/v1/bank/list/"+cust, reqs[i].Path)
		assert.Equal(t, want, reqs[i].Query)
		w.checkSigned(t, reqs[i])
	}

	r = cli(t, w.env, "", "customers", "bank-accounts", "-o", "table", cust)
	require.Equal(t, 0, r.code, r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 4)
	assert.Regexp(t, `^ID +TYPE +STATUS +ACCOUNT_NUMBER +IFSC +VPA +NAME$`, lines[0])
	assert.Regexp(t, `^`+w.demo.VPA.ID.String()+` +vpa +VERIFIED +- +- +asha\.rao@upi +Asha Rao$`, lines[2])
	assert.NotContains(t, r.stdout, "\x1b", "a terminal escape from the service is not passed to the terminal")
	assert.Contains(t, lines[3], `"Evil\x1b[31mRed"`)

	// A customer of nobody: refused.
	r = cli(t, w.env, "", "customers", "bank-accounts", uuid.NewString())
	assert.Equal(t, 1, r.code, r)
	assert.Empty(t, r.stdout, "no partial list")
	assert.Contains(t, r.stderr, "sentinel: ErrCustomerNotFound")
}

func TestCLICustomersCreateGetList(t *testing.T) {
	w := newWorld(t)
	r := cli(t, w.env, "", "customers", "create", "-name", "Ravi Kumar", "-email", "ravi@example.com", "-phone", "+919800000009", "-country", "IND", "-reference", "crm-9")
	require.Equal(t, 0, r.code, r)
	var c map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &c))
	assert.Equal(t, "UNVERIFIED", c["status"])
	id := c["id"].(string)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/cms/api/v1/customer/create", reqs[0].Path)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "customers", "get", "-o", "table", id)
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^status +UNVERIFIED$`, r.stdout)
	assert.Regexp(t, `(?m)^email +ravi@example\.com$`, r.stdout)

	r = cli(t, w.env, "", "customers", "list")
	require.Equal(t, 0, r.code, r)
	var items []map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &items))
	assert.Equal(t, id, items[len(items)-1]["id"], "the newest last")

	// Bad input: refused before sending, exit 2... or by the service, exit 1.
	w.requests() // drained
	r = cli(t, w.env, "", "customers", "create", "-name", "X", "-email", "x.example.com", "-phone", "1", "-country", "IND")
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "email")
	r = cli(t, w.env, "", "customers", "list", "-from", "2026-01-01")
	assert.Equal(t, 2, r.code, r)
	assert.Empty(t, w.requests(), "nothing sent")
	r = cli(t, w.env, "", "customers", "create", "-name", "Ravi", "-email", "RAVI@example.com", "-phone", "+91", "-country", "IND")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "Email already in use")
}
