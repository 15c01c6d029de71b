package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// Paths the tests call raw, with client.Do.
const (
	poCreatePath    = "/pos/api/v1/payout/initiate"
	poPrefundedPath = "/pos/api/v1/prefunded/payout/initiate"
	poSimulatePath  = "/pos/api/v1/payout/mock-payout-status"
	poBalancePath   = "/pos/api/v1/payout/balance"
	poEpochStamp    = `"2026-11-21T09:30:00.000000Z"`
	poSimulatedWhy  = "Simulated failure: the beneficiary bank rejected the transfer"
	poRequired      = "This field is required."
)

// The amounts of env.quotation: 10.5 USDT at 88.25, so 926.625 INR,
// rounded to 926.63.
var (
	poSending   = decimal.RequireFromString("10.5")
	poRate      = decimal.RequireFromString("88.25")
	poReceiving = decimal.RequireFromString("926.63")
	// poFeesNumbers is the fees object of env.quotation as 2.4 numbers.
	poFeesNumbers = `{"client_fee_fiat":0,"client_fee_crypto":0,"service_fee":4.5,"pg_fee":0,` +
		`"client_gst_fiat":0,"client_gst_crypto":0,"service_gst":0.81,"pg_gst":0,"tds":9.27,` +
		`"gross_effective_exchange_rate":0}`
	poDigits12 = regexp.MustCompile(`^[0-9]{12}$`)
)

// Exact key sets of the payout shapes (interface.md 2.2, 2.3, 4.3).
var (
	poCreateKeys = []string{"asset", "bank_id", "client_reference_id", "created_at", "customer_id",
		"exchange_order_id", "fees", "fiat", "id", "quotation_id", "rate", "receiving_amount",
		"sending_amount", "status"}
	poRemittanceKeys = append([]string{"failure_reason", "remitter_id", "transaction_hash", "updated_at", "utr"}, poCreateKeys...)
	poFetchKeys      = []string{"asset", "bank_id", "client_reference_id", "created_at", "customer_id",
		"exchange_order_id", "exchange_transfer_id", "failure_reason", "fees", "fiat", "id", "quotation_id",
		"rate", "receiveing_amount", "sending_amount", "status", "updated_at", "utr"}
	poPrefundedKeys = []string{"asset", "bank_id", "client_reference_id", "created_at", "customer", "failure_reason",
		"fees", "fiat", "id", "network", "quotation_id", "rate", "receiving_amount", "sending_amount", "status",
		"transaction_hash", "updated_at", "utr", "wallet_address"}
)

// poKeys returns the keys of data, sorted.
func poKeys(data map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// poSorted returns a sorted copy of keys.
func poSorted(keys []string) []string {
	out := append([]string(nil), keys...)
	sort.Strings(out)
	return out
}

// poJSON returns the JSON text of a string.
func poJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// poWorld is an organization of its own, with a verified customer, a bank
// account and a client signing as it.
type poWorld struct {
	org    sandbox.Organization
	client *fiatramp.Client
	cust   sandbox.Customer
	bank   sandbox.BankAccount
}

// poNewWorld adds an organization with a customer and a bank account.
func poNewWorld(e *env, prefunded bool) poWorld {
	e.t.Helper()
	w := poWorld{org: e.otherOrg(prefunded)}
	w.client = e.clientFor(w.org)
	w.cust = e.customer(w.org, sandbox.Customer{Name: "Ravi Kumar"})
	w.bank = e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: w.cust.ID})).(sandbox.BankAccount)
	return w
}

// quotation adds a quotation of env.quotation's amounts for w's customer.
func (w poWorld) quotation(e *env, mod ...func(*sandbox.Quotation)) sandbox.Quotation {
	e.t.Helper()
	return e.quotation(append([]func(*sandbox.Quotation){func(q *sandbox.Quotation) {
		q.CustomerID, q.BankID = w.cust.ID, w.bank.ID
	}}, mod...)...)
}

// poRemitter adds a remitter to organization orgID.
func poRemitter(e *env, orgID uuid.UUID) uuid.UUID {
	e.t.Helper()
	return e.must(e.sb.AddRemitter(sandbox.Remitter{OrganizationID: orgID, Name: "Global Remit"})).(sandbox.Remitter).ID
}

// poSnapshot is what a refused create must leave alone.
type poSnapshot struct {
	payouts int
	balance string
}

// poState returns the payout count and USDT balance of orgID.
func poState(e *env, orgID uuid.UUID) poSnapshot {
	return poSnapshot{len(e.sb.Payouts(orgID)), e.sb.Balance(orgID, "USDT").String()}
}

// poStandard creates a standard payout of q for the env's customer.
func poStandard(t *testing.T, e *env, q sandbox.Quotation, ref string) *types.Payout {
	t.Helper()
	p, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{
		QuotationID: q.ID, CustomerID: q.CustomerID, ClientReferenceID: ref})
	require.NoError(t, err)
	return p
}

// poPrefunded creates a prefunded payout of q through the env's client.
func poPrefunded(t *testing.T, e *env, q sandbox.Quotation) *types.PrefundedPayout {
	t.Helper()
	p, err := e.client.Payouts.CreatePrefunded(ctx(t), poPrefundedReq(q, q.CustomerID, ""))
	require.NoError(t, err)
	return p
}

// poPrefundedReq is a prefunded payout request with a fresh sender.
func poPrefundedReq(q sandbox.Quotation, receiver uuid.UUID, ref string) types.CreatePrefundedPayoutRequest {
	return types.CreatePrefundedPayoutRequest{
		QuotationID: q.ID,
		Customer: types.PrefundedCustomer{
			Sender:   types.CustomerRef{ID: uuid.New()},
			Receiver: types.CustomerRef{ID: receiver},
		},
		ClientReferenceID: ref,
	}
}

// poKind is one of the three payout creates, for the checks they share.
type poKind struct {
	name string
	// create asks for a payout of quotation qid for customer with reference
	// ref, as the env's organization, and returns the new payout's id.
	create func(t *testing.T, e *env, qid, customer uuid.UUID, ref string) (uuid.UUID, error)
	kind   sandbox.PayoutKind
}

// poKinds are the three creates.
var poKinds = []poKind{
	{"standard", func(t *testing.T, e *env, qid, customer uuid.UUID, ref string) (uuid.UUID, error) {
		p, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{
			QuotationID: qid, CustomerID: customer, ClientReferenceID: ref})
		if err != nil {
			return uuid.Nil, err
		}
		return p.ID, nil
	}, sandbox.PayoutStandard},
	{"prefunded", func(t *testing.T, e *env, qid, customer uuid.UUID, ref string) (uuid.UUID, error) {
		p, err := e.client.Payouts.CreatePrefunded(ctx(t), poPrefundedReq(sandbox.Quotation{ID: qid}, customer, ref))
		if err != nil {
			return uuid.Nil, err
		}
		return p.ID, nil
	}, sandbox.PayoutPrefunded},
	{"remittance", func(t *testing.T, e *env, qid, customer uuid.UUID, ref string) (uuid.UUID, error) {
		p, err := e.client.Payouts.CreateRemittance(ctx(t), types.CreateRemittancePayoutRequest{
			QuotationID: qid, CustomerID: customer, RemitterID: poRemitter(e, e.org.ID), ClientReferenceID: ref})
		if err != nil {
			return uuid.Nil, err
		}
		return p.ID, nil
	}, sandbox.PayoutRemittance},
}

