package sandbox_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
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

var (
	fxKeyPattern    = regexp.MustCompile(`^sbx_key_[0-9a-f]{24}$`)
	fxSecretPattern = regexp.MustCompile(`^sbx_secret_[0-9a-f]{48}$`)
)

func fxDec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestFixtureAddOrganization(t *testing.T) {
	sb := sandbox.New()
	o, err := sb.AddOrganization(sandbox.Organization{})
	require.NoError(t, err)
	assert.NotEqual(t, uuid.Nil, o.ID)
	assert.Regexp(t, fxKeyPattern, o.APIKey)
	assert.Regexp(t, fxSecretPattern, o.APISecret)
	assert.False(t, o.Prefunded)
	assert.NotNil(t, o.Balances)
	assert.Empty(t, o.Balances)

	o2, err := sb.AddOrganization(sandbox.Organization{})
	require.NoError(t, err)
	assert.NotEqual(t, o.ID, o2.ID)
	assert.NotEqual(t, o.APIKey, o2.APIKey)
	assert.NotEqual(t, o.APISecret, o2.APISecret)

	id := uuid.New()
	balances := map[string]decimal.Decimal{"usdt": fxDec("12.5"), "USDC": fxDec("0")}
	o3, err := sb.AddOrganization(sandbox.Organization{
		ID: id, Name: "Given", APIKey: "k3", APISecret: "s3", Prefunded: true, Balances: balances,
	})
	require.NoError(t, err)
	assert.Equal(t, sandbox.Organization{
		ID: id, Name: "Given", APIKey: "k3", APISecret: "s3", Prefunded: true,
		Balances: map[string]decimal.Decimal{"USDT": fxDec("12.5"), "USDC": fxDec("0")},
	}, o3)

	// Snapshots share nothing with the state, nor with the input.
	balances["usdt"] = fxDec("999")
	o3.Balances["USDT"] = fxDec("777")
	o3.Balances["BTC"] = fxDec("1")
	assert.Equal(t, "12.5", sb.Balance(id, "USDT").String())
	got, ok := sb.Organization(id)
	require.True(t, ok)
	assert.Equal(t, map[string]decimal.Decimal{"USDT": fxDec("12.5"), "USDC": fxDec("0")}, got.Balances)
	got.Balances["USDT"] = fxDec("1")
	assert.Equal(t, "12.5", sb.Balance(id, "usdt").String())

	_, ok = sb.Organization(uuid.New())
	assert.False(t, ok)

	for _, tc := range []struct {
		o   sandbox.Organization
		msg string
	}{
		{sandbox.Organization{ID: id}, "sandbox: organization: id " + id.String() + " already exists"},
		{sandbox.Organization{APIKey: "k3"}, `sandbox: organization: API key "k3" already in use`},
		{sandbox.Organization{APIKey: o.APIKey}, fmt.Sprintf("sandbox: organization: API key %q already in use", o.APIKey)},
		{sandbox.Organization{Balances: map[string]decimal.Decimal{"USDT": fxDec("-0.01")}}, "sandbox: organization: balance of USDT is negative"},
	} {
		_, err := sb.AddOrganization(tc.o)
		assert.EqualError(t, err, tc.msg)
	}
	// A refused organization is not half-added: its key stays free.
	_, err = sb.AddOrganization(sandbox.Organization{APIKey: "k4", Balances: map[string]decimal.Decimal{"X": fxDec("-1")}})
	require.Error(t, err)
	_, err = sb.AddOrganization(sandbox.Organization{APIKey: "k4"})
	require.NoError(t, err)
}

func TestFixtureBalances(t *testing.T) {
	sb := sandbox.New()
	o, err := sb.AddOrganization(sandbox.Organization{Prefunded: true})
	require.NoError(t, err)
	assert.True(t, sb.Balance(o.ID, "USDT").IsZero())
	assert.True(t, sb.Balance(uuid.New(), "USDT").IsZero(), "unknown organization: zero")

	require.NoError(t, sb.SetBalance(o.ID, "usdc", fxDec("10.25")))
	assert.Equal(t, "10.25", sb.Balance(o.ID, "USDC").String())
	assert.Equal(t, "10.25", sb.Balance(o.ID, "Usdc").String())
	require.NoError(t, sb.SetBalance(o.ID, "USDC", decimal.Zero))
	assert.True(t, sb.Balance(o.ID, "usdc").IsZero())

	missing := uuid.New()
	assert.EqualError(t, sb.SetBalance(missing, "USDT", fxDec("1")), "sandbox: balance: no organization "+missing.String())
	assert.EqualError(t, sb.SetBalance(o.ID, "USDT", fxDec("-1")), "sandbox: balance: amount -1 is negative")
	got, _ := sb.Organization(o.ID)
	assert.Equal(t, map[string]decimal.Decimal{"USDC": decimal.Zero}, got.Balances)
}

