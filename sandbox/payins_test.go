package sandbox_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

const payinPath = "/pis/api/v1/payin/quotation"

// payinAmount parses a decimal literal.
func payinAmount(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// payinReq is a valid IMPS quotation request of 10000 INR for the env's
// customer and bank account, changed by mods.
func payinReq(e *env, mods ...func(*types.CreatePayinQuotationRequest)) types.CreatePayinQuotationRequest {
	r := types.CreatePayinQuotationRequest{
		Asset: "usdt", Fiat: "inr", SendingAmount: payinAmount("10000"),
		CustomerID: e.cust.ID, BankID: e.bank.ID, PaymentMethod: types.PaymentMethodIMPS,
	}
	for _, m := range mods {
		m(&r)
	}
	return r
}

// payinUPI makes a request a UPI one from the env's vpa.
func payinUPI(e *env) func(*types.CreatePayinQuotationRequest) {
	return func(r *types.CreatePayinQuotationRequest) {
		r.PaymentMethod, r.BankID = types.PaymentMethodUPI, e.vpa.ID
	}
}

// payinAmountOf sets a request's amount.
func payinAmountOf(s string) func(*types.CreatePayinQuotationRequest) {
	return func(r *types.CreatePayinQuotationRequest) { r.SendingAmount = payinAmount(s) }
}

// payinKeys returns the sorted keys of a raw object.
func payinKeys(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// payinDecimalEq asserts got == want as decimals.
func payinDecimalEq(t *testing.T, want string, got decimal.Decimal, what string) {
	t.Helper()
	assert.True(t, payinAmount(want).Equal(got), "%s: want %s, got %s", what, want, got)
}

var payinFeeKeys = []string{
	"client_fee_crypto", "client_fee_fiat", "client_gst_crypto", "client_gst_fiat",
	"gross_effective_exchange_rate", "pg_fee", "pg_gst", "service_fee", "service_gst", "tds",
}

func TestPayinQuotationIMPS(t *testing.T) {
	e := newEnv(t)
	var resp fiatramp.Response
	q, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e), fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "only the initiates answer 201")

	assert.NotEqual(t, uuid.Nil, q.ID)
	assert.Equal(t, uuid.Nil, q.OrderID, "no order_id on create")
	assert.Empty(t, q.Status, "no status on create")
	assert.Equal(t, e.cust.ID, q.CustomerID)
	assert.Equal(t, e.bank.ID, q.BankID)
	assert.Equal(t, "USDT", q.Asset)
	assert.Equal(t, "INR", q.Fiat)
	assert.Equal(t, types.PaymentMethodIMPS, q.PaymentMethod)
	payinDecimalEq(t, "10000", q.SendingAmount, "sending_amount")
	payinDecimalEq(t, "88.50", q.Rate, "rate")
	// fee 1% = 100.00, GST 18% of it = 18.00, (10000-118)/88.5 = 111.6610169... truncated.
	payinDecimalEq(t, "111.661016", q.ReceivingAmount, "receiving_amount")
	payinDecimalEq(t, "100", q.Fees.ServiceFee, "service_fee")
	payinDecimalEq(t, "18", q.Fees.ServiceGST, "service_gst")
	payinDecimalEq(t, "89.5568", q.Fees.GrossEffectiveExchangeRate, "gross_effective_exchange_rate")
	for name, d := range map[string]decimal.Decimal{
		"client_fee_fiat": q.Fees.ClientFeeFiat, "client_fee_crypto": q.Fees.ClientFeeCrypto,
		"pg_fee": q.Fees.PGFee, "client_gst_fiat": q.Fees.ClientGSTFiat,
		"client_gst_crypto": q.Fees.ClientGSTCrypto, "pg_gst": q.Fees.PGGST, "tds": q.Fees.TDS,
	} {
		assert.True(t, d.IsZero(), "%s = %s", name, d)
	}
	dep := sandbox.DefaultSettings().DepositAccount
	assert.Equal(t, types.DepositInstructions{AccountNumber: dep.AccountNumber, IFSC: dep.IFSC, AccountName: dep.AccountName}, q.DepositInstructions)
	assert.Empty(t, q.DeepLink)
	assert.Empty(t, q.IOSCheckoutLink)
	assert.True(t, q.CreatedAt.Equal(epoch), "created_at %v", q.CreatedAt)
	assert.True(t, q.ExpiryTime.Equal(epoch.Add(10*time.Minute)), "expiry_time %v", q.ExpiryTime)

	data := rawData(t, resp.Body)
	assert.Equal(t, []string{
		"asset", "bank_id", "created_at", "customer_id", "deposit_instructions", "expiry_time",
		"fees", "fiat", "id", "payment_method", "rate", "receiving_amount", "sending_amount",
	}, payinKeys(data), "no order_id, status or UPI links on an IMPS create")
	assert.Equal(t, "10000", string(data["sending_amount"]), "a JSON number")
	assert.Equal(t, "88.5", string(data["rate"]))
	assert.Equal(t, "111.661016", string(data["receiving_amount"]))
	assert.Equal(t, `"2026-11-21T09:30:00.000000Z"`, string(data["created_at"]))
	assert.Equal(t, `"2026-11-21T09:40:00.000000Z"`, string(data["expiry_time"]))
	var fees map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data["fees"], &fees))
	assert.Equal(t, payinFeeKeys, payinKeys(fees))
	for k, v := range fees {
		assert.NotEqual(t, byte('"'), v[0], "fee %s is a number: %s", k, v)
	}

	var fresp fiatramp.Response
	got, err := e.client.Payins.GetQuotation(ctx(t), q.ID, fiatramp.CaptureResponse(&fresp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, fresp.StatusCode)
	assert.NotEqual(t, uuid.Nil, got.OrderID)
	assert.NotEqual(t, q.ID, got.OrderID)
	assert.Equal(t, types.QuotationProcessing, got.Status)
	assert.Equal(t, q.ID, got.ID)
	payinDecimalEq(t, "111.661016", got.ReceivingAmount, "fetched receiving_amount")
	assert.Equal(t, q.Fees.ServiceFee.String(), got.Fees.ServiceFee.String())
	assert.True(t, got.ExpiryTime.Equal(q.ExpiryTime))
	fdata := rawData(t, fresp.Body)
	assert.JSONEq(t, `"PROCESSING"`, string(fdata["status"]))
	assert.JSONEq(t, `"`+got.OrderID.String()+`"`, string(fdata["order_id"]))
	assert.Len(t, fdata, len(data)+2)
	assert.Equal(t, "111.661016", string(fdata["receiving_amount"]))

	// The order id stays the same from fetch to fetch.
	again, err := e.client.Payins.GetQuotation(ctx(t), q.ID)
	require.NoError(t, err)
	assert.Equal(t, got.OrderID, again.OrderID)
}

