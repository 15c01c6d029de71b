package sandbox_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// bankNotFound is the refusal of a bank account that is absent or
// another customer's.
const bankNotFound = "Bank not found or access denied"

// custRawPage fetches a bank list path (with its query) through c.Do and
// returns the page and the captured response.
func custRawPage(t *testing.T, c *fiatramp.Client, path string) (*types.BankAccountPage, fiatramp.Response, error) {
	t.Helper()
	var page types.BankAccountPage
	var resp fiatramp.Response
	err := c.Do(ctx(t), http.MethodGet, path, nil, &page, fiatramp.CaptureResponse(&resp))
	return &page, resp, err
}

// custListPath is the bank list path of customer id.
func custListPath(id uuid.UUID) string { return "/cms/api/v1/bank/list/" + id.String() }

// custAddBanks adds n more bank accounts to customer id and returns their
// ids in the order added.
func custAddBanks(e *env, id uuid.UUID, n int) []uuid.UUID {
	e.t.Helper()
	var ids []uuid.UUID
	for i := range n {
		b := sandbox.BankAccount{CustomerID: id, AccountName: fmt.Sprintf("Account %d", i)}
		if i%2 == 1 {
			b.Type = types.BankAccountTypeVPA
		}
		ids = append(ids, e.must(e.sb.AddBankAccount(b)).(sandbox.BankAccount).ID)
	}
	return ids
}

func TestCustomersGetBankAccount(t *testing.T) {
	e := newEnv(t)
	var resp fiatramp.Response
	b, err := e.client.Customers.GetBankAccount(ctx(t), e.cust.ID, e.bank.ID, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, e.bank.ID, b.ID)
	assert.Equal(t, e.cust.ID, b.CustomerID)
	assert.Equal(t, "IND", b.Country)
	assert.Equal(t, types.BankAccountTypeAccountDetails, b.BankAccountType)
	assert.Equal(t, types.BankIdentifiers{AccountNumber: e.bank.AccountNumber, IFSC: "SBIN0000001"}, b.Identifiers)
	assert.Equal(t, e.bank.AccountNumber, b.AccountNumber)
	assert.Len(t, b.AccountNumber, 12)
	assert.Equal(t, "SBIN0000001", b.IFSC)
	assert.Equal(t, types.BankAccountVerified, b.BankAccountStatus)
	assert.Equal(t, "Asha Rao", b.BeneficiaryName)
	assert.Equal(t, "State Bank of India", b.BankName)
	assert.Nil(t, b.FailureReason)
	assert.JSONEq(t, "null", string(rawData(t, resp.Body)["failure_reason"]))

	v, err := e.client.Customers.GetBankAccount(ctx(t), e.cust.ID, e.vpa.ID)
	require.NoError(t, err)
	assert.Equal(t, types.BankAccountType("VPA"), v.BankAccountType)
	assert.Equal(t, e.vpa.ID, v.ID)
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(v.Raw, &raw))
	assert.JSONEq(t, `{"vpa": "asha@upi"}`, string(raw["identifiers"]))
	assert.JSONEq(t, "null", string(raw["account_number"]))
	assert.JSONEq(t, "null", string(raw["ifsc"]))
	assert.JSONEq(t, `"Asha Rao"`, string(raw["beneficiary_name"]), "a vpa's name defaults to the customer's")

	failed := e.must(e.sb.AddBankAccount(sandbox.BankAccount{
		CustomerID: e.cust.ID, Status: types.BankAccountFailed, FailureReason: ptr("Name mismatch"),
	})).(sandbox.BankAccount)
	f, err := e.client.Customers.GetBankAccount(ctx(t), e.cust.ID, failed.ID)
	require.NoError(t, err)
	assert.Equal(t, types.BankAccountFailed, f.BankAccountStatus)
	require.NotNil(t, f.FailureReason)
	assert.Equal(t, "Name mismatch", *f.FailureReason)
}

