package sandbox_test

import (
	"encoding/json"
	"errors"
	"os"
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

// readFixturesFile parses testdata/fixtures.json.
func readFixturesFile(t testing.TB) sandbox.Fixtures {
	t.Helper()
	fh, err := os.Open("testdata/fixtures.json")
	require.NoError(t, err)
	defer fh.Close()
	f, err := sandbox.LoadJSON(fh)
	require.NoError(t, err)
	return f
}

// loadFixturesFile loads testdata/fixtures.json into a sandbox frozen at
// epoch and serves it.
func loadFixturesFile(t testing.TB) (*sandbox.Sandbox, *sandbox.Server, sandbox.Fixtures) {
	t.Helper()
	sb := sandbox.New()
	sb.SetTime(epoch)
	loaded, err := sb.Load(readFixturesFile(t))
	require.NoError(t, err)
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return sb, srv, loaded
}

func loadDec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestLoadFixturesFileTree(t *testing.T) {
	sb, _, loaded := loadFixturesFile(t)
	require.Len(t, loaded.Organizations, 2)

	acme := loaded.Organizations[0]
	assert.Equal(t, uuid.MustParse("5b0c8a52-7c1e-4d4f-9a63-1f2e3d4c5b60"), acme.ID)
	assert.Equal(t, "acme_sandbox_key", acme.APIKey)
	assert.Equal(t, "acme_sandbox_secret", acme.APISecret)
	assert.True(t, acme.Prefunded)
	// Asset codes are upper-cased; amounts kept exactly.
	require.Len(t, acme.Balances, 2)
	assert.Equal(t, "5000", acme.Balances["USDT"].String())
	assert.Equal(t, "1200.5", acme.Balances["USDC"].String())
	assert.Equal(t, "1200.5", sb.Balance(acme.ID, "usdc").String())
	require.Len(t, acme.Customers, 5)
	require.Len(t, acme.Remitters, 1)

	asha := acme.Customers[0]
	assert.Equal(t, uuid.MustParse("0f6f4c0e-2b59-4a51-8a1e-6c1a2b3c4d01"), asha.ID)
	assert.Equal(t, acme.ID, asha.OrganizationID, "organization_id from the nesting")
	assert.Equal(t, types.KYCVerified, asha.KYCStatus)
	require.Len(t, asha.BankAccounts, 2)
	require.Len(t, asha.Wallets, 1)

	bank := asha.BankAccounts[0]
	assert.Equal(t, asha.ID, bank.CustomerID)
	assert.Equal(t, types.BankAccountTypeBankAccount, bank.Type)
	assert.Equal(t, types.BankAccountVerified, bank.Status)
	assert.Equal(t, "IND", bank.Country)
	require.Len(t, bank.Quotations, 3)

	q0 := bank.Quotations[0]
	assert.Equal(t, asha.ID, q0.CustomerID)
	assert.Equal(t, bank.ID, q0.BankID)
	assert.Equal(t, "25", q0.SendingAmount.String())
	assert.Equal(t, "88.25", q0.Rate.String())
	assert.Equal(t, "2206.25", q0.ReceivingAmount.String(), "25 × 88.25")
	assert.Equal(t, "4.5", q0.Fees.ServiceFee.String())
	assert.Equal(t, "22.06", q0.Fees.TDS.String())
	assert.Equal(t, "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE", q0.WalletAddress)
	assert.True(t, q0.ExpiresAt.Equal(time.Date(2099, 12, 31, 23, 59, 59, 0, time.UTC)))

	// Defaults: asset, network, fiat, the settings' rate, amount rounded.
	q1 := bank.Quotations[1]
	assert.Equal(t, "USDT", q1.Asset)
	assert.Equal(t, "TRON", q1.Network)
	assert.Equal(t, "INR", q1.Fiat)
	assert.Equal(t, "88.5", q1.Rate.String())
	assert.Equal(t, "885", q1.ReceivingAmount.String())
	assert.NotEmpty(t, q1.WalletAddress)

	vpa := asha.BankAccounts[1]
	assert.Equal(t, types.BankAccountTypeVPA, vpa.Type)
	assert.Equal(t, "asha.rao@upi", vpa.VPA)
	assert.Empty(t, vpa.Quotations)

	w := asha.Wallets[0]
	assert.NotEqual(t, uuid.Nil, w.ID)
	assert.Equal(t, asha.ID, w.CustomerID)
	assert.Equal(t, types.WalletActive, w.Status)

	meera := acme.Customers[2]
	assert.NotEqual(t, uuid.Nil, meera.ID, "generated id")
	assert.True(t, meera.AMLFailed)
	assert.Len(t, meera.BankAccounts[0].AccountNumber, 12, "generated account number")
	assert.Equal(t, "HDFC0000123", meera.BankAccounts[0].IFSC)
	assert.Equal(t, "Meera Iyer", meera.BankAccounts[0].AccountName, "account name defaults to the customer's")

	karan := acme.Customers[3]
	assert.Equal(t, sandbox.CustomerFlags{OnrampDisabled: true, EDDRequired: true, DailyLimitExhausted: true}, karan.CustomerFlags)
	assert.Equal(t, types.BankAccountProcessing, karan.BankAccounts[0].Status)
	assert.NotEmpty(t, karan.BankAccounts[0].VPA, "generated vpa")

	assert.Equal(t, types.KYCProcessing, acme.Customers[1].KYCStatus)
	assert.Equal(t, types.KYCDocumentVerificationFailed, acme.Customers[4].KYCStatus)
	assert.Equal(t, acme.ID, acme.Remitters[0].OrganizationID)

	beta := loaded.Organizations[1]
	assert.NotEqual(t, uuid.Nil, beta.ID)
	assert.True(t, strings.HasPrefix(beta.APIKey, "sbx_key_"), beta.APIKey)
	assert.NotEmpty(t, beta.APISecret)
	assert.False(t, beta.Prefunded)
	assert.Empty(t, beta.Balances)
	vq := beta.Customers[0].BankAccounts[0].Quotations[0]
	assert.Equal(t, "USDC", vq.Asset)
	assert.Equal(t, "ETHEREUM", vq.Network)
	assert.Equal(t, "88.4", vq.Rate.String())
	assert.Equal(t, "8840", vq.ReceivingAmount.String())
	assert.Equal(t, beta.ID, beta.Remitters[0].OrganizationID)

	// The returned tree is what the sandbox holds.
	stored, ok := sb.Customer(meera.ID)
	require.True(t, ok)
	assert.Equal(t, meera.Customer, stored)
	storedOrg, ok := sb.Organization(beta.ID)
	require.True(t, ok)
	assert.Equal(t, beta.APIKey, storedOrg.APIKey)
}

// The tree Load returns, written as JSON, loads again into a fresh sandbox
// as the very same tree: it is a complete description of what was added.
func TestLoadReturnedTreeRoundTrips(t *testing.T) {
	_, _, loaded := loadFixturesFile(t)
	first, err := json.Marshal(loaded)
	require.NoError(t, err)

	// One flat object per item: fields of the fixture type beside the lists.
	var generic struct {
		Organizations []map[string]json.RawMessage `json:"organizations"`
	}
	require.NoError(t, json.Unmarshal(first, &generic))
	for _, k := range []string{"id", "name", "api_key", "api_secret", "prefunded", "balances", "customers", "remitters"} {
		assert.Contains(t, generic.Organizations[0], k)
	}

	again, err := sandbox.LoadJSON(strings.NewReader(string(first)))
	require.NoError(t, err)
	sb := sandbox.New()
	sb.SetTime(epoch)
	reloaded, err := sb.Load(again)
	require.NoError(t, err)
	second, err := json.Marshal(reloaded)
	require.NoError(t, err)
	assert.JSONEq(t, string(first), string(second))
}

func TestLoadFixturesFileServesClient(t *testing.T) {
	sb, srv, loaded := loadFixturesFile(t)
	acme, beta := loaded.Organizations[0], loaded.Organizations[1]
	asha := acme.Customers[0]
	bank := asha.BankAccounts[0]
	c, err := srv.Client(acme.Organization, fiatramp.WithClock(sb.Now))
	require.NoError(t, err)

	got, err := c.Customers.GetBankAccount(ctx(t), asha.ID, bank.ID)
	require.NoError(t, err)
	assert.Equal(t, "001234567890", got.AccountNumber)
	assert.Equal(t, "SBIN0001234", got.IFSC)
	assert.Equal(t, "Asha Rao", got.BeneficiaryName)

	cfg, err := c.KYC.GetConfiguration(ctx(t), asha.ID)
	require.NoError(t, err)
	assert.NotEmpty(t, cfg.SupportedDocumentTypes)

	p, err := c.Payouts.Create(ctx(t), types.CreatePayoutRequest{
		QuotationID: bank.Quotations[0].ID, CustomerID: asha.ID, ClientReferenceID: "fixture-1",
	})
	require.NoError(t, err)
	assert.Equal(t, types.PayoutProcessing, p.Status)
	assert.Equal(t, "2206.25", p.ReceivingAmount.String())
	assert.Equal(t, bank.ID, p.BankID)

	_, err = c.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: bank.Quotations[2].ID, CustomerID: asha.ID})
	refused(t, err, 400, "Quotation has expired", fiatramp.ErrQuotationExpired)

	pre, err := c.Payouts.CreatePrefunded(ctx(t), types.CreatePrefundedPayoutRequest{
		QuotationID: bank.Quotations[1].ID,
		Customer:    types.PrefundedCustomer{Sender: types.CustomerRef{ID: asha.ID}, Receiver: types.CustomerRef{ID: asha.ID}},
	})
	require.NoError(t, err)
	assert.Equal(t, types.PayoutProcessing, pre.Status)
	assert.Equal(t, "4990", sb.Balance(acme.ID, "USDT").String(), "10 USDT reserved from 5000")

	// A customer flagged in the file meets its refusal.
	meera := acme.Customers[2]
	_, err = c.Payins.CreateQuotation(ctx(t), types.CreatePayinQuotationRequest{
		Asset: "USDT", Fiat: "INR", SendingAmount: loadDec("5000"),
		CustomerID: meera.ID, BankID: meera.BankAccounts[0].ID, PaymentMethod: types.PaymentMethodIMPS,
	})
	refused(t, err, 400, "AML SCREENING FAILED", fiatramp.ErrAMLScreeningFailed)

	// The second organization signs with its generated key and sees only
	// its own records.
	cb, err := srv.Client(beta.Organization, fiatramp.WithClock(sb.Now))
	require.NoError(t, err)
	_, err = cb.KYC.GetConfiguration(ctx(t), asha.ID)
	refused(t, err, 400, "Customer not found or access denied", fiatramp.ErrCustomerNotFound)
	vikram := beta.Customers[0]
	vb, err := cb.Customers.GetBankAccount(ctx(t), vikram.ID, vikram.BankAccounts[0].ID)
	require.NoError(t, err)
	assert.Equal(t, "112233445566", vb.AccountNumber)
	_, err = cb.Payouts.CreatePrefunded(ctx(t), types.CreatePrefundedPayoutRequest{
		QuotationID: vikram.BankAccounts[0].Quotations[0].ID,
		Customer:    types.PrefundedCustomer{Sender: types.CustomerRef{ID: vikram.ID}, Receiver: types.CustomerRef{ID: vikram.ID}},
	})
	refused(t, err, 400, "This endpoint is not available for your organization.", fiatramp.ErrNotEntitled)
}