// TestPayoutCreateSharedRefusals runs the checks of table 7.1 that all
// three creates share, in their order, and checks a refusal stores and
// reserves nothing.
func TestPayoutCreateSharedRefusals(t *testing.T) {
	type call struct {
		qid, customer uuid.UUID
		ref           string
	}
	cases := []struct {
		name     string
		setup    func(t *testing.T, e *env) call
		message  string
		sentinel error
	}{
		{"reference used by an earlier payout of another kind", func(t *testing.T, e *env) call {
			poStandard(t, e, e.quotation(), "dup-1")
			return call{e.quotation().ID, e.cust.ID, "dup-1"}
		}, "Client Reference ID already exists", fiatramp.ErrClientReferenceExists},
		{"reference checked before the quotation", func(t *testing.T, e *env) call {
			poStandard(t, e, e.quotation(), "dup-1")
			return call{uuid.New(), uuid.New(), "dup-1"}
		}, "Client Reference ID already exists", fiatramp.ErrClientReferenceExists},
		{"unknown quotation", func(t *testing.T, e *env) call {
			return call{uuid.New(), e.cust.ID, "r"}
		}, "Quotation is not found", fiatramp.ErrQuotationNotFound},
		{"quotation of another organization", func(t *testing.T, e *env) call {
			w := poNewWorld(e, true)
			return call{w.quotation(e).ID, w.cust.ID, ""}
		}, "Quotation is not found", fiatramp.ErrQuotationNotFound},
		{"another customer of the organization", func(t *testing.T, e *env) call {
			other := e.customer(e.org, sandbox.Customer{Name: "Other"})
			return call{e.quotation().ID, other.ID, ""}
		}, "Customer ID does not match with the quotation", fiatramp.ErrCustomerMismatch},
		{"customer checked before expiry", func(t *testing.T, e *env) call {
			q := e.quotation()
			e.sb.Advance(time.Hour)
			return call{q.ID, uuid.New(), ""}
		}, "Customer ID does not match with the quotation", fiatramp.ErrCustomerMismatch},
		{"a nanosecond past expiry", func(t *testing.T, e *env) call {
			q := e.quotation()
			e.sb.SetTime(q.ExpiresAt.Add(time.Nanosecond))
			return call{q.ID, e.cust.ID, ""}
		}, "Quotation has expired", fiatramp.ErrQuotationExpired},
		{"expiry checked before the link", func(t *testing.T, e *env) call {
			q := e.quotation()
			poStandard(t, e, q, "")
			e.sb.Advance(11 * time.Minute)
			return call{q.ID, e.cust.ID, ""}
		}, "Quotation has expired", fiatramp.ErrQuotationExpired},
		{"quotation already linked", func(t *testing.T, e *env) call {
			q := e.quotation()
			poStandard(t, e, q, "first")
			return call{q.ID, e.cust.ID, "second"}
		}, "Quotation is already linked to another payout", fiatramp.ErrQuotationAlreadyLinked},
	}
	for _, k := range poKinds {
		for _, tc := range cases {
			t.Run(k.name+"/"+tc.name, func(t *testing.T) {
				e := newEnv(t)
				c := tc.setup(t, e)
				before := poState(e, e.org.ID)
				_, err := k.create(t, e, c.qid, c.customer, c.ref)
				refused(t, err, http.StatusBadRequest, tc.message, tc.sentinel)
				assert.Equal(t, before, poState(e, e.org.ID), "a refused create stores and reserves nothing")
				if c.ref != "dup-1" && c.ref != "" {
					_, found := e.sb.PayoutByReference(e.org.ID, c.ref)
					assert.False(t, found, "reference recorded")
				}
			})
		}
	}
}

// TestPayoutCreateValidAtExpiry: a quotation is still valid at the very
// instant it expires, for every kind.
func TestPayoutCreateValidAtExpiry(t *testing.T) {
	for _, k := range poKinds {
		t.Run(k.name, func(t *testing.T) {
			e := newEnv(t)
			q := e.quotation()
			e.sb.SetTime(q.ExpiresAt)
			id, err := k.create(t, e, q.ID, e.cust.ID, "at-expiry")
			require.NoError(t, err)
			stored, ok := e.sb.Payout(id)
			require.True(t, ok)
			assert.Equal(t, k.kind, stored.Kind)
			assert.True(t, q.ExpiresAt.Equal(stored.CreatedAt))
			byRef, ok := e.sb.PayoutByReference(e.org.ID, "at-expiry")
			require.True(t, ok)
			assert.Equal(t, id, byRef.ID)
		})
	}
}

// TestPayoutCreateStandard checks the typed result, the wire shape of 2.2
// (create variant: numbers) and the stored payout.
func TestPayoutCreateStandard(t *testing.T) {
	e := newEnv(t)
	q := e.quotation()
	var resp fiatramp.Response
	p, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{
		QuotationID: q.ID, CustomerID: e.cust.ID, ExchangeOrderID: "ORD-77", ClientReferenceID: "ref-1",
	}, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)

	assert.Equal(t, q.ID, p.QuotationID)
	assert.Equal(t, e.cust.ID, p.CustomerID)
	assert.Equal(t, e.bank.ID, p.BankID)
	require.NotNil(t, p.ClientReferenceID)
	assert.Equal(t, "ref-1", *p.ClientReferenceID)
	assert.Equal(t, "USDT", p.Asset)
	assert.Equal(t, "INR", p.Fiat)
	assert.True(t, poRate.Equal(p.Rate), p.Rate.String())
	assert.True(t, poSending.Equal(p.SendingAmount), p.SendingAmount.String())
	assert.True(t, poReceiving.Equal(p.ReceivingAmount), p.ReceivingAmount.String())
	assert.True(t, decimal.RequireFromString("4.5").Equal(p.Fees.ServiceFee))
	assert.True(t, decimal.RequireFromString("0.81").Equal(p.Fees.ServiceGST))
	assert.True(t, decimal.RequireFromString("9.27").Equal(p.Fees.TDS))
	assert.Equal(t, "ORD-77", p.ExchangeOrderID)
	assert.Equal(t, types.PayoutProcessing, p.Status)
	assert.True(t, epoch.Equal(p.CreatedAt), p.CreatedAt.String())

	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Contains(t, string(resp.Body), `"message":"Payout initiated successfully"`)
	data := rawData(t, resp.Body)
	assert.Equal(t, poCreateKeys, poKeys(data))
	assert.Equal(t, `88.25`, string(data["rate"]))
	assert.Equal(t, `10.5`, string(data["sending_amount"]))
	assert.Equal(t, `926.63`, string(data["receiving_amount"]))
	assert.JSONEq(t, poFeesNumbers, string(data["fees"]))
	assert.Equal(t, `"ref-1"`, string(data["client_reference_id"]))
	assert.Equal(t, `"PROCESSING"`, string(data["status"]))
	assert.Equal(t, poEpochStamp, string(data["created_at"]))
	assert.Equal(t, poJSON(p.ID.String()), string(data["id"]))

	stored, ok := e.sb.Payout(p.ID)
	require.True(t, ok)
	assert.Equal(t, sandbox.PayoutStandard, stored.Kind)
	assert.Equal(t, e.org.ID, stored.OrganizationID)
	assert.Equal(t, types.PayoutProcessing, stored.Status)
	assert.Equal(t, "TRON", stored.Network)
	assert.Equal(t, q.WalletAddress, stored.WalletAddress)
	assert.True(t, stored.Reserved.IsZero(), "a standard payout reserves nothing")
	assert.Nil(t, stored.TransactionHash)
	byRef, ok := e.sb.PayoutByReference(e.org.ID, "ref-1")
	require.True(t, ok)
	assert.Equal(t, p.ID, byRef.ID)
	assert.Equal(t, "1000", e.sb.Balance(e.org.ID, "USDT").String())
}

