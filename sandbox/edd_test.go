package sandbox_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// payoutEDD is a complete payout EDD of the env's customer.
func payoutEDD(e *env) types.SavePayoutEDDRequest {
	return types.SavePayoutEDDRequest{
		CustomerID: e.cust.ID, SourceOfIncome: types.SourceOfIncomeSalary,
		BankStatementURLs: []string{"https://docs.example/statement.pdf"}, BankStatementPasswords: []string{"pdf-pass"},
		Declaration: true,
	}
}

// exhaustPayouts makes the env's customer need a payout EDD: two payouts
// fit smallLimits, the third is refused.
func exhaustPayouts(t *testing.T, e *env) {
	t.Helper()
	for i := range 3 {
		_, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: e.quotation().ID, CustomerID: e.cust.ID})
		if i == 2 {
			require.ErrorIs(t, err, fiatramp.ErrEDDRequired)
		} else {
			require.NoError(t, err)
		}
	}
}

// TestEDDPayoutFlow: a customer beyond the payout limit saves an EDD
// (PROCESSING), which a review moves to VERIFIED: the limits are lifted
// (multiplied by Settings.EDDLimitMultiplier), the payout goes through,
// and a signed EDD webhook announces it.
func TestEDDPayoutFlow(t *testing.T) {
	e, rc := hookEnv(t, nil, smallLimits)
	_, err := e.client.Payouts.SaveEDD(ctx(t), payoutEDD(e))
	refused(t, err, http.StatusBadRequest, "EDD not required", fiatramp.ErrEDDNotRequired)

	exhaustPayouts(t, e)
	saved, err := e.client.Payouts.SaveEDD(ctx(t), payoutEDD(e))
	require.NoError(t, err)
	assert.Equal(t, types.EDDProcessing, saved.Status)
	_, err = e.client.Payouts.SaveEDD(ctx(t), payoutEDD(e))
	refused(t, err, http.StatusBadRequest, "EDD not required", fiatramp.ErrEDDNotRequired)

	require.NoError(t, e.sb.SetEDDStatus(saved.ID, types.EDDVerified))
	require.Error(t, e.sb.SetEDDStatus(saved.ID, types.EDDFailed), "only a PROCESSING EDD is reviewed")
	l, err := e.client.Payouts.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "20000", l.DailyLimit.String())
	assert.False(t, l.IsEDDRequired)
	assert.False(t, l.IsLimitIncreaseAvailable)
	_, err = e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: e.quotation().ID, CustomerID: e.cust.ID})
	require.NoError(t, err, "lifted")
	pl, err := e.client.Payins.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "30000", pl.DailyLimit.String(), "a payout EDD does not lift the payin limits")

	settle(t, e.sb)
	var edd []hook
	for _, h := range rc.hooks() {
		var ev struct {
			Type, ID, Event string
			Metadata        map[string]string
		}
		require.NoError(t, json.Unmarshal([]byte(h.body), &ev))
		if ev.Type == sandbox.EventTypeEDD {
			edd = append(edd, h)
			assert.Equal(t, saved.ID.String(), ev.ID)
			assert.Equal(t, "VERIFIED", ev.Event)
			assert.Equal(t, e.cust.ID.String(), ev.Metadata["customer_id"])
			assert.Equal(t, "PAYOUT", ev.Metadata["edd_type"])
		}
	}
	require.Len(t, edd, 1)
	assert.True(t, signedBy(e.org, edd[0]))
}

