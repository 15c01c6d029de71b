package sandbox_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// payoutQuoteReq is a valid payout quotation request of 10.5 USDT for
// the env's customer and bank account, changed by mods.
func payoutQuoteReq(e *env, mods ...func(*types.CreatePayoutQuotationRequest)) types.CreatePayoutQuotationRequest {
	r := types.CreatePayoutQuotationRequest{
		Asset: "usdt", Fiat: "inr", SendingAmount: payinAmount("10.5"),
		CustomerID: e.cust.ID, BankID: e.bank.ID,
	}
	for _, m := range mods {
		m(&r)
	}
	return r
}

// apiMessage returns err's *APIError message, failing when there is none.
func apiMessage(t *testing.T, err error) string {
	t.Helper()
	var apiErr *fiatramp.APIError
	require.True(t, errors.As(err, &apiErr), "want an *APIError, got %v", err)
	return apiErr.Message
}

func TestPayoutQuotationPricedFromSettings(t *testing.T) {
	e := newEnv(t)
	var resp fiatramp.Response
	q, err := e.client.Payouts.CreateQuotation(ctx(t), payoutQuoteReq(e), fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "only the initiates answer 201")
	assert.NotEqual(t, uuid.Nil, q.ID)
	assert.Equal(t, e.cust.ID, q.CustomerID)
	assert.Equal(t, e.bank.ID, q.BankID)
	assert.Equal(t, "USDT", q.Asset)
	assert.Equal(t, "INR", q.Fiat)
	// 10.5 × 88.50 = 929.25; fee 1% = 9.29 (9.2925); GST 18% of it = 1.67;
	// 929.25 − 9.29 − 1.67 = 918.29.
	payinDecimalEq(t, "10.5", q.SendingAmount, "sending_amount")
	payinDecimalEq(t, "88.50", q.Rate, "rate")
	payinDecimalEq(t, "918.29", q.ReceivingAmount, "receiving_amount")
	payinDecimalEq(t, "9.29", q.Fees.ServiceFee, "service_fee")
	payinDecimalEq(t, "1.67", q.Fees.ServiceGST, "service_gst")
	assert.True(t, q.CreatedAt.Equal(epoch), q.CreatedAt)
	assert.True(t, q.ExpiryTime.Equal(epoch.Add(5*time.Minute)), "5 minutes, a Setting: %v", q.ExpiryTime)
	assert.Empty(t, q.Status, "create answers no status")
	assert.Empty(t, q.WalletAddress, "no network, no deposit address")

	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(q.Raw, &raw))
	assert.Equal(t, "918.29", string(raw["receiving_amount"]), "create answers numbers")
	assert.NotContains(t, raw, "order_id")

	e2 := newEnv(t, func(s *sandbox.Settings) { s.PayoutQuotationLifetime = time.Minute })
	q2, err := e2.client.Payouts.CreateQuotation(ctx(t), payoutQuoteReq(e2))
	require.NoError(t, err)
	assert.True(t, q2.ExpiryTime.Equal(epoch.Add(time.Minute)), q2.ExpiryTime)
}

func TestPayoutQuotationOnChain(t *testing.T) {
	e := newEnv(t)
	q, err := e.client.Payouts.CreateQuotation(ctx(t), payoutQuoteReq(e, func(r *types.CreatePayoutQuotationRequest) { r.Network = "tron" }))
	require.NoError(t, err)
	assert.Equal(t, "TRON", q.Network)
	assert.NotEmpty(t, q.WalletAddress)
}

// A quotation is UNLINKED until a payout is created on it (LINKED); the
// payout's amounts are the quotation's.
func TestPayoutQuotationLinkedOnInitiate(t *testing.T) {
	e := newEnv(t)
	q, err := e.client.Payouts.CreateQuotation(ctx(t), payoutQuoteReq(e))
	require.NoError(t, err)
	got, err := e.client.Payouts.GetQuotation(ctx(t), q.ID)
	require.NoError(t, err)
	assert.Equal(t, types.QuotationUnlinked, got.Status)
	assert.NotEqual(t, uuid.Nil, got.OrderID)
	assert.True(t, got.ReceivingAmount.Equal(q.ReceivingAmount))

	p, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID})
	require.NoError(t, err)
	assert.True(t, p.SendingAmount.Equal(q.SendingAmount))
	assert.True(t, p.ReceivingAmount.Equal(q.ReceivingAmount))
	assert.True(t, p.Rate.Equal(q.Rate))
	assert.True(t, p.Fees.ServiceFee.Equal(q.Fees.ServiceFee))
	assert.Equal(t, q.BankID, p.BankID)

	got, err = e.client.Payouts.GetQuotation(ctx(t), q.ID)
	require.NoError(t, err)
	assert.Equal(t, types.QuotationLinked, got.Status)
	e.sb.Advance(time.Hour)
	got, err = e.client.Payouts.GetQuotation(ctx(t), q.ID)
	require.NoError(t, err)
	assert.Equal(t, types.QuotationLinked, got.Status, "a linked quotation stays LINKED past its expiry")
}