func TestCustomersGetBankAccountRefusals(t *testing.T) {
	e := newEnv(t)
	c := e.client
	cust2 := e.customer(e.org, sandbox.Customer{Name: "Second"})
	bank2 := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: cust2.ID})).(sandbox.BankAccount)
	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "Foreign"})
	foreignBank := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: foreign.ID})).(sandbox.BankAccount)

	cases := []struct {
		name       string
		cust, bank uuid.UUID
		msg        string
		sentinel   error
	}{
		{"absent customer", uuid.New(), e.bank.ID, custNotFound, fiatramp.ErrCustomerNotFound},
		{"other organization's customer", foreign.ID, foreignBank.ID, custNotFound, fiatramp.ErrCustomerNotFound},
		{"absent bank", e.cust.ID, uuid.New(), bankNotFound, fiatramp.ErrBankNotFound},
		{"another customer's bank", e.cust.ID, bank2.ID, bankNotFound, fiatramp.ErrBankNotFound},
		{"other organization's bank", e.cust.ID, foreignBank.ID, bankNotFound, fiatramp.ErrBankNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Customers.GetBankAccount(ctx(t), tc.cust, tc.bank)
			apiErr := refused(t, err, http.StatusBadRequest, tc.msg, tc.sentinel)
			assert.Empty(t, apiErr.Code)
		})
	}
	err := c.Do(ctx(t), http.MethodGet, "/cms/api/v1/bank/not-a-uuid/"+e.bank.ID.String(), nil, nil)
	refused(t, err, http.StatusBadRequest, custNotFound, fiatramp.ErrCustomerNotFound)
	err = c.Do(ctx(t), http.MethodGet, "/cms/api/v1/bank/"+e.cust.ID.String()+"/not-a-uuid", nil, nil)
	refused(t, err, http.StatusBadRequest, bankNotFound, fiatramp.ErrBankNotFound)
	err = c.Do(ctx(t), http.MethodGet, "/cms/api/v1/bank/"+e.cust.ID.String()+"/"+strings.ReplaceAll(e.bank.ID.String(), "-", ""), nil, nil)
	refused(t, err, http.StatusBadRequest, bankNotFound, fiatramp.ErrBankNotFound)
}

func TestCustomersListBankAccounts(t *testing.T) {
	e := newEnv(t)
	var resp fiatramp.Response
	page, err := e.client.Customers.ListBankAccounts(ctx(t), e.cust.ID, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, 2, page.Count)
	assert.Nil(t, page.Next)
	assert.Nil(t, page.Previous)
	require.Len(t, page.Results, 2)

	b, v := page.Results[0], page.Results[1]
	assert.Equal(t, e.bank.ID, b.ID, "creation order")
	assert.Equal(t, e.cust.ID, b.CustomerID)
	assert.Equal(t, e.bank.AccountNumber, b.AccountNumber)
	assert.Equal(t, "SBIN0000001", b.IFSC)
	assert.Equal(t, "Asha Rao", b.AccountName)
	assert.Empty(t, b.VPA)
	assert.Equal(t, types.BankAccountTypeBankAccount, b.BankAccountType)
	assert.Equal(t, types.BankAccountVerified, b.BankAccountStatus)
	assert.Nil(t, b.FailureReason)

	assert.Equal(t, e.vpa.ID, v.ID)
	assert.Equal(t, "asha@upi", v.VPA)
	assert.Empty(t, v.AccountNumber)
	assert.Equal(t, types.BankAccountTypeVPA, v.BankAccountType)

	var rb, rv map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b.Raw, &rb))
	require.NoError(t, json.Unmarshal(v.Raw, &rv))
	assert.JSONEq(t, "null", string(rb["vpa"]))
	assert.JSONEq(t, "null", string(rv["account_number"]))
	assert.JSONEq(t, "null", string(rv["ifsc"]))
	assert.JSONEq(t, "null", string(rb["failure_reason"]))
	assert.Len(t, rb, 9)
	data := rawData(t, resp.Body)
	assert.JSONEq(t, "null", string(data["next"]))
	assert.JSONEq(t, "null", string(data["previous"]))

	// A customer without accounts has an empty first page.
	bare := e.customer(e.org, sandbox.Customer{Name: "Bare"})
	page, err = e.client.Customers.ListBankAccounts(ctx(t), bare.ID, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, 0, page.Count)
	assert.Empty(t, page.Results)
	assert.JSONEq(t, "[]", string(rawData(t, resp.Body)["results"]))

	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "Foreign"})
	e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: foreign.ID}))
	for _, id := range []uuid.UUID{uuid.New(), foreign.ID} {
		_, err = e.client.Customers.ListBankAccounts(ctx(t), id)
		refused(t, err, http.StatusBadRequest, custNotFound, fiatramp.ErrCustomerNotFound)
	}
	err = e.client.Do(ctx(t), http.MethodGet, "/cms/api/v1/bank/list/12345", nil, nil)
	refused(t, err, http.StatusBadRequest, custNotFound, fiatramp.ErrCustomerNotFound)
}