// TestPayinQuotationExpiry: on the sandbox clock a fetched payin
// quotation turns EXPIRED at its expiry_time (when a payin can no longer
// be initiated on it), as a payout quotation does; one a payin was
// initiated on shows the payin's status however old.
func TestPayinQuotationExpiry(t *testing.T) {
	e := newEnv(t)
	q := payinQuote(t, e)
	linked := payinQuote(t, e)
	_, err := e.client.Payins.Initiate(ctx(t), types.InitiatePayinRequest{QuotationID: linked.ID, CustomerID: linked.CustomerID, UTR: newUTR()})
	require.NoError(t, err)
	status := func(id uuid.UUID) types.QuotationStatus {
		got, err := e.client.Payins.GetQuotation(ctx(t), id)
		require.NoError(t, err)
		return got.Status
	}
	e.sb.Advance(q.ExpiryTime.Sub(e.sb.Now()) - time.Microsecond)
	assert.Equal(t, types.QuotationProcessing, status(q.ID), "just before expiry_time")
	e.sb.Advance(time.Microsecond)
	assert.Equal(t, types.QuotationExpired, status(q.ID), "at expiry_time")
	e.sb.Advance(time.Hour)
	assert.Equal(t, types.QuotationExpired, status(q.ID))
	assert.Equal(t, types.QuotationProcessing, status(linked.ID), "linked to a payin: the payin's status")
}

func TestPayinQuotationUPI(t *testing.T) {
	e := newEnv(t)
	var resp fiatramp.Response
	q, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e, payinUPI(e), payinAmountOf("12345.67"), func(r *types.CreatePayinQuotationRequest) {
		r.Asset = "USDC"
	}), fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "USDC", q.Asset)
	assert.Equal(t, types.PaymentMethodUPI, q.PaymentMethod)
	assert.Equal(t, e.vpa.ID, q.BankID)
	payinDecimalEq(t, "88.40", q.Rate, "rate")
	// 12345.67 × 1% = 123.4567 -> 123.46; × 18% = 22.2228 -> 22.22;
	// (12345.67 - 145.68) / 88.40 = 138.0089366... -> 138.008936.
	payinDecimalEq(t, "123.46", q.Fees.ServiceFee, "service_fee")
	payinDecimalEq(t, "22.22", q.Fees.ServiceGST, "service_gst")
	payinDecimalEq(t, "138.008936", q.ReceivingAmount, "receiving_amount")
	payinDecimalEq(t, "89.4556", q.Fees.GrossEffectiveExchangeRate, "gross_effective_exchange_rate")

	wantDeep := "upi://pay?pa=fiatramp.sandbox%40hdfcbank&pn=Fiatramp%20Sandbox%20Collections&am=12345.67&cu=INR&tr=" + q.ID.String()
	assert.Equal(t, wantDeep, q.DeepLink)
	u, err := url.Parse(q.DeepLink)
	require.NoError(t, err)
	assert.Equal(t, "upi", u.Scheme)
	assert.Equal(t, "pay", u.Host)
	assert.Equal(t, url.Values{
		"pa": {"fiatramp.sandbox@hdfcbank"}, "pn": {"Fiatramp Sandbox Collections"},
		"am": {"12345.67"}, "cu": {"INR"}, "tr": {q.ID.String()},
	}, u.Query())
	assert.Equal(t, "https://checkout.sandbox.invalid/upi/"+q.ID.String(), q.IOSCheckoutLink)
	data := rawData(t, resp.Body)
	assert.Contains(t, data, "deep_link", "top level")
	assert.Contains(t, data, "ios_checkout_link")
	assert.NotContains(t, data, "order_id")
	assert.NotContains(t, data, "status")

	got, err := e.client.Payins.GetQuotation(ctx(t), q.ID)
	require.NoError(t, err)
	assert.Equal(t, wantDeep, got.DeepLink)
	assert.Equal(t, q.IOSCheckoutLink, got.IOSCheckoutLink)
	assert.Equal(t, types.QuotationProcessing, got.Status)
}

func TestPayinQuotationDeepLinkEscaping(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) {
		s.DepositAccount.AccountName = "A&B Collections+Co"
		s.DepositAccount.VPA = "a&b=c@bank"
	})
	q, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e, payinUPI(e)))
	require.NoError(t, err)
	u, err := url.Parse(q.DeepLink)
	require.NoError(t, err)
	assert.Equal(t, "a&b=c@bank", u.Query().Get("pa"))
	assert.Equal(t, "A&B Collections+Co", u.Query().Get("pn"))
	assert.Equal(t, "10000", u.Query().Get("am"))
	assert.Len(t, u.Query(), 5)
}

func TestPayinQuotationAmountAsNumber(t *testing.T) {
	e := newEnv(t)
	var q types.PayinQuotation
	var resp fiatramp.Response
	err := e.client.Do(ctx(t), http.MethodPost, payinPath, map[string]any{
		"asset": "usdt", "fiat": "inr", "sending_amount": 3000, "customer_id": e.cust.ID,
		"bank_id": e.bank.ID, "payment_method": "IMPS",
	}, &q, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	payinDecimalEq(t, "3000", q.SendingAmount, "sending_amount without risk_parameters")
}

func TestPayinGetQuotationRefusals(t *testing.T) {
	e := newEnv(t)
	q, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e))
	require.NoError(t, err)

	for _, tc := range []struct{ name, id, msg string }{
		{"empty", "", "Quotation ID is required."},
		{"blank", "%20", "Quotation ID is required."},
		{"not a uuid", "not-a-uuid", "Quotation ID is invalid"},
		{"32 hex digits", strings.ReplaceAll(q.ID.String(), "-", ""), "Quotation ID is invalid"},
		{"braces", "{" + q.ID.String() + "}", "Quotation ID is invalid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := e.client.Do(ctx(t), http.MethodGet, payinPath+"/"+tc.id, nil, nil)
			apiErr := refused(t, err, http.StatusBadRequest, tc.msg, fiatramp.ErrQuotationIDInvalid, fiatramp.ErrFieldMissing)
			assert.Equal(t, "REQ_FIELD_MISSING", apiErr.Code)
			assert.Equal(t, map[string][]string{"quotation_id": {tc.msg}}, apiErr.FieldErrors)
		})
	}

	_, err = e.client.Payins.GetQuotation(ctx(t), uuid.New())
	apiErr := refused(t, err, http.StatusBadRequest, "Quotation is not found", fiatramp.ErrQuotationNotFound)
	assert.Empty(t, apiErr.Code)

	other := e.clientFor(e.otherOrg(false))
	_, err = other.Payins.GetQuotation(ctx(t), q.ID)
	refused(t, err, http.StatusBadRequest, "Quotation is not found", fiatramp.ErrQuotationNotFound)
	_, err = other.Payins.GetQuotation(ctx(t), q.OrderID) // uuid.Nil is refused by the client
	require.Error(t, err)
}

