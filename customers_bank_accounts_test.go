package fiatramp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestCustomersGetBankAccount(t *testing.T) {
	h := newHarness(t)
	h.expect(http.MethodGet, "/cms/api/v1/bank/"+customerID.String()+"/"+bankID.String(), "", http.StatusOK,
		ok(`{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","country":"IND",
		"bank_account_type":"ACCOUNT_DETAILS","identifiers":{"account_number":"001122334455","ifsc":"ABCD0001234"},
		"account_number":"001122334455","ifsc":"ABCD0001234","bank_account_status":"VERIFIED","beneficiary_name":"Asha Rao",
		"bank_name":"Example Bank","failure_reason":null}`))
	b, err := h.client.Customers.GetBankAccount(context.Background(), customerID, bankID)
	require.NoError(t, err)
	assert.Equal(t, bankID, b.ID)
	assert.Equal(t, "IND", b.Country)
	assert.Equal(t, types.BankAccountTypeAccountDetails, b.BankAccountType)
	assert.Equal(t, "ABCD0001234", b.Identifiers.IFSC)
	assert.Equal(t, types.BankAccountVerified, b.BankAccountStatus)
	assert.Equal(t, "Asha Rao", b.BeneficiaryName)
}

func TestCustomersBankNotFound(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodGet, testBase+"/cms/api/v1/bank/"+customerID.String()+"/"+bankID.String(),
		httpmock.NewStringResponder(400, fail("Bank not found or access denied", "X", `{}`)))
	_, err := h.client.Customers.GetBankAccount(context.Background(), customerID, bankID)
	require.ErrorIs(t, err, fiatramp.ErrBankNotFound)
	assert.NotErrorIs(t, err, fiatramp.ErrCustomerNotFound)
}

func bankItem(n int) string {
	return fmt.Sprintf(`{"id":"%s","customer_id":"%s","account_number":"00%d","ifsc":"ABCD000%d","account_name":"Asha","vpa":null,"bank_account_type":"bank_account","bank_account_status":"VERIFIED","failure_reason":null}`,
		uuid.NewSHA1(uuid.NameSpaceOID, []byte{byte(n)}), customerID, n, n)
}

func bankPage(count int, next string, items ...int) string {
	s := `{"count":` + fmt.Sprint(count) + `,"next":` + next + `,"previous":null,"results":[`
	for i, n := range items {
		if i > 0 {
			s += ","
		}
		s += bankItem(n)
	}
	return ok(s + "]}")
}

func TestCustomersListBankAccounts(t *testing.T) {
	h := newHarness(t)
	path := "/cms/api/v1/bank/list/" + customerID.String()
	h.expect(http.MethodGet, path, "", http.StatusOK, bankPage(3, `"`+testBase+path+`?page=2"`, 1, 2))
	page, err := h.client.Customers.ListBankAccounts(context.Background(), customerID)
	require.NoError(t, err)
	assert.Equal(t, 3, page.Count)
	require.Len(t, page.Results, 2)
	assert.Equal(t, "002", page.Results[1].AccountNumber)
	assert.Equal(t, types.BankAccountTypeBankAccount, page.Results[0].BankAccountType)
	require.NotNil(t, page.Next)
	assert.Nil(t, page.Previous)
}

func collect(t *testing.T, c *fiatramp.Client) ([]string, error) {
	t.Helper()
	var got []string
	for item, err := range c.Customers.BankAccounts(context.Background(), customerID) {
		if err != nil {
			return got, err
		}
		got = append(got, item.AccountNumber)
	}
	return got, nil
}