func TestFixtureAddCustomer(t *testing.T) {
	sb := sandbox.New()
	o, err := sb.AddOrganization(sandbox.Organization{})
	require.NoError(t, err)

	c, err := sb.AddCustomer(sandbox.Customer{OrganizationID: o.ID})
	require.NoError(t, err)
	assert.NotEqual(t, uuid.Nil, c.ID)
	assert.Equal(t, types.KYCVerified, c.KYCStatus, "default")
	assert.Equal(t, sandbox.CustomerFlags{}, c.CustomerFlags)

	id := uuid.New()
	flags := sandbox.CustomerFlags{AMLFailed: true, EDDRequired: true}
	c2, err := sb.AddCustomer(sandbox.Customer{ID: id, OrganizationID: o.ID, Name: "N", KYCStatus: types.KYCFailed, CustomerFlags: flags})
	require.NoError(t, err)
	assert.Regexp(t, `^\+919\d{9}$`, c2.Phone, "a phone made from the id")
	assert.Equal(t, sandbox.Customer{
		ID: id, OrganizationID: o.ID, Name: "N", Email: "customer-" + id.String() + "@example.com", Phone: c2.Phone,
		KYCStatus: types.KYCFailed, CustomerFlags: flags,
	}, c2)
	got, ok := sb.Customer(id)
	require.True(t, ok)
	assert.Equal(t, c2, got)
	_, ok = sb.Customer(uuid.New())
	assert.False(t, ok)

	noOrg := uuid.New()
	for _, tc := range []struct {
		c   sandbox.Customer
		msg string
	}{
		{sandbox.Customer{OrganizationID: noOrg}, "sandbox: customer: no organization " + noOrg.String()},
		{sandbox.Customer{}, "sandbox: customer: no organization " + uuid.Nil.String()},
		{sandbox.Customer{ID: id, OrganizationID: o.ID}, "sandbox: customer: id " + id.String() + " already exists"},
		{sandbox.Customer{OrganizationID: o.ID, KYCStatus: "verified"}, `sandbox: customer: unknown KYC status "verified"`},
		{sandbox.Customer{OrganizationID: o.ID, KYCStatus: "ACCOUNT_DETAILS"}, `sandbox: customer: unknown KYC status "ACCOUNT_DETAILS"`},
		{sandbox.Customer{OrganizationID: o.ID, Email: "nobody"}, `sandbox: customer: email "nobody" is not a valid address`},
		{sandbox.Customer{OrganizationID: o.ID, Email: strings.ToUpper(c2.Email)}, `sandbox: customer: email "` + strings.ToUpper(c2.Email) + `" is another customer's`},
		{sandbox.Customer{OrganizationID: o.ID, Phone: c2.Phone}, `sandbox: customer: phone "` + c2.Phone + `" is another customer's`},
	} {
		_, err := sb.AddCustomer(tc.c)
		assert.EqualError(t, err, tc.msg)
	}
	for _, st := range types.KYCStatus("").Values() {
		c, err := sb.AddCustomer(sandbox.Customer{OrganizationID: o.ID, KYCStatus: st})
		require.NoError(t, err, st)
		assert.Equal(t, st, c.KYCStatus)
	}
}

