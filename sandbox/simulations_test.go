package sandbox_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// bankMoves and payinMoves are the moves the simulations allow.
var (
	bankMoves = map[types.BankAccountStatus][]types.BankAccountStatus{
		types.BankAccountProcessing: {types.BankAccountVerified, types.BankAccountFailed},
	}
	payinMoves = map[types.PayinStatus][]types.PayinStatus{
		types.PayinProcessing: {types.PayinSuccess, types.PayinFailed},
		types.PayinFailed:     {types.PayinRefunded},
	}
)

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
						assert.Contains(t, *fetched.FailureReason, "Simulated failure")
					} else {
						assert.Nil(t, fetched.FailureReason)
					}
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

// payinQuote creates an IMPS payin quotation through the client.
func payinQuote(t *testing.T, e *env) *types.PayinQuotation {
	t.Helper()
	q, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e))
	require.NoError(t, err)
	return q
}

func TestSimulatePayinStatusTable(t *testing.T) {
	e := newEnv(t)
	allowed := 0
	// Each start state is reached through the simulation itself.
	paths := map[types.PayinStatus][]types.PayinStatus{
		types.PayinProcessing: nil,
		types.PayinSuccess:    {types.PayinSuccess},
		types.PayinFailed:     {types.PayinFailed},
		types.PayinRefunded:   {types.PayinFailed, types.PayinRefunded},
	}
	for from, path := range paths {
		for _, to := range types.PayinStatus("").Values() {
			t.Run(string(from)+"->"+string(to), func(t *testing.T) {
				q := payinQuote(t, e)
				for _, step := range path {
					_, err := e.client.Payins.SimulateStatus(ctx(t), q.ID, step)
					require.NoError(t, err)
				}
				got, err := e.client.Payins.SimulateStatus(ctx(t), q.ID, to)
				fetched, ferr := e.client.Payins.GetQuotation(ctx(t), q.ID)
				require.NoError(t, ferr)
				for _, m := range payinMoves[from] {
					if m == to {
						allowed++
						require.NoError(t, err)
						assert.Equal(t, q.ID, got.QuotationID)
						assert.Equal(t, to, got.PayinStatus)
						assert.Equal(t, string(to), string(fetched.Status), "the fetched quotation shows the payin status")
						return
					}
				}
				refused(t, err, http.StatusBadRequest, fmt.Sprintf("Payin status cannot move from %s to %s.", from, to))
				assert.Equal(t, string(from), string(fetched.Status), "state unchanged")
			})
		}
	}
	assert.Equal(t, 3, allowed)
}

func TestSimulatePayinStatusRefusals(t *testing.T) {
	e := newEnv(t)
	q := payinQuote(t, e)
	other := e.otherOrg(false)
	oc := e.customer(other, sandbox.Customer{Name: "Other"})
	ob := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: oc.ID})).(sandbox.BankAccount)
	otherClient := e.clientFor(other)
	oq, err := otherClient.Payins.CreateQuotation(ctx(t), payinReq(e, func(r *types.CreatePayinQuotationRequest) { r.CustomerID, r.BankID = oc.ID, ob.ID }))
	require.NoError(t, err)

	_, err = e.client.Payins.SimulateStatus(ctx(t), oq.ID, types.PayinSuccess)
	refused(t, err, http.StatusBadRequest, "Quotation is not found", fiatramp.ErrQuotationNotFound)
	_, err = e.client.Payins.SimulateStatus(ctx(t), uuid.New(), types.PayinSuccess)
	refused(t, err, http.StatusBadRequest, "Quotation is not found", fiatramp.ErrQuotationNotFound)

	const path = "/pis/api/v1/payin/mock-payin-status"
	err = e.client.Do(ctx(t), http.MethodPatch, path, map[string]any{"quotation_id": q.ID, "payin_status": "success"}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, `"success" is not a valid choice.`, fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{"payin_status": {`"success" is not a valid choice.`}}, apiErr.FieldErrors)
	err = e.client.Do(ctx(t), http.MethodPatch, path, map[string]any{"quotation_id": "abc", "payin_status": nil}, nil)
	apiErr = refused(t, err, http.StatusBadRequest, "This field may not be null.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{"payin_status": {"This field may not be null."}, "quotation_id": {"Must be a valid UUID."}}, apiErr.FieldErrors)

	// ON_HOLD is a known status, but no move leads there.
	_, err = e.client.Payins.SimulateStatus(ctx(t), q.ID, types.PayinOnHold)
	refused(t, err, http.StatusBadRequest, "Payin status cannot move from PROCESSING to ON_HOLD.")
	// An expired quotation's payin still settles.
	e.sb.Advance(e.sb.Settings().PayinQuotationValidity + 1)
	got, err := e.client.Payins.SimulateStatus(ctx(t), q.ID, types.PayinSuccess)
	require.NoError(t, err)
	assert.Equal(t, types.PayinSuccess, got.PayinStatus)
}