func TestPayinCustomerUnverified(t *testing.T) {
	e := newEnv(t)
	const msg = "Customer is unverified"
	for _, st := range types.KYCStatus("").Values() {
		if st == types.KYCVerified {
			continue
		}
		t.Run(string(st), func(t *testing.T) {
			require.NoError(t, e.sb.SetKYCStatus(e.cust.ID, st))
			_, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e))
			apiErr := refused(t, err, http.StatusBadRequest, msg, fiatramp.ErrCustomerUnverified)
			assert.Empty(t, apiErr.Code)
		})
	}
	require.NoError(t, e.sb.SetKYCStatus(e.cust.ID, types.KYCVerified))
	_, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e))
	require.NoError(t, err, "verified again")

	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "Foreign"})
	foreignBank := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: foreign.ID})).(sandbox.BankAccount)
	for name, r := range map[string]types.CreatePayinQuotationRequest{
		"absent":             payinReq(e, func(r *types.CreatePayinQuotationRequest) { r.CustomerID = uuid.New() }),
		"other organization": payinReq(e, func(r *types.CreatePayinQuotationRequest) { r.CustomerID, r.BankID = foreign.ID, foreignBank.ID }),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := e.client.Payins.CreateQuotation(ctx(t), r)
			refused(t, err, http.StatusBadRequest, msg, fiatramp.ErrCustomerUnverified)
		})
	}
}

func TestPayinBankUnverified(t *testing.T) {
	e := newEnv(t)
	pending := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: e.cust.ID, Status: types.BankAccountProcessing})).(sandbox.BankAccount)
	failed := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: e.cust.ID, Type: types.BankAccountTypeVPA, Status: types.BankAccountFailed})).(sandbox.BankAccount)
	cust2 := e.customer(e.org, sandbox.Customer{Name: "Second"})
	bank2 := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: cust2.ID})).(sandbox.BankAccount)
	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "Foreign"})
	foreignBank := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: foreign.ID})).(sandbox.BankAccount)

	cases := []struct {
		name   string
		bank   uuid.UUID
		method types.PaymentMethod
		reason string
	}{
		{"processing", pending.ID, types.PaymentMethodIMPS, "Bank account status is PROCESSING; only a VERIFIED account backs a payin."},
		{"failed", failed.ID, types.PaymentMethodUPI, "Bank account status is FAILED; only a VERIFIED account backs a payin."},
		{"vpa for IMPS", e.vpa.ID, types.PaymentMethodIMPS, "Bank account is of type vpa; IMPS needs a bank_account."},
		{"bank_account for UPI", e.bank.ID, types.PaymentMethodUPI, "Bank account is of type bank_account; UPI needs a vpa."},
		{"another customer's", bank2.ID, types.PaymentMethodIMPS, "Bank account is linked to another customer."},
		{"other organization's", foreignBank.ID, types.PaymentMethodIMPS, "Bank account not found."},
		{"absent", uuid.New(), types.PaymentMethodIMPS, "Bank account not found."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e, func(r *types.CreatePayinQuotationRequest) {
				r.BankID, r.PaymentMethod = tc.bank, tc.method
			}))
			apiErr := refused(t, err, http.StatusBadRequest, "Bank account is unverified", fiatramp.ErrBankUnverified)
			assert.Empty(t, apiErr.Code)
			assert.Equal(t, map[string][]string{"bank_id": {tc.reason}}, apiErr.FieldErrors)
			assert.False(t, apiErr.Is(fiatramp.ErrFieldMissing))
		})
	}
}

func TestPayinRules(t *testing.T) {
	e := newEnv(t)
	create := func(t *testing.T, mods ...func(*types.CreatePayinQuotationRequest)) error {
		t.Helper()
		_, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e, mods...))
		return err
	}
	flags := func(t *testing.T, f sandbox.CustomerFlags) {
		t.Helper()
		require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, f))
		t.Cleanup(func() { require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{})) })
	}

	t.Run("onramp disabled", func(t *testing.T) {
		flags(t, sandbox.CustomerFlags{OnrampDisabled: true})
		refused(t, create(t), http.StatusBadRequest, "Onramp is disabled", fiatramp.ErrOnrampDisabled)
	})
	t.Run("minimum", func(t *testing.T) {
		const msg = "Entered amount is less than minimum transaction amount"
		for _, a := range []string{"2500", "2500.00", "2499.99", "1"} {
			refused(t, create(t, payinAmountOf(a)), http.StatusBadRequest, msg, fiatramp.ErrAmountBelowMinimum)
		}
		// The client refuses these itself; sent raw, the rule still holds.
		for _, a := range []string{"0", "-5000"} {
			body := payinReq(e, func(r *types.CreatePayinQuotationRequest) { r.SendingAmount = payinAmount(a) })
			err := e.client.Do(ctx(t), http.MethodPost, payinPath, body, nil)
			refused(t, err, http.StatusBadRequest, msg, fiatramp.ErrAmountBelowMinimum)
		}
		require.NoError(t, create(t, payinAmountOf("2500.01")))
		require.NoError(t, create(t, payinUPI(e), payinAmountOf("2500.01")))
	})
	t.Run("maximum", func(t *testing.T) {
		const msg = "Entered amount exceeds maximum transaction amount"
		require.NoError(t, create(t, payinAmountOf("500000")))
		refused(t, create(t, payinAmountOf("500000.01")), http.StatusBadRequest, msg, fiatramp.ErrAmountAboveMaximum)
		require.NoError(t, create(t, payinUPI(e), payinAmountOf("100000")))
		refused(t, create(t, payinUPI(e), payinAmountOf("100000.01")), http.StatusBadRequest, msg, fiatramp.ErrAmountAboveMaximum)
	})
	t.Run("AML", func(t *testing.T) {
		flags(t, sandbox.CustomerFlags{AMLFailed: true})
		refused(t, create(t), http.StatusBadRequest, "AML SCREENING FAILED", fiatramp.ErrAMLScreeningFailed)
	})
	t.Run("EDD flag", func(t *testing.T) {
		flags(t, sandbox.CustomerFlags{EDDRequired: true})
		refused(t, create(t), http.StatusBadRequest, "EDD required", fiatramp.ErrEDDRequired)
	})
	t.Run("suspicious activity report", func(t *testing.T) {
		err := create(t, func(r *types.CreatePayinQuotationRequest) { r.RiskParameters.SuspiciousActivityReport = true })
		refused(t, err, http.StatusBadRequest, "EDD required", fiatramp.ErrEDDRequired)
	})
	t.Run("law enforcement agency report", func(t *testing.T) {
		err := create(t, func(r *types.CreatePayinQuotationRequest) { r.RiskParameters.LawEnforcementAgencyReport = true })
		refused(t, err, http.StatusBadRequest, "EDD required", fiatramp.ErrEDDRequired)
	})
	t.Run("risk parameters that raise nothing", func(t *testing.T) {
		require.NoError(t, create(t, func(r *types.CreatePayinQuotationRequest) {
			r.RiskParameters = types.RiskParameters{IPAddress: "203.0.113.7", DeviceID: "device-1"}
		}))
	})
	t.Run("daily limit flag", func(t *testing.T) {
		flags(t, sandbox.CustomerFlags{DailyLimitExhausted: true})
		refused(t, create(t), http.StatusBadRequest, "Daily onramp limit exhausted", fiatramp.ErrDailyLimitExhausted)
	})
	require.NoError(t, create(t), "every flag cleared")
}