func TestCustomersBankAccountsPaging(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.PageSize = 2 })
	want := append([]uuid.UUID{e.bank.ID, e.vpa.ID}, custAddBanks(e, e.cust.ID, 5)...)

	// The iterator walks every page in creation order.
	var got []uuid.UUID
	for item, err := range e.client.Customers.BankAccounts(ctx(t), e.cust.ID) {
		require.NoError(t, err)
		got = append(got, item.ID)
	}
	assert.Equal(t, want, got)

	// The links are absolute, carry page explicitly, and lead forward and
	// back through the same pages.
	base := e.srv.URL + custListPath(e.cust.ID)
	follow := func(link string) (*types.BankAccountPage, fiatramp.Response) {
		t.Helper()
		require.True(t, strings.HasPrefix(link, e.srv.URL+"/"), "absolute link %q", link)
		page, resp, err := custRawPage(t, e.client, strings.TrimPrefix(link, e.srv.URL))
		require.NoError(t, err)
		return page, resp
	}
	page, _, err := custRawPage(t, e.client, custListPath(e.cust.ID))
	require.NoError(t, err)
	var forward []uuid.UUID
	for n := 1; ; n++ {
		assert.Equal(t, 7, page.Count)
		if n == 1 {
			assert.Nil(t, page.Previous)
		} else {
			require.NotNil(t, page.Previous)
			assert.Equal(t, fmt.Sprintf("%s?page=%d", base, n-1), *page.Previous)
		}
		for _, it := range page.Results {
			forward = append(forward, it.ID)
		}
		if n == 4 {
			assert.Len(t, page.Results, 1)
			assert.Nil(t, page.Next)
			break
		}
		assert.Len(t, page.Results, 2)
		require.NotNil(t, page.Next, "page %d", n)
		assert.Equal(t, fmt.Sprintf("%s?page=%d", base, n+1), *page.Next)
		page, _ = follow(*page.Next)
	}
	assert.Equal(t, want, forward)

	// From the last page back to the first, by the previous links.
	ids := func(p *types.BankAccountPage) []uuid.UUID {
		var out []uuid.UUID
		for _, it := range p.Results {
			out = append(out, it.ID)
		}
		return out
	}
	pages := [][]uuid.UUID{ids(page)}
	for page.Previous != nil && len(pages) < 10 {
		page, _ = follow(*page.Previous)
		pages = append(pages, ids(page))
	}
	var backward []uuid.UUID
	for i := len(pages) - 1; i >= 0; i-- {
		backward = append(backward, pages[i]...)
	}
	assert.Len(t, pages, 4)
	assert.Equal(t, want, backward)
}

func TestCustomersBankListInvalidPage(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.PageSize = 2 })
	custAddBanks(e, e.cust.ID, 5) // 7 accounts: 4 pages
	path := custListPath(e.cust.ID)

	for _, q := range []string{"0", "-1", "abc", "1.5", "", "5", "99999999999999999999", "9223372036854775807"} {
		t.Run("page="+q, func(t *testing.T) {
			_, resp, err := custRawPage(t, e.client, path+"?page="+q)
			apiErr := refused(t, err, http.StatusNotFound, "Invalid page.")
			assert.Equal(t, http.StatusNotFound, resp.StatusCode)
			assert.Empty(t, apiErr.Code)
		})
	}
	page, _, err := custRawPage(t, e.client, path+"?page=4")
	require.NoError(t, err)
	require.Len(t, page.Results, 1)
	require.NotNil(t, page.Previous)
	assert.Nil(t, page.Next)

	bare := e.customer(e.org, sandbox.Customer{Name: "Bare"})
	page, _, err = custRawPage(t, e.client, custListPath(bare.ID)+"?page=1")
	require.NoError(t, err)
	assert.Equal(t, 0, page.Count)
	_, _, err = custRawPage(t, e.client, custListPath(bare.ID)+"?page=2")
	refused(t, err, http.StatusNotFound, "Invalid page.")
}

func TestCustomersBankListUnderPrefix(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.PageSize = 2 })
	want := append([]uuid.UUID{e.bank.ID, e.vpa.ID}, custAddBanks(e, e.cust.ID, 3)...)
	ts := httptest.NewServer(http.StripPrefix("/gateway", e.sb))
	t.Cleanup(ts.Close)
	c, err := fiatramp.New(e.org.APIKey, e.org.APISecret, fiatramp.WithBaseURL(ts.URL+"/gateway"), fiatramp.WithClock(e.sb.Now))
	require.NoError(t, err)

	page, _, err := custRawPage(t, c, custListPath(e.cust.ID))
	require.NoError(t, err)
	require.NotNil(t, page.Next)
	assert.Equal(t, ts.URL+"/gateway"+custListPath(e.cust.ID)+"?page=2", *page.Next)

	var got []uuid.UUID
	for item, err := range c.Customers.BankAccounts(ctx(t), e.cust.ID) {
		require.NoError(t, err)
		got = append(got, item.ID)
	}
	assert.Equal(t, want, got)
}

func TestCustomersBankListPublicURL(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) {
		s.PageSize = 1
		s.PublicURL = "https://sandbox.example.test/"
	})
	page, _, err := custRawPage(t, e.client, custListPath(e.cust.ID)+"?page=2")
	require.NoError(t, err)
	require.NotNil(t, page.Previous)
	assert.Equal(t, "https://sandbox.example.test"+custListPath(e.cust.ID)+"?page=1", *page.Previous)
	assert.Nil(t, page.Next)

	// The client follows the links' path and query on its own base
	// address: it never sends its credentials to the host they name.
	n := 0
	for _, err := range e.client.Customers.BankAccounts(ctx(t), e.cust.ID) {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, page.Count, n)
}

// bankMoves are the moves the bank verification simulation allows.
var bankMoves = map[types.BankAccountStatus][]types.BankAccountStatus{
	types.BankAccountProcessing: {types.BankAccountVerified, types.BankAccountFailed},
}