func TestCustomersBankAccountsIterator(t *testing.T) {
	path := "/cms/api/v1/bank/list/" + customerID.String()
	abs := testBase + path

	t.Run("follows every page, query unsigned", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodGet, path, "", 200, bankPage(5, `"`+abs+`?page=2"`, 1, 2))
		// Query strings are not signed: page 2 and 3 are signed over "{}" too.
		h.mock.RegisterResponderWithQuery(http.MethodGet, abs, "page=2", func(req *http.Request) (*http.Response, error) {
			assertSigned(t, req, testNow.Unix(), "")
			return httpmock.NewStringResponse(200, bankPage(5, `"?page=3"`, 3, 4)), nil
		})
		h.mock.RegisterResponderWithQuery(http.MethodGet, abs, "page=3", httpmock.NewStringResponder(200, bankPage(5, "null", 5)))
		got, err := collect(t, h.client)
		require.NoError(t, err)
		assert.Equal(t, []string{"001", "002", "003", "004", "005"}, got)
		assert.Equal(t, 3, h.mock.GetTotalCallCount())
	})
	t.Run("stops when the caller breaks", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodGet, path, "", 200, bankPage(4, `"`+abs+`?page=2"`, 1, 2))
		for range h.client.Customers.BankAccounts(context.Background(), customerID) {
			break
		}
		assert.Equal(t, 1, h.mock.GetTotalCallCount(), "no page fetched past the break")
	})
	t.Run("stops on an empty page", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodGet, path, "", 200, bankPage(4, `"`+abs+`?page=2"`))
		got, err := collect(t, h.client)
		require.NoError(t, err)
		assert.Empty(t, got)
		assert.Equal(t, 1, h.mock.GetTotalCallCount())
	})
	t.Run("error on a later page", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodGet, path, "", 200, bankPage(4, `"`+abs+`?page=2"`, 1))
		h.mock.RegisterResponderWithQuery(http.MethodGet, abs, "page=2",
			httpmock.NewStringResponder(500, `{"success":false,"message":"Internal Server Error.","err_code":"SYS_INTERNAL_ERROR","errors":"boom","data":null}`))
		got, err := collect(t, h.client)
		assert.Equal(t, []string{"001"}, got)
		require.ErrorIs(t, err, fiatramp.ErrInternal)
	})
	// A link naming another scheme, host or user (a service behind a
	// gateway) is followed by its path and query on the base address.
	for name, next := range map[string]string{
		"another host": "https://evil.example/gateway" + path + "?page=2",
		"plain http":   "http://api.fiatramp.test/gateway" + path + "?page=2",
		"user info":    "https://u:p@api.fiatramp.test/gateway" + path + "?page=2",
		"another port": "https://api.fiatramp.test:8443/gateway" + path + "?page=2",
	} {
		t.Run("re-roots "+name, func(t *testing.T) {
			h := newHarness(t)
			h.expect(http.MethodGet, path, "", 200, bankPage(4, `"`+next+`"`, 1))
			h.mock.RegisterResponderWithQuery(http.MethodGet, abs, "page=2", func(req *http.Request) (*http.Response, error) {
				assert.Empty(t, req.URL.User, "no user info is sent")
				assertSigned(t, req, testNow.Unix(), "")
				return httpmock.NewStringResponse(200, bankPage(4, "null", 2)), nil
			})
			got, err := collect(t, h.client)
			require.NoError(t, err)
			assert.Equal(t, []string{"001", "002"}, got)
			assert.Equal(t, 2, h.mock.GetTotalCallCount(), "both pages from the base address; the named host is never asked")
		})
	}
	for name, next := range map[string]string{
		"outside prefix":               testHost + "/other" + path + "?page=2",
		"another host, outside prefix": "https://evil.example/other" + path + "?page=2",
		"another host, no prefix":      "https://evil.example" + path + "?page=2",
	} {
		t.Run("refuses "+name, func(t *testing.T) {
			h := newHarness(t)
			h.expect(http.MethodGet, path, "", 200, bankPage(4, `"`+next+`"`, 1))
			got, err := collect(t, h.client)
			assert.Equal(t, []string{"001"}, got)
			require.ErrorIs(t, err, fiatramp.ErrPagination)
			assert.Equal(t, 1, h.mock.GetTotalCallCount(), "the foreign link is never requested")
		})
	}
	t.Run("refuses a repeated link", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodGet, path, "", 200, bankPage(4, `"`+abs+`?page=2"`, 1))
		h.mock.RegisterResponderWithQuery(http.MethodGet, abs, "page=2", httpmock.NewStringResponder(200, bankPage(4, `"`+abs+`?page=2"`, 2)))
		got, err := collect(t, h.client)
		assert.Equal(t, []string{"001", "002"}, got)
		require.ErrorIs(t, err, fiatramp.ErrPagination)
		assert.Equal(t, 2, h.mock.GetTotalCallCount())
	})
	t.Run("nil customer", func(t *testing.T) {
		h := newHarness(t)
		n := 0
		for _, err := range h.client.Customers.BankAccounts(context.Background(), uuid.Nil) {
			require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
			n++
		}
		assert.Equal(t, 1, n, "the validation error is yielded once")
		assert.Zero(t, h.mock.GetTotalCallCount())
	})
}