func TestPayinDailyLimit(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.DailyOnrampLimit = decimal.NewFromInt(10000) })
	const msg = "Daily onramp limit exhausted"
	create := func(c sandbox.Customer, bank uuid.UUID, amount string) error {
		_, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e, payinAmountOf(amount), func(r *types.CreatePayinQuotationRequest) {
			r.CustomerID, r.BankID = c.ID, bank
		}))
		return err
	}
	require.NoError(t, create(e.cust, e.bank.ID, "6000"))
	refused(t, create(e.cust, e.bank.ID, "4000.01"), http.StatusBadRequest, msg, fiatramp.ErrDailyLimitExhausted)
	require.NoError(t, create(e.cust, e.bank.ID, "4000"), "a refused quotation counts for nothing; the limit itself is allowed")
	refused(t, create(e.cust, e.bank.ID, "2500.01"), http.StatusBadRequest, msg, fiatramp.ErrDailyLimitExhausted)

	// The limit is per customer.
	cust2 := e.customer(e.org, sandbox.Customer{Name: "Second"})
	bank2 := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: cust2.ID})).(sandbox.BankAccount)
	require.NoError(t, create(cust2, bank2.ID, "10000"))

	// 23:59:59 of the same UTC day, then midnight.
	e.sb.Advance(14*time.Hour + 29*time.Minute + 59*time.Second)
	refused(t, create(e.cust, e.bank.ID, "2500.01"), http.StatusBadRequest, msg, fiatramp.ErrDailyLimitExhausted)
	e.sb.Advance(time.Second)
	require.NoError(t, create(e.cust, e.bank.ID, "10000"), "a new UTC day")
	refused(t, create(e.cust, e.bank.ID, "2500.01"), http.StatusBadRequest, msg, fiatramp.ErrDailyLimitExhausted)
}

// TestPayinCheckOrder checks that the refusals come in the order of
// interface.md 7.4: a request failing every check gets the first message,
// and clearing each failure in turn reveals the next.
func TestPayinCheckOrder(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.DailyOnrampLimit = decimal.NewFromInt(10000) })
	require.NoError(t, e.sb.SetKYCStatus(e.cust.ID, types.KYCProcessing))
	require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{
		OnrampDisabled: true, AMLFailed: true, EDDRequired: true, DailyLimitExhausted: true,
	}))
	req := payinReq(e, payinAmountOf("2500"), func(r *types.CreatePayinQuotationRequest) {
		r.BankID = e.vpa.ID // wrong type for IMPS
		r.RiskParameters.SuspiciousActivityReport = true
	})
	expect := func(msg string, sentinel error) {
		t.Helper()
		_, err := e.client.Payins.CreateQuotation(ctx(t), req)
		refused(t, err, http.StatusBadRequest, msg, sentinel)
	}

	// Field errors before everything, then the pair.
	bad := req
	bad.PaymentMethod = "NEFT"
	err := e.client.Do(ctx(t), http.MethodPost, payinPath, bad, nil)
	refused(t, err, http.StatusBadRequest, `"NEFT" is not a valid choice.`, fiatramp.ErrFieldMissing)
	bad = req
	bad.Asset = "btc"
	_, err = e.client.Payins.CreateQuotation(ctx(t), bad)
	refused(t, err, http.StatusBadRequest, "Unsupported asset/fiat pair BTC/INR.", fiatramp.ErrFieldMissing)

	expect("Customer is unverified", fiatramp.ErrCustomerUnverified)
	require.NoError(t, e.sb.SetKYCStatus(e.cust.ID, types.KYCVerified))
	expect("Bank account is unverified", fiatramp.ErrBankUnverified)
	req.BankID = e.bank.ID
	expect("Onramp is disabled", fiatramp.ErrOnrampDisabled)
	require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{AMLFailed: true, EDDRequired: true, DailyLimitExhausted: true}))
	expect("Entered amount is less than minimum transaction amount", fiatramp.ErrAmountBelowMinimum)
	req.SendingAmount = payinAmount("500000.01")
	expect("Entered amount exceeds maximum transaction amount", fiatramp.ErrAmountAboveMaximum)
	req.SendingAmount = payinAmount("10000.01") // within the maximum, over the daily limit
	expect("AML SCREENING FAILED", fiatramp.ErrAMLScreeningFailed)
	require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{EDDRequired: true, DailyLimitExhausted: true}))
	expect("EDD required", fiatramp.ErrEDDRequired)
	require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{DailyLimitExhausted: true}))
	expect("EDD required", fiatramp.ErrEDDRequired) // the suspicious activity report
	req.RiskParameters.SuspiciousActivityReport = false
	expect("Daily onramp limit exhausted", fiatramp.ErrDailyLimitExhausted)
	require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{}))
	expect("Daily onramp limit exhausted", fiatramp.ErrDailyLimitExhausted) // the amount limit
	req.SendingAmount = payinAmount("10000")
	_, err = e.client.Payins.CreateQuotation(ctx(t), req)
	require.NoError(t, err)
}