func TestSimulateBankVerificationTable(t *testing.T) {
	e := newEnv(t)
	allowed := 0
	for _, from := range types.BankAccountStatus("").Values() {
		for _, to := range types.BankAccountStatus("").Values() {
			t.Run(string(from)+"->"+string(to), func(t *testing.T) {
				b := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: e.cust.ID, Status: from})).(sandbox.BankAccount)
				got, err := e.client.Customers.SimulateBankVerification(ctx(t), e.cust.ID, b.ID, to)
				fetched, ferr := e.client.Customers.GetBankAccount(ctx(t), e.cust.ID, b.ID)
				require.NoError(t, ferr)
				for _, m := range bankMoves[from] {
					if m != to {
						continue
					}
					allowed++
					require.NoError(t, err)
					assert.Equal(t, types.BankVerificationSimulation{CustomerID: e.cust.ID, BankID: b.ID, BankAccountStatus: to, Raw: got.Raw}, *got)
					assert.Equal(t, to, fetched.BankAccountStatus)
					if to == types.BankAccountFailed {
						require.NotNil(t, fetched.FailureReason)
						assert.Equal(t, types.BankFailureNameMismatch, *fetched.FailureReason)
					} else {
						assert.Nil(t, fetched.FailureReason)
					}
					return
				}
				if to == from {
					require.NoError(t, err, "a repeat sets the same status")
					assert.Equal(t, to, got.BankAccountStatus)
					assert.Equal(t, from, fetched.BankAccountStatus, "state unchanged")
					return
				}
				apiErr := refused(t, err, http.StatusBadRequest, fmt.Sprintf("Bank account status cannot move from %s to %s.", from, to))
				assert.Empty(t, apiErr.Code)
				assert.Equal(t, from, fetched.BankAccountStatus, "state unchanged")
			})
		}
	}
	assert.Equal(t, 2, allowed)
}

func TestSimulateBankVerificationRefusals(t *testing.T) {
	e := newEnv(t)
	processing := func(c uuid.UUID) sandbox.BankAccount {
		return e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: c, Status: types.BankAccountProcessing})).(sandbox.BankAccount)
	}
	mine := processing(e.cust.ID)
	sibling := e.customer(e.org, sandbox.Customer{Name: "Sibling"})
	siblingBank := processing(sibling.ID)
	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "Foreign"})
	foreignBank := processing(foreign.ID)

	_, err := e.client.Customers.SimulateBankVerification(ctx(t), e.cust.ID, siblingBank.ID, types.BankAccountVerified)
	refused(t, err, http.StatusBadRequest, "Bank not found or access denied", fiatramp.ErrBankNotFound)
	_, err = e.client.Customers.SimulateBankVerification(ctx(t), e.cust.ID, uuid.New(), types.BankAccountVerified)
	refused(t, err, http.StatusBadRequest, "Bank not found or access denied", fiatramp.ErrBankNotFound)
	_, err = e.client.Customers.SimulateBankVerification(ctx(t), foreign.ID, foreignBank.ID, types.BankAccountVerified)
	refused(t, err, http.StatusBadRequest, "Customer not found or access denied", fiatramp.ErrCustomerNotFound)

	const path = "/cms/api/v1/bank/mock-bank-verification"
	for _, bad := range []string{"verified", "DONE", ""} {
		err = e.client.Do(ctx(t), http.MethodPost, path, map[string]any{"customer_id": e.cust.ID, "bank_id": mine.ID, "bank_account_status": bad}, nil)
		msg := fmt.Sprintf("%q is not a valid choice.", bad)
		if bad == "" {
			msg = "This field may not be blank."
		}
		apiErr := refused(t, err, http.StatusBadRequest, msg, fiatramp.ErrFieldMissing)
		assert.Equal(t, map[string][]string{"bank_account_status": {msg}}, apiErr.FieldErrors)
	}
	err = e.client.Do(ctx(t), http.MethodPost, path, map[string]any{}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, "This field is required.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{
		"bank_account_status": {"This field is required."},
		"bank_id":             {"This field is required."},
		"customer_id":         {"This field is required."},
	}, apiErr.FieldErrors)
	got, err := e.client.Customers.SimulateBankVerification(ctx(t), e.cust.ID, mine.ID, types.BankAccountVerified)
	require.NoError(t, err, "still PROCESSING after the refusals")
	assert.Equal(t, types.BankAccountVerified, got.BankAccountStatus)
}

// addBankPath is the path of add bank account.
const addBankPath = "/cms/api/v1/bank/create"