func TestCustomersSimulateBankVerification(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPost, "/cms/api/v1/bank/mock-bank-verification",
		`{"bank_account_status":"FAILED","bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"}`,
		http.StatusOK, ok(`{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","bank_account_status":"FAILED"}`))
	s, err := h.client.Customers.SimulateBankVerification(context.Background(), customerID, bankID, types.BankAccountFailed)
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, customerID, s.CustomerID)
	assert.Equal(t, bankID, s.BankID)
	assert.Equal(t, types.BankAccountFailed, s.BankAccountStatus)
}

// TestCustomersSimulateBankVerificationRefused: the service's refusal of an
// unknown bank matches ErrBankNotFound, and no result comes back.
func TestCustomersSimulateBankVerificationRefused(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodPost, testBase+"/cms/api/v1/bank/mock-bank-verification",
		httpmock.NewStringResponder(http.StatusBadRequest, fail("Bank not found or access denied", "", `{}`)))
	b, err := h.client.Customers.SimulateBankVerification(context.Background(), customerID, bankID, types.BankAccountVerified)
	assert.Nil(t, b)
	require.ErrorIs(t, err, fiatramp.ErrBankNotFound)
}

func TestListBankAccountsPage(t *testing.T) {
	ctx := context.Background()
	list := "/cms/api/v1/bank/list/" + customerID.String()
	page := ok(`{"count":11,"next":null,"previous":"` + testBase + list + `","results":[{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12"}]}`)

	for _, link := range []string{testBase + list + "?page=2", "/gateway" + list + "?page=2", "?page=2"} {
		t.Run("fetches "+link, func(t *testing.T) {
			h := newHarness(t)
			h.mock.RegisterResponderWithQuery(http.MethodGet, testBase+list, "page=2", func(req *http.Request) (*http.Response, error) {
				assertSigned(t, req, testNow.Unix(), "")
				return httpmock.NewStringResponse(200, page), nil
			})
			p, err := h.client.Customers.ListBankAccountsPage(ctx, customerID, link)
			require.NoError(t, err)
			require.Len(t, p.Results, 1)
			assert.Equal(t, bankID, p.Results[0].ID)
			assert.Equal(t, 11, p.Count)
			assert.Equal(t, 1, h.mock.GetTotalCallCount())
		})
	}

	for _, link := range []string{"https://evil.test/gateway" + list + "?page=2", "http://api.fiatramp.test/gateway" + list + "?page=2",
		"https://u:p@api.fiatramp.test/gateway" + list + "?page=2"} {
		t.Run("re-roots "+link, func(t *testing.T) {
			h := newHarness(t)
			h.mock.RegisterResponderWithQuery(http.MethodGet, testBase+list, "page=2", httpmock.NewStringResponder(200, page))
			p, err := h.client.Customers.ListBankAccountsPage(ctx, customerID, link)
			require.NoError(t, err)
			assert.Equal(t, 11, p.Count)
			assert.Equal(t, 1, h.mock.GetTotalCallCount())
		})
	}

	other := "0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b02"
	for _, tc := range []struct{ name, link string }{
		{"another host outside the base path", "https://evil.test" + list + "?page=2"},
		{"outside the base path", testHost + list + "?page=2"},
		{"another customer", testBase + "/cms/api/v1/bank/list/" + other + "?page=2"},
		{"another route", testBase + "/pos/api/v1/payout/balance"},
		{"a dot segment", testBase + "/cms/api/v1/bank/list/x/%2e%2e/" + customerID.String()},
		{"an escaped separator", testBase + "/cms/api/v1/bank/list%2F" + customerID.String()},
	} {
		t.Run("refuses "+tc.name, func(t *testing.T) {
			h := newHarness(t)
			_, err := h.client.Customers.ListBankAccountsPage(ctx, customerID, tc.link)
			require.ErrorIs(t, err, fiatramp.ErrPagination)
			assert.Zero(t, h.mock.GetTotalCallCount())
		})
	}

	t.Run("refuses an empty link and a nil customer", func(t *testing.T) {
		h := newHarness(t)
		_, err := h.client.Customers.ListBankAccountsPage(ctx, customerID, " ")
		require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		assert.ErrorContains(t, err, "next")
		_, err = h.client.Customers.ListBankAccountsPage(ctx, [16]byte{}, testBase+list)
		require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		assert.ErrorContains(t, err, "customer_id")
		assert.Zero(t, h.mock.GetTotalCallCount())
	})
}