func TestPayinFieldErrors(t *testing.T) {
	e := newEnv(t)
	post := func(t *testing.T, body any, msg string) *fiatramp.APIError {
		t.Helper()
		var resp fiatramp.Response
		err := e.client.Do(ctx(t), http.MethodPost, payinPath, body, nil, fiatramp.CaptureResponse(&resp))
		require.Error(t, err)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		require.NoError(t, json.Unmarshal(resp.Body, &env))
		assert.Equal(t, "null", string(env.Data))
		return refused(t, err, http.StatusBadRequest, msg, fiatramp.ErrFieldMissing)
	}
	t.Run("all missing", func(t *testing.T) {
		var resp fiatramp.Response
		err := e.client.Do(ctx(t), http.MethodPost, payinPath, map[string]any{}, nil, fiatramp.CaptureResponse(&resp))
		apiErr := refused(t, err, http.StatusBadRequest, "This field is required.", fiatramp.ErrFieldMissing)
		assert.Equal(t, "REQ_FIELD_MISSING", apiErr.Code)
		req := []string{"This field is required."}
		assert.Equal(t, map[string][]string{
			"asset": req, "fiat": req, "sending_amount": req, "customer_id": req, "bank_id": req, "payment_method": req,
		}, apiErr.FieldErrors)
	})
	valid := func() map[string]any {
		return map[string]any{
			"asset": "usdt", "fiat": "inr", "sending_amount": "3000", "customer_id": e.cust.ID.String(),
			"bank_id": e.bank.ID.String(), "payment_method": "IMPS",
		}
	}
	for _, tc := range []struct {
		name  string
		key   string
		value any
		field string
		msg   string
	}{
		{"lower-case method", "payment_method", "imps", "payment_method", `"imps" is not a valid choice.`},
		{"unknown method", "payment_method", "NEFT", "payment_method", `"NEFT" is not a valid choice.`},
		{"amount not a number", "sending_amount", "ten", "sending_amount", "A valid number is required."},
		{"amount null", "sending_amount", nil, "sending_amount", "This field may not be null."},
		{"customer not a uuid", "customer_id", "123", "customer_id", "Must be a valid UUID."},
		{"bank not a uuid", "bank_id", 7, "bank_id", "Must be a valid UUID."},
		{"blank asset", "asset", "", "asset", "This field may not be blank."},
		{"risk parameters not an object", "risk_parameters", "x", "risk_parameters", "Invalid data. Expected a dictionary, but got str."},
		{"risk report not a boolean", "risk_parameters", map[string]any{"suspicious_activity_report": "yes"}, "risk_parameters.suspicious_activity_report", "Must be a valid boolean."},
		{"ip address not a string", "risk_parameters", map[string]any{"ip_address": []any{1}}, "risk_parameters.ip_address", "Not a valid string."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := valid()
			body[tc.key] = tc.value
			var resp fiatramp.Response
			err := e.client.Do(ctx(t), http.MethodPost, payinPath, body, nil, fiatramp.CaptureResponse(&resp))
			apiErr := refused(t, err, http.StatusBadRequest, tc.msg, fiatramp.ErrFieldMissing)
			assert.Equal(t, map[string][]string{tc.field: {tc.msg}}, apiErr.FieldErrors)
		})
	}
	t.Run("unsupported pair", func(t *testing.T) {
		body := valid()
		body["fiat"] = "eur"
		apiErr := post(t, body, "Unsupported asset/fiat pair USDT/EUR.")
		assert.Equal(t, map[string][]string{"asset": {"Unsupported asset/fiat pair USDT/EUR."}}, apiErr.FieldErrors)
	})
	t.Run("field errors before the rules", func(t *testing.T) {
		require.NoError(t, e.sb.SetKYCStatus(e.cust.ID, types.KYCFailed))
		body := valid()
		delete(body, "fiat")
		apiErr := post(t, body, "This field is required.")
		assert.Equal(t, map[string][]string{"fiat": {"This field is required."}}, apiErr.FieldErrors)
	})
}

func TestPayinQuotationNonPositiveRate(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.Rates["USDT/INR"] = decimal.Zero })
	_, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e))
	apiErr := refused(t, err, http.StatusBadRequest, "Unsupported asset/fiat pair USDT/INR.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{"asset": {"Unsupported asset/fiat pair USDT/INR."}}, apiErr.FieldErrors)
	_, err = e.client.Payins.CreateQuotation(ctx(t), payinReq(e, func(r *types.CreatePayinQuotationRequest) { r.Asset = "usdc" }))
	require.NoError(t, err, "the other pair still quotes")
}

// statusPaths returns, for every status reachable from start along next,
// the shortest list of moves that reaches it (none for start itself): how
// a test brings an object to each status through the moves the table
// allows.
func statusPaths[S comparable](start S, next func(S) []S) map[S][]S {
	paths := map[S][]S{start: nil}
	for queue := []S{start}; len(queue) > 0; queue = queue[1:] {
		from := queue[0]
		for _, to := range next(from) {
			if _, seen := paths[to]; !seen {
				paths[to] = append(slices.Clone(paths[from]), to)
				queue = append(queue, to)
			}
		}
	}
	return paths
}

// payinQuote creates an IMPS payin quotation through the client.
func payinQuote(t *testing.T, e *env) *types.PayinQuotation {
	t.Helper()
	q, err := e.client.Payins.CreateQuotation(ctx(t), payinReq(e))
	require.NoError(t, err)
	return q
}

// newUTR returns a fresh 12-character UTR.
func newUTR() string {
	return strings.ToUpper(strings.ReplaceAll(uuid.NewString(), "-", ""))[:12]
}

// payinOn initiates a payin on a new quotation through the client.
func payinOn(t *testing.T, e *env) *types.Payin {
	t.Helper()
	q := payinQuote(t, e)
	p, err := e.client.Payins.Initiate(ctx(t), types.InitiatePayinRequest{QuotationID: q.ID, CustomerID: q.CustomerID, UTR: newUTR()})
	require.NoError(t, err)
	return p
}