func TestFixtureSetCustomerFlagsAndKYC(t *testing.T) {
	e := newEnv(t)
	missing := uuid.New()
	assert.EqualError(t, e.sb.SetCustomerFlags(missing, sandbox.CustomerFlags{}), "sandbox: customer flags: no customer "+missing.String())
	assert.EqualError(t, e.sb.SetKYCStatus(missing, types.KYCVerified), "sandbox: KYC status: no customer "+missing.String())
	assert.EqualError(t, e.sb.SetKYCStatus(e.cust.ID, "DONE"), `sandbox: KYC status: unknown KYC status "DONE"`)

	payin := func() error {
		_, err := e.client.Payins.CreateQuotation(ctx(t), types.CreatePayinQuotationRequest{
			Asset: "USDT", Fiat: "INR", SendingAmount: fxDec("5000"),
			CustomerID: e.cust.ID, BankID: e.bank.ID, PaymentMethod: types.PaymentMethodIMPS,
		})
		return err
	}
	require.NoError(t, payin())

	// Flags are replaced, not merged.
	require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{AMLFailed: true}))
	c, _ := e.sb.Customer(e.cust.ID)
	assert.Equal(t, sandbox.CustomerFlags{AMLFailed: true}, c.CustomerFlags)
	refused(t, payin(), http.StatusBadRequest, "AML SCREENING FAILED", fiatramp.ErrAMLScreeningFailed)
	require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{DailyLimitExhausted: true}))
	c, _ = e.sb.Customer(e.cust.ID)
	assert.Equal(t, sandbox.CustomerFlags{DailyLimitExhausted: true}, c.CustomerFlags)
	refused(t, payin(), http.StatusBadRequest, "Daily onramp limit exhausted", fiatramp.ErrDailyLimitExhausted)
	require.NoError(t, e.sb.SetCustomerFlags(e.cust.ID, sandbox.CustomerFlags{}))
	require.NoError(t, payin())

	// SetKYCStatus ignores the simulation's transition table: UNVERIFIED
	// cannot be simulated anywhere, but can be set.
	require.NoError(t, e.sb.SetKYCStatus(e.cust.ID, types.KYCUnverified))
	refused(t, payin(), http.StatusBadRequest, "Customer is unverified", fiatramp.ErrCustomerUnverified)
	require.NoError(t, e.sb.SetKYCStatus(e.cust.ID, types.KYCVerified))
	c, _ = e.sb.Customer(e.cust.ID)
	assert.Equal(t, types.KYCVerified, c.KYCStatus)
	require.NoError(t, payin())
}

func TestFixtureAddBankAccount(t *testing.T) {
	sb := sandbox.New()
	o, _ := sb.AddOrganization(sandbox.Organization{})
	c, err := sb.AddCustomer(sandbox.Customer{OrganizationID: o.ID, Name: "Asha Rao"})
	require.NoError(t, err)

	b, err := sb.AddBankAccount(sandbox.BankAccount{CustomerID: c.ID})
	require.NoError(t, err)
	assert.NotEqual(t, uuid.Nil, b.ID)
	assert.Equal(t, types.BankAccountTypeBankAccount, b.Type)
	assert.Equal(t, types.BankAccountVerified, b.Status)
	assert.Regexp(t, `^[0-9]{12}$`, b.AccountNumber)
	assert.Equal(t, "SBIN0000001", b.IFSC)
	assert.Empty(t, b.VPA)
	assert.Equal(t, "Asha Rao", b.AccountName, "the customer's name")
	assert.Equal(t, "State Bank of India", b.BankName)
	assert.Equal(t, "IND", b.Country)
	assert.Nil(t, b.FailureReason)

	v, err := sb.AddBankAccount(sandbox.BankAccount{CustomerID: c.ID, Type: types.BankAccountTypeVPA})
	require.NoError(t, err)
	assert.Equal(t, types.BankAccountTypeVPA, v.Type)
	assert.Regexp(t, `^customer[0-9]{6}@upi$`, v.VPA)
	assert.Empty(t, v.AccountNumber)
	assert.Empty(t, v.IFSC)
	assert.Empty(t, v.BankName, "a UPI address names no bank")
	assert.Equal(t, "IND", v.Country)

	id := uuid.New()
	reason := "Name mismatch"
	given := sandbox.BankAccount{
		ID: id, CustomerID: c.ID, Type: types.BankAccountTypeBankAccount, Status: types.BankAccountFailed,
		AccountNumber: "1", IFSC: "X", AccountName: "Other Name", BankName: "B", Country: "NPL", FailureReason: &reason,
	}
	b2, err := sb.AddBankAccount(given)
	require.NoError(t, err)
	assert.Equal(t, given, b2, "nothing given is replaced")

	// The stored account does not alias the caller's failure reason.
	reason = "changed afterwards"
	e := serveSandbox(t, sb, o)
	got, err := e.Customers.GetBankAccount(ctx(t), c.ID, id)
	require.NoError(t, err)
	require.NotNil(t, got.FailureReason)
	assert.Equal(t, "Name mismatch", *got.FailureReason)
	assert.Equal(t, "NPL", got.Country)

	noCust := uuid.New()
	for _, tc := range []struct {
		b   sandbox.BankAccount
		msg string
	}{
		{sandbox.BankAccount{CustomerID: noCust}, "sandbox: bank account: no customer " + noCust.String()},
		{sandbox.BankAccount{ID: id, CustomerID: c.ID}, "sandbox: bank account: id " + id.String() + " already exists"},
		{sandbox.BankAccount{CustomerID: c.ID, Type: types.BankAccountTypeAccountDetails}, `sandbox: bank account: type "ACCOUNT_DETAILS" is neither "bank_account" nor "vpa"`},
		{sandbox.BankAccount{CustomerID: c.ID, Type: "VPA"}, `sandbox: bank account: type "VPA" is neither "bank_account" nor "vpa"`},
		{sandbox.BankAccount{CustomerID: c.ID, Status: "verified"}, `sandbox: bank account: unknown status "verified"`},
	} {
		_, err := sb.AddBankAccount(tc.b)
		assert.EqualError(t, err, tc.msg)
	}
}