// EXPIRED comes after the expiry on the sandbox clock, and a payout is
// refused on it from then on.
func TestPayoutQuotationExpiresOnTheSandboxClock(t *testing.T) {
	e := newEnv(t)
	q, err := e.client.Payouts.CreateQuotation(ctx(t), payoutQuoteReq(e))
	require.NoError(t, err)
	e.sb.Advance(5 * time.Minute)
	got, err := e.client.Payouts.GetQuotation(ctx(t), q.ID)
	require.NoError(t, err)
	assert.Equal(t, types.QuotationUnlinked, got.Status, "valid up to and including its expiry")
	e.sb.Advance(time.Second)
	got, err = e.client.Payouts.GetQuotation(ctx(t), q.ID)
	require.NoError(t, err)
	assert.Equal(t, types.QuotationExpired, got.Status)
	assert.True(t, got.Expired(e.sb.Now()))
	_, err = e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID})
	require.ErrorIs(t, err, fiatramp.ErrQuotationExpired)
}

func TestPayoutQuotationRefusals(t *testing.T) {
	e := newEnv(t)
	unverified := e.customer(e.org, sandbox.Customer{Name: "Ravi", KYCStatus: types.KYCUnverified})
	pending := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: e.cust.ID, AccountName: "Asha Rao",
		Status: types.BankAccountProcessing})).(sandbox.BankAccount)
	other := e.otherOrg(false)
	stranger := e.customer(other, sandbox.Customer{Name: "Mallory"})
	for _, tc := range []struct {
		name string
		mod  func(*types.CreatePayoutQuotationRequest)
		want string
		is   error
	}{
		{"unverified customer", func(r *types.CreatePayoutQuotationRequest) { r.CustomerID = unverified.ID }, "Customer is unverified", fiatramp.ErrCustomerUnverified},
		{"another organization's customer", func(r *types.CreatePayoutQuotationRequest) { r.CustomerID = stranger.ID }, "Customer is unverified", fiatramp.ErrCustomerUnverified},
		{"unverified bank", func(r *types.CreatePayoutQuotationRequest) { r.BankID = pending.ID }, "Bank account is unverified", fiatramp.ErrBankUnverified},
		{"unknown bank", func(r *types.CreatePayoutQuotationRequest) { r.BankID = uuid.New() }, "Bank account is unverified", fiatramp.ErrBankUnverified},
		{"UPI id", func(r *types.CreatePayoutQuotationRequest) { r.BankID = e.vpa.ID }, "UPI is not supported", fiatramp.ErrUPIUnsupported},
		{"below minimum", func(r *types.CreatePayoutQuotationRequest) { r.SendingAmount = payinAmount("9.99") }, "Entered amount is less than minimum transaction amount", fiatramp.ErrAmountBelowMinimum},
		{"above maximum", func(r *types.CreatePayoutQuotationRequest) { r.SendingAmount = payinAmount("5000.01") }, "Entered amount exceeds maximum transaction amount", fiatramp.ErrAmountAboveMaximum},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.client.Payouts.CreateQuotation(ctx(t), payoutQuoteReq(e, tc.mod))
			require.Error(t, err)
			assert.Equal(t, tc.want, apiMessage(t, err))
			if tc.is != nil {
				assert.ErrorIs(t, err, tc.is)
			}
		})
	}
}

