package main

// fiatramp kyc get-configuration and the KYC submissions, run as a user runs it.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCLIKYCConfig(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.Customer.ID.String()
	r := cli(t, w.env, "", "kyc", "get-configuration", cust)
	require.Equal(t, 0, r.code, r)
	got := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, `["AADHAAR","PASSPORT","VOTER_ID","DRIVING_LICENSE"]`, compact(t, string(got["supported_document_types"])))
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodGet, reqs[0].Method)
	assert.Equal(t, "/cms/api/v1/kyc/configuration/"+cust, reqs[0].Path)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "kyc", "get-configuration", "-o", "table", cust)
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^options +\["income_range","profession"\]$`, r.stdout)
}

func TestCLIKYCSubmissions(t *testing.T) {
	w := newWorld(t)
	r := cli(t, w.env, "", "customers", "create", "-name", "Ravi Kumar", "-email", "ravi@example.com", "-phone", "+919800000009", "-country", "IND")
	require.Equal(t, 0, r.code, r)
	var c map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &c))
	id := c["id"].(string)

	data := `{"customer_id":"` + id + `","full_name":"Ravi Kumar","phone":"+919800000009","full_address":"Pune","dob":"31-01-1990",
		"tax_number":"ABCDE1234F","document_type":"PASSPORT","document_front_image_url":"https://img.example/f.png",
		"document_details":{"document_number":"P1"},"additional_info":{"income_range":"5-10L"}}`
	r = cli(t, w.env, data, "kyc", "add-data", "-check-rules", "-data", "-")
	assert.Equal(t, 2, r.code, "the configuration asks for profession too: %s", r)
	assert.Contains(t, r.stderr, "additional_info.profession")

	r = cli(t, w.env, strings.Replace(data, `"income_range":"5-10L"`, `"income_range":"5-10L","profession":"engineer"`, 1), "kyc", "add-data", "-check-rules", "-data", "-")
	require.Equal(t, 0, r.code, r)
	assert.JSONEq(t, `{"id":"`+id+`","status":"PROCESSING","failure_reason":null}`, r.stdout)

	r = cli(t, w.env, "", "kyc", "update-tax-info", "-customer", id, "-tax-number", "ABCDE9999F")
	require.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, `"UNVERIFIED"`)
	r = cli(t, w.env, "", "kyc", "update-selfie", "-customer", id, "-selfie-url", "https://img.example/s.jpg")
	require.Equal(t, 0, r.code, r)
	r = cli(t, w.env, "", "kyc", "update-additional-info", "-customer", id, "-info", "income_range=10-20L", "-info", "profession=teacher", "-check-rules")
	require.Equal(t, 0, r.code, r)
	r = cli(t, w.env, `{"customer_id":"`+id+`","full_address":"Pune","document_type":"PASSPORT","document_front_image_url":"https://img.example/f.png","document_details":{"document_number":"P2"}}`,
		"kyc", "update-document-info", "-data", "-")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "Limit exceeded")

	r = cli(t, w.env, "", "kyc", "reset", id)
	assert.Equal(t, 2, r.code, "no terminal and no --yes: %s", r)
	r = cli(t, w.env, "", "kyc", "reset", "--yes", id)
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "KYC can be reset only for a VERIFIED customer")
}