// serveSandbox serves sb and returns a client signing as o on its clock.
func serveSandbox(t testing.TB, sb *sandbox.Sandbox, o sandbox.Organization) *fiatramp.Client {
	t.Helper()
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	c, err := srv.Client(o, fiatramp.WithClock(sb.Now))
	require.NoError(t, err)
	return c
}

func TestFixtureAddWallet(t *testing.T) {
	sb := sandbox.New()
	o, _ := sb.AddOrganization(sandbox.Organization{})
	c, _ := sb.AddCustomer(sandbox.Customer{OrganizationID: o.ID})

	w, err := sb.AddWallet(sandbox.Wallet{CustomerID: c.ID, WalletAddress: "TW1"})
	require.NoError(t, err)
	assert.NotEqual(t, uuid.Nil, w.ID)
	assert.Equal(t, types.WalletActive, w.Status)
	assert.Nil(t, w.FailureReason)

	id := uuid.New()
	w2, err := sb.AddWallet(sandbox.Wallet{ID: id, CustomerID: c.ID, WalletAddress: "TW2", Status: types.WalletActive})
	require.NoError(t, err)
	assert.Equal(t, id, w2.ID)

	// The API sees the fixture: adding the same address again is no new
	// wallet.
	client := serveSandbox(t, sb, o)
	var resp fiatramp.Response
	got, err := client.Customers.AddWallet(ctx(t), types.AddWalletRequest{CustomerID: c.ID, WalletAddress: "TW2"}, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, id, got.ID)
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	noCust := uuid.New()
	for _, tc := range []struct {
		w   sandbox.Wallet
		msg string
	}{
		{sandbox.Wallet{CustomerID: noCust, WalletAddress: "T"}, "sandbox: wallet: no customer " + noCust.String()},
		{sandbox.Wallet{CustomerID: c.ID}, "sandbox: wallet: wallet_address is empty"},
		{sandbox.Wallet{CustomerID: c.ID, WalletAddress: "T", Status: "BLOCKED"}, `sandbox: wallet: unknown status "BLOCKED"`},
		{sandbox.Wallet{ID: id, CustomerID: c.ID, WalletAddress: "TW3"}, "sandbox: wallet: id " + id.String() + " already exists"},
	} {
		_, err := sb.AddWallet(tc.w)
		assert.EqualError(t, err, tc.msg)
	}
}

