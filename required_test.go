package fiatramp_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// This file checks that a 2xx whose data decodes but lacks a member the
// result cannot be used without (a payout's id, say) is refused as
// ErrMalformedResponse, never returned as a success holding uuid.Nil.

// member is one member of a response's data, in order.
type member struct {
	key, value string
	required   bool
	id         bool // a uuid: the nil UUID is refused too
}

// requiredOp is one typed operation and the minimal data it accepts.
type requiredOp struct {
	name               string
	method, path, body string
	create             bool // a payout create: ends in *OutcomeUnknownError
	data               []member
	call               func(ctx context.Context, c *fiatramp.Client) (any, error)
	check              func(t *testing.T, got any) // on the minimal valid data
	status             int
}

// object renders data as a JSON object, with members[skip] left out, or
// with its value replaced by with (when with is not "").
func object(data []member, at int, with string, drop bool) string {
	var b strings.Builder
	b.WriteString("{")
	first := true
	for i, m := range data {
		if i == at && drop {
			continue
		}
		if !first {
			b.WriteString(",")
		}
		first = false
		v := m.value
		if i == at {
			v = with
		}
		b.WriteString(`"` + m.key + `":` + v)
	}
	return b.String() + "}"
}

const nilUUID = `"00000000-0000-0000-0000-000000000000"`