// TestAddBankAccount: an account or a VPA added to a VERIFIED customer
// starts PROCESSING, answered 201 in the list item's shape, and is listed
// and fetched; no webhook is sent for PROCESSING.
func TestAddBankAccount(t *testing.T) {
	e := newEnv(t)
	c := e.customer(e.org, sandbox.Customer{Name: "Ravi Kumar"})
	var resp fiatramp.Response
	b, err := e.client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{
		CustomerID: c.ID, AccountNumber: "50100123456789", IFSC: "hdfc0001234", AccountName: "RAVI KUMAR",
	}, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "only the initiates answer 201")
	assert.Equal(t, c.ID, b.CustomerID)
	assert.Equal(t, types.BankAccountProcessing, b.BankAccountStatus)
	assert.Equal(t, types.BankAccountTypeBankAccount, b.BankAccountType)
	assert.Equal(t, "50100123456789", b.AccountNumber)
	assert.Equal(t, "HDFC0001234", b.IFSC, "an IFSC is stored upper-cased")
	assert.Equal(t, "RAVI KUMAR", b.AccountName)
	assert.Nil(t, b.FailureReason)
	raw := rawData(t, resp.Body)
	assert.ElementsMatch(t, []string{"id", "customer_id", "account_number", "ifsc", "account_name", "vpa", "bank_account_type", "bank_account_status", "failure_reason"}, keysOf(raw))
	assert.JSONEq(t, `null`, string(raw["vpa"]))

	v, err := e.client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: c.ID, VPA: "ravi@okaxis"})
	require.NoError(t, err)
	assert.Equal(t, types.BankAccountTypeVPA, v.BankAccountType)
	assert.Equal(t, "ravi@okaxis", v.VPA)
	assert.Equal(t, "Ravi Kumar", v.AccountName, "a VPA's name defaults to the customer's")

	fetched, err := e.client.Customers.GetBankAccount(ctx(t), c.ID, b.ID)
	require.NoError(t, err)
	assert.Equal(t, types.BankAccountProcessing, fetched.BankAccountStatus)
	assert.Equal(t, "RAVI KUMAR", fetched.HolderName())
	var ids []uuid.UUID
	for it, err := range e.client.Customers.BankAccounts(ctx(t), c.ID) {
		require.NoError(t, err)
		ids = append(ids, it.ID)
	}
	assert.Equal(t, []uuid.UUID{b.ID, v.ID}, ids)
	assert.Empty(t, e.sb.Deliveries(), "no event for PROCESSING")

	_, err = e.client.Customers.SimulateBankVerification(ctx(t), c.ID, b.ID, types.BankAccountVerified)
	require.NoError(t, err)
	fetched, err = e.client.Customers.GetBankAccount(ctx(t), c.ID, b.ID)
	require.NoError(t, err)
	assert.Equal(t, types.BankAccountVerified, fetched.BankAccountStatus)
}

func keysOf(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestAddBankAccountRules: the service's refusals, in the service's
// words, and nothing stored by a refusal.
func TestAddBankAccountRules(t *testing.T) {
	e := newEnv(t)
	add := func(c uuid.UUID, number, vpa string) error {
		req := types.AddBankAccountRequest{CustomerID: c, VPA: vpa}
		if vpa == "" {
			req.AccountNumber, req.IFSC, req.AccountName = number, "SBIN0000001", "A"
		}
		_, err := e.client.Customers.AddBankAccount(ctx(t), req)
		return err
	}
	for _, status := range []types.KYCStatus{types.KYCUnverified, types.KYCProcessing, types.KYCFailed} {
		u := e.customer(e.org, sandbox.Customer{Name: "U", KYCStatus: status})
		refused(t, add(u.ID, "123456789", ""), http.StatusBadRequest, "Customer is unverified", fiatramp.ErrCustomerUnverified)
		refused(t, add(u.ID, "", "u@upi"), http.StatusBadRequest, "Customer is unverified", fiatramp.ErrCustomerUnverified)
	}
	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "F"})
	refused(t, add(foreign.ID, "123456789", ""), http.StatusBadRequest, "Customer not found or access denied", fiatramp.ErrCustomerNotFound)
	refused(t, add(uuid.New(), "123456789", ""), http.StatusBadRequest, "Customer not found or access denied", fiatramp.ErrCustomerNotFound)

	a := e.customer(e.org, sandbox.Customer{Name: "A"})
	b := e.customer(e.org, sandbox.Customer{Name: "B"})
	require.NoError(t, add(a.ID, "111111111", ""))
	require.NoError(t, add(a.ID, "", "a1@upi"))
	// Unique across customers, and for the same customer.
	refused(t, add(b.ID, "111111111", ""), http.StatusBadRequest, "Account number already in use", fiatramp.ErrAccountNumberInUse)
	refused(t, add(a.ID, "111111111", ""), http.StatusBadRequest, "Account number already in use", fiatramp.ErrAccountNumberInUse)
	refused(t, add(b.ID, "", "A1@UPI"), http.StatusBadRequest, "VPA already in use", fiatramp.ErrVPAInUse)
	refused(t, add(b.ID, "", e.vpa.VPA), http.StatusBadRequest, "VPA already in use", fiatramp.ErrVPAInUse) // a fixture's VPA too
	refused(t, add(b.ID, e.bank.AccountNumber, ""), http.StatusBadRequest, "Account number already in use", fiatramp.ErrAccountNumberInUse)
	// Three of each per customer, whatever their status.
	require.NoError(t, add(a.ID, "222222222", ""))
	require.NoError(t, add(a.ID, "333333333", ""))
	refused(t, add(a.ID, "444444444", ""), http.StatusBadRequest, "Maximum 3 bank account details allowed", fiatramp.ErrBankAccountLimit)
	require.NoError(t, add(a.ID, "", "a2@upi"))
	require.NoError(t, add(a.ID, "", "a3@upi"))
	refused(t, add(a.ID, "", "a4@upi"), http.StatusBadRequest, "Maximum 3 UPI IDs allowed", fiatramp.ErrBankAccountLimit)
	require.NoError(t, add(b.ID, "444444444", ""), "another customer's limit is its own")
	page, err := e.client.Customers.ListBankAccounts(ctx(t), a.ID)
	require.NoError(t, err)
	assert.Equal(t, 6, page.Count, "refusals stored nothing")
}