func TestFixtureAddQuotation(t *testing.T) {
	sb := sandbox.New(func(s *sandbox.Settings) {
		s.PayoutQuotationValidity = 3 * time.Minute
		s.Rates["BTC/INR"] = fxDec("7500000")
	})
	sb.SetTime(epoch)
	o, _ := sb.AddOrganization(sandbox.Organization{})
	c, _ := sb.AddCustomer(sandbox.Customer{OrganizationID: o.ID})
	other, _ := sb.AddCustomer(sandbox.Customer{OrganizationID: o.ID})

	_, err := sb.AddQuotation(sandbox.Quotation{CustomerID: c.ID, SendingAmount: fxDec("1")})
	assert.EqualError(t, err, "sandbox: quotation: customer "+c.ID.String()+" has no bank account to pay to")

	first, _ := sb.AddBankAccount(sandbox.BankAccount{CustomerID: c.ID})
	second, _ := sb.AddBankAccount(sandbox.BankAccount{CustomerID: c.ID})
	otherBank, _ := sb.AddBankAccount(sandbox.BankAccount{CustomerID: other.ID})

	q, err := sb.AddQuotation(sandbox.Quotation{CustomerID: c.ID, SendingAmount: fxDec("10.555")})
	require.NoError(t, err)
	assert.NotEqual(t, uuid.Nil, q.ID)
	assert.Equal(t, first.ID, q.BankID, "the customer's first bank account")
	assert.Equal(t, "USDT", q.Asset)
	assert.Equal(t, "TRON", q.Network)
	assert.Equal(t, "INR", q.Fiat)
	assert.Equal(t, "88.5", q.Rate.String(), "the settings' USDT/INR rate")
	assert.Equal(t, "934.12", q.ReceivingAmount.String(), "10.555 × 88.50 = 934.1175, rounded to 2 places")
	assert.Regexp(t, `^T[0-9a-f]{32}$`, q.WalletAddress)
	assert.Equal(t, epoch.Add(3*time.Minute), q.ExpiresAt, "clock + PayoutQuotationValidity")
	assert.Equal(t, sandbox.Fees{}, q.Fees)

	q2, err := sb.AddQuotation(sandbox.Quotation{CustomerID: c.ID, BankID: second.ID, Asset: "btc", Fiat: "inr", SendingAmount: fxDec("0.001")})
	require.NoError(t, err)
	assert.Equal(t, "BTC", q2.Asset)
	assert.Equal(t, "INR", q2.Fiat)
	assert.Equal(t, "7500000", q2.Rate.String(), "a rate added to the settings")
	assert.Equal(t, "7500", q2.ReceivingAmount.String())
	assert.Equal(t, second.ID, q2.BankID)

	id := uuid.New()
	exp := epoch.Add(-time.Hour)
	given := sandbox.Quotation{
		ID: id, CustomerID: c.ID, BankID: second.ID, Asset: "USDC", Network: "SOLANA", Fiat: "INR",
		SendingAmount: fxDec("3"), Rate: fxDec("90"), ReceivingAmount: fxDec("250.5"),
		Fees: sandbox.Fees{TDS: fxDec("1")}, WalletAddress: "W", ExpiresAt: exp,
	}
	q3, err := sb.AddQuotation(given)
	require.NoError(t, err)
	assert.Equal(t, given, q3, "nothing given is replaced")

	noCust := uuid.New()
	noBank := uuid.New()
	for _, tc := range []struct {
		q   sandbox.Quotation
		msg string
	}{
		{sandbox.Quotation{CustomerID: noCust, SendingAmount: fxDec("1")}, "sandbox: quotation: no customer " + noCust.String()},
		{sandbox.Quotation{ID: id, CustomerID: c.ID, SendingAmount: fxDec("1")}, "sandbox: quotation: id " + id.String() + " already exists"},
		{sandbox.Quotation{CustomerID: c.ID, BankID: otherBank.ID, SendingAmount: fxDec("1")},
			"sandbox: quotation: bank account " + otherBank.ID.String() + " is not customer " + c.ID.String() + "'s"},
		{sandbox.Quotation{CustomerID: c.ID, BankID: noBank, SendingAmount: fxDec("1")},
			"sandbox: quotation: bank account " + noBank.String() + " is not customer " + c.ID.String() + "'s"},
		{sandbox.Quotation{CustomerID: c.ID}, "sandbox: quotation: sending_amount 0 is not positive"},
		{sandbox.Quotation{CustomerID: c.ID, SendingAmount: fxDec("-5")}, "sandbox: quotation: sending_amount -5 is not positive"},
		{sandbox.Quotation{CustomerID: c.ID, SendingAmount: fxDec("1"), Asset: "DOGE"}, "sandbox: quotation: no rate for DOGE/INR: give one"},
		{sandbox.Quotation{CustomerID: c.ID, SendingAmount: fxDec("1"), Fiat: "usd"}, "sandbox: quotation: no rate for USDT/USD: give one"},
		{sandbox.Quotation{CustomerID: c.ID, SendingAmount: fxDec("1"), Rate: fxDec("-88")}, "sandbox: quotation: rate -88 is not positive"},
		{sandbox.Quotation{CustomerID: c.ID, SendingAmount: fxDec("0.00001")}, "sandbox: quotation: receiving_amount 0 is not positive"},
		{sandbox.Quotation{CustomerID: c.ID, SendingAmount: fxDec("1"), ReceivingAmount: fxDec("-1")}, "sandbox: quotation: receiving_amount -1 is not positive"},
	} {
		_, err := sb.AddQuotation(tc.q)
		assert.EqualError(t, err, tc.msg)
	}
	// A rate of another pair, given, needs no setting.
	q4, err := sb.AddQuotation(sandbox.Quotation{CustomerID: c.ID, SendingAmount: fxDec("2"), Asset: "DOGE", Rate: fxDec("12.5")})
	require.NoError(t, err)
	assert.Equal(t, "25", q4.ReceivingAmount.String())
}