// addBankAnswer is an add bank account answer in the list item's shape.
const addBankAnswer = `{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01",` +
	`"account_number":"50100123456789","ifsc":"HDFC0001234","account_name":"Asha Rao","vpa":null,` +
	`"bank_account_type":"bank_account","bank_account_status":"PROCESSING","failure_reason":null}`

func TestCustomersAddBankAccount(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPost, "/cms/api/v1/bank/create",
		`{"account_name":"Asha Rao","account_number":"50100123456789","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","ifsc":"HDFC0001234"}`,
		http.StatusCreated, ok(addBankAnswer))
	b, err := h.client.Customers.AddBankAccount(context.Background(), types.AddBankAccountRequest{
		CustomerID: customerID, AccountNumber: "50100123456789", IFSC: "HDFC0001234", AccountName: "Asha Rao",
	})
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, bankID, b.ID)
	assert.Equal(t, customerID, b.CustomerID)
	assert.Equal(t, "HDFC0001234", b.IFSC)
	assert.Equal(t, "Asha Rao", b.AccountName)
	assert.Equal(t, "", b.VPA)
	assert.Equal(t, types.BankAccountTypeBankAccount, b.BankAccountType)
	assert.Equal(t, types.BankAccountProcessing, b.BankAccountStatus)
	assert.Nil(t, b.FailureReason)
}

func TestCustomersAddBankAccountVPA(t *testing.T) {
	h := newHarness(t)
	h.expect(http.MethodPost, "/cms/api/v1/bank/create",
		`{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","vpa":"asha@okhdfc"}`,
		http.StatusCreated, ok(`{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","account_number":null,"ifsc":null,"account_name":"Asha Rao","vpa":"asha@okhdfc","bank_account_type":"vpa","bank_account_status":"PROCESSING","failure_reason":null}`))
	b, err := h.client.Customers.AddBankAccount(context.Background(), types.AddBankAccountRequest{CustomerID: customerID, VPA: "asha@okhdfc"})
	require.NoError(t, err)
	assert.Equal(t, "asha@okhdfc", b.VPA)
	assert.Equal(t, types.BankAccountTypeVPA, b.BankAccountType)
}

// TestCustomersAddBankAccountRefusedBeforeSending: neither shape, both,
// an incomplete account or a nil customer is refused naming the field,
// and nothing is sent.
func TestCustomersAddBankAccountRefusedBeforeSending(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		req   types.AddBankAccountRequest
		field string
	}{
		{types.AddBankAccountRequest{VPA: "a@upi"}, "customer_id"},
		{types.AddBankAccountRequest{CustomerID: customerID}, "account_number"},
		{types.AddBankAccountRequest{CustomerID: customerID, VPA: "  "}, "account_number"},
		{types.AddBankAccountRequest{CustomerID: customerID, VPA: "a@upi", AccountNumber: "1"}, "vpa"},
		{types.AddBankAccountRequest{CustomerID: customerID, VPA: "a@upi", AccountName: "A"}, "vpa"},
		{types.AddBankAccountRequest{CustomerID: customerID, IFSC: "HDFC0001234", AccountName: "A"}, "account_number"},
		{types.AddBankAccountRequest{CustomerID: customerID, AccountNumber: "1", AccountName: "A"}, "ifsc"},
		{types.AddBankAccountRequest{CustomerID: customerID, AccountNumber: "1", IFSC: "HDFC0001234", AccountName: " "}, "account_name"},
	} {
		b, err := h.client.Customers.AddBankAccount(context.Background(), c.req)
		assert.Nil(t, b)
		require.ErrorIs(t, err, fiatramp.ErrInvalidRequest, "%+v", c.req)
		var ve *fiatramp.ValidationError
		require.ErrorAs(t, err, &ve)
		assert.Equal(t, c.field, ve.Field, "%+v", c.req)
	}
	assert.Zero(t, h.mock.GetTotalCallCount(), "nothing sent")
}