func TestPayoutGetQuotationRefusals(t *testing.T) {
	e := newEnv(t)
	_, err := e.client.Payouts.GetQuotation(ctx(t), uuid.New())
	assert.ErrorIs(t, err, fiatramp.ErrQuotationNotFound)
	err = e.client.Do(ctx(t), http.MethodGet, "/pos/api/v1/payout/quotation/not-a-uuid", nil, nil)
	assert.ErrorIs(t, err, fiatramp.ErrQuotationIDInvalid)

	other := e.otherOrg(false)
	q, err := e.clientFor(other).Payouts.GetQuotation(ctx(t), e.quotation().ID)
	assert.Nil(t, q)
	assert.ErrorIs(t, err, fiatramp.ErrQuotationNotFound, "another organization's quotation is not found")
}

// Fixture quotations keep working and are fetched like created ones.
func TestPayoutGetQuotationOfAFixture(t *testing.T) {
	e := newEnv(t)
	fx := e.quotation()
	q, err := e.client.Payouts.GetQuotation(ctx(t), fx.ID)
	require.NoError(t, err)
	assert.Equal(t, types.QuotationUnlinked, q.Status)
	assert.True(t, q.ExpiryTime.Equal(fx.ExpiresAt))
	assert.True(t, q.SendingAmount.Equal(fx.SendingAmount))
	assert.Equal(t, fx.WalletAddress, q.WalletAddress)
}

func TestPayoutLinkTransfer(t *testing.T) {
	e := newEnv(t)
	q, err := e.client.Payouts.CreateQuotation(ctx(t), payoutQuoteReq(e))
	require.NoError(t, err)
	p, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID, ExchangeOrderID: "EXO-77"})
	require.NoError(t, err)

	link, err := e.client.Payouts.LinkTransfer(ctx(t), types.LinkTransferRequest{ExchangeOrderID: "EXO-77", ExchangeTransferID: "123456789"})
	require.NoError(t, err)
	assert.Equal(t, "EXO-77", link.ExchangeOrderID)
	assert.Equal(t, "123456789", link.ExchangeTransferID)
	got, err := e.client.Payouts.Get(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, "123456789", got.ExchangeTransferID, "the fetch shows the linked transfer id")

	_, err = e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutSuccess)
	require.NoError(t, err)
	got, err = e.client.Payouts.Get(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, "123456789", got.ExchangeTransferID, "success keeps a linked transfer id")

	_, err = e.client.Payouts.LinkTransfer(ctx(t), types.LinkTransferRequest{ExchangeOrderID: "EXO-none", ExchangeTransferID: "1"})
	assert.Equal(t, "Payout not found or access denied", apiMessage(t, err))
	assert.ErrorIs(t, err, fiatramp.ErrNotFound)
	_, err = e.clientFor(e.otherOrg(false)).Payouts.LinkTransfer(ctx(t), types.LinkTransferRequest{ExchangeOrderID: "EXO-77", ExchangeTransferID: "2"})
	assert.Equal(t, "Payout not found or access denied", apiMessage(t, err), "another organization's payout")
}

// CANCELLED is a status the simulation can set, and Wait stops there.
func TestPayoutCancelledIsFinal(t *testing.T) {
	e := newEnv(t)
	q := e.quotation()
	p, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID})
	require.NoError(t, err)
	_, err = e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutCancelled)
	require.NoError(t, err)
	got, err := e.client.Payouts.Wait(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, types.PayoutCancelled, got.Status)
}

// The on-chain model: a quotation with a network gives a deposit address,
// and the payout created on it carries the transaction hash of the deposit.
func TestPayoutOnChainCreateStoresTheHash(t *testing.T) {
	e := newEnv(t)
	q, err := e.client.Payouts.CreateQuotation(ctx(t), payoutQuoteReq(e, func(r *types.CreatePayoutQuotationRequest) { r.Network = "TRON" }))
	require.NoError(t, err)
	p, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID, TransactionHash: "0xfeed"})
	require.NoError(t, err)
	stored, ok := e.sb.Payout(p.ID)
	require.True(t, ok)
	require.NotNil(t, stored.TransactionHash)
	assert.Equal(t, "0xfeed", *stored.TransactionHash)
	assert.Equal(t, "TRON", stored.Network)
	assert.Equal(t, q.WalletAddress, stored.WalletAddress)

	p2, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: e.quotation().ID, CustomerID: e.cust.ID})
	require.NoError(t, err)
	stored, _ = e.sb.Payout(p2.ID)
	assert.Nil(t, stored.TransactionHash, "none sent, none stored")
}