// TestPayoutCreateStandardDefaults: without exchange_order_id the sandbox
// assigns one; without client_reference_id the field is null.
func TestPayoutCreateStandardDefaults(t *testing.T) {
	e := newEnv(t)
	client := e.clientFor(e.org, fiatramp.WithClientReferenceGenerator(nil))
	var resp fiatramp.Response
	p, err := client.Payouts.Create(ctx(t), types.CreatePayoutRequest{
		QuotationID: e.quotation().ID, CustomerID: e.cust.ID}, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Regexp(t, `^EXO[0-9]{12}$`, p.ExchangeOrderID)
	assert.Nil(t, p.ClientReferenceID)
	data := rawData(t, resp.Body)
	assert.Equal(t, `null`, string(data["client_reference_id"]))
	stored, _ := e.sb.Payout(p.ID)
	assert.Equal(t, p.ExchangeOrderID, stored.ExchangeOrderID)
	assert.Nil(t, stored.ClientReferenceID)
}

// TestPayoutCreateExchangeOrder: an exchange order id held by a payout of
// the organization that is paid or may still pay (PROCESSING, IN_REVIEW,
// SUCCESS) is refused; one whose payout will never pay, or that another
// organization uses, is free.
func TestPayoutCreateExchangeOrder(t *testing.T) {
	for _, tc := range []struct {
		first types.PayoutStatus
		held  bool
	}{
		{types.PayoutProcessing, true},
		{types.PayoutSuccess, true},
		{types.PayoutFailed, false},
		{types.PayoutRefunded, false},
		{types.PayoutCancelled, false},
		{types.PayoutInReview, true},
	} {
		t.Run(string(tc.first), func(t *testing.T) {
			e := newEnv(t)
			req := types.CreatePayoutRequest{QuotationID: e.quotation().ID, CustomerID: e.cust.ID, ExchangeOrderID: "ORD-1"}
			first, err := e.client.Payouts.Create(ctx(t), req)
			require.NoError(t, err)
			if tc.first != types.PayoutProcessing {
				_, err = e.client.Payouts.SimulateStatus(ctx(t), first.ID, tc.first)
				require.NoError(t, err)
			}
			req.QuotationID = e.quotation().ID
			req.ClientReferenceID = "second"
			before := poState(e, e.org.ID)
			second, err := e.client.Payouts.Create(ctx(t), req)
			if !tc.held {
				require.NoError(t, err)
				assert.Equal(t, "ORD-1", second.ExchangeOrderID)
				return
			}
			refused(t, err, http.StatusBadRequest,
				"Exchange Order ID already linked to a payout that is either processing or successful",
				fiatramp.ErrExchangeOrderInUse)
			assert.Equal(t, before, poState(e, e.org.ID))
			_, found := e.sb.PayoutByReference(e.org.ID, "second")
			assert.False(t, found)
		})
	}
	t.Run("other organization", func(t *testing.T) {
		e := newEnv(t)
		w := poNewWorld(e, false)
		_, err := w.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{
			QuotationID: w.quotation(e).ID, CustomerID: w.cust.ID, ExchangeOrderID: "ORD-1"})
		require.NoError(t, err)
		_, err = e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{
			QuotationID: e.quotation().ID, CustomerID: e.cust.ID, ExchangeOrderID: "ORD-1"})
		require.NoError(t, err)
	})
	t.Run("linked checked before exchange order", func(t *testing.T) {
		e := newEnv(t)
		q := e.quotation()
		_, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID, ExchangeOrderID: "ORD-1"})
		require.NoError(t, err)
		_, err = e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID, ExchangeOrderID: "ORD-1"})
		refused(t, err, http.StatusBadRequest, "Quotation is already linked to another payout", fiatramp.ErrQuotationAlreadyLinked)
	})
}

// poFieldCase is a raw body and the field errors it must get.
type poFieldCase struct {
	name string
	body func(e *env, q sandbox.Quotation) map[string]any
	want map[string][]string
}

// poFieldRefusals sends each case's body raw to path and checks the field
// refusal: 400, REQ_FIELD_MISSING, errors exactly, message the first
// field's first message, nothing stored.
func poFieldRefusals(t *testing.T, path string, prefundedOrg bool, cases []poFieldCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			if !prefundedOrg {
				w := poNewWorld(e, false)
				e.org, e.client, e.cust, e.bank = w.org, w.client, w.cust, w.bank
			}
			q := e.quotation()
			before := poState(e, e.org.ID)
			var resp fiatramp.Response
			err := e.client.Do(ctx(t), http.MethodPost, path, tc.body(e, q), nil, fiatramp.CaptureResponse(&resp))
			names := make([]string, 0, len(tc.want))
			for k := range tc.want {
				names = append(names, k)
			}
			sort.Strings(names)
			apiErr := refused(t, err, http.StatusBadRequest, tc.want[names[0]][0], fiatramp.ErrFieldMissing)
			assert.Equal(t, "REQ_FIELD_MISSING", apiErr.Code)
			assert.Equal(t, tc.want, apiErr.FieldErrors)
			assert.Equal(t, before, poState(e, e.org.ID))
		})
	}
}

// TestPayoutCreateStandardFieldErrors: field errors come before any rule.
func TestPayoutCreateStandardFieldErrors(t *testing.T) {
	poFieldRefusals(t, poCreatePath, true, []poFieldCase{
		{"empty body", func(*env, sandbox.Quotation) map[string]any { return map[string]any{} },
			map[string][]string{"quotation_id": {poRequired}, "customer_id": {poRequired}}},
		{"malformed and null ids", func(*env, sandbox.Quotation) map[string]any {
			return map[string]any{"quotation_id": "nope", "customer_id": nil}
		}, map[string][]string{"quotation_id": {"Must be a valid UUID."}, "customer_id": {"This field may not be null."}}},
		{"blank reference on a valid quotation", func(e *env, q sandbox.Quotation) map[string]any {
			return map[string]any{"quotation_id": q.ID, "customer_id": e.cust.ID, "client_reference_id": "  "}
		}, map[string][]string{"client_reference_id": {"This field may not be blank."}}},
		{"blank exchange order", func(e *env, q sandbox.Quotation) map[string]any {
			return map[string]any{"quotation_id": q.ID, "customer_id": e.cust.ID, "exchange_order_id": ""}
		}, map[string][]string{"exchange_order_id": {"This field may not be blank."}}},
	})
}

// TestPayoutCreatePrefunded checks the typed result, the 2.3 shape (decimal
// strings, customer nesting) and the reservation.
func TestPayoutCreatePrefunded(t *testing.T) {
	e := newEnv(t)
	q := e.quotation(func(q *sandbox.Quotation) {
		q.Fees.ClientFeeFiat = decimal.RequireFromString("12.5")
		q.Fees.ClientGSTFiat = decimal.RequireFromString("2.25")
	})
	sender := uuid.New()
	req := poPrefundedReq(q, e.cust.ID, "pf-1")
	req.Customer.Sender.ID = sender
	var resp fiatramp.Response
	p, err := e.client.Payouts.CreatePrefunded(ctx(t), req, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)

	assert.Equal(t, q.ID, p.QuotationID)
	assert.Equal(t, e.bank.ID, p.BankID)
	assert.Equal(t, "USDT", p.Asset)
	assert.Equal(t, "TRON", p.Network)
	assert.Equal(t, "INR", p.Fiat)
	assert.True(t, poRate.Equal(p.Rate))
	assert.True(t, poSending.Equal(p.SendingAmount))
	assert.True(t, poReceiving.Equal(p.ReceivingAmount))
	require.NotNil(t, p.ClientReferenceID)
	assert.Equal(t, "pf-1", *p.ClientReferenceID)
	assert.True(t, decimal.RequireFromString("4.5").Equal(p.Fees.ServiceFee))
	assert.True(t, decimal.RequireFromString("12.5").Equal(p.Fees.ClientFee))
	assert.True(t, decimal.RequireFromString("2.25").Equal(p.Fees.ClientGST))
	assert.True(t, decimal.RequireFromString("9.27").Equal(p.Fees.TDS))
	assert.Equal(t, types.PayoutProcessing, p.Status)
	assert.Equal(t, q.WalletAddress, p.WalletAddress)
	assert.Nil(t, p.TransactionHash)
	assert.Nil(t, p.UTR)
	assert.Nil(t, p.FailureReason)
	assert.True(t, epoch.Equal(p.CreatedAt))
	assert.True(t, epoch.Equal(p.UpdatedAt))
	require.NotNil(t, p.Customer.Sender.ID)
	require.NotNil(t, p.Customer.Receiver.ID)
	assert.Equal(t, sender, *p.Customer.Sender.ID)
	assert.Equal(t, e.cust.ID, *p.Customer.Receiver.ID)

	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	data := rawData(t, resp.Body)
	assert.Equal(t, poPrefundedKeys, poKeys(data))
	assert.Equal(t, `"88.25"`, string(data["rate"]))
	assert.Equal(t, `"10.5"`, string(data["sending_amount"]))
	assert.Equal(t, `"926.63"`, string(data["receiving_amount"]))
	assert.JSONEq(t, `{"service_fee":"4.5","client_fee":"12.5","client_gst":"2.25","tds":"9.27"}`, string(data["fees"]))
	assert.Equal(t, `{"sender":{"id":"`+sender.String()+`"},"receiver":{"id":"`+e.cust.ID.String()+`"}}`,
		string(data["customer"]))
	for _, k := range []string{"transaction_hash", "utr", "failure_reason"} {
		assert.Equal(t, `null`, string(data[k]), k)
	}
	assert.Equal(t, poEpochStamp, string(data["updated_at"]))

	stored, ok := e.sb.Payout(p.ID)
	require.True(t, ok)
	assert.Equal(t, sandbox.PayoutPrefunded, stored.Kind)
	require.NotNil(t, stored.SenderID)
	assert.Equal(t, sender, *stored.SenderID)
	assert.Equal(t, e.cust.ID, stored.CustomerID)
	assert.True(t, poSending.Equal(stored.Reserved), stored.Reserved.String())
	assert.Regexp(t, `^EXO[0-9]{12}$`, stored.ExchangeOrderID)
	assert.Equal(t, "989.5", e.sb.Balance(e.org.ID, "USDT").String())
	byRef, ok := e.sb.PayoutByReference(e.org.ID, "pf-1")
	require.True(t, ok)
	assert.Equal(t, p.ID, byRef.ID)
}