// TestSimulatePayinStatusTable holds the payin status simulation to the
// transition table of package types: from every status (reached through
// the simulation itself), every move the table holds is made, and every
// other is refused "Payin status cannot move from X to Y.", changing
// nothing.
func TestSimulatePayinStatusTable(t *testing.T) {
	e := newEnv(t)
	allowed, want := 0, 0
	paths := statusPaths(types.PayinProcessing, types.PayinStatus.Next)
	require.Len(t, paths, len(types.PayinStatus("").Values()), "every status is reachable")
	for from, path := range paths {
		want += len(from.Next())
		for _, to := range types.PayinStatus("").Values() {
			t.Run(string(from)+"->"+string(to), func(t *testing.T) {
				p := payinOn(t, e)
				for _, step := range path {
					_, err := e.client.Payins.SimulateStatus(ctx(t), p.ID, step)
					require.NoError(t, err)
				}
				got, err := e.client.Payins.SimulateStatus(ctx(t), p.ID, to)
				fetched, ferr := e.client.Payins.Get(ctx(t), p.ID)
				require.NoError(t, ferr)
				quotation, qerr := e.client.Payins.GetQuotation(ctx(t), p.QuotationID)
				require.NoError(t, qerr)
				if to == from {
					require.NoError(t, err, "a repeat sets the same status")
					assert.Equal(t, from, fetched.Status, "state unchanged")
					return
				}
				for _, m := range types.PayinStatus.Next(from) {
					if m == to {
						allowed++
						require.NoError(t, err)
						assert.Equal(t, p.ID, got.PayinID)
						assert.Equal(t, to, got.PayinStatus)
						assert.Equal(t, to, fetched.Status)
						assert.Equal(t, string(to), string(quotation.Status), "the fetched quotation shows the payin status")
						return
					}
				}
				refused(t, err, http.StatusBadRequest, fmt.Sprintf("Payin status cannot move from %s to %s.", from, to))
				assert.Equal(t, from, fetched.Status, "state unchanged")
			})
		}
	}
	assert.Equal(t, want, allowed)
	assert.Equal(t, 8, allowed, "the table's moves")
}

// TestSimulatePayinStatusReasons: FAILED carries failure_reason, a refund
// its refund_reason on both steps, each from its catalogue, in the fetched
// payin and in the history.
func TestSimulatePayinStatusReasons(t *testing.T) {
	e := newEnv(t)
	p := payinOn(t, e)
	const path = "/pis/api/v1/payin/mock-payin-status"
	require.NoError(t, e.client.Do(ctx(t), http.MethodPatch, path,
		map[string]any{"payin_id": p.ID, "payin_status": "FAILED", "failure_reason": "INCORRECT_UTR"}, nil))
	got, err := e.client.Payins.Get(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, types.PayinFailureIncorrectUTR, got.FailureReason)
	assert.Equal(t, types.PayinRefundReason(""), got.RefundReason)

	err = e.client.Do(ctx(t), http.MethodPatch, path,
		map[string]any{"payin_id": p.ID, "payin_status": "REFUND_INITIATED", "refund_reason": "BAD_MOOD"}, nil)
	refused(t, err, http.StatusBadRequest, `"BAD_MOOD" is not a valid choice.`, fiatramp.ErrFieldMissing)
	require.NoError(t, e.client.Do(ctx(t), http.MethodPatch, path,
		map[string]any{"payin_id": p.ID, "payin_status": "REFUND_INITIATED", "refund_reason": "THIRD_PARTY_PAYMENT"}, nil))
	_, err = e.client.Payins.SimulateStatus(ctx(t), p.ID, types.PayinRefunded)
	require.NoError(t, err)
	got, err = e.client.Payins.Get(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, types.PayinRefunded, got.Status)
	assert.Equal(t, types.PayinRefundThirdPartyPayment, got.RefundReason)
	assert.Equal(t, types.PayinFailureIncorrectUTR, got.FailureReason, "the failure stays on record")

	// The defaults: PAYMENT_NOT_RECEIVED and INCORRECT_AMOUNT.
	p = payinOn(t, e)
	_, err = e.client.Payins.SimulateStatus(ctx(t), p.ID, types.PayinFailed)
	require.NoError(t, err)
	_, err = e.client.Payins.SimulateStatus(ctx(t), p.ID, types.PayinRefundInitiated)
	require.NoError(t, err)
	got, err = e.client.Payins.Get(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, types.PayinFailurePaymentNotReceived, got.FailureReason)
	assert.Equal(t, types.PayinRefundIncorrectAmount, got.RefundReason)
}

func TestSimulatePayinStatusRefusals(t *testing.T) {
	e := newEnv(t)
	p := payinOn(t, e)
	other := e.otherOrg(false)
	oc := e.customer(other, sandbox.Customer{Name: "Other"})
	ob := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: oc.ID})).(sandbox.BankAccount)
	otherClient := e.clientFor(other)
	oq, err := otherClient.Payins.CreateQuotation(ctx(t), payinReq(e, func(r *types.CreatePayinQuotationRequest) { r.CustomerID, r.BankID = oc.ID, ob.ID }))
	require.NoError(t, err)
	op, err := otherClient.Payins.Initiate(ctx(t), types.InitiatePayinRequest{QuotationID: oq.ID, CustomerID: oc.ID, UTR: newUTR()})
	require.NoError(t, err)

	_, err = e.client.Payins.SimulateStatus(ctx(t), op.ID, types.PayinSuccess)
	refused(t, err, http.StatusBadRequest, "Payin not found or access denied", fiatramp.ErrNotFound)
	_, err = e.client.Payins.SimulateStatus(ctx(t), uuid.New(), types.PayinSuccess)
	refused(t, err, http.StatusBadRequest, "Payin not found or access denied", fiatramp.ErrNotFound)
	_, err = e.client.Payins.SimulateStatus(ctx(t), p.QuotationID, types.PayinSuccess)
	refused(t, err, http.StatusBadRequest, "Payin not found or access denied", fiatramp.ErrNotFound)

	const path = "/pis/api/v1/payin/mock-payin-status"
	err = e.client.Do(ctx(t), http.MethodPatch, path, map[string]any{"payin_id": p.ID, "payin_status": "success"}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, `"success" is not a valid choice.`, fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{"payin_status": {`"success" is not a valid choice.`}}, apiErr.FieldErrors)
	err = e.client.Do(ctx(t), http.MethodPatch, path, map[string]any{"payin_id": "abc", "payin_status": nil}, nil)
	apiErr = refused(t, err, http.StatusBadRequest, "Must be a valid UUID.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{"payin_status": {"This field may not be null."}, "payin_id": {"Must be a valid UUID."}}, apiErr.FieldErrors)
	// The old body, by quotation, is refused: payin_id is required.
	err = e.client.Do(ctx(t), http.MethodPatch, path, map[string]any{"quotation_id": p.QuotationID, "payin_status": "SUCCESS"}, nil)
	apiErr = refused(t, err, http.StatusBadRequest, "This field is required.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{"payin_id": {"This field is required."}}, apiErr.FieldErrors)

	// An expired quotation's payin still settles.
	e.sb.Advance(e.sb.Settings().PayinQuotationValidity + 1)
	got, err := e.client.Payins.SimulateStatus(ctx(t), p.ID, types.PayinSuccess)
	require.NoError(t, err)
	assert.Equal(t, types.PayinSuccess, got.PayinStatus)
}

// TestSimulatePayinStatusLostAnswer: the simulation is retried as an
// update (a repeat sets the same status). When its first answer is lost
// after the move, the retry must not be refused "cannot move from SUCCESS
// to SUCCESS", which would report a move that happened as failed; nor may
// it send the webhook twice.
func TestSimulatePayinStatusLostAnswer(t *testing.T) {
	e, rc := hookEnv(t, nil)
	p := payinOn(t, e)
	c := e.clientFor(e.org, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}))
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/pis/api/v1/payin/mock-payin-status", Count: 1}))
	got, err := c.Payins.SimulateStatus(ctx(t), p.ID, types.PayinSuccess)
	require.NoError(t, err, "the move happened")
	assert.Equal(t, types.PayinSuccess, got.PayinStatus)
	fetched, err := e.client.Payins.Get(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, types.PayinSuccess, fetched.Status)
	settle(t, e.sb)
	n := 0
	for _, h := range rc.hooks() {
		if strings.Contains(h.body, `"SUCCESS"`) && strings.Contains(h.body, p.ID.String()) {
			n++
		}
	}
	assert.Equal(t, 1, n, "one webhook for one change")
}