// TestAddBankAccountFieldErrors: a raw signed body that skips the
// client's checks gets the service's field errors.
func TestAddBankAccountFieldErrors(t *testing.T) {
	e := newEnv(t)
	cust := e.cust.ID.String()
	for body, want := range map[string]map[string][]string{
		`{}`:                             {"customer_id": {"This field is required."}, "non_field_errors": {"Either account_number and ifsc, or vpa, is required."}},
		`{"customer_id":"` + cust + `"}`: {"non_field_errors": {"Either account_number and ifsc, or vpa, is required."}},
		`{"customer_id":"` + cust + `","vpa":"x@upi","account_number":"1"}`:                          {"non_field_errors": {"Send either account_number and ifsc, or vpa, not both."}},
		`{"customer_id":"` + cust + `","account_number":"123456789"}`:                                {"ifsc": {"This field is required."}},
		`{"customer_id":"` + cust + `","account_number":"123456789","ifsc":null,"account_name":" "}`: {"ifsc": {"This field may not be null."}, "account_name": {"This field may not be blank."}},
		`{"customer_id":"` + cust + `","vpa":null,"account_number":null}`:                            {"non_field_errors": {"Either account_number and ifsc, or vpa, is required."}},
		`{"customer_id":"` + cust + `","vpa":""}`:                                                    {"vpa": {"This field may not be blank."}},
		`{"customer_id":"` + cust + `","vpa":true}`:                                                  {"vpa": {"Not a valid string."}},
		`{"customer_id":"nope","vpa":"x@upi"}`:                                                       {"customer_id": {"Must be a valid UUID."}},
	} {
		err := e.client.Do(ctx(t), http.MethodPost, addBankPath, []byte(body), nil)
		var apiErr *fiatramp.APIError
		require.ErrorAs(t, err, &apiErr, body)
		assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode, body)
		assert.Equal(t, "REQ_FIELD_MISSING", apiErr.Code, body)
		assert.Equal(t, want, apiErr.FieldErrors, body)
		assert.ErrorIs(t, err, fiatramp.ErrFieldMissing, body)
	}
}

// TestAddBankAccountVerificationFailures: an added account fails
// verification with a documented failure_reason: one asked for, or else
// INVALID_IFSC for a malformed IFSC, INVALID_ACCOUNT_NUMBER for a number
// that is not 9 to 18 digits, NAME_MISMATCH otherwise; the BANK webhook
// carries it.
func TestAddBankAccountVerificationFailures(t *testing.T) {
	e, rc := hookEnv(t, nil)
	cases := []struct {
		number, ifsc, asked, want string
	}{
		{"123456789", "BAD", "", types.BankFailureInvalidIFSC},
		{"12AB", "SBIN0000001", "", types.BankFailureInvalidAccountNumber},
		{"987654321", "SBIN0000001", "", types.BankFailureNameMismatch},
		{"987654322", "SBIN0000001", types.BankFailurePennyDropFailed, types.BankFailurePennyDropFailed},
		{"987654323", "SBIN0000001", types.BankFailureAccountTypeNRE, types.BankFailureAccountTypeNRE},
		{"987654324", "SBIN0000001", types.BankFailureBankRiskCheckFailed, types.BankFailureBankRiskCheckFailed},
	}
	want := map[string]string{} // bank id -> failure_reason
	for i, c := range cases {
		cust := e.customer(e.org, sandbox.Customer{Name: fmt.Sprint("C", i)})
		b, err := e.client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: cust.ID, AccountNumber: c.number, IFSC: c.ifsc, AccountName: "N"})
		require.NoError(t, err)
		body := `{"bank_account_status":"FAILED","bank_id":"` + b.ID.String() + `","customer_id":"` + cust.ID.String() + `"}`
		if c.asked != "" {
			body = `{"bank_account_status":"FAILED","bank_id":"` + b.ID.String() + `","customer_id":"` + cust.ID.String() + `","failure_reason":"` + c.asked + `"}`
		}
		require.NoError(t, e.client.Do(ctx(t), http.MethodPost, "/cms/api/v1/bank/mock-bank-verification", []byte(body), nil))
		got, err := e.client.Customers.GetBankAccount(ctx(t), cust.ID, b.ID)
		require.NoError(t, err)
		require.NotNil(t, got.FailureReason)
		assert.Equal(t, c.want, *got.FailureReason, c.number)
		want[b.ID.String()] = c.want
	}
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	hooks := rc.hooks()
	require.Len(t, hooks, len(cases))
	for _, h := range hooks { // in order per object only
		assert.True(t, signedBy(e.org, h))
		var ev struct {
			ID, Event, Type string
			Metadata        struct {
				FailureReason string `json:"failure_reason"`
			}
		}
		require.NoError(t, json.Unmarshal([]byte(h.body), &ev))
		assert.Equal(t, "FAILED", ev.Event)
		assert.Equal(t, "BANK", ev.Type)
		assert.Equal(t, want[ev.ID], ev.Metadata.FailureReason, ev.ID)
		delete(want, ev.ID)
	}
	assert.Empty(t, want, "one event per account")
	err := e.client.Do(ctx(t), http.MethodPost, "/cms/api/v1/bank/mock-bank-verification",
		[]byte(`{"bank_account_status":"FAILED","bank_id":"`+e.bank.ID.String()+`","customer_id":"`+e.cust.ID.String()+`","failure_reason":"BORED"}`), nil)
	var apiErr *fiatramp.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, map[string][]string{"failure_reason": {`"BORED" is not a valid choice.`}}, apiErr.FieldErrors)
}