// TestPayoutCreatePrefundedBalance: the whole balance may be used, a cent
// more may not, and an asset without a balance has none.
func TestPayoutCreatePrefundedBalance(t *testing.T) {
	for _, tc := range []struct {
		name   string
		amount string
		asset  string
		ok     bool
	}{
		{"exactly the balance", "1000", "", true},
		{"a cent more", "1000.01", "", false},
		{"asset without a balance", "1", "USDC", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			q := e.quotation(func(q *sandbox.Quotation) {
				q.SendingAmount = decimal.RequireFromString(tc.amount)
				q.Asset = tc.asset
			})
			before := poState(e, e.org.ID)
			p, err := e.client.Payouts.CreatePrefunded(ctx(t), poPrefundedReq(q, e.cust.ID, "b"))
			if tc.ok {
				require.NoError(t, err)
				assert.Equal(t, "0", e.sb.Balance(e.org.ID, "USDT").String())
				stored, _ := e.sb.Payout(p.ID)
				assert.True(t, decimal.NewFromInt(1000).Equal(stored.Reserved))
				return
			}
			refused(t, err, http.StatusBadRequest, "Insufficient prefunded balance", fiatramp.ErrInsufficientBalance)
			assert.Equal(t, before, poState(e, e.org.ID))
			assert.True(t, e.sb.Balance(e.org.ID, "USDC").IsZero())
			_, found := e.sb.PayoutByReference(e.org.ID, "b")
			assert.False(t, found)
		})
	}
	t.Run("reserved amounts count", func(t *testing.T) {
		e := newEnv(t)
		poPrefunded(t, e, e.quotation())
		q := e.quotation(func(q *sandbox.Quotation) { q.SendingAmount = decimal.RequireFromString("989.51") })
		_, err := e.client.Payouts.CreatePrefunded(ctx(t), poPrefundedReq(q, e.cust.ID, ""))
		refused(t, err, http.StatusBadRequest, "Insufficient prefunded balance", fiatramp.ErrInsufficientBalance)
		assert.Equal(t, "989.5", e.sb.Balance(e.org.ID, "USDT").String())
	})
	t.Run("linked checked before balance", func(t *testing.T) {
		e := newEnv(t)
		q := e.quotation()
		poStandard(t, e, q, "")
		require.NoError(t, e.sb.SetBalance(e.org.ID, "USDT", decimal.Zero))
		_, err := e.client.Payouts.CreatePrefunded(ctx(t), poPrefundedReq(q, e.cust.ID, ""))
		refused(t, err, http.StatusBadRequest, "Quotation is already linked to another payout", fiatramp.ErrQuotationAlreadyLinked)
	})
}

// TestPayoutCreatePrefundedNotEntitled: an organization without a
// prefunded wallet is refused before its body is even read.
func TestPayoutCreatePrefundedNotEntitled(t *testing.T) {
	e := newEnv(t)
	w := poNewWorld(e, false)
	q := w.quotation(e)
	_, err := w.client.Payouts.CreatePrefunded(ctx(t), poPrefundedReq(q, w.cust.ID, "x"))
	refused(t, err, http.StatusBadRequest, "This endpoint is not available for your organization.", fiatramp.ErrNotEntitled)
	err = w.client.Do(ctx(t), http.MethodPost, poPrefundedPath, map[string]any{}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, "This endpoint is not available for your organization.", fiatramp.ErrNotEntitled)
	assert.Empty(t, apiErr.Code)
	assert.Empty(t, e.sb.Payouts(w.org.ID))
	_, found := e.sb.PayoutByReference(w.org.ID, "x")
	assert.False(t, found)
}

// TestPayoutCreatePrefundedFieldErrors: nested members are named with dots.
func TestPayoutCreatePrefundedFieldErrors(t *testing.T) {
	poFieldRefusals(t, poPrefundedPath, true, []poFieldCase{
		{"empty body", func(*env, sandbox.Quotation) map[string]any { return map[string]any{} },
			map[string][]string{"quotation_id": {poRequired}, "customer": {poRequired}}},
		{"empty customer", func(_ *env, q sandbox.Quotation) map[string]any {
			return map[string]any{"quotation_id": q.ID, "customer": map[string]any{}}
		}, map[string][]string{"customer.sender": {poRequired}, "customer.receiver": {poRequired}}},
		{"bad ids", func(_ *env, q sandbox.Quotation) map[string]any {
			return map[string]any{"quotation_id": q.ID, "customer": map[string]any{
				"sender": map[string]any{}, "receiver": map[string]any{"id": "bad"}}}
		}, map[string][]string{"customer.sender.id": {poRequired}, "customer.receiver.id": {"Must be a valid UUID."}}},
		{"customer not an object", func(_ *env, q sandbox.Quotation) map[string]any {
			return map[string]any{"quotation_id": q.ID, "customer": "x"}
		}, map[string][]string{"customer": {"Invalid data. Expected a dictionary, but got str."}}},
		{"blank reference", func(e *env, q sandbox.Quotation) map[string]any {
			return map[string]any{"quotation_id": q.ID, "client_reference_id": "", "customer": map[string]any{
				"sender": map[string]any{"id": uuid.New()}, "receiver": map[string]any{"id": e.cust.ID}}}
		}, map[string][]string{"client_reference_id": {"This field may not be blank."}}},
	})
}