func TestInitiatePayin(t *testing.T) {
	e := newEnv(t)
	q := payinQuote(t, e)
	p, err := e.client.Payins.Initiate(ctx(t), types.InitiatePayinRequest{
		QuotationID: q.ID, CustomerID: e.cust.ID, UTR: "AB12CD34EF56", ClientReferenceID: "order-1",
	})
	require.NoError(t, err)
	assert.NotEqual(t, q.ID, p.ID, "the payin has its own id")
	assert.Equal(t, q.ID, p.QuotationID)
	assert.Equal(t, types.PayinProcessing, p.Status)
	assert.Equal(t, "AB12CD34EF56", p.UTR)
	assert.Equal(t, "order-1", *p.ClientReferenceID)
	assert.True(t, q.SendingAmount.Equal(p.SendingAmount), "the quotation's amounts")
	assert.True(t, q.ReceivingAmount.Equal(p.ReceivingAmount))
	assert.True(t, q.Fees.ServiceFee.Equal(p.Fees.ServiceFee))
	assert.Equal(t, q.ExpiryTime, p.ExpiryTime)
	assert.Contains(t, string(p.Raw), `"sending_amount":10000`, "initiate answers numbers")

	got, err := e.client.Payins.Get(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, p.ID, got.ID)
	assert.Equal(t, "AB12CD34EF56", got.UTR)
	assert.Equal(t, types.PayinProcessing, got.Status)
	assert.True(t, q.ReceivingAmount.Equal(got.ReceivingAmount))
	assert.Contains(t, string(got.Raw), `"receiveing_amount":"`, "fetch answers strings, spelled as the service does")
	assert.Contains(t, string(got.Raw), `"exchange_transfer_id":""`, "empty until linked, as a payout's")
	assert.Equal(t, epoch, got.CreatedAt)

	fetchedQ, err := e.client.Payins.GetQuotation(ctx(t), q.ID)
	require.NoError(t, err)
	assert.Equal(t, "PROCESSING", string(fetchedQ.Status))
}

// TestInitiatePayinRefusals: each rule with the service's message, and a
// refused initiate records nothing.
func TestInitiatePayinRefusals(t *testing.T) {
	e := newEnv(t)
	initiate := func(r types.InitiatePayinRequest) error {
		_, err := e.client.Payins.Initiate(ctx(t), r)
		return err
	}
	q := payinQuote(t, e)
	base := types.InitiatePayinRequest{QuotationID: q.ID, CustomerID: e.cust.ID, UTR: newUTR(), ClientReferenceID: "ref-a"}

	for _, utr := range []string{"12345678901", "1234567890123", "12345678901!", "12345678901é"} {
		r := base
		r.UTR = utr
		apiErr := refused(t, initiate(r), http.StatusBadRequest, "Invalid UTR format", fiatramp.ErrUTRInvalid)
		assert.Contains(t, apiErr.FieldErrors, "utr", utr)
	}
	r := base
	r.QuotationID = uuid.New()
	refused(t, initiate(r), http.StatusBadRequest, "Quotation is not found", fiatramp.ErrQuotationNotFound)
	other := e.customer(e.org, sandbox.Customer{Name: "Ravi"})
	r = base
	r.CustomerID = other.ID
	refused(t, initiate(r), http.StatusBadRequest, "Customer ID does not match with the quotation", fiatramp.ErrCustomerMismatch)

	// Another organization's quotation is not found.
	oo := e.otherOrg(false)
	oc := e.customer(oo, sandbox.Customer{Name: "Other"})
	ob := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: oc.ID})).(sandbox.BankAccount)
	oclient := e.clientFor(oo)
	oq, err := oclient.Payins.CreateQuotation(ctx(t), payinReq(e, func(r *types.CreatePayinQuotationRequest) { r.CustomerID, r.BankID = oc.ID, ob.ID }))
	require.NoError(t, err)
	r = base
	r.QuotationID, r.CustomerID = oq.ID, oc.ID
	refused(t, initiate(r), http.StatusBadRequest, "Quotation is not found", fiatramp.ErrQuotationNotFound)

	first, err := e.client.Payins.Initiate(ctx(t), base)
	require.NoError(t, err)

	// The same UTR, the same reference, the same quotation: each refused.
	q2 := payinQuote(t, e)
	r = base
	r.QuotationID, r.ClientReferenceID = q2.ID, "ref-b"
	refused(t, initiate(r), http.StatusBadRequest, "UTR is already linked to another payin", fiatramp.ErrUTRInUse)
	r.UTR, r.ClientReferenceID = newUTR(), "ref-a"
	refused(t, initiate(r), http.StatusBadRequest, "Client Reference ID already exists", fiatramp.ErrClientReferenceExists)
	r = base
	r.UTR, r.ClientReferenceID = newUTR(), "ref-c"
	refused(t, initiate(r), http.StatusBadRequest, "Quotation is already linked to another payin", fiatramp.ErrQuotationAlreadyLinked)

	// The UTR is unique per organization: another organization may use it.
	_, err = oclient.Payins.Initiate(ctx(t), types.InitiatePayinRequest{QuotationID: oq.ID, CustomerID: oc.ID, UTR: base.UTR, ClientReferenceID: "ref-a"})
	require.NoError(t, err)

	// Expiry on the sandbox clock: at ExpiryTime the quotation is expired.
	e.sb.SetTime(q2.ExpiryTime)
	r = base
	r.QuotationID, r.UTR, r.ClientReferenceID = q2.ID, newUTR(), "ref-d"
	refused(t, initiate(r), http.StatusBadRequest, "Quotation has expired", fiatramp.ErrQuotationExpired)
	// A repeat of the first initiate after expiry is still told it is a
	// duplicate, not that the quotation expired.
	refused(t, initiate(base), http.StatusBadRequest, "UTR is already linked to another payin", fiatramp.ErrUTRInUse)

	page, err := e.client.Payins.List(ctx(t), types.PayinListFilter{})
	require.NoError(t, err)
	require.Len(t, page.Results, 1, "refusals record nothing")
	assert.Equal(t, first.ID, page.Results[0].ID)
}