// TestAddBankAccountSignedByHand: requests built and signed by hand, as a
// program in another language sends them, get the same answers: an
// account added, and the service's field errors for what a client that
// skips the checks sends. The bodies are canonical (keys sorted).
func TestAddBankAccountSignedByHand(t *testing.T) {
	e := newEnv(t)
	cust := e.customer(e.org, sandbox.Customer{Name: "Hand"}).ID.String()
	r := authSend(t, e, authReq{method: http.MethodPost, path: addBankPath,
		body: []byte(`{"account_name":"Hand","account_number":"123456789012","customer_id":"` + cust + `","ifsc":"SBIN0000001"}`)})
	authOK(t, r, http.StatusOK)
	assert.Contains(t, string(r.body.Data), `"bank_account_status":"PROCESSING"`)
	// account_name may be left out, as the service's examples do: the
	// holder's name is then the customer's.
	r = authSend(t, e, authReq{method: http.MethodPost, path: addBankPath,
		body: []byte(`{"account_number":"123456789013","customer_id":"` + cust + `","ifsc":"SBIN0000001"}`)})
	authOK(t, r, http.StatusOK)
	assert.Contains(t, string(r.body.Data), `"account_name":"Hand"`)

	for body, errs := range map[string]string{
		`{"customer_id":"` + cust + `"}`:                                    `{"non_field_errors":["Either account_number and ifsc, or vpa, is required."]}`,
		`{"account_number":"1","customer_id":"` + cust + `","vpa":"h@upi"}`: `{"non_field_errors":["Send either account_number and ifsc, or vpa, not both."]}`,
		`{"account_number":"123456789","customer_id":"` + cust + `"}`:       `{"ifsc":["This field is required."]}`,
		`{"vpa":"h@upi"}`: `{"customer_id":["This field is required."]}`,
	} {
		r := authSend(t, e, authReq{method: http.MethodPost, path: addBankPath, body: []byte(body)})
		assert.Equal(t, http.StatusBadRequest, r.status, body)
		assert.Equal(t, "REQ_FIELD_MISSING", r.body.ErrCode, body)
		assert.JSONEq(t, errs, string(r.body.Errors), body)
	}
}