// TestCustomersAddBankAccountRefusals: each documented refusal reaches
// the caller as an *APIError with the service's message; a retry after a
// lost answer reads as "already in use", which listing settles.
func TestCustomersAddBankAccountRefusals(t *testing.T) {
	all := []error{fiatramp.ErrCustomerUnverified, fiatramp.ErrVPAInUse, fiatramp.ErrBankAccountLimit,
		fiatramp.ErrAccountNumberInUse, fiatramp.ErrKYCInUse, fiatramp.ErrCustomerNotFound}
	for msg, want := range map[string]error{
		"Customer is unverified":                 fiatramp.ErrCustomerUnverified,
		"VPA already in use":                     fiatramp.ErrVPAInUse,
		"Maximum 3 UPI IDs allowed":              fiatramp.ErrBankAccountLimit,
		"Account number already in use":          fiatramp.ErrAccountNumberInUse,
		"Maximum 3 bank account details allowed": fiatramp.ErrBankAccountLimit,
		"KYC already in use":                     fiatramp.ErrKYCInUse,
		"Customer not found or access denied":    fiatramp.ErrCustomerNotFound,
	} {
		h := newHarness(t)
		h.mock.RegisterResponder(http.MethodPost, testBase+"/cms/api/v1/bank/create",
			httpmock.NewStringResponder(400, `{"status":false,"message":"`+msg+`","data":null}`))
		_, err := h.client.Customers.AddBankAccount(context.Background(), types.AddBankAccountRequest{CustomerID: customerID, VPA: "a@upi"})
		var apiErr *fiatramp.APIError
		require.ErrorAs(t, err, &apiErr, msg)
		assert.Equal(t, msg, apiErr.Message)
		for _, other := range all {
			assert.Equal(t, other == want, errors.Is(err, other), "%q matches %v: %v", msg, other, other == want)
		}
		assert.NotErrorIs(t, err, fiatramp.ErrOutcomeUnknown, "a refusal is an answer: nothing was added")
	}
}

// TestCustomersAddBankAccountRetried: a 503 is retried (a repeat cannot
// add a second account), with the same body.
func TestCustomersAddBankAccountRetried(t *testing.T) {
	h := newHarness(t, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}))
	const body = `{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","vpa":"asha@upi"}`
	var n int
	h.mock.RegisterResponder(http.MethodPost, testBase+"/cms/api/v1/bank/create", func(req *http.Request) (*http.Response, error) {
		assertSigned(t, req, testNow.Unix(), body)
		if n++; n == 1 {
			return httpmock.NewStringResponse(503, `{"status":false,"message":"unavailable","data":null}`), nil
		}
		return httpmock.NewStringResponse(201, ok(addBankAnswer)), nil
	})
	b, err := h.client.Customers.AddBankAccount(context.Background(), types.AddBankAccountRequest{CustomerID: customerID, VPA: "asha@upi"})
	require.NoError(t, err)
	assert.Equal(t, bankID, b.ID)
	assert.Equal(t, 2, n)
}

// TestCustomersGetBankAccountEveryShape: a fetch reads the list item's
// shape (account_name, vpa) and an older edition's ifsc_code.
func TestCustomersGetBankAccountEveryShape(t *testing.T) {
	path := "/cms/api/v1/bank/" + customerID.String() + "/" + bankID.String()
	for name, c := range map[string]struct{ data, ifsc, holder, vpa string }{
		"list item": {addBankAnswer, "HDFC0001234", "Asha Rao", ""},
		"vpa":       {`{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","account_number":null,"ifsc":null,"account_name":"Asha Rao","vpa":"asha@upi"}`, "", "Asha Rao", "asha@upi"},
		"ifsc_code": {`{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","account_number":"501","ifsc_code":"SBIN0000001","beneficiary_name":"Asha Rao"}`, "SBIN0000001", "Asha Rao", ""},
		"both":      {`{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","ifsc_code":"SBIN0000001","ifsc":"HDFC0001234"}`, "HDFC0001234", "", ""},
	} {
		h := newHarness(t)
		h.expect(http.MethodGet, path, "", http.StatusOK, ok(c.data))
		b, err := h.client.Customers.GetBankAccount(context.Background(), customerID, bankID)
		require.NoError(t, err, name)
		assert.Equal(t, c.ifsc, b.IFSC, name)
		assert.Equal(t, c.holder, b.HolderName(), name)
		assert.Equal(t, c.vpa, b.VPA, name)
	}
}