func TestLoadJSONStrict(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"empty", ``, []string{"sandbox: load: empty document"}},
		{"unknown top-level member", `{"organisations": []}`, []string{`unknown field "organisations"`}},
		{"unknown nested member", `{"organizations": [{"customers": [{"bank_accounts": [{"colour": "red"}]}]}]}`,
			[]string{`unknown field "colour"`}},
		{"trailing data", `{"organizations": []} x`, []string{"line 1, column 23", "invalid character 'x'"}},
		{"second document", "{\"organizations\": []}\n{}", []string{"line 2, column 1", "data after the fixtures document"}},
		{"trailing brace", `{"organizations": []}}`, []string{"invalid character '}'"}},
		{"syntax error", "{\"organizations\": [\n  {\"name\": \"x\",}\n]}", []string{"line 2, column 16", "invalid character '}'"}},
		{"wrong type", "{\"organizations\": [{\"customers\": [{\"kyc_status\": 5}]}]}",
			[]string{"line 1, column 50: organizations.customers.kyc_status: cannot decode a JSON number into types.KYCStatus"}},
		{"bad uuid", `{"organizations": [{"id": "nope"}]}`, []string{"invalid UUID"}},
		{"bad decimal", `{"organizations": [{"balances": {"USDT": "lots"}}]}`, []string{"lots"}},
		{"truncated", `{"organizations": [`, []string{"document ends early"}},
		{"not an object", `[]`, []string{"cannot unmarshal array"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sandbox.LoadJSON(strings.NewReader(tc.doc))
			require.Error(t, err)
			var le *sandbox.LoadError
			require.ErrorAs(t, err, &le)
			assert.Empty(t, le.Path)
			assert.True(t, strings.HasPrefix(err.Error(), "sandbox: load: "), err.Error())
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}

	// Surrounding white space is fine; null lists are empty.
	f, err := sandbox.LoadJSON(strings.NewReader("\n {\"organizations\": [{\"customers\": null}]} \n\n"))
	require.NoError(t, err)
	require.Len(t, f.Organizations, 1)
	assert.Empty(t, f.Organizations[0].Customers)
}