func TestFixtureAddRemitter(t *testing.T) {
	sb := sandbox.New()
	o, _ := sb.AddOrganization(sandbox.Organization{})
	r, err := sb.AddRemitter(sandbox.Remitter{OrganizationID: o.ID})
	require.NoError(t, err)
	assert.NotEqual(t, uuid.Nil, r.ID)
	assert.Equal(t, o.ID, r.OrganizationID)

	id := uuid.New()
	r2, err := sb.AddRemitter(sandbox.Remitter{ID: id, OrganizationID: o.ID, Name: "R"})
	require.NoError(t, err)
	assert.Equal(t, sandbox.Remitter{ID: id, OrganizationID: o.ID, Name: "R"}, r2)

	noOrg := uuid.New()
	_, err = sb.AddRemitter(sandbox.Remitter{OrganizationID: noOrg})
	assert.EqualError(t, err, "sandbox: remitter: no organization "+noOrg.String())
	_, err = sb.AddRemitter(sandbox.Remitter{ID: id, OrganizationID: o.ID})
	assert.EqualError(t, err, "sandbox: remitter: id "+id.String()+" already exists")
}

func TestFixtureSettingsSnapshot(t *testing.T) {
	sb := sandbox.New(func(s *sandbox.Settings) { s.PageSize = -3; s.RemittancePayoutPath = ""; s.RetryAfter = 0 })
	st := sb.Settings()
	assert.Equal(t, 10, st.PageSize, "non-positive page size: default")
	assert.Equal(t, sandbox.DefaultRemittancePayoutPath, st.RemittancePayoutPath)
	assert.Equal(t, time.Second, st.RetryAfter)
	assert.Equal(t, "88.5", st.Rates["USDT/INR"].String())

	st.Rates["USDT/INR"] = fxDec("1")
	delete(st.Rates, "USDC/INR")
	again := sb.Settings()
	assert.Equal(t, "88.5", again.Rates["USDT/INR"].String())
	assert.Contains(t, again.Rates, "USDC/INR")

	// The option's map is copied too: changing it after New changes nothing.
	rates := map[string]decimal.Decimal{"USDT/INR": fxDec("80")}
	sb2 := sandbox.New(func(s *sandbox.Settings) { s.Rates = rates })
	rates["USDT/INR"] = fxDec("1")
	assert.Equal(t, "80", sb2.Settings().Rates["USDT/INR"].String())
}

func TestFixtureSeedDemo(t *testing.T) {
	sb := sandbox.New()
	sb.SetTime(epoch)
	d, err := sb.SeedDemo()
	require.NoError(t, err)

	o := d.Organization
	assert.Equal(t, "Demo Organization", o.Name)
	assert.True(t, o.Prefunded)
	assert.Regexp(t, fxKeyPattern, o.APIKey)
	assert.Regexp(t, fxSecretPattern, o.APISecret)
	assert.Equal(t, map[string]decimal.Decimal{"USDT": decimal.NewFromInt(1000)}, o.Balances)

	assert.Equal(t, o.ID, d.Customer.OrganizationID)
	assert.Equal(t, "Asha Rao", d.Customer.Name)
	assert.Equal(t, types.KYCVerified, d.Customer.KYCStatus)
	assert.Equal(t, sandbox.CustomerFlags{}, d.Customer.CustomerFlags)

	assert.Equal(t, d.Customer.ID, d.BankAccount.CustomerID)
	assert.Equal(t, types.BankAccountTypeBankAccount, d.BankAccount.Type)
	assert.Equal(t, types.BankAccountVerified, d.BankAccount.Status)
	assert.Equal(t, "001234567890", d.BankAccount.AccountNumber)
	assert.Equal(t, "SBIN0001234", d.BankAccount.IFSC)

	assert.Equal(t, d.Customer.ID, d.VPA.CustomerID)
	assert.Equal(t, types.BankAccountTypeVPA, d.VPA.Type)
	assert.Equal(t, "asha.rao@upi", d.VPA.VPA)
	assert.Equal(t, types.BankAccountVerified, d.VPA.Status)

	assert.Equal(t, o.ID, d.PendingCustomer.OrganizationID)
	assert.Equal(t, types.KYCProcessing, d.PendingCustomer.KYCStatus)
	assert.Equal(t, o.ID, d.Remitter.OrganizationID)

	require.Len(t, d.Quotations, 3)
	seen := map[uuid.UUID]bool{}
	for _, q := range d.Quotations {
		seen[q.ID] = true
		assert.Equal(t, d.Customer.ID, q.CustomerID)
		assert.Equal(t, d.BankAccount.ID, q.BankID)
		assert.Equal(t, "10", q.SendingAmount.String())
		assert.Equal(t, "USDT", q.Asset)
		assert.Equal(t, "882.5", q.ReceivingAmount.String())
		assert.Equal(t, epoch.Add(10*time.Minute), q.ExpiresAt)
	}
	assert.Len(t, seen, 3, "three distinct quotations")

	// What SeedDemo returns is what is stored.
	got, ok := sb.Organization(o.ID)
	require.True(t, ok)
	assert.Equal(t, o, got)
	pending, _ := sb.Customer(d.PendingCustomer.ID)
	assert.Equal(t, d.PendingCustomer, pending)

	// Each call adds a new organization with new keys.
	d2, err := sb.SeedDemo()
	require.NoError(t, err)
	assert.NotEqual(t, o.ID, d2.Organization.ID)
	assert.NotEqual(t, o.APIKey, d2.Organization.APIKey)
	assert.NotEqual(t, d.Quotations[0].ID, d2.Quotations[0].ID)

	// The demo walks: one quotation per payout operation, and the KYC
	// simulation on the pending customer.
	c := serveSandbox(t, sb, o)
	_, err = c.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: d.Quotations[0].ID, CustomerID: d.Customer.ID})
	require.NoError(t, err)
	_, err = c.Payouts.CreatePrefunded(ctx(t), types.CreatePrefundedPayoutRequest{
		QuotationID: d.Quotations[1].ID,
		Customer:    types.PrefundedCustomer{Sender: types.CustomerRef{ID: d.Customer.ID}, Receiver: types.CustomerRef{ID: d.Customer.ID}},
	})
	require.NoError(t, err)
	_, err = c.Payouts.CreateRemittance(ctx(t), types.CreateRemittancePayoutRequest{
		QuotationID: d.Quotations[2].ID, CustomerID: d.Customer.ID, RemitterID: d.Remitter.ID,
	})
	require.NoError(t, err)
	sim, err := c.KYC.SimulateStatus(ctx(t), d.PendingCustomer.ID, types.KYCVerified)
	require.NoError(t, err)
	assert.Equal(t, types.KYCVerified, sim.Status)
	assert.Len(t, sb.Payouts(o.ID), 3)
	assert.Empty(t, sb.Payouts(d2.Organization.ID))
}