func TestRegisterWebhook(t *testing.T) {
	e := newEnv(t)
	const path = "/org/api/v1/organizations/api-webhooks"
	var resp fiatramp.Response
	var data struct {
		URL string `json:"url"`
	}
	require.NoError(t, e.client.Do(ctx(t), http.MethodPost, path, map[string]any{"url": "https://hooks.example.test/fiatramp?x=1"}, &data, fiatramp.CaptureResponse(&resp)))
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "https://hooks.example.test/fiatramp?x=1", data.URL)
	o, ok := e.sb.Organization(e.org.ID)
	require.True(t, ok)
	assert.Equal(t, "https://hooks.example.test/fiatramp?x=1", o.WebhookURL)

	for body, msg := range map[string]string{
		`{}`:                        "This field is required.",
		`{"url":null}`:              "This field may not be null.",
		`{"url":7}`:                 "Not a valid string.",
		`{"url":" "}`:               "This field may not be blank.",
		`{"url":"ftp://x.test/"}`:   "Enter a valid URL.",
		`{"url":"/relative"}`:       "Enter a valid URL.",
		`{"url":"https://u:p@x/"}`:  "Enter a valid URL.",
		`{"url":"https://x/#frag"}`: "Enter a valid URL.",
		`{"url":"https://x/` + strings.Repeat("a", 2048) + `"}`: "Ensure this field has no more than 2048 characters.",
	} {
		err := e.client.Do(ctx(t), http.MethodPost, path, []byte(body), nil)
		apiErr := refused(t, err, http.StatusBadRequest, msg, fiatramp.ErrFieldMissing)
		assert.Equal(t, map[string][]string{"url": {msg}}, apiErr.FieldErrors, body)
	}
	o, _ = e.sb.Organization(e.org.ID)
	assert.Equal(t, "https://hooks.example.test/fiatramp?x=1", o.WebhookURL, "refusals change nothing")

	require.NoError(t, e.sb.SetWebhookURL(e.org.ID, ""))
	o, _ = e.sb.Organization(e.org.ID)
	assert.Empty(t, o.WebhookURL)
	require.Error(t, e.sb.SetWebhookURL(e.org.ID, "mailto:x@y"))
	require.Error(t, e.sb.SetWebhookURL(uuid.New(), "https://x.test/"))
	_, err := e.sb.AddOrganization(sandbox.Organization{WebhookURL: "not a url"})
	require.ErrorContains(t, err, "webhook_url")
}

func TestLoadWebhookURL(t *testing.T) {
	f, err := sandbox.LoadJSON(strings.NewReader(`{"organizations":[{"name":"Hooked","webhook_url":"https://hooks.example.test/in"}]}`))
	require.NoError(t, err)
	sb := sandbox.New()
	out, err := sb.Load(f)
	require.NoError(t, err)
	o, ok := sb.Organization(out.Organizations[0].ID)
	require.True(t, ok)
	assert.Equal(t, "https://hooks.example.test/in", o.WebhookURL)

	f, err = sandbox.LoadJSON(strings.NewReader(`{"organizations":[{"name":"Bad","webhook_url":"ftp://x"}]}`))
	require.NoError(t, err)
	_, err = sandbox.New().Load(f)
	require.ErrorContains(t, err, "webhook_url")
}