func TestLoadErrorsNameTheItem(t *testing.T) {
	other := uuid.MustParse("11111111-2222-4333-8444-555555555555")
	for _, tc := range []struct {
		name string
		f    sandbox.Fixtures
		msg  string
	}{
		{"customer of another organization", sandbox.Fixtures{Organizations: []sandbox.OrganizationFixture{{
			Customers: []sandbox.CustomerFixture{{}, {Customer: sandbox.Customer{OrganizationID: other}}},
		}}}, "sandbox: load: organizations[0].customers[1]: organization_id " + other.String() + " is not the enclosing organization's id"},
		{"bad KYC status", sandbox.Fixtures{Organizations: []sandbox.OrganizationFixture{{
			Customers: []sandbox.CustomerFixture{{Customer: sandbox.Customer{KYCStatus: "DONE"}}},
		}}}, `sandbox: load: organizations[0].customers[0]: customer: unknown KYC status "DONE"`},
		{"bank of another customer", sandbox.Fixtures{Organizations: []sandbox.OrganizationFixture{{
			Customers: []sandbox.CustomerFixture{{}, {BankAccounts: []sandbox.BankAccountFixture{
				{}, {BankAccount: sandbox.BankAccount{CustomerID: other}},
			}}},
		}}}, "sandbox: load: organizations[0].customers[1].bank_accounts[1]: customer_id " + other.String() + " is not the enclosing customer's id"},
		{"bad bank type", sandbox.Fixtures{Organizations: []sandbox.OrganizationFixture{{
			Customers: []sandbox.CustomerFixture{{BankAccounts: []sandbox.BankAccountFixture{{BankAccount: sandbox.BankAccount{Type: "iban"}}}}},
		}}}, `sandbox: load: organizations[0].customers[0].bank_accounts[0]: bank account: type "iban" is neither`},
		{"quotation paying elsewhere", sandbox.Fixtures{Organizations: []sandbox.OrganizationFixture{{
			Customers: []sandbox.CustomerFixture{{BankAccounts: []sandbox.BankAccountFixture{{
				Quotations: []sandbox.Quotation{{SendingAmount: loadDec("1"), BankID: other}},
			}}}},
		}}}, "sandbox: load: organizations[0].customers[0].bank_accounts[0].quotations[0]: bank_id " + other.String() + " is not the enclosing bank account's id"},
		{"quotation without amount", sandbox.Fixtures{Organizations: []sandbox.OrganizationFixture{{
			Customers: []sandbox.CustomerFixture{{BankAccounts: []sandbox.BankAccountFixture{{
				Quotations: []sandbox.Quotation{{SendingAmount: loadDec("1")}, {}},
			}}}},
		}}}, "sandbox: load: organizations[0].customers[0].bank_accounts[0].quotations[1]: quotation: sending_amount 0 is not positive"},
		{"quotation without a rate", sandbox.Fixtures{Organizations: []sandbox.OrganizationFixture{{
			Customers: []sandbox.CustomerFixture{{BankAccounts: []sandbox.BankAccountFixture{{
				Quotations: []sandbox.Quotation{{SendingAmount: loadDec("1"), Asset: "BTC"}},
			}}}},
		}}}, "sandbox: load: organizations[0].customers[0].bank_accounts[0].quotations[0]: quotation: no rate for BTC/INR: give one"},
		{"wallet without address", sandbox.Fixtures{Organizations: []sandbox.OrganizationFixture{{
			Customers: []sandbox.CustomerFixture{{Wallets: []sandbox.Wallet{{WalletAddress: "T1"}, {}}}},
		}}}, "sandbox: load: organizations[0].customers[0].wallets[1]: wallet: wallet_address is empty"},
		{"remitter of another organization", sandbox.Fixtures{Organizations: []sandbox.OrganizationFixture{{
			Remitters: []sandbox.Remitter{{OrganizationID: other}},
		}}}, "sandbox: load: organizations[0].remitters[0]: organization_id " + other.String() + " is not the enclosing organization's id"},
		{"duplicate key", sandbox.Fixtures{Organizations: []sandbox.OrganizationFixture{
			{Organization: sandbox.Organization{APIKey: "k"}}, {Organization: sandbox.Organization{APIKey: "k"}},
		}}, `sandbox: load: organizations[1]: organization: API key "k" already in use`},
		{"negative balance", sandbox.Fixtures{Organizations: []sandbox.OrganizationFixture{
			{Organization: sandbox.Organization{Balances: map[string]decimal.Decimal{"USDT": loadDec("-1")}}},
		}}, "sandbox: load: organizations[0]: organization: balance of USDT is negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb := sandbox.New()
			_, err := sb.Load(tc.f)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tc.msg), "got  %s\nwant %s...", err, tc.msg)
			var le *sandbox.LoadError
			require.ErrorAs(t, err, &le)
			assert.True(t, strings.HasPrefix(tc.msg, "sandbox: load: "+le.Path+": "), le.Path)
		})
	}
}