func TestFixturePayoutsOrderAndSnapshots(t *testing.T) {
	e := newEnv(t)
	other := e.otherOrg(false)
	otherCust := e.customer(other, sandbox.Customer{})
	_, err := e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: otherCust.ID})
	require.NoError(t, err)
	otherQ, err := e.sb.AddQuotation(sandbox.Quotation{CustomerID: otherCust.ID, SendingAmount: fxDec("1")})
	require.NoError(t, err)

	assert.Empty(t, e.sb.Payouts(e.org.ID))
	assert.Empty(t, e.sb.Payouts(uuid.New()))

	// Created a second apart, in an order unrelated to their ids.
	var ids []uuid.UUID
	for i := range 5 {
		q := e.quotation()
		p, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{
			QuotationID: q.ID, CustomerID: e.cust.ID, ClientReferenceID: fmt.Sprintf("order-%d", i),
		})
		require.NoError(t, err)
		ids = append(ids, p.ID) // all at the same frozen instant
	}
	oc := e.clientFor(other)
	op, err := oc.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: otherQ.ID, CustomerID: otherCust.ID, ClientReferenceID: "order-0"})
	require.NoError(t, err)

	all := e.sb.Payouts(e.org.ID)
	require.Len(t, all, 5, "only the organization's own")
	for i, p := range all {
		assert.Equal(t, ids[i], p.ID, "in creation order, even at one instant")
		assert.Equal(t, epoch, p.CreatedAt)
		assert.Equal(t, sandbox.PayoutStandard, p.Kind)
		assert.Equal(t, e.org.ID, p.OrganizationID)
	}
	otherAll := e.sb.Payouts(other.ID)
	require.Len(t, otherAll, 1)
	assert.Equal(t, op.ID, otherAll[0].ID)

	// References are per organization.
	p0, ok := e.sb.PayoutByReference(e.org.ID, "order-0")
	require.True(t, ok)
	assert.Equal(t, ids[0], p0.ID)
	po, ok := e.sb.PayoutByReference(other.ID, "order-0")
	require.True(t, ok)
	assert.Equal(t, op.ID, po.ID)
	_, ok = e.sb.PayoutByReference(e.org.ID, "order-9")
	assert.False(t, ok)
	_, ok = e.sb.PayoutByReference(uuid.New(), "order-0")
	assert.False(t, ok)
	_, ok = e.sb.Payout(uuid.New())
	assert.False(t, ok)

	// Snapshots: writing through a returned payout's pointers or changing
	// its fields changes nothing stored.
	*p0.ClientReferenceID = "tampered"
	p0.Status = types.PayoutSuccess
	all[1].Status = types.PayoutFailed
	again, ok := e.sb.Payout(ids[0])
	require.True(t, ok)
	require.NotNil(t, again.ClientReferenceID)
	assert.Equal(t, "order-0", *again.ClientReferenceID)
	assert.Equal(t, types.PayoutProcessing, again.Status)
	list := e.sb.Payouts(e.org.ID)
	*list[2].ClientReferenceID = "tampered too"
	assert.Equal(t, types.PayoutProcessing, e.sb.Payouts(e.org.ID)[1].Status)
	got, err := e.client.Payouts.Get(ctx(t), ids[2])
	require.NoError(t, err)
	assert.Equal(t, "order-2", *got.ClientReferenceID)

	// The simulation moves the stored payout; old snapshots stay as taken.
	_, err = e.client.Payouts.SimulateStatus(ctx(t), ids[3], types.PayoutSuccess)
	require.NoError(t, err)
	moved, _ := e.sb.Payout(ids[3])
	assert.Equal(t, types.PayoutSuccess, moved.Status)
	require.NotNil(t, moved.UTR)
	*moved.UTR = "tampered"
	fresh, _ := e.sb.Payout(ids[3])
	assert.NotEqual(t, "tampered", *fresh.UTR)
	assert.Equal(t, types.PayoutProcessing, list[3].Status)
}