// TestPayoutCreateRemittance covers both funding flows: a prefunded
// organization's remittance debits its balance (a hash it sends is kept),
// any other organization's needs a transaction hash and debits nothing.
func TestPayoutCreateRemittance(t *testing.T) {
	for _, tc := range []struct {
		name      string
		prefunded bool
		hash      string
	}{
		{"prefunded without hash", true, ""},
		{"prefunded with hash", true, "0xfeed"},
		{"on-chain with hash", false, "0xbeef"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			w := poWorld{e.org, e.client, e.cust, e.bank}
			if !tc.prefunded {
				w = poNewWorld(e, false)
			}
			remitter := poRemitter(e, w.org.ID)
			q := w.quotation(e)
			var resp fiatramp.Response
			p, err := w.client.Payouts.CreateRemittance(ctx(t), types.CreateRemittancePayoutRequest{
				QuotationID: q.ID, CustomerID: w.cust.ID, RemitterID: remitter,
				ClientReferenceID: "rm-1", TransactionHash: tc.hash,
			}, fiatramp.CaptureResponse(&resp))
			require.NoError(t, err)

			assert.Equal(t, q.ID, p.QuotationID)
			assert.Equal(t, w.cust.ID, p.CustomerID)
			assert.Equal(t, remitter, p.RemitterID)
			require.NotNil(t, p.ClientReferenceID)
			assert.Equal(t, "rm-1", *p.ClientReferenceID)
			assert.Equal(t, types.PayoutProcessing, p.Status)
			assert.Equal(t, "USDT", p.Asset)
			assert.Equal(t, "INR", p.Fiat)
			assert.True(t, poRate.Equal(p.Rate))
			assert.True(t, poSending.Equal(p.SendingAmount))
			assert.True(t, poReceiving.Equal(p.ReceivingAmount))
			assert.True(t, decimal.RequireFromString("9.27").Equal(p.Fees.TDS))
			assert.Nil(t, p.UTR)
			assert.Nil(t, p.FailureReason)
			assert.True(t, epoch.Equal(p.CreatedAt))
			assert.True(t, epoch.Equal(p.UpdatedAt))

			assert.Equal(t, http.StatusCreated, resp.StatusCode)
			data := rawData(t, resp.Body)
			assert.Equal(t, poSorted(poRemittanceKeys), poKeys(data))
			assert.Equal(t, `88.25`, string(data["rate"]))
			assert.Equal(t, `10.5`, string(data["sending_amount"]))
			assert.Equal(t, `926.63`, string(data["receiving_amount"]))
			assert.JSONEq(t, poFeesNumbers, string(data["fees"]))
			assert.Equal(t, poJSON(remitter.String()), string(data["remitter_id"]))
			assert.Equal(t, `null`, string(data["utr"]))
			assert.Equal(t, poEpochStamp, string(data["updated_at"]))

			stored, ok := e.sb.Payout(p.ID)
			require.True(t, ok)
			assert.Equal(t, sandbox.PayoutRemittance, stored.Kind)
			require.NotNil(t, stored.RemitterID)
			assert.Equal(t, remitter, *stored.RemitterID)
			if tc.hash == "" {
				assert.Nil(t, p.TransactionHash)
				assert.Nil(t, stored.TransactionHash)
				assert.Equal(t, `null`, string(data["transaction_hash"]))
			} else {
				require.NotNil(t, p.TransactionHash)
				assert.Equal(t, tc.hash, *p.TransactionHash)
				require.NotNil(t, stored.TransactionHash)
				assert.Equal(t, tc.hash, *stored.TransactionHash)
			}
			if tc.prefunded {
				assert.True(t, poSending.Equal(stored.Reserved))
				assert.Equal(t, "989.5", e.sb.Balance(w.org.ID, "USDT").String())
			} else {
				assert.True(t, stored.Reserved.IsZero())
				assert.Equal(t, "0", e.sb.Balance(w.org.ID, "USDT").String())
			}
			byRef, ok := e.sb.PayoutByReference(w.org.ID, "rm-1")
			require.True(t, ok)
			assert.Equal(t, p.ID, byRef.ID)
		})
	}
}

// TestPayoutCreateRemittanceRefusals: the remitter check sits between the
// customer check and the expiry check; a prefunded organization needs the
// balance.
func TestPayoutCreateRemittanceRefusals(t *testing.T) {
	cases := []struct {
		name     string
		setup    func(t *testing.T, e *env) types.CreateRemittancePayoutRequest
		message  string
		sentinel error
	}{
		{"unknown remitter", func(t *testing.T, e *env) types.CreateRemittancePayoutRequest {
			return types.CreateRemittancePayoutRequest{QuotationID: e.quotation().ID, CustomerID: e.cust.ID, RemitterID: uuid.New()}
		}, "Remitter not found or access denied", nil},
		{"remitter of another organization", func(t *testing.T, e *env) types.CreateRemittancePayoutRequest {
			w := poNewWorld(e, true)
			return types.CreateRemittancePayoutRequest{QuotationID: e.quotation().ID, CustomerID: e.cust.ID, RemitterID: poRemitter(e, w.org.ID)}
		}, "Remitter not found or access denied", nil},
		{"customer checked before remitter", func(t *testing.T, e *env) types.CreateRemittancePayoutRequest {
			return types.CreateRemittancePayoutRequest{QuotationID: e.quotation().ID, CustomerID: uuid.New(), RemitterID: uuid.New()}
		}, "Customer ID does not match with the quotation", fiatramp.ErrCustomerMismatch},
		{"remitter checked before expiry", func(t *testing.T, e *env) types.CreateRemittancePayoutRequest {
			q := e.quotation()
			e.sb.Advance(time.Hour)
			return types.CreateRemittancePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID, RemitterID: uuid.New()}
		}, "Remitter not found or access denied", nil},
		{"insufficient prefunded balance", func(t *testing.T, e *env) types.CreateRemittancePayoutRequest {
			q := e.quotation(func(q *sandbox.Quotation) { q.SendingAmount = decimal.RequireFromString("1000.5") })
			return types.CreateRemittancePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID, RemitterID: poRemitter(e, e.org.ID), TransactionHash: "0x1"}
		}, "Insufficient prefunded balance", fiatramp.ErrInsufficientBalance},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			req := tc.setup(t, e)
			req.ClientReferenceID = "rm-x"
			before := poState(e, e.org.ID)
			_, err := e.client.Payouts.CreateRemittance(ctx(t), req)
			if tc.sentinel != nil {
				refused(t, err, http.StatusBadRequest, tc.message, tc.sentinel)
			} else {
				apiErr := refused(t, err, http.StatusBadRequest, tc.message)
				assert.Empty(t, apiErr.Code)
			}
			assert.Equal(t, before, poState(e, e.org.ID))
			_, found := e.sb.PayoutByReference(e.org.ID, "rm-x")
			assert.False(t, found)
		})
	}
}