// TestBankVerificationDelay: with Settings.BankVerificationDelay an added
// account verifies itself once the stopped sandbox clock is moved past
// the delay (FAILED with INVALID_IFSC for a malformed IFSC), each with its
// BANK webhook stamped at the time it fell due; an account the simulation
// moved first is not moved again.
func TestBankVerificationDelay(t *testing.T) {
	e, rc := hookEnv(t, nil, func(s *sandbox.Settings) { s.BankVerificationDelay = time.Minute })
	c := e.customer(e.org, sandbox.Customer{Name: "Auto"})
	good, err := e.client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: c.ID, AccountNumber: "123456789012", IFSC: "SBIN0000001", AccountName: "Auto"})
	require.NoError(t, err)
	e.sb.Advance(10 * time.Second)
	bad, err := e.client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: c.ID, AccountNumber: "223456789012", IFSC: "NOPE", AccountName: "Auto"})
	require.NoError(t, err)
	simulated, err := e.client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: c.ID, VPA: "auto@upi"})
	require.NoError(t, err)
	_, err = e.client.Customers.SimulateBankVerification(ctx(t), c.ID, simulated.ID, types.BankAccountFailed)
	require.NoError(t, err)

	status := func(id uuid.UUID) types.BankAccountStatus {
		b, err := e.client.Customers.GetBankAccount(ctx(t), c.ID, id)
		require.NoError(t, err)
		return b.BankAccountStatus
	}
	e.sb.Advance(49 * time.Second)
	assert.Equal(t, types.BankAccountProcessing, status(good.ID), "not yet due")
	e.sb.Advance(time.Second)
	assert.Equal(t, types.BankAccountVerified, status(good.ID))
	assert.Equal(t, types.BankAccountProcessing, status(bad.ID))
	e.sb.SetTime(epoch.Add(2 * time.Minute))
	assert.Equal(t, types.BankAccountFailed, status(bad.ID))
	fetched, err := e.client.Customers.GetBankAccount(ctx(t), c.ID, bad.ID)
	require.NoError(t, err)
	assert.Equal(t, types.BankFailureInvalidIFSC, *fetched.FailureReason)
	assert.Equal(t, types.BankAccountFailed, status(simulated.ID))

	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	byID := map[string]string{}
	for _, h := range rc.hooks() {
		var ev struct{ ID, Event, Timestamp string }
		require.NoError(t, json.Unmarshal([]byte(h.body), &ev))
		assert.True(t, signedBy(e.org, h))
		byID[ev.ID] += ev.Event + "@" + ev.Timestamp + ";"
	}
	assert.Equal(t, map[string]string{
		good.ID.String():      "VERIFIED@" + epoch.Add(time.Minute).UTC().Format("2006-01-02T15:04:05.000000Z") + ";",
		bad.ID.String():       "FAILED@" + epoch.Add(70*time.Second).UTC().Format("2006-01-02T15:04:05.000000Z") + ";",
		simulated.ID.String(): "FAILED@" + epoch.Add(10*time.Second).UTC().Format("2006-01-02T15:04:05.000000Z") + ";",
	}, byID, "one event each")
}

// TestBankVerificationDelayRunningClock: on a running clock the account
// verifies itself in real time.
func TestBankVerificationDelayRunningClock(t *testing.T) {
	sb := sandbox.New(func(s *sandbox.Settings) { s.BankVerificationDelay = 20 * time.Millisecond })
	t.Cleanup(func() { _ = sb.Close() })
	o, err := sb.AddOrganization(sandbox.Organization{Name: "Running"})
	require.NoError(t, err)
	c, err := sb.AddCustomer(sandbox.Customer{OrganizationID: o.ID, Name: "R"})
	require.NoError(t, err)
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	client, err := srv.Client(o)
	require.NoError(t, err)
	b, err := client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: c.ID, VPA: "r@upi"})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		got, err := client.Customers.GetBankAccount(ctx(t), c.ID, b.ID)
		return err == nil && got.BankAccountStatus == types.BankAccountVerified
	}, 5*time.Second, 5*time.Millisecond)
}

// TestAddBankAccountAfterReset: after Reset, numbers and VPAs held before
// are free again.
func TestAddBankAccountAfterReset(t *testing.T) {
	e := newEnv(t)
	_, err := e.client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: e.cust.ID, VPA: "again@upi"})
	require.NoError(t, err)
	e.sb.Reset()
	o := e.must(e.sb.AddOrganization(sandbox.Organization{Name: "Fresh"})).(sandbox.Organization)
	c := e.customer(o, sandbox.Customer{Name: "F"})
	client := e.clientFor(o)
	_, err = client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: c.ID, VPA: "again@upi"})
	require.NoError(t, err)
	_, err = client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: c.ID, VPA: "AGAIN@upi"})
	refused(t, err, http.StatusBadRequest, "VPA already in use", fiatramp.ErrVPAInUse)
}

// TestSimulateBankVerificationLostAnswer: the simulation is retried as an
// update (a repeat sets the same status). When its first answer is lost
// after the move, the retry must not be refused "cannot move from VERIFIED
// to VERIFIED", which would report a move that happened as failed; nor may
// it send the webhook twice.
func TestSimulateBankVerificationLostAnswer(t *testing.T) {
	e, rc := hookEnv(t, nil)
	b := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: e.cust.ID, Status: types.BankAccountProcessing})).(sandbox.BankAccount)
	c := e.clientFor(e.org, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}))
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/cms/api/v1/bank/mock-bank-verification", Count: 1}))
	got, err := c.Customers.SimulateBankVerification(ctx(t), e.cust.ID, b.ID, types.BankAccountVerified)
	require.NoError(t, err, "the move happened")
	assert.Equal(t, types.BankAccountVerified, got.BankAccountStatus)
	fetched, err := e.client.Customers.GetBankAccount(ctx(t), e.cust.ID, b.ID)
	require.NoError(t, err)
	assert.Equal(t, types.BankAccountVerified, fetched.BankAccountStatus)
	settle(t, e.sb)
	n := 0
	for _, h := range rc.hooks() {
		if strings.Contains(h.body, `"VERIFIED"`) && strings.Contains(h.body, b.ID.String()) {
			n++
		}
	}
	assert.Equal(t, 1, n, "one webhook for one change")
}