// A failed Load leaves nothing of its fixtures behind, so the same file,
// corrected, loads afterwards with the same ids and keys.
func TestLoadIsAllOrNothing(t *testing.T) {
	sb := sandbox.New()
	sb.SetTime(epoch)
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	defer srv.Close()

	f := readFixturesFile(t)
	acme := f.Organizations[0]
	// Break the last item of the file: Beta's remitter.
	f.Organizations[1].Remitters[0].OrganizationID = acme.ID
	_, err = sb.Load(f)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "sandbox: load: organizations[1].remitters[0]: organization_id "+
		acme.ID.String()+" is not the enclosing organization's id "), err.Error())
	_, ok := sb.Organization(acme.ID)
	assert.False(t, ok, "first organization removed")
	_, ok = sb.Customer(acme.Customers[0].ID)
	assert.False(t, ok, "its customers removed")

	// The removed key no longer signs.
	c, err := srv.Client(acme.Organization, fiatramp.WithClock(sb.Now))
	require.NoError(t, err)
	_, err = c.KYC.GetConfiguration(ctx(t), acme.Customers[0].ID)
	assert.True(t, errors.Is(err, fiatramp.ErrUnauthorized), "%v", err)

	f.Organizations[1].Remitters[0].OrganizationID = uuid.Nil
	loaded, err := sb.Load(f)
	require.NoError(t, err)
	assert.Equal(t, acme.ID, loaded.Organizations[0].ID)
	_, err = c.KYC.GetConfiguration(ctx(t), acme.Customers[0].ID)
	require.NoError(t, err)
	_, err = c.Customers.GetBankAccount(ctx(t), acme.Customers[0].ID, acme.Customers[0].BankAccounts[0].ID)
	require.NoError(t, err)
}

func TestLoadEmpty(t *testing.T) {
	sb := sandbox.New()
	out, err := sb.Load(sandbox.Fixtures{})
	require.NoError(t, err)
	b, err := json.Marshal(out)
	require.NoError(t, err)
	assert.JSONEq(t, `{"organizations": []}`, string(b))
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

func TestLoadJSONExactKeys(t *testing.T) {
	_, err := sandbox.LoadJSON(strings.NewReader(`{"Organizations":[]}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown field "Organizations" (names are case-sensitive: "organizations")`)
	f, err := sandbox.LoadJSON(strings.NewReader(`{"organizations":[{"name":"a","balances":{"USDT":"1"}}]}`))
	require.NoError(t, err)
	assert.True(t, f.Organizations[0].Balances["USDT"].Equal(decimal.NewFromInt(1)), "map keys are data, not names")
}