// TestPayoutCreateRemittanceFieldErrors: transaction_hash is required only
// outside the prefunding flow, and never blank.
func TestPayoutCreateRemittanceFieldErrors(t *testing.T) {
	path := sandbox.DefaultRemittancePayoutPath
	valid := func(e *env, q sandbox.Quotation, extra map[string]any) map[string]any {
		m := map[string]any{"quotation_id": q.ID, "customer_id": e.cust.ID, "remitter_id": poRemitter(e, e.org.ID)}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	t.Run("prefunded", func(t *testing.T) {
		poFieldRefusals(t, path, true, []poFieldCase{
			{"empty body", func(*env, sandbox.Quotation) map[string]any { return map[string]any{} },
				map[string][]string{"quotation_id": {poRequired}, "customer_id": {poRequired}, "remitter_id": {poRequired}}},
			{"blank hash", func(e *env, q sandbox.Quotation) map[string]any {
				return valid(e, q, map[string]any{"transaction_hash": " "})
			}, map[string][]string{"transaction_hash": {"This field may not be blank."}}},
			{"blank reference", func(e *env, q sandbox.Quotation) map[string]any {
				return valid(e, q, map[string]any{"client_reference_id": ""})
			}, map[string][]string{"client_reference_id": {"This field may not be blank."}}},
		})
	})
	t.Run("on-chain", func(t *testing.T) {
		poFieldRefusals(t, path, false, []poFieldCase{
			{"empty body", func(*env, sandbox.Quotation) map[string]any { return map[string]any{} },
				map[string][]string{"quotation_id": {poRequired}, "customer_id": {poRequired}, "remitter_id": {poRequired},
					"transaction_hash": {poRequired}}},
			{"no hash", func(e *env, q sandbox.Quotation) map[string]any { return valid(e, q, nil) },
				map[string][]string{"transaction_hash": {poRequired}}},
			{"blank hash", func(e *env, q sandbox.Quotation) map[string]any {
				return valid(e, q, map[string]any{"transaction_hash": ""})
			}, map[string][]string{"transaction_hash": {"This field may not be blank."}}},
		})
	})
}

// TestPayoutCreateRemittancePath: the operation moves with
// Settings.RemittancePayoutPath.
func TestPayoutCreateRemittancePath(t *testing.T) {
	const path = "/pos/api/v2/remittance/initiate"
	e := newEnv(t, func(s *sandbox.Settings) { s.RemittancePayoutPath = path })
	req := types.CreateRemittancePayoutRequest{QuotationID: e.quotation().ID, CustomerID: e.cust.ID, RemitterID: poRemitter(e, e.org.ID)}
	_, err := e.client.Payouts.CreateRemittance(ctx(t), req)
	refused(t, err, http.StatusNotFound, "Not found.")
	p, err := e.clientFor(e.org, fiatramp.WithRemittancePayoutPath(path)).Payouts.CreateRemittance(ctx(t), req)
	require.NoError(t, err)
	assert.Equal(t, req.RemitterID, p.RemitterID)
}

// poBalance fetches the raw balance data.
func poBalance(t *testing.T, c *fiatramp.Client) (string, error) {
	t.Helper()
	var raw json.RawMessage
	var resp fiatramp.Response
	err := c.Do(ctx(t), http.MethodGet, poBalancePath, nil, &raw, fiatramp.CaptureResponse(&resp))
	if err == nil {
		assert.Equal(t, http.StatusOK, resp.StatusCode)
	}
	return string(raw), err
}

// TestPayoutBalance: amounts as decimal strings, following reservations and
// refunds; refused without a prefunded wallet.
func TestPayoutBalance(t *testing.T) {
	e := newEnv(t)
	got, err := poBalance(t, e.client)
	require.NoError(t, err)
	assert.Equal(t, `{"available_balance":{"USDT":"1000"}}`, got)

	p := poPrefunded(t, e, e.quotation())
	got, err = poBalance(t, e.client)
	require.NoError(t, err)
	assert.Equal(t, `{"available_balance":{"USDT":"989.5"}}`, got)

	_, err = e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutRefunded)
	require.NoError(t, err)
	got, err = poBalance(t, e.client)
	require.NoError(t, err)
	assert.Equal(t, `{"available_balance":{"USDT":"1000"}}`, got)

	w := poNewWorld(e, false)
	_, err = poBalance(t, w.client)
	refused(t, err, http.StatusBadRequest, "This endpoint is not available for your organization.", fiatramp.ErrNotEntitled)
}

// poCreated makes one payout of each kind for the env's organization and
// returns their ids.
func poCreated(t *testing.T, e *env) map[sandbox.PayoutKind]uuid.UUID {
	t.Helper()
	ids := map[sandbox.PayoutKind]uuid.UUID{}
	for _, k := range poKinds {
		id, err := k.create(t, e, e.quotation().ID, e.cust.ID, "")
		require.NoError(t, err)
		ids[k.kind] = id
	}
	return ids
}

// TestPayoutSimulate moves a PROCESSING payout of each kind to every
// target the transition table allows from PROCESSING and checks what each
// sets.
func TestPayoutSimulate(t *testing.T) {
	require.Len(t, types.PayoutProcessing.Next(), 5)
	for _, to := range types.PayoutProcessing.Next() {
		for _, k := range poKinds {
			t.Run(string(to)+"/"+k.name, func(t *testing.T) {
				e := newEnv(t)
				id := poCreated(t, e)[k.kind]
				e.sb.Advance(time.Minute)
				var resp fiatramp.Response
				res, err := e.client.Payouts.SimulateStatus(ctx(t), id, to, fiatramp.CaptureResponse(&resp))
				require.NoError(t, err)
				assert.Equal(t, id, res.PayoutID)
				assert.Equal(t, to, res.PayoutStatus)
				assert.Equal(t, http.StatusOK, resp.StatusCode)
				data := rawData(t, resp.Body)
				assert.Equal(t, []string{"payout_id", "payout_status"}, poKeys(data))

				stored, ok := e.sb.Payout(id)
				require.True(t, ok)
				assert.Equal(t, to, stored.Status)
				assert.True(t, epoch.Add(time.Minute).Equal(stored.UpdatedAt))
				assert.True(t, epoch.Equal(stored.CreatedAt))
				if to == types.PayoutSuccess {
					require.NotNil(t, stored.UTR)
					assert.Regexp(t, poDigits12, *stored.UTR)
					assert.Regexp(t, `^EXT[0-9]{12}$`, stored.ExchangeTransferID)
				} else {
					assert.Nil(t, stored.UTR)
					assert.Empty(t, stored.ExchangeTransferID)
				}
				if to == types.PayoutFailed || to == types.PayoutRefunded {
					require.NotNil(t, stored.FailureReason)
					assert.Equal(t, poSimulatedWhy, *stored.FailureReason)
				} else {
					assert.Nil(t, stored.FailureReason)
				}
				// The prefunded and the (prefunded organization's)
				// remittance payout reserved 10.5 each; a status whose
				// funds came back (REFUNDED, CANCELLED) gives this one's
				// back.
				balance, reserved := "979", poSending
				if k.kind == sandbox.PayoutStandard {
					reserved = decimal.Zero
				} else if to.FundsReturned() {
					balance, reserved = "989.5", decimal.Zero
				}
				assert.True(t, reserved.Equal(stored.Reserved), stored.Reserved.String())
				assert.Equal(t, balance, e.sb.Balance(e.org.ID, "USDT").String())

				got, err := e.client.Payouts.Get(ctx(t), id)
				require.NoError(t, err)
				assert.Equal(t, to, got.Status)
				assert.Equal(t, stored.UTR, got.UTR)
				assert.Equal(t, stored.FailureReason, got.FailureReason)
				assert.Equal(t, stored.ExchangeTransferID, got.ExchangeTransferID)
				assert.True(t, epoch.Add(time.Minute).Equal(got.UpdatedAt))
			})
		}
	}
}

// TestPayoutSimulateOnlyFromProcessing: a payout in any other state is not
// affected, whatever the target; a move to its own status (a retry) is
// answered as done.
func TestPayoutSimulateOnlyFromProcessing(t *testing.T) {
	for _, from := range types.PayoutProcessing.Next() {
		for _, to := range types.PayoutStatus("").Values() {
			t.Run(string(from)+"->"+string(to), func(t *testing.T) {
				e := newEnv(t)
				p := poPrefunded(t, e, e.quotation())
				_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, from)
				require.NoError(t, err)
				before, _ := e.sb.Payout(p.ID)
				balance := e.sb.Balance(e.org.ID, "USDT").String()
				e.sb.Advance(time.Minute)
				got, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, to)
				if to == from {
					require.NoError(t, err, "a repeat sets the same status")
					assert.Equal(t, from, got.PayoutStatus)
				} else {
					apiErr := refused(t, err, http.StatusBadRequest,
						"Only a payout in PROCESSING can be simulated; this payout is "+string(from)+".")
					assert.Empty(t, apiErr.Code)
				}
				after, _ := e.sb.Payout(p.ID)
				assert.Equal(t, from, after.Status)
				assert.True(t, before.UpdatedAt.Equal(after.UpdatedAt))
				assert.Equal(t, before.UTR, after.UTR)
				assert.True(t, before.Reserved.Equal(after.Reserved))
				assert.Equal(t, balance, e.sb.Balance(e.org.ID, "USDT").String())
			})
		}
	}
}