// floorBankRequest is add bank account's body with its members in sorted
// order, so that json.Marshal writes canonical JSON.
type floorBankRequest struct {
	AccountName   string    `json:"account_name"`
	AccountNumber string    `json:"account_number"`
	CustomerID    uuid.UUID `json:"customer_id"`
	IFSC          string    `json:"ifsc"`
}

// floorBankAccount is the answer's data as a careful caller decodes it.
type floorBankAccount struct {
	ID                uuid.UUID `json:"id"`
	CustomerID        uuid.UUID `json:"customer_id"`
	AccountNumber     *string   `json:"account_number"`
	IFSC              *string   `json:"ifsc"`
	AccountName       *string   `json:"account_name"`
	VPA               *string   `json:"vpa"`
	BankAccountType   string    `json:"bank_account_type"`
	BankAccountStatus string    `json:"bank_account_status"`
	FailureReason     *string   `json:"failure_reason"`
}

// BenchmarkAddBankAccountVsFloor compares Customers.AddBankAccount with
// the hand-written call, through an in-memory transport and on loopback.
func BenchmarkAddBankAccountVsFloor(b *testing.B) {
	answer := []byte(ok(addBankAnswer))
	req := types.AddBankAccountRequest{CustomerID: customerID, AccountNumber: "50100123456789", IFSC: "HDFC0001234", AccountName: "Asha Rao"}
	compareOnLoopbackAndMemory(b, answer, "/cms/api/v1/bank/create",
		func(ctx context.Context, c *fiatramp.Client) error {
			got, err := c.Customers.AddBankAccount(ctx, req)
			if err == nil && got.ID == uuid.Nil {
				err = errors.New("library: no id")
			}
			return err
		},
		func(ctx context.Context, hc *http.Client, url string) error {
			body, err := json.Marshal(floorBankRequest{AccountName: req.AccountName, AccountNumber: req.AccountNumber, CustomerID: req.CustomerID, IFSC: req.IFSC})
			if err != nil {
				return err
			}
			var data floorBankAccount
			if err := floorSend(ctx, hc, http.MethodPost, url, body, &data); err != nil {
				return err
			}
			if data.ID == uuid.Nil {
				return errors.New("floor: no id")
			}
			return nil
		})
}

// TestCustomersAddBankAccountLostAnswer: when the first attempt's answer
// is lost (a 503, after which the account may have been added) and the
// retry is refused "already in use", the call must not report the
// refusal, which says the number belongs elsewhere: the first attempt may
// have added it. It ends in an *OutcomeUnknownError.
func TestCustomersAddBankAccountLostAnswer(t *testing.T) {
	for msg, sentinel := range map[string]error{
		"Account number already in use": fiatramp.ErrAccountNumberInUse,
		"VPA already in use":            fiatramp.ErrVPAInUse,
	} {
		h := newHarness(t, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}))
		var n int
		h.mock.RegisterResponder(http.MethodPost, testBase+"/cms/api/v1/bank/create", func(*http.Request) (*http.Response, error) {
			if n++; n == 1 {
				return httpmock.NewStringResponse(503, `{"status":false,"message":"unavailable","data":null}`), nil
			}
			return httpmock.NewStringResponse(400, `{"status":false,"message":"`+msg+`","data":null}`), nil
		})
		b, err := h.client.Customers.AddBankAccount(context.Background(), types.AddBankAccountRequest{CustomerID: customerID, VPA: "asha@upi"})
		assert.Nil(t, b)
		assert.NotErrorIs(t, err, sentinel, "%s: the first attempt may have added it", msg)
		require.ErrorIs(t, err, fiatramp.ErrOutcomeUnknown, msg)
		var ou *fiatramp.OutcomeUnknownError
		require.ErrorAs(t, err, &ou)
		assert.True(t, strings.HasSuffix(ou.Path, "/cms/api/v1/bank/create"), ou.Path)
		assert.Equal(t, uuid.Nil, ou.CustomerID, "not a payout's customer: nothing for a payout reconciliation to search")
		assert.Contains(t, err.Error(), "(Customers.AddBankAccount)", "the message names the operation")
		assert.NotContains(t, err.Error(), "payout")
	}
}