func TestInitiatePayinFieldErrors(t *testing.T) {
	e := newEnv(t)
	const path = "/pis/api/v1/payin/initiate"
	err := e.client.Do(ctx(t), http.MethodPost, path, map[string]any{"quotation_id": "x", "utr": nil, "client_reference_id": " "}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, "This field may not be blank.", fiatramp.ErrFieldMissing) // the first field's, sorted
	assert.Equal(t, map[string][]string{
		"customer_id": {"This field is required."}, "quotation_id": {"Must be a valid UUID."},
		"utr": {"This field may not be null."}, "client_reference_id": {"This field may not be blank."},
	}, apiErr.FieldErrors)
}

func TestGetPayinRefusals(t *testing.T) {
	e := newEnv(t)
	const base = "/pis/api/v1/payin/"
	err := e.client.Do(ctx(t), http.MethodGet, base+"not-an-id", nil, nil)
	refused(t, err, http.StatusBadRequest, "Payin ID is invalid", fiatramp.ErrPayinIDInvalid)
	err = e.client.Do(ctx(t), http.MethodGet, base, nil, nil)
	refused(t, err, http.StatusBadRequest, "Payin ID is required.", fiatramp.ErrPayinIDInvalid)
	_, err = e.client.Payins.Get(ctx(t), uuid.New())
	refused(t, err, http.StatusBadRequest, "Payin not found or access denied", fiatramp.ErrNotFound)
	p := payinOn(t, e)
	_, err = e.clientFor(e.otherOrg(false)).Payins.Get(ctx(t), p.ID)
	refused(t, err, http.StatusBadRequest, "Payin not found or access denied", fiatramp.ErrNotFound)
}

func TestLinkPayinTransfer(t *testing.T) {
	e := newEnv(t)
	p := payinOn(t, e)
	l, err := e.client.Payins.LinkTransfer(ctx(t), types.LinkPayinTransferRequest{PayinID: p.ID, ExchangeTransferID: "778899"})
	require.NoError(t, err)
	assert.Equal(t, p.ID, l.PayinID)
	assert.Equal(t, "778899", l.ExchangeTransferID)
	got, err := e.client.Payins.Get(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, "778899", got.ExchangeTransferID, "stored and shown on fetch")

	_, err = e.client.Payins.LinkTransfer(ctx(t), types.LinkPayinTransferRequest{PayinID: uuid.New(), ExchangeTransferID: "1"})
	refused(t, err, http.StatusBadRequest, "Payin not found or access denied", fiatramp.ErrNotFound)
	_, err = e.clientFor(e.otherOrg(false)).Payins.LinkTransfer(ctx(t), types.LinkPayinTransferRequest{PayinID: p.ID, ExchangeTransferID: "1"})
	refused(t, err, http.StatusBadRequest, "Payin not found or access denied", fiatramp.ErrNotFound)
	err = e.client.Do(ctx(t), http.MethodPatch, "/pis/api/v1/payin/update-transfer-id", map[string]any{"payin_id": p.ID}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, "This field is required.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{"exchange_transfer_id": {"This field is required."}}, apiErr.FieldErrors)
}

// TestInitiatePayinUnderFaults initiates payins through a client that
// retries, against a sandbox that spoils a fifth of the initiates
// (connections dropped before and after the payin is stored, 500, 503),
// and checks that what each caller was told agrees with what is stored:
// a success names the one payin of its UTR, a refusal leaves none, and an
// unknown outcome holds at most one, found by the customer's history
// matched on the UTR (a repeat refused as a duplicate proves one).
func TestInitiatePayinUnderFaults(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	e := newEnv(t)
	const path = "/pis/api/v1/payin/initiate"
	kinds := []sandbox.FaultKind{sandbox.FaultDropBefore, sandbox.FaultDropAfter, sandbox.FaultInternalError, sandbox.FaultUnavailable}
	const share = 0.05 // each kind: a twentieth, a fifth in all
	for i, kind := range kinds {
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{
			Kind: kind, Method: http.MethodPost, Path: path, Fraction: share / (1 - share*float64(i)),
		}))
	}
	client := e.clientFor(e.org, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 4, InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}))
	type outcome struct {
		utr     string
		payin   *types.Payin
		unknown *fiatramp.OutcomeUnknownError
		err     error
	}
	var outcomes []outcome
	for range n {
		q := payinQuote(t, e)
		o := outcome{utr: newUTR()}
		o.payin, o.err = client.Payins.Initiate(ctx(t), types.InitiatePayinRequest{QuotationID: q.ID, CustomerID: e.cust.ID, UTR: o.utr})
		errors.As(o.err, &o.unknown)
		outcomes = append(outcomes, o)
	}
	stored := map[string][]types.Payin{}
	for p, err := range e.client.Payins.All(ctx(t), types.PayinListFilter{CustomerID: e.cust.ID}) {
		require.NoError(t, err)
		stored[p.UTR] = append(stored[p.UTR], p)
	}
	var ok, unknown, unknownCreated, probably int
	for _, o := range outcomes {
		got := stored[o.utr]
		assert.LessOrEqual(t, len(got), 1, "UTR %s recorded once at most", o.utr)
		switch {
		case o.err == nil:
			ok++
			require.Len(t, got, 1, o.utr)
			assert.Equal(t, o.payin.ID, got[0].ID, "the payin the caller was given is the stored one")
		case o.unknown != nil:
			unknown++
			assert.Equal(t, e.cust.ID, o.unknown.CustomerID)
			if len(got) == 1 {
				unknownCreated++
			}
			if o.unknown.ProbablyCreated {
				probably++
				assert.Len(t, got, 1, "a repeat refused as a duplicate proves the payin exists")
			}
		default:
			assert.Empty(t, got, "refused (%v), yet recorded", o.err)
		}
	}
	t.Logf("%d initiates: %d succeeded, %d unknown (%d of them recorded, %d marked probably created); faults: %+v",
		n, ok, unknown, unknownCreated, probably, e.sb.Stats())
	assert.Positive(t, ok)
}
