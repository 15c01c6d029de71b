package sandbox_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// smallLimits gives payouts a daily limit of INR 2,000 (two payouts of the
// env's quotation, INR 926.63 each) and payins one of INR 30,000, UPI
// 12,000 of it.
func smallLimits(st *sandbox.Settings) {
	st.PayoutLimits = sandbox.DailyLimits{Daily: decimal.NewFromInt(2000)}
	st.PayinLimits = sandbox.DailyLimits{
		Daily:     decimal.NewFromInt(30000),
		PerMethod: map[types.PaymentMethod]decimal.Decimal{types.PaymentMethodUPI: decimal.NewFromInt(12000)},
	}
}

func TestLimitsDefaults(t *testing.T) {
	e := newEnv(t)
	l, err := e.client.Payouts.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "10000000", l.DailyLimit.String())
	assert.Equal(t, "10000000", l.AvailableLimit.String())
	assert.Equal(t, "1000000", l.PaymentMethodLimits.TotalAvailableLimit["UPI"].String())
	assert.False(t, l.IsEDDRequired)
	assert.True(t, l.IsLimitIncreaseAvailable)
	assert.Equal(t, epoch.UTC().Truncate(24*time.Hour).Add(24*time.Hour), l.FullLimitResetTimestamp, "the next UTC midnight")

	l, err = e.client.Payins.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "500000", l.PaymentMethodLimits.PerTransactionLimit["IMPS"].String())
	assert.Equal(t, "100000", l.PaymentMethodLimits.PerTransactionLimit["UPI"].String())

	other := e.customer(e.otherOrg(false), sandbox.Customer{Name: "Not yours"})
	_, err = e.client.Payouts.GetLimits(ctx(t), other.ID)
	refused(t, err, http.StatusBadRequest, "Customer not found or access denied", fiatramp.ErrCustomerNotFound)
	_, err = e.client.Payins.GetLimits(ctx(t), other.ID)
	refused(t, err, http.StatusBadRequest, "Customer not found or access denied", fiatramp.ErrCustomerNotFound)
}

// TestLimitsConsumedByPayouts: every payout create takes its fiat amount
// from the customer's day; one beyond it is refused "EDD required", stores
// nothing, and the limits then say an EDD is required. The next UTC day
// starts afresh.
func TestLimitsConsumedByPayouts(t *testing.T) {
	e := newEnv(t, smallLimits)
	for range 2 {
		_, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: e.quotation().ID, CustomerID: e.cust.ID})
		require.NoError(t, err)
	}
	l, err := e.client.Payouts.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "146.74", l.AvailableLimit.String(), "2000 - 2 × 926.63")
	assert.False(t, l.IsEDDRequired)

	q := e.quotation()
	_, err = e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID})
	refused(t, err, http.StatusBadRequest, "EDD required", fiatramp.ErrEDDRequired)
	assert.Len(t, e.sb.Payouts(e.org.ID), 2, "nothing stored")
	l, err = e.client.Payouts.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "146.74", l.AvailableLimit.String(), "a refusal consumes nothing")
	assert.True(t, l.IsEDDRequired)

	pl, err := e.client.Payins.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "30000", pl.AvailableLimit.String(), "payouts do not use the payin limits")
	assert.False(t, pl.IsEDDRequired)

	e.sb.Advance(24 * time.Hour)
	l, err = e.client.Payouts.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "2000", l.AvailableLimit.String(), "a new UTC day")
	assert.False(t, l.IsEDDRequired)
}

// TestLimitsPrefundedAndRemittance: the other payout creates consume the
// same limits.
func TestLimitsPrefundedAndRemittance(t *testing.T) {
	e := newEnv(t, smallLimits)
	require.NoError(t, e.sb.SetBalance(e.org.ID, "USDT", decimal.NewFromInt(1000)))
	q := e.quotation()
	_, err := e.client.Payouts.CreatePrefunded(ctx(t), poPrefundedReq(q, e.cust.ID, "pf-1"))
	require.NoError(t, err)
	rid := poRemitter(e, e.org.ID)
	_, err = e.client.Payouts.CreateRemittance(ctx(t), types.CreateRemittancePayoutRequest{
		QuotationID: e.quotation().ID, CustomerID: e.cust.ID, RemitterID: rid, TransactionHash: "0xabc"})
	require.NoError(t, err)
	_, err = e.client.Payouts.CreatePrefunded(ctx(t), poPrefundedReq(e.quotation(), e.cust.ID, "pf-2"))
	refused(t, err, http.StatusBadRequest, "EDD required", fiatramp.ErrEDDRequired)
}

// TestLimitsConsumedByPayins: payin quotations consume the payin limits
// per method: UPI has its own cap inside the day's.
func TestLimitsConsumedByPayins(t *testing.T) {
	e := newEnv(t, smallLimits)
	_, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e, payinUPI(e), payinAmountOf("10000")))
	require.NoError(t, err)
	_, err = e.client.Payins.CreateQuotation(ctx(t), payinReq(e, payinUPI(e), payinAmountOf("2500.01")))
	refused(t, err, http.StatusBadRequest, "EDD required", fiatramp.ErrEDDRequired)
	_, err = e.client.Payins.CreateQuotation(ctx(t), payinReq(e, payinAmountOf("15000")))
	require.NoError(t, err, "IMPS still has room")
	l, err := e.client.Payins.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.Equal(t, "5000", l.AvailableLimit.String())
	assert.Equal(t, "2000", l.PaymentMethodLimits.TotalAvailableLimit["UPI"].String())
	assert.Equal(t, "5000", l.PaymentMethodLimits.TotalAvailableLimit["IMPS"].String())
	assert.True(t, l.IsEDDRequired, "refused today")
}

func TestLimitsPerTransaction(t *testing.T) {
	e := newEnv(t, func(st *sandbox.Settings) {
		st.PayoutLimits = sandbox.DailyLimits{Daily: decimal.NewFromInt(100000),
			PerTransaction: map[types.PaymentMethod]decimal.Decimal{types.PaymentMethodIMPS: decimal.NewFromInt(900)}}
	})
	_, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: e.quotation().ID, CustomerID: e.cust.ID})
	refused(t, err, http.StatusBadRequest, "Entered amount exceeds maximum transaction amount", fiatramp.ErrAmountAboveMaximum)
	l, err := e.client.Payouts.GetLimits(ctx(t), e.cust.ID)
	require.NoError(t, err)
	assert.False(t, l.IsEDDRequired, "a transaction too large is no reason for an EDD")
	assert.Equal(t, "900", l.PaymentMethodLimits.PerTransactionLimit["IMPS"].String())
}

func TestLimitsSettingsDefaults(t *testing.T) {
	sb := sandbox.New(func(st *sandbox.Settings) {
		st.PayoutLimits = sandbox.DailyLimits{}
		st.EDDLimitMultiplier = 0
	})
	st := sb.Settings()
	def := sandbox.DefaultSettings()
	assert.True(t, def.PayoutLimits.Daily.Equal(st.PayoutLimits.Daily), "a limit without a positive Daily takes the default")
	assert.EqualValues(t, 10, st.EDDLimitMultiplier)
	st.PayinLimits.PerTransaction[types.PaymentMethodUPI] = decimal.NewFromInt(1)
	st.CoinLimits["USDT/INR"][types.PaymentMethodUPI] = sandbox.CoinLimit{}
	again := sb.Settings()
	assert.Equal(t, "100000", again.PayinLimits.PerTransaction[types.PaymentMethodUPI].String(), "Settings returns copies")
	assert.Equal(t, "1000", again.CoinLimits["USDT/INR"][types.PaymentMethodUPI].Max.String())
}