// TestPayoutSimulateRefusals: PROCESSING is no target, unknown statuses are
// field errors, and only the organization's own payouts can be moved.
func TestPayoutSimulateRefusals(t *testing.T) {
	t.Run("already processing", func(t *testing.T) {
		e := newEnv(t)
		p := poStandard(t, e, e.quotation(), "")
		e.sb.Advance(time.Minute)
		_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutProcessing)
		refused(t, err, http.StatusBadRequest, "Payout status cannot move from PROCESSING to PROCESSING.")
		stored, _ := e.sb.Payout(p.ID)
		assert.Equal(t, types.PayoutProcessing, stored.Status)
		assert.True(t, epoch.Equal(stored.UpdatedAt))
	})
	for _, bad := range []string{"DONE", "success", ""} {
		t.Run("invalid choice "+bad, func(t *testing.T) {
			e := newEnv(t)
			p := poStandard(t, e, e.quotation(), "")
			err := e.client.Do(ctx(t), http.MethodPatch, poSimulatePath,
				map[string]any{"payout_id": p.ID, "payout_status": bad}, nil)
			want := `"` + bad + `" is not a valid choice.`
			if bad == "" {
				want = "This field may not be blank."
			}
			apiErr := refused(t, err, http.StatusBadRequest, want, fiatramp.ErrFieldMissing)
			assert.Equal(t, map[string][]string{"payout_status": {want}}, apiErr.FieldErrors)
			stored, _ := e.sb.Payout(p.ID)
			assert.Equal(t, types.PayoutProcessing, stored.Status)
		})
	}
	t.Run("missing fields", func(t *testing.T) {
		e := newEnv(t)
		err := e.client.Do(ctx(t), http.MethodPatch, poSimulatePath, map[string]any{}, nil)
		apiErr := refused(t, err, http.StatusBadRequest, poRequired, fiatramp.ErrFieldMissing)
		assert.Equal(t, map[string][]string{"payout_id": {poRequired}, "payout_status": {poRequired}}, apiErr.FieldErrors)
	})
	t.Run("unknown payout", func(t *testing.T) {
		e := newEnv(t)
		_, err := e.client.Payouts.SimulateStatus(ctx(t), uuid.New(), types.PayoutSuccess)
		refused(t, err, http.StatusBadRequest, "Payout not found or access denied")
	})
	t.Run("payout of another organization", func(t *testing.T) {
		e := newEnv(t)
		w := poNewWorld(e, false)
		p, err := w.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: w.quotation(e).ID, CustomerID: w.cust.ID})
		require.NoError(t, err)
		_, err = e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutSuccess)
		refused(t, err, http.StatusBadRequest, "Payout not found or access denied")
		stored, _ := e.sb.Payout(p.ID)
		assert.Equal(t, types.PayoutProcessing, stored.Status)
	})
	t.Run("failed keeps the reservation", func(t *testing.T) {
		e := newEnv(t)
		p := poPrefunded(t, e, e.quotation())
		_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutFailed)
		require.NoError(t, err)
		assert.Equal(t, "989.5", e.sb.Balance(e.org.ID, "USDT").String())
	})
}

// TestPayoutGet checks the fetch variant of 2.2 for payouts of every kind:
// decimal strings, the receiveing_amount spelling, the fetch-only fields.
func TestPayoutGet(t *testing.T) {
	for _, k := range poKinds {
		t.Run(k.name, func(t *testing.T) {
			e := newEnv(t)
			q := e.quotation()
			id, err := k.create(t, e, q.ID, e.cust.ID, "get-1")
			require.NoError(t, err)
			stored, _ := e.sb.Payout(id)
			e.sb.Advance(time.Hour) // fetching does not care about expiry
			var resp fiatramp.Response
			p, err := e.client.Payouts.Get(ctx(t), id, fiatramp.CaptureResponse(&resp))
			require.NoError(t, err)

			assert.Equal(t, id, p.ID)
			assert.Equal(t, q.ID, p.QuotationID)
			assert.Equal(t, e.cust.ID, p.CustomerID)
			require.NotNil(t, p.ClientReferenceID)
			assert.Equal(t, "get-1", *p.ClientReferenceID)
			assert.Equal(t, e.bank.ID, p.BankID)
			assert.Equal(t, "USDT", p.Asset)
			assert.Equal(t, "INR", p.Fiat)
			assert.True(t, poRate.Equal(p.Rate))
			assert.True(t, poSending.Equal(p.SendingAmount))
			assert.True(t, poReceiving.Equal(p.ReceivingAmount), p.ReceivingAmount.String())
			assert.True(t, decimal.RequireFromString("0.81").Equal(p.Fees.ServiceGST))
			assert.Equal(t, stored.ExchangeOrderID, p.ExchangeOrderID)
			assert.NotEmpty(t, p.ExchangeOrderID)
			assert.Empty(t, p.ExchangeTransferID)
			assert.Equal(t, types.PayoutProcessing, p.Status)
			assert.Nil(t, p.FailureReason)
			assert.Nil(t, p.UTR)
			assert.True(t, epoch.Equal(p.CreatedAt))
			assert.True(t, epoch.Equal(p.UpdatedAt))

			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Contains(t, string(resp.Body), `"message":"Payout fetched successfully"`)
			data := rawData(t, resp.Body)
			assert.Equal(t, poFetchKeys, poKeys(data))
			assert.NotContains(t, data, "receiving_amount")
			assert.Equal(t, `"88.25"`, string(data["rate"]))
			assert.Equal(t, `"10.5"`, string(data["sending_amount"]))
			assert.Equal(t, `"926.63"`, string(data["receiveing_amount"]))
			assert.JSONEq(t, poFeesNumbers, string(data["fees"]))
			assert.Equal(t, `""`, string(data["exchange_transfer_id"]))
			assert.Equal(t, `null`, string(data["failure_reason"]))
			assert.Equal(t, `null`, string(data["utr"]))
			assert.Equal(t, poEpochStamp, string(data["created_at"]))
			assert.Equal(t, poEpochStamp, string(data["updated_at"]))
		})
	}
}

// TestPayoutGetRefusals: missing and malformed ids are field errors (7.3),
// an unknown payout or another organization's is not found.
func TestPayoutGetRefusals(t *testing.T) {
	e := newEnv(t)
	id := uuid.New()
	for _, tc := range []struct {
		name, segment, message string
	}{
		{"empty", "", "Payout ID is required."},
		{"blank", "%20", "Payout ID is required."},
		{"not a uuid", "not-a-uuid", "Payout ID is invalid"},
		{"hex without dashes", strings.ReplaceAll(id.String(), "-", ""), "Payout ID is invalid"},
		{"urn form", "urn:uuid:" + id.String(), "Payout ID is invalid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var resp fiatramp.Response
			err := e.client.Do(ctx(t), http.MethodGet, "/pos/api/v1/payout/"+tc.segment, nil, nil, fiatramp.CaptureResponse(&resp))
			apiErr := refused(t, err, http.StatusBadRequest, tc.message, fiatramp.ErrPayoutIDInvalid, fiatramp.ErrFieldMissing)
			assert.Equal(t, "REQ_FIELD_MISSING", apiErr.Code)
			assert.Equal(t, map[string][]string{"payout_id": {tc.message}}, apiErr.FieldErrors)
		})
	}
	t.Run("unknown", func(t *testing.T) {
		_, err := e.client.Payouts.Get(ctx(t), uuid.New())
		apiErr := refused(t, err, http.StatusBadRequest, "Payout not found or access denied")
		assert.Empty(t, apiErr.Code)
	})
	t.Run("another organization's", func(t *testing.T) {
		w := poNewWorld(e, false)
		p, err := w.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: w.quotation(e).ID, CustomerID: w.cust.ID})
		require.NoError(t, err)
		_, err = w.client.Payouts.Get(ctx(t), p.ID)
		require.NoError(t, err, "its own organization sees it")
		_, err = e.client.Payouts.Get(ctx(t), p.ID)
		refused(t, err, http.StatusBadRequest, "Payout not found or access denied")
	})
}