func requiredOps() []requiredOp {
	q := func(u uuid.UUID) string { return `"` + u.String() + `"` }
	return []requiredOp{
		{
			name: "Payouts.GetBalance", method: http.MethodGet, path: "/pos/api/v1/payout/balance", status: 200,
			// {} is a known balance of nothing: valid.
			data: []member{{key: "available_balance", value: `{}`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payouts.GetBalance(ctx) },
			check: func(t *testing.T, got any) {
				b := got.(*types.Balance)
				assert.NotNil(t, b.AvailableBalance)
				assert.Empty(t, b.AvailableBalance)
			},
		},
		{
			// The flat edition: the newest, keyed by fiat, is tested in
			// payouts_configuration_test.go.
			name: "Payouts.GetConfiguration", method: http.MethodGet, path: "/pos/api/v1/payout/configuration", status: 200,
			data: []member{{key: "supported_assets", value: `[]`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payouts.GetConfiguration(ctx) },
			check: func(t *testing.T, got any) {
				assert.NotNil(t, got.(*types.Configuration).SupportedAssets)
			},
		},
		{
			name: "Payouts.GetRate", method: http.MethodGet, path: "/pos/api/v1/payout/fetch-rate", status: 200,
			data: []member{{key: "rate", value: `88.5`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.GetRate(ctx, types.RateRequest{Asset: "USDT", Fiat: "INR"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, "88.5", got.(*types.Rate).Rate.String()) },
		},
		{
			name: "Payouts.List", method: http.MethodGet, path: "/pos/api/v1/payout/history", status: 200,
			data: []member{{key: "count", value: `0`}, {key: "results", value: `[]`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.List(ctx, types.PayoutListFilter{})
			},
			check: func(t *testing.T, got any) {
				p := got.(*types.PayoutPage)
				assert.NotNil(t, p.Results)
				assert.Empty(t, p.Results)
			},
		},
		{
			name: "Payouts.Create", method: http.MethodPost, path: "/pos/api/v1/payout/initiate", create: true, status: 201,
			body: `{"client_reference_id":"ref-req-1","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"}`,
			data: []member{{key: "id", value: q(payoutID), required: true, id: true}, {key: "status", value: `"PROCESSING"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: "ref-req-1"})
			},
			check: func(t *testing.T, got any) {
				p := got.(*types.Payout)
				assert.Equal(t, payoutID, p.ID)
				assert.Equal(t, types.PayoutProcessing, p.Status)
			},
		},
		{
			name: "Payouts.SimulateStatus", method: http.MethodPatch, path: "/pos/api/v1/payout/mock-payout-status", status: 200,
			body: `{"payout_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","payout_status":"SUCCESS"}`,
			data: []member{{key: "payout_id", value: q(payoutID), required: true, id: true}, {key: "payout_status", value: `"SUCCESS"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.SimulateStatus(ctx, payoutID, types.PayoutSuccess)
			},
			check: func(t *testing.T, got any) { assert.Equal(t, payoutID, got.(*types.PayoutStatusSimulation).PayoutID) },
		},
		{
			name: "Payouts.CreateQuotation", method: http.MethodPost, path: "/pos/api/v1/payout/quotation", status: 201,
			body: `{"asset":"usdt","bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","fiat":"inr","risk_parameters":{"law_enforcement_agency_report":false,"suspicious_activity_report":false},"sending_amount":"12.5"}`,
			data: []member{{key: "id", value: q(quotationID), required: true, id: true}, {key: "rate", value: `88.5`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.CreateQuotation(ctx, types.CreatePayoutQuotationRequest{Asset: "USDT", Fiat: "INR",
					SendingAmount: decimal.RequireFromString("12.5"), CustomerID: customerID, BankID: bankID})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, quotationID, got.(*types.PayoutQuotation).ID) },
		},
		{
			name: "Payouts.GetQuotation", method: http.MethodGet, path: "/pos/api/v1/payout/quotation/" + quotationID.String(), status: 200,
			data: []member{{key: "id", value: q(quotationID), required: true, id: true}, {key: "status", value: `"LINKED"`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.GetQuotation(ctx, quotationID)
			},
			check: func(t *testing.T, got any) {
				assert.Equal(t, types.QuotationLinked, got.(*types.PayoutQuotation).Status)
			},
		},
		{
			name: "Payouts.LinkTransfer", method: http.MethodPatch, path: "/pos/api/v1/payout/update-transfer-id", status: 200,
			body: `{"exchange_order_id":"EXO1","exchange_transfer_id":"778899"}`,
			data: []member{{key: "exchange_order_id", value: `"EXO1"`, required: true}, {key: "exchange_transfer_id", value: `"778899"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.LinkTransfer(ctx, types.LinkTransferRequest{ExchangeOrderID: "EXO1", ExchangeTransferID: "778899"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, "778899", got.(*types.TransferLink).ExchangeTransferID) },
		},
		{
			name: "Payouts.Get", method: http.MethodGet, path: "/pos/api/v1/payout/" + payoutID.String(), status: 200,
			data: []member{{key: "id", value: q(payoutID), required: true, id: true}, {key: "status", value: `"SUCCESS"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payouts.Get(ctx, payoutID) },
			check: func(t *testing.T, got any) {
				assert.Equal(t, types.PayoutSuccess, got.(*types.Payout).Status)
			},
		},
		{
			name: "Payouts.CreatePrefunded", method: http.MethodPost, path: "/pos/api/v1/prefunded/payout/initiate", create: true, status: 201,
			body: `{"client_reference_id":"pf-req-1","customer":{"receiver":{"id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"},"sender":{"id":"4fa03f5c-7d8e-4a99-9eb2-6b5d0c2e3f45"}},"quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"}`,
			data: []member{{key: "id", value: q(payoutID), required: true, id: true}, {key: "status", value: `"PROCESSING"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{QuotationID: quotationID,
					Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: senderID}, Receiver: types.CustomerRef{ID: customerID}}, ClientReferenceID: "pf-req-1"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, payoutID, got.(*types.PrefundedPayout).ID) },
		},
		{
			name: "Payouts.CreateRemittance", method: http.MethodPost, path: "/pos/api/v1/remittance-payout/initiate", create: true, status: 200,
			body: `{"client_reference_id":"r-req-1","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23","remitter_id":"50b1406d-8e9f-4baa-8fc3-7c6e1d3f4056","transaction_hash":"0xabc"}`,
			// Its fields are not documented: status may be absent.
			data: []member{{key: "id", value: q(payoutID), required: true, id: true}, {key: "status", value: `"PROCESSING"`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.CreateRemittance(ctx, types.CreateRemittancePayoutRequest{QuotationID: quotationID, CustomerID: customerID,
					RemitterID: remitterID, TransactionHash: "0xabc", ClientReferenceID: "r-req-1"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, payoutID, got.(*types.RemittancePayout).ID) },
		},
		{
			name: "Payouts.SaveEDD", method: http.MethodPost, path: "/ren/api/v1/payout/edd/save", create: true, status: 200,
			body: `{"bank_statement_passwords":[],"bank_statement_url":[],"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","declaration":true,"itr_report_passwords":[],"itr_report_url":[],"source_of_income":"SALARY"}`,
			data: []member{{key: "id", value: q(walletID), required: true, id: true}, {key: "status", value: `"PROCESSING"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.SaveEDD(ctx, types.SavePayoutEDDRequest{CustomerID: customerID, SourceOfIncome: types.SourceOfIncomeSalary, Declaration: true})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, walletID, got.(*types.EDD).ID) },
		},
		{
			name: "Payouts.GetLimits", method: http.MethodGet, path: "/ren/api/v1/payout/limits/" + customerID.String(), status: 200,
			data: []member{{key: "available_limit", value: `0`, required: true}, {key: "daily_limit", value: `100`}, {key: "is_edd_required", value: `true`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payouts.GetLimits(ctx, customerID)
			},
			check: func(t *testing.T, got any) {
				assert.True(t, got.(*types.Limits).AvailableLimit.IsZero(), "a known zero")
			},
		},
		{
			name: "Payins.GetConfiguration", method: http.MethodGet, path: "/pis/api/v1/payin/configuration", status: 200,
			data: []member{{key: "supported_assets", value: `["USDT"]`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payins.GetConfiguration(ctx) },
			check: func(t *testing.T, got any) {
				assert.Equal(t, []string{"USDT"}, got.(*types.Configuration).SupportedAssets)
			},
		},
		{
			name: "Payins.GetRate", method: http.MethodGet, path: "/pis/api/v1/payin/fetch-rate", status: 200,
			data: []member{{key: "asset", value: `"USDT"`}, {key: "rate", value: `"88.4"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.GetRate(ctx, types.RateRequest{Asset: "USDT", Fiat: "INR"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, "88.4", got.(*types.Rate).Rate.String()) },
		},
		{
			name: "Payins.List", method: http.MethodGet, path: "/pis/api/v1/payin/history", status: 200,
			data: []member{{key: "results", value: `[]`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.List(ctx, types.PayinListFilter{})
			},
			check: func(t *testing.T, got any) { assert.Empty(t, got.(*types.PayinPage).Results) },
		},
		{
			name: "Payins.Initiate", method: http.MethodPost, path: "/pis/api/v1/payin/initiate", create: true, status: 201,
			body: `{"client_reference_id":"r-1","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"72d36280-a0b1-4dcc-a1e5-9e80f3516278","utr":"123456789012"}`,
			data: []member{{key: "id", value: q(payoutID), required: true, id: true}, {key: "status", value: `"PROCESSING"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.Initiate(ctx, types.InitiatePayinRequest{QuotationID: payinQuotation, CustomerID: customerID, UTR: "123456789012", ClientReferenceID: "r-1"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, payoutID, got.(*types.Payin).ID) },
		},
		{
			name: "Payins.SimulateStatus", method: http.MethodPatch, path: "/pis/api/v1/payin/mock-payin-status", status: 200,
			body: `{"payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","payin_status":"REFUNDED"}`,
			data: []member{{key: "payin_id", value: q(payoutID), required: true, id: true}, {key: "payin_status", value: `"REFUNDED"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.SimulateStatus(ctx, payoutID, types.PayinRefunded)
			},
			check: func(t *testing.T, got any) {
				assert.Equal(t, types.PayinRefunded, got.(*types.PayinStatusSimulation).PayinStatus)
			},
		},
		{
			name: "Payins.CreateQuotation", method: http.MethodPost, path: "/pis/api/v1/payin/quotation", status: 200,
			body: `{"asset":"usdt","bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","fiat":"inr","payment_method":"IMPS","risk_parameters":{"device_id":"dev-1","ip_address":"203.0.113.7","law_enforcement_agency_report":false,"suspicious_activity_report":false},"sending_amount":"10"}`,
			data: []member{{key: "id", value: q(payinQuotation), required: true, id: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{Asset: "USDT", Fiat: "INR", SendingAmount: decimal.NewFromInt(10),
					CustomerID: customerID, BankID: bankID, PaymentMethod: types.PaymentMethodIMPS,
					RiskParameters: types.RiskParameters{IPAddress: "203.0.113.7", DeviceID: "dev-1"}})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, payinQuotation, got.(*types.PayinQuotation).ID) },
		},
		{
			name: "Payins.GetQuotation", method: http.MethodGet, path: "/pis/api/v1/payin/quotation/" + payinQuotation.String(), status: 200,
			data: []member{{key: "id", value: q(payinQuotation), required: true, id: true}, {key: "status", value: `"PROCESSING"`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.GetQuotation(ctx, payinQuotation)
			},
			check: func(t *testing.T, got any) { assert.Equal(t, payinQuotation, got.(*types.PayinQuotation).ID) },
		},
		{
			name: "Payins.LinkTransfer", method: http.MethodPatch, path: "/pis/api/v1/payin/update-transfer-id", status: 200,
			body: `{"exchange_transfer_id":"t-1","payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34"}`,
			data: []member{{key: "payin_id", value: q(payoutID), required: true, id: true}, {key: "exchange_transfer_id", value: `"t-1"`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.LinkTransfer(ctx, types.LinkPayinTransferRequest{PayinID: payoutID, ExchangeTransferID: "t-1"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, payoutID, got.(*types.PayinTransferLink).PayinID) },
		},
		{
			name: "Payins.Get", method: http.MethodGet, path: "/pis/api/v1/payin/" + payoutID.String(), status: 200,
			data:  []member{{key: "id", value: q(payoutID), required: true, id: true}, {key: "status", value: `"SUCCESS"`, required: true}},
			call:  func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payins.Get(ctx, payoutID) },
			check: func(t *testing.T, got any) { assert.Equal(t, types.PayinSuccess, got.(*types.Payin).Status) },
		},
		{
			name: "Payins.SaveEDD", method: http.MethodPost, path: "/ren/api/v1/payin/edd/save", create: true, status: 200,
			body: `{"bank_statement_passwords":[],"bank_statement_url":[],"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","declaration":true,"itr_report_passwords":[],"itr_report_url":[],"p2p_trading_status":false,"source_of_income":"OTHERS","supporting_purpose_doc_url":[]}`,
			data: []member{{key: "id", value: q(walletID), required: true, id: true}, {key: "status", value: `"PROCESSING"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Payins.SaveEDD(ctx, types.SavePayinEDDRequest{CustomerID: customerID, SourceOfIncome: types.SourceOfIncomeOthers, Declaration: true})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, types.EDDProcessing, got.(*types.EDD).Status) },
		},
		{
			name: "Payins.GetLimits", method: http.MethodGet, path: "/ren/api/v1/payin/limits/" + customerID.String(), status: 200,
			data: []member{{key: "available_limit", value: `250.5`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Payins.GetLimits(ctx, customerID) },
			check: func(t *testing.T, got any) {
				assert.Equal(t, "250.5", got.(*types.Limits).AvailableLimit.String())
			},
		},
		{
			name: "Customers.AddBankAccount", method: http.MethodPost, path: "/cms/api/v1/bank/create", create: true, status: 200,
			body: `{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","vpa":"asha@upi"}`,
			data: []member{{key: "id", value: q(bankID), required: true, id: true}, {key: "bank_account_status", value: `"PROCESSING"`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.AddBankAccount(ctx, types.AddBankAccountRequest{CustomerID: customerID, VPA: "asha@upi"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, bankID, got.(*types.BankAccount).ID) },
		},
		{
			name: "Customers.ListBankAccounts", method: http.MethodGet, path: "/cms/api/v1/bank/list/" + customerID.String(), status: 200,
			// An empty list is a valid page; count, next and previous may
			// be missing.
			data: []member{{key: "count", value: `0`}, {key: "results", value: `[]`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.ListBankAccounts(ctx, customerID)
			},
			check: func(t *testing.T, got any) {
				p := got.(*types.BankAccountPage)
				assert.NotNil(t, p.Results)
				assert.Empty(t, p.Results)
			},
		},
		{
			name: "Customers.SimulateBankVerification", method: http.MethodPost, path: "/cms/api/v1/bank/mock-bank-verification", status: 200,
			body: `{"bank_account_status":"VERIFIED","bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"}`,
			data: []member{{key: "bank_id", value: q(bankID), required: true, id: true}, {key: "bank_account_status", value: `"VERIFIED"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.SimulateBankVerification(ctx, customerID, bankID, types.BankAccountVerified)
			},
			check: func(t *testing.T, got any) { assert.Equal(t, bankID, got.(*types.BankVerificationSimulation).BankID) },
		},
		{
			name: "Customers.GetBankAccount", method: http.MethodGet, path: "/cms/api/v1/bank/" + customerID.String() + "/" + bankID.String(), status: 200,
			data: []member{{key: "id", value: q(bankID), required: true, id: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.GetBankAccount(ctx, customerID, bankID)
			},
			check: func(t *testing.T, got any) { assert.Equal(t, bankID, got.(*types.BankAccount).ID) },
		},
		{
			name: "Customers.Create", method: http.MethodPost, path: "/cms/api/v1/customer/create", create: true, status: 200,
			body: `{"alpha_3_country_code":"IND","client_reference_id":"cust-1","email":"asha@example.com","full_name":"Asha Rao","non_residence_status":false,"phone":"+919800000001"}`,
			data: []member{{key: "id", value: q(customerID), required: true, id: true}, {key: "status", value: `"UNVERIFIED"`, required: true}, {key: "email", value: `"asha@example.com"`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.Create(ctx, types.CreateCustomerRequest{FullName: "Asha Rao", Email: "asha@example.com", Phone: "+919800000001",
					Alpha3CountryCode: "IND", ClientReferenceID: "cust-1"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, types.KYCUnverified, got.(*types.Customer).Status) },
		},
		{
			name: "Customers.List", method: http.MethodGet, path: "/cms/api/v1/customer/list", status: 200,
			data: []member{{key: "count", value: `0`}, {key: "results", value: `[]`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.List(ctx, types.CustomerListFilter{})
			},
			check: func(t *testing.T, got any) { assert.NotNil(t, got.(*types.CustomerPage).Results) },
		},
		{
			name: "Customers.Get", method: http.MethodGet, path: "/cms/api/v1/customer/" + customerID.String(), status: 200,
			data:  []member{{key: "id", value: q(customerID), required: true, id: true}, {key: "status", value: `"VERIFIED"`, required: true}},
			call:  func(ctx context.Context, c *fiatramp.Client) (any, error) { return c.Customers.Get(ctx, customerID) },
			check: func(t *testing.T, got any) { assert.Equal(t, types.KYCVerified, got.(*types.Customer).Status) },
		},
		{
			name: "Customers.AddWallet", method: http.MethodPost, path: "/cms/api/v1/wallet/add", status: 200,
			body: `{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","wallet_address":"0xabc"}`,
			data: []member{{key: "id", value: q(walletID), required: true, id: true}, {key: "wallet_status", value: `"ACTIVE"`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Customers.AddWallet(ctx, types.AddWalletRequest{CustomerID: customerID, WalletAddress: "0xabc"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, walletID, got.(*types.Wallet).ID) },
		},
		{
			name: "KYC.AddData", method: http.MethodPost, path: "/cms/api/v1/kyc/add-kyc-data", create: true, status: 200,
			body: `{"additional_info":{"income_range":"5-10L","profession":"engineer"},"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","dob":"31-01-1990","document_details":{"additional_data":{},"document_number":"A1234567"},"document_front_image_url":"https://img.example/front.png","document_type":"PASSPORT","full_address":"12 MG Road, Pune","full_name":"Asha Rao","phone":"+919800000001","selfie_verification_status":true,"tax_number":"ABCDE1234F"}`,
			data: []member{{key: "id", value: q(customerID), required: true, id: true}, {key: "status", value: `"PROCESSING"`, required: true}, {key: "failure_reason", value: `null`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.AddData(ctx, types.AddKYCDataRequest{CustomerID: customerID, FullName: "Asha Rao", Phone: "+919800000001",
					FullAddress: "12 MG Road, Pune", DOB: "31-01-1990", TaxNumber: "ABCDE1234F", DocumentType: "PASSPORT",
					DocumentFrontImageURL: "https://img.example/front.png", DocumentDetails: types.DocumentDetails{DocumentNumber: "A1234567"},
					SelfieVerificationStatus: true, AdditionalInfo: map[string]string{"profession": "engineer", "income_range": "5-10L"}})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, customerID, got.(*types.KYCResult).ID) },
		},
		{
			name: "KYC.GetConfiguration", method: http.MethodGet, path: "/cms/api/v1/kyc/configuration/" + customerID.String(), status: 200,
			// An empty list of documents is a configuration still;
			// additional_info_required may be absent.
			data: []member{{key: "supported_document_types", value: `[]`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.GetConfiguration(ctx, customerID)
			},
			check: func(t *testing.T, got any) {
				assert.NotNil(t, got.(*types.KYCConfiguration).SupportedDocumentTypes)
			},
		},
		{
			name: "KYC.GenerateLink", method: http.MethodPost, path: "/cms/api/v1/kyc/generate-link", status: 200,
			body: `{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","redirect_url":"https://shop.example/kyc-done"}`,
			data: []member{{key: "customer_id", value: q(customerID)}, {key: "url", value: `"https://kyc.example/k/t0k3n"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.GenerateLink(ctx, types.KYCLinkRequest{CustomerID: customerID, RedirectURL: "https://shop.example/kyc-done"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, "https://kyc.example/k/t0k3n", got.(*types.KYCLink).URL) },
		},
		{
			name: "KYC.SimulateStatus", method: http.MethodPatch, path: "/cms/api/v1/kyc/mock-kyc-status", status: 200,
			body: `{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","kyc_status":"VERIFIED"}`,
			data: []member{{key: "id", value: q(customerID), required: true, id: true}, {key: "status", value: `"VERIFIED"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.SimulateStatus(ctx, customerID, types.KYCVerified)
			},
			check: func(t *testing.T, got any) {
				assert.Equal(t, types.KYCVerified, got.(*types.KYCStatusSimulation).Status)
			},
		},
		{
			name: "KYC.Reset", method: http.MethodPost, path: "/cms/api/v1/kyc/reset-kyc", create: true, status: 200,
			body: `{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"}`,
			data: []member{{key: "id", value: q(customerID), required: true, id: true}, {key: "status", value: `"UNVERIFIED"`, required: true}, {key: "failure_reason", value: `null`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.Reset(ctx, customerID)
			},
			check: func(t *testing.T, got any) { assert.Equal(t, customerID, got.(*types.KYCResult).ID) },
		},
		{
			name: "KYC.UpdateAdditionalInfo", method: http.MethodPatch, path: "/cms/api/v1/kyc/update-additional-info", create: true, status: 200,
			body: `{"additional_info":{"profession":"teacher"},"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"}`,
			data: []member{{key: "id", value: q(customerID), required: true, id: true}, {key: "status", value: `"UNVERIFIED"`, required: true}, {key: "failure_reason", value: `null`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.UpdateAdditionalInfo(ctx, types.UpdateAdditionalInfoRequest{CustomerID: customerID, AdditionalInfo: map[string]string{"profession": "teacher"}})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, customerID, got.(*types.KYCResult).ID) },
		},
		{
			name: "KYC.UpdateDocumentInfo", method: http.MethodPatch, path: "/cms/api/v1/kyc/update-document-info", create: true, status: 200,
			body: `{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","document_back_image_url":"https://img.example/b.png","document_details":{"additional_data":{"issued":"2020"},"document_number":"V99"},"document_front_image_url":"https://img.example/f.png","document_type":"VOTER_ID","full_address":"1 Park St","phone":"+919800000002"}`,
			data: []member{{key: "id", value: q(customerID), required: true, id: true}, {key: "status", value: `"UNVERIFIED"`, required: true}, {key: "failure_reason", value: `null`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.UpdateDocumentInfo(ctx, types.UpdateDocumentInfoRequest{CustomerID: customerID, FullAddress: "1 Park St", DocumentType: "VOTER_ID",
					DocumentFrontImageURL: "https://img.example/f.png", DocumentBackImageURL: "https://img.example/b.png",
					DocumentDetails: types.DocumentDetails{DocumentNumber: "V99", AdditionalData: map[string]string{"issued": "2020"}}, Phone: "+919800000002"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, customerID, got.(*types.KYCResult).ID) },
		},
		{
			name: "KYC.UpdateSelfie", method: http.MethodPatch, path: "/cms/api/v1/kyc/update-selfie-info", create: true, status: 200,
			body: `{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","selfie_url":"https://img.example/s.jpg"}`,
			data: []member{{key: "id", value: q(customerID), required: true, id: true}, {key: "status", value: `"PROCESSING"`, required: true}, {key: "failure_reason", value: `null`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.UpdateSelfie(ctx, types.UpdateSelfieRequest{CustomerID: customerID, SelfieURL: "https://img.example/s.jpg"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, customerID, got.(*types.KYCResult).ID) },
		},
		{
			name: "KYC.UpdateTaxInfo", method: http.MethodPatch, path: "/cms/api/v1/kyc/update-tax-info", create: true, status: 200,
			body: `{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","tax_number":"ABCDE1234G"}`,
			data: []member{{key: "id", value: q(customerID), required: true, id: true}, {key: "status", value: `"UNVERIFIED"`, required: true}, {key: "failure_reason", value: `null`}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.KYC.UpdateTaxInfo(ctx, types.UpdateTaxInfoRequest{CustomerID: customerID, TaxNumber: "ABCDE1234G"})
			},
			check: func(t *testing.T, got any) { assert.Equal(t, customerID, got.(*types.KYCResult).ID) },
		},
		{
			// The service answers a bare string; the wrapped form is read
			// too, which lets this table name the member.
			name: "Organization.SetWebhookURL", method: http.MethodPost, path: "/org/api/v1/organizations/api-webhooks", status: 200,
			body: `{"webhook_url":"https://hooks.example.com/fiatramp"}`,
			data: []member{{key: "webhook_url", value: `"https://hooks.example.com/fiatramp"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				u, err := c.Organization.SetWebhookURL(ctx, "https://hooks.example.com/fiatramp")
				if err != nil {
					return nil, err
				}
				return &u, nil
			},
			check: func(t *testing.T, got any) { assert.Equal(t, "https://hooks.example.com/fiatramp", *got.(*string)) },
		},
		{
			name: "Widget.Initialize", method: http.MethodPost, path: "/widget/initialize", status: 200,
			body: `{"asset_code":"USDT","fiat_amount":"2600.50","fiat_currency":"INR","flow_type":"buy","network_code":"tron","payment_method":"UPI","wallet_address":"TXyz"}`,
			data: []member{{key: "widget_link", value: `"https://widget.example/?token=t0k3n"`, required: true}},
			call: func(ctx context.Context, c *fiatramp.Client) (any, error) {
				return c.Widget.Initialize(ctx, types.WidgetRequest{AssetCode: "USDT", FiatAmount: decimal.RequireFromString("2600.50"),
					FiatCurrency: "INR", FlowType: types.WidgetFlowBuy, NetworkCode: "TRON", PaymentMethod: types.PaymentMethodUPI, WalletAddress: "TXyz"})
			},
			check: func(t *testing.T, got any) {
				assert.Equal(t, "https://widget.example/?token=t0k3n", got.(*types.Widget).WidgetLink)
			},
		},
	}
}

// TestRequiredMembers answers every typed operation with its minimal valid
// data, which succeeds, and then with each required member absent, null,
// empty or (for an id) the nil UUID, which must be refused: an *APIError
// matching ErrMalformedResponse naming the member for a read, an
// *OutcomeUnknownError holding it for a payout create, and in either case
// no second request (a whole answer, asked again, says the same). A member
// that is not required may go without failing the call.
func TestRequiredMembers(t *testing.T) {
	ctx := context.Background()
	for _, op := range requiredOps() {
		t.Run(op.name+"/minimal", func(t *testing.T) {
			h := newHarness(t, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 2}))
			calls := h.expect(op.method, op.path, op.body, op.status, ok(object(op.data, -1, "", false)))
			got, err := op.call(ctx, h.client)
			require.NoError(t, err)
			assert.EqualValues(t, 1, calls.Load())
			op.check(t, got)
		})
		for i, m := range op.data {
			type variant struct {
				name, value string
				drop        bool
			}
			variants := []variant{{name: "absent", drop: true}, {name: "null", value: "null"}}
			switch {
			case m.id:
				variants = append(variants, variant{name: "nil uuid", value: nilUUID}, variant{name: "empty", value: `""`})
			case strings.HasPrefix(m.value, `"`):
				variants = append(variants, variant{name: "empty", value: `""`})
			}
			for _, v := range variants {
				t.Run(op.name+"/"+m.key+"/"+v.name, func(t *testing.T) {
					h := newHarness(t, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 2}))
					calls := h.expect(op.method, op.path, op.body, op.status, ok(object(op.data, i, v.value, v.drop)))
					got, err := op.call(ctx, h.client)
					assert.EqualValues(t, 1, calls.Load(), "a whole answer is not asked again")
					if !m.required {
						require.NoError(t, err, "%s is not required", m.key)
						return
					}
					require.Error(t, err)
					assert.Nil(t, got)
					last := err
					if op.create {
						last = requireOutcomeUnknown(t, err).Err
					} else {
						requirePlain(t, err)
					}
					assert.ErrorIs(t, last, fiatramp.ErrMalformedResponse)
					var apiErr *fiatramp.APIError
					require.ErrorAs(t, last, &apiErr)
					assert.Equal(t, op.status, apiErr.StatusCode)
					assert.Contains(t, apiErr.Error(), `response data has no "`+m.key+`"`)
				})
			}
		}
	}
}

// TestRequiredMembersThroughDo: Do with a result type of package types is
// checked alike; a result type of the caller's own is not, which is how to
// take such data as it comes.
func TestRequiredMembersThroughDo(t *testing.T) {
	ctx := context.Background()
	path := "/pos/api/v1/payout/" + payoutID.String()
	t.Run("types.Payout", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodGet, path, "", 200, ok(`{"status":"SUCCESS"}`))
		var p types.Payout
		err := h.client.Do(ctx, http.MethodGet, path, nil, &p)
		require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		assert.Contains(t, err.Error(), `response data has no "id"`)
	})
	t.Run("own type", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodGet, path, "", 200, ok(`{"status":"SUCCESS"}`))
		var p struct {
			ID     uuid.UUID `json:"id"`
			Status string    `json:"status"`
		}
		require.NoError(t, h.client.Do(ctx, http.MethodGet, path, nil, &p))
		assert.Equal(t, uuid.Nil, p.ID)
		assert.Equal(t, "SUCCESS", p.Status)
	})
}

// TestRequiredMembersBankAccountsIterator: a page of the walk without
// results ends it with the error rather than reading as the last page.
func TestRequiredMembersBankAccountsIterator(t *testing.T) {
	h := newHarness(t)
	path := "/cms/api/v1/bank/list/" + customerID.String()
	h.expect(http.MethodGet, path, "", 200, ok(`{"count":3,"next":null,"previous":null}`))
	var errs []error
	for _, err := range h.client.Customers.BankAccounts(context.Background(), customerID) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	require.ErrorIs(t, errs[0], fiatramp.ErrMalformedResponse)
	var apiErr *fiatramp.APIError
	require.True(t, errors.As(errs[0], &apiErr))
	assert.Contains(t, apiErr.Error(), `response data has no "results"`)
}

// TestRequiredMembersWait: a poll answered with a payout without a status
// ends Wait with the error at once; it is neither a final status nor a
// PROCESSING to poll again.
func TestRequiredMembersWait(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodGet, "/pos/api/v1/payout/"+payoutID.String(), "", 200, ok(`{"id":"`+payoutID.String()+`"}`))
	p, err := h.client.Payouts.Wait(context.Background(), payoutID, fastPoll)
	assert.Nil(t, p)
	require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
	assert.Contains(t, err.Error(), `response data has no "status"`)
	assert.EqualValues(t, 1, calls.Load())
}

// TestRequiredMembersMatchTheIndex: the members TestRequiredMembers finds
// required are the ones the index of operations gives each operation, and
// it exercises every operation of the index.
func TestRequiredMembersMatchTheIndex(t *testing.T) {
	tested := make(map[string][]string)
	for _, op := range requiredOps() {
		var required []string
		for _, m := range op.data {
			if m.required {
				required = append(required, m.key)
			}
		}
		tested[op.name] = required
	}
	for _, row := range fiatramp.Operations() {
		got, ok := tested[row.Name]
		if !ok {
			t.Errorf("%s: no case in requiredOps", row.Name)
			continue
		}
		assert.Equal(t, row.Required, got, "%s: required members", row.Name)
		delete(tested, row.Name)
	}
	assert.Empty(t, tested, "cases of operations the index does not have")
}