// TestEDDPayinLiftsPayouts: a verified payin EDD lifts both limits; a
// FAILED one lifts nothing and allows a new save.
func TestEDDPayinLiftsPayouts(t *testing.T) {
	e := newEnv(t, smallLimits)
	require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{EDDRequired: true}))
	req := types.SavePayinEDDRequest{CustomerID: e.cust.ID, SourceOfIncome: types.SourceOfIncomeBusiness, Declaration: true,
		Purpose: "trading", SupportingPurposeDocURLs: []string{"http://docs.example/p.pdf"}}
	first, err := e.client.Payins.SaveEDD(ctx(t), req)
	require.NoError(t, err)
	require.NoError(t, e.sb.SetEDDStatus(first.ID, types.EDDFailed))
	pl, err := e.client.Payins.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "30000", pl.DailyLimit.String(), "a FAILED EDD lifts nothing")
	assert.True(t, pl.IsEDDRequired, "the customer's flag")

	second, err := e.client.Payins.SaveEDD(ctx(t), req)
	require.NoError(t, err, "after a FAILED EDD, another")
	require.NoError(t, e.sb.SetEDDStatus(second.ID, types.EDDVerified))
	pl, err = e.client.Payins.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "300000", pl.DailyLimit.String())
	assert.False(t, pl.IsEDDRequired)
	l, err := e.client.Payouts.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "20000", l.DailyLimit.String(), "a payin EDD lifts the payout limits too")
	assert.Len(t, e.sb.EDDs(e.cust.ID), 2)
}

func TestEDDRefusals(t *testing.T) {
	e := newEnv(t, smallLimits)
	unverified := e.customer(e.org, sandbox.Customer{Name: "New", KYCStatus: types.KYCUnverified})
	req := payoutEDD(e)
	req.CustomerID = unverified.ID
	_, err := e.client.Payouts.SaveEDD(ctx(t), req)
	refused(t, err, http.StatusBadRequest, "Customer is unverified", fiatramp.ErrCustomerUnverified)
	req.CustomerID = e.customer(e.otherOrg(false), sandbox.Customer{}).ID
	_, err = e.client.Payouts.SaveEDD(ctx(t), req)
	refused(t, err, http.StatusBadRequest, "Customer is unverified", fiatramp.ErrCustomerUnverified)

	// The sandbox's own field rules, sent past the client's through Do.
	for body, field := range map[string]string{
		`{"source_of_income":"SALARY","bank_statement_url":[],"bank_statement_passwords":[],"itr_report_url":[],"itr_report_passwords":[],"declaration":true}`:                                                         "customer_id",
		`{"customer_id":"` + e.cust.ID.String() + `","source_of_income":"LOTTERY","bank_statement_url":[],"bank_statement_passwords":[],"itr_report_url":[],"itr_report_passwords":[],"declaration":true}`:             "source_of_income",
		`{"customer_id":"` + e.cust.ID.String() + `","source_of_income":"SALARY","bank_statement_url":["ftp://x/y"],"bank_statement_passwords":[""],"itr_report_url":[],"itr_report_passwords":[],"declaration":true}`: "bank_statement_url",
		`{"customer_id":"` + e.cust.ID.String() + `","source_of_income":"SALARY","bank_statement_url":["https://x/y"],"bank_statement_passwords":[],"itr_report_url":[],"itr_report_passwords":[],"declaration":true}`: "bank_statement_passwords",
		`{"customer_id":"` + e.cust.ID.String() + `","source_of_income":"SALARY","bank_statement_url":[],"bank_statement_passwords":[],"itr_report_passwords":[],"declaration":true}`:                                  "itr_report_url",
		`{"customer_id":"` + e.cust.ID.String() + `","source_of_income":"SALARY","bank_statement_url":[],"bank_statement_passwords":[],"itr_report_url":[],"itr_report_passwords":[],"declaration":false}`:             "declaration",
		`{"customer_id":"` + e.cust.ID.String() + `","source_of_income":"SALARY","bank_statement_url":"https://x/y","bank_statement_passwords":[],"itr_report_url":[],"itr_report_passwords":[],"declaration":true}`:   "bank_statement_url",
	} {
		var out json.RawMessage
		err := e.client.Do(ctx(t), http.MethodPost, "/ren/api/v1/payout/edd/save", []byte(body), &out)
		var apiErr *fiatramp.APIError
		require.ErrorAs(t, err, &apiErr, body)
		assert.Contains(t, apiErr.FieldErrors, field, body)
	}
}