// TestPayoutsOneStore: Payouts lists an organization's payouts in creation
// order, and removing the organization (a failed Load's undo) removes them
// from every view: Payout, Payouts and the store.
func TestPayoutsOneStore(t *testing.T) {
	s := sandbox.New()
	gone, kept := sandbox.Organization{ID: uuid.New(), APIKey: "gone"}, sandbox.Organization{ID: uuid.New(), APIKey: "kept"}
	for _, o := range []sandbox.Organization{gone, kept} {
		_, err := s.AddOrganization(o)
		require.NoError(t, err)
	}
	var ids []uuid.UUID
	for _, org := range []uuid.UUID{kept.ID, gone.ID, kept.ID, gone.ID, kept.ID} {
		ids = append(ids, sandbox.StorePayout(s, org))
	}
	idsOf := func(ps []sandbox.Payout) []uuid.UUID {
		var out []uuid.UUID
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	require.Equal(t, []uuid.UUID{ids[0], ids[2], ids[4]}, idsOf(s.Payouts(kept.ID)))
	require.Equal(t, []uuid.UUID{ids[1], ids[3]}, idsOf(s.Payouts(gone.ID)))

	sandbox.RemoveOrganizations(s, []sandbox.Organization{gone})
	require.Empty(t, s.Payouts(gone.ID))
	_, found := s.Payout(ids[1])
	require.False(t, found)
	require.Equal(t, 3, sandbox.StoredPayouts(s))
	require.Equal(t, []uuid.UUID{ids[0], ids[2], ids[4]}, idsOf(s.Payouts(kept.ID)))
}

// TestPayoutSimulateLostAnswer: the simulation is retried as an update (a
// repeat sets the same status). When its first answer is lost after the
// move, the retry must not be refused "this payout is SUCCESS", which
// would report a move that happened as failed; nor may it send the
// webhook twice.
func TestPayoutSimulateLostAnswer(t *testing.T) {
	e, rc := hookEnv(t, nil)
	p := poStandard(t, e, e.quotation(), "")
	c := e.clientFor(e.org, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}))
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: poSimulatePath, Count: 1}))
	got, err := c.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutSuccess)
	require.NoError(t, err, "the move happened")
	assert.Equal(t, types.PayoutSuccess, got.PayoutStatus)
	stored, _ := e.sb.Payout(p.ID)
	assert.Equal(t, types.PayoutSuccess, stored.Status)
	settle(t, e.sb)
	n := 0
	for _, h := range rc.hooks() {
		if strings.Contains(h.body, `"SUCCESS"`) && strings.Contains(h.body, p.ID.String()) {
			n++
		}
	}
	assert.Equal(t, 1, n, "one webhook for one change")
}

// TestPayoutMovesFollowTheTable holds the sandbox's payouts to the
// transition table of package types: from every status (reached by the
// table's own moves), SetPayoutStatus makes exactly the moves the table
// holds, each with its signed PAYOUT webhook (none for PROCESSING) and the
// prefunded reservation back exactly when the new status says the funds
// came back; every other move is refused "Payout status cannot move from X
// to Y." and changes nothing.
func TestPayoutMovesFollowTheTable(t *testing.T) {
	paths := statusPaths(types.PayoutProcessing, types.PayoutStatus.Next)
	require.Len(t, paths, len(types.PayoutStatus("").Values()), "every status is reachable")
	moves := 0
	for from, path := range paths {
		for _, to := range types.PayoutStatus("").Values() {
			t.Run(string(from)+"->"+string(to), func(t *testing.T) {
				e := newEnv(t)
				p := poPrefunded(t, e, e.quotation())
				for _, step := range path {
					require.NoError(t, e.sb.SetPayoutStatus(p.ID, step))
				}
				before, _ := e.sb.Payout(p.ID)
				balance := e.sb.Balance(e.org.ID, "USDT")
				events := len(e.sb.Deliveries())
				err := e.sb.SetPayoutStatus(p.ID, to)
				after, _ := e.sb.Payout(p.ID)
				switch {
				case from == to:
					require.NoError(t, err, "a move to the current status changes nothing")
					assert.Equal(t, before, after)
					assert.Len(t, e.sb.Deliveries(), events, "and sends nothing")
				case from.CanMoveTo(to):
					moves++
					require.NoError(t, err)
					assert.Equal(t, to, after.Status)
					got, err := e.client.Payouts.Get(ctx(t), p.ID)
					require.NoError(t, err)
					assert.Equal(t, to, got.Status, "the fetch shows the move")
					d := e.sb.Deliveries()
					if to == types.PayoutProcessing {
						assert.Len(t, d, events, "no event for PROCESSING")
					} else {
						require.Len(t, d, events+1)
						assert.Equal(t, []string{sandbox.EventTypePayout, p.ID.String(), string(to)}, []string{d[events].Type, d[events].ID, d[events].Event})
					}
					if to.FundsReturned() && !before.Reserved.IsZero() {
						assert.True(t, after.Reserved.IsZero())
						assert.Equal(t, balance.Add(before.Reserved).String(), e.sb.Balance(e.org.ID, "USDT").String(), "the reservation is back")
					} else {
						assert.True(t, before.Reserved.Equal(after.Reserved))
						assert.Equal(t, balance.String(), e.sb.Balance(e.org.ID, "USDT").String())
					}
				default:
					assert.EqualError(t, err, fmt.Sprintf("sandbox: payout status: Payout status cannot move from %s to %s.", from, to))
					assert.Equal(t, before, after, "nothing changed")
					assert.Len(t, e.sb.Deliveries(), events, "nothing sent")
				}
			})
		}
	}
	assert.Equal(t, 10, moves, "the table's moves")

	e := newEnv(t)
	id := uuid.New()
	assert.EqualError(t, e.sb.SetPayoutStatus(id, types.PayoutSuccess), "sandbox: payout status: no payout "+id.String())
	p := poPrefunded(t, e, e.quotation())
	assert.EqualError(t, e.sb.SetPayoutStatus(p.ID, "SETTLED"), `sandbox: payout status: unknown payout status "SETTLED"`)
}

// A FAILED prefunded payout is refunded later, by the service: its
// reservation comes back and its REFUNDED webhook, signed, reaches the
// organization's receiver with the FAILED payout's reason.
func TestPayoutFailedThenRefunded(t *testing.T) {
	e := newEnv(t)
	var got []*webhook.Event
	var mu sync.Mutex
	recv := httptest.NewServer(webhook.Handler(e.org.APIKey, e.org.APISecret, func(_ context.Context, ev *webhook.Event) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, ev)
		return nil
	}, webhook.WithClock(e.sb.Now)))
	defer recv.Close()
	require.NoError(t, e.sb.SetWebhookURL(e.org.ID, recv.URL))
	p := poPrefunded(t, e, e.quotation())
	assert.Equal(t, "989.5", e.sb.Balance(e.org.ID, "USDT").String())
	_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutFailed)
	require.NoError(t, err)
	assert.Equal(t, "989.5", e.sb.Balance(e.org.ID, "USDT").String(), "FAILED: the funds are not back yet")

	_, err = e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutRefunded)
	refused(t, err, http.StatusBadRequest, "Only a payout in PROCESSING can be simulated; this payout is FAILED.")
	require.NoError(t, e.sb.SetPayoutStatus(p.ID, types.PayoutRefunded))
	assert.Equal(t, "1000", e.sb.Balance(e.org.ID, "USDT").String(), "REFUNDED: the reservation is back")
	require.NoError(t, e.sb.WaitDeliveries(ctx(t)))

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, got, 2)
	assert.Equal(t, []webhook.EventName{"FAILED", "REFUNDED"}, []webhook.EventName{got[0].Event, got[1].Event})
	require.NotNil(t, got[1].Metadata.FailureReason)
	assert.Equal(t, poSimulatedWhy, *got[1].Metadata.FailureReason)
	require.NotNil(t, got[1].Metadata.RefundReason)
	fetched, err := e.client.Payouts.Get(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, types.PayoutRefunded, fetched.Status)
	assert.True(t, fetched.Status.IsFinal() && fetched.Status.FundsReturned())
}