// Many goroutines use one sandbox at once: signed reads, payouts, fixture
// adds, snapshots, faults and the clock. Run with -race.
func TestFixtureConcurrentUse(t *testing.T) {
	e := newEnv(t)
	const workers, rounds = 12, 25
	var created, requests atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*4)
	report := func(err error) {
		if err != nil {
			errs <- err
		}
	}
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultUnavailable, Path: "/never/*"}))
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				switch w % 4 {
				case 0: // signed reads
					_, err := e.client.KYC.GetConfiguration(ctx(t), e.cust.ID)
					report(err)
					_, err = e.client.Customers.GetBankAccount(ctx(t), e.cust.ID, e.bank.ID)
					report(err)
					_, err = e.client.Customers.ListBankAccounts(ctx(t), e.cust.ID)
					report(err)
					requests.Add(3)
				case 1: // fixtures added while served, then used
					c, err := e.sb.AddCustomer(sandbox.Customer{OrganizationID: e.org.ID, Name: fmt.Sprint(w, i)})
					report(err)
					_, err = e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: c.ID})
					report(err)
					q, err := e.sb.AddQuotation(sandbox.Quotation{CustomerID: c.ID, SendingAmount: fxDec("0.5")})
					report(err)
					_, err = e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{
						QuotationID: q.ID, CustomerID: c.ID, ClientReferenceID: fmt.Sprintf("c-%d-%d", w, i),
					})
					report(err)
					if err == nil {
						created.Add(1)
					}
					report(e.sb.SetKYCStatus(c.ID, types.KYCProcessing))
					_, err = e.client.KYC.SimulateStatus(ctx(t), c.ID, types.KYCVerified)
					report(err)
					requests.Add(2)
				case 2: // snapshots and settings
					_ = e.sb.Payouts(e.org.ID)
					_, _ = e.sb.Organization(e.org.ID)
					_ = e.sb.Balance(e.org.ID, "USDT")
					_ = e.sb.Stats()
					_ = e.sb.Settings()
					_, _ = e.sb.PayoutByReference(e.org.ID, fmt.Sprintf("c-1-%d", i))
					report(e.sb.SetBalance(e.org.ID, "USDC", decimal.NewFromInt(int64(i))))
					e.sb.Advance(time.Millisecond)
					_ = e.sb.Now()
				case 3: // faults that match nothing else, and prefunded payouts
					report(e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultRateLimit, Path: "/never/" + fmt.Sprint(i), Count: 1}))
					q, err := e.sb.AddQuotation(sandbox.Quotation{CustomerID: e.cust.ID, SendingAmount: fxDec("0.25")})
					report(err)
					_, err = e.client.Payouts.CreatePrefunded(ctx(t), types.CreatePrefundedPayoutRequest{
						QuotationID: q.ID,
						Customer:    types.PrefundedCustomer{Sender: types.CustomerRef{ID: e.cust.ID}, Receiver: types.CustomerRef{ID: e.cust.ID}},
					})
					report(err)
					if err == nil {
						created.Add(1)
					}
					requests.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.Len(t, e.sb.Payouts(e.org.ID), int(created.Load()))
	assert.Equal(t, int64(workers/4*rounds*2), created.Load())
	assert.Equal(t, int(requests.Load()), e.sb.Stats().Requests)
	assert.Empty(t, e.sb.Stats().Faults)
	// 3 workers × 25 prefunded payouts of 0.25 USDT from 1000.
	assert.Equal(t, "981.25", e.sb.Balance(e.org.ID, "USDT").String())
}