func TestEDDControlPlane(t *testing.T) {
	e := newCtlEnv(t, smallLimits)
	exhaustPayouts(t, e.env)
	saved, err := e.client.Payouts.SaveEDD(ctx(t), payoutEDD(e.env))
	require.NoError(t, err)
	list := e.ok(http.StatusOK, "GET", "/_sandbox/customers/"+e.cust.ID.String()+"/edds", "")
	require.Len(t, list["edds"], 1)
	assert.Equal(t, "PROCESSING", list["edds"].([]any)[0].(map[string]any)["status"])

	a := e.call("PUT", "/_sandbox/edds/"+saved.ID.String()+"/status", `{"status":"PROCESSING"}`)
	assert.Equal(t, http.StatusBadRequest, a.status, "%s", a)
	a = e.call("PUT", "/_sandbox/edds/"+uuid.NewString()+"/status", `{"status":"VERIFIED"}`)
	assert.Equal(t, http.StatusNotFound, a.status, "%s", a)
	got := e.ok(http.StatusOK, "PUT", "/_sandbox/edds/"+saved.ID.String()+"/status", `{"status":"VERIFIED"}`)
	assert.Equal(t, "VERIFIED", got["status"])
	l, err := e.client.Payouts.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.False(t, l.IsEDDRequired)
}

// TestEDDLiftsCustomerFlag: a customer flagged EDDRequired is refused a
// payin quotation "EDD required" until a payin EDD is VERIFIED; then the
// limits say no EDD is required, and the quotation goes through.
func TestEDDLiftsCustomerFlag(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{EDDRequired: true}))
	_, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e))
	refused(t, err, http.StatusBadRequest, "EDD required", fiatramp.ErrEDDRequired)

	// The newest payin save shows no declaration: one without it is saved.
	saved, err := e.client.Payins.SaveEDD(ctx(t), types.SavePayinEDDRequest{CustomerID: e.cust.ID, SourceOfIncome: types.SourceOfIncomeBusiness})
	require.NoError(t, err)
	require.NoError(t, e.sb.SetEDDStatus(saved.ID, types.EDDVerified))
	pl, err := e.client.Payins.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	require.False(t, pl.IsEDDRequired)
	_, err = e.client.Payins.CreateQuotation(ctx(t), payinReq(e))
	require.NoError(t, err, "the verified EDD lifted the requirement")
}

// TestEDDFlagDueBothWays: a customer flagged EDDRequired owes an EDD in
// both directions: both limits show is_edd_required and both saves are
// accepted (the demo's EDD customer, on which the command line's EDD
// commands run); a saved payout EDD ends the payout requirement, a
// VERIFIED payin EDD both.
func TestEDDFlagDueBothWays(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{EDDRequired: true}))
	l, err := e.client.Payouts.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.True(t, l.IsEDDRequired, "payout limits")
	pl, err := e.client.Payins.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.True(t, pl.IsEDDRequired, "payin limits")

	saved, err := e.client.Payouts.SaveEDD(ctx(t), payoutEDD(e))
	require.NoError(t, err, "a payout EDD is due")
	_, err = e.client.Payouts.SaveEDD(ctx(t), payoutEDD(e))
	refused(t, err, http.StatusBadRequest, "EDD not required", fiatramp.ErrEDDNotRequired)
	require.NoError(t, e.sb.SetEDDStatus(saved.ID, types.EDDVerified))
	l, err = e.client.Payouts.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.False(t, l.IsEDDRequired, "lifted by the payout EDD")

	in, err := e.client.Payins.SaveEDD(ctx(t), types.SavePayinEDDRequest{CustomerID: e.cust.ID, SourceOfIncome: types.SourceOfIncomeBusiness, Declaration: true})
	require.NoError(t, err, "a payin EDD is still due")
	require.NoError(t, e.sb.SetEDDStatus(in.ID, types.EDDVerified))
	pl, err = e.client.Payins.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.False(t, pl.IsEDDRequired)
}
