package fiatramp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestValidationSendsNothing(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	good := types.CreatePayinQuotationRequest{Asset: "usdt", Fiat: "inr", SendingAmount: decimal.NewFromInt(3000),
		CustomerID: customerID, BankID: bankID, PaymentMethod: types.PaymentMethodIMPS}
	with := func(f func(*types.CreatePayinQuotationRequest)) types.CreatePayinQuotationRequest {
		r := good
		f(&r)
		return r
	}
	p, c, k := h.client.Payouts, h.client.Customers, h.client.KYC
	cases := map[string]struct {
		field string
		call  func() error
	}{
		"create quotation_id": {"quotation_id", func() error { _, err := p.Create(ctx, types.CreatePayoutRequest{CustomerID: customerID}); return err }},
		"create customer_id":  {"customer_id", func() error { _, err := p.Create(ctx, types.CreatePayoutRequest{QuotationID: quotationID}); return err }},
		"prefunded quotation": {"quotation_id", func() error { _, err := p.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{}); return err }},
		"prefunded sender": {"customer.sender.id", func() error {
			_, err := p.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{QuotationID: quotationID, Customer: types.PrefundedCustomer{Receiver: types.CustomerRef{ID: customerID}}})
			return err
		}},
		"prefunded receiver": {"customer.receiver.id", func() error {
			_, err := p.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{QuotationID: quotationID, Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: senderID}}})
			return err
		}},
		"remittance remitter": {"remitter_id", func() error {
			_, err := p.CreateRemittance(ctx, types.CreateRemittancePayoutRequest{QuotationID: quotationID, CustomerID: customerID})
			return err
		}},
		"remittance customer": {"customer_id", func() error {
			_, err := p.CreateRemittance(ctx, types.CreateRemittancePayoutRequest{QuotationID: quotationID, RemitterID: remitterID})
			return err
		}},
		"get payout":      {"payout_id", func() error { _, err := p.Get(ctx, uuid.Nil); return err }},
		"simulate payout": {"payout_id", func() error { _, err := p.SimulateStatus(ctx, uuid.Nil, types.PayoutSuccess); return err }},
		"simulate empty status": {"payout_status", func() error {
			_, err := p.SimulateStatus(ctx, payoutID, types.PayoutStatus(" "))
			return err
		}},
		"bank simulate empty status": {"bank_account_status", func() error {
			_, err := c.SimulateBankVerification(ctx, customerID, bankID, "")
			return err
		}},
		"quotation asset": {"asset", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.Asset = " " }))
			return err
		}},
		"quotation fiat": {"fiat", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.Fiat = "" }))
			return err
		}},
		"quotation zero amount": {"sending_amount", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.SendingAmount = decimal.Zero }))
			return err
		}},
		"quotation negative amount": {"sending_amount", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.SendingAmount = decimal.NewFromInt(-5) }))
			return err
		}},
		"quotation customer": {"customer_id", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.CustomerID = uuid.Nil }))
			return err
		}},
		"quotation bank": {"bank_id", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.BankID = uuid.Nil }))
			return err
		}},
		"quotation method": {"payment_method", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.PaymentMethod = "" }))
			return err
		}},
		"get quotation":      {"quotation_id", func() error { _, err := h.client.Payins.GetQuotation(ctx, uuid.Nil); return err }},
		"wallet customer":    {"customer_id", func() error { _, err := c.AddWallet(ctx, types.AddWalletRequest{WalletAddress: "0x1"}); return err }},
		"wallet address":     {"wallet_address", func() error { _, err := c.AddWallet(ctx, types.AddWalletRequest{CustomerID: customerID}); return err }},
		"bank customer":      {"customer_id", func() error { _, err := c.GetBankAccount(ctx, uuid.Nil, bankID); return err }},
		"bank id":            {"bank_id", func() error { _, err := c.GetBankAccount(ctx, customerID, uuid.Nil); return err }},
		"list customer":      {"customer_id", func() error { _, err := c.ListBankAccounts(ctx, uuid.Nil); return err }},
		"kyc config":         {"customer_id", func() error { _, err := k.GetConfiguration(ctx, uuid.Nil); return err }},
		"kyc simulate":       {"customer_id", func() error { _, err := k.SimulateStatus(ctx, uuid.Nil, types.KYCVerified); return err }},
		"kyc empty":          {"kyc_status", func() error { _, err := k.SimulateStatus(ctx, customerID, ""); return err }},
		"do method":          {"method", func() error { return h.client.Do(ctx, "get", "/x", nil, nil) }},
		"do absolute path":   {"path", func() error { return h.client.Do(ctx, "GET", "https://evil.example/x", nil, nil) }},
		"do scheme-relative": {"path", func() error { return h.client.Do(ctx, "GET", "//evil.example/x", nil, nil) }},
		"do GET with body":   {"body", func() error { return h.client.Do(ctx, "GET", "/x", map[string]int{"a": 1}, nil) }},
		"do invalid JSON":    {"body", func() error { return h.client.Do(ctx, "POST", "/x", []byte(`{"a":`), nil) }},
		"do non-pointer out": {"out", func() error { var m map[string]any; return h.client.Do(ctx, "GET", "/x", nil, m) }},
		"do nil pointer out": {"out", func() error { var p *map[string]any; return h.client.Do(ctx, "GET", "/x", nil, p) }},
		"do inexact amount": {"body", func() error {
			return h.client.Do(ctx, "POST", "/x", json.RawMessage(`{"amount":12345678901234567.5}`), nil)
		}},
		"reserved header": {"header X-Signature", func() error {
			_, err := p.Get(ctx, payoutID, fiatramp.WithHeader("X-Signature", "forged"))
			return err
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := tc.call()
			require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
			var ve *fiatramp.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Contains(t, err.Error(), tc.field)
		})
	}
	assert.Zero(t, h.mock.GetTotalCallCount(), "bad input sends nothing")
}

// TestValidationOfSimulationsAndWait: bad input is refused, naming the field, before
// anything is sent (the harness has no responder, so a request would
// fail differently).
func TestValidationOfSimulationsAndWait(t *testing.T) {
	h := newHarness(t)
	bg := context.Background()
	cases := []struct {
		field string
		call  func() error
	}{
		{"payin_id", func() error {
			_, err := h.client.Payins.SimulateStatus(bg, uuid.Nil, types.PayinSuccess)
			return err
		}},
		{"payin_status", func() error {
			_, err := h.client.Payins.SimulateStatus(bg, payinQuotation, "")
			return err
		}},
		{"customer_id", func() error {
			_, err := h.client.Customers.SimulateBankVerification(bg, uuid.Nil, bankID, types.BankAccountVerified)
			return err
		}},
		{"bank_id", func() error {
			_, err := h.client.Customers.SimulateBankVerification(bg, customerID, uuid.Nil, types.BankAccountVerified)
			return err
		}},
		{"bank_account_status", func() error {
			_, err := h.client.Customers.SimulateBankVerification(bg, customerID, bankID, "")
			return err
		}},
		{"payout_id", func() error {
			_, err := h.client.Payouts.Wait(bg, uuid.Nil)
			return err
		}},
		{"poll interval", func() error {
			_, err := h.client.Payouts.Wait(bg, payoutID, fiatramp.WithPollInterval(0, 1))
			return err
		}},
		{"poll interval", func() error {
			_, err := h.client.Payouts.Wait(bg, payoutID, fiatramp.WithPollInterval(2, 1))
			return err
		}},
	}
	for _, tc := range cases {
		err := tc.call()
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr, tc.field)
		assert.Equal(t, tc.field, verr.Field)
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
	}
	assert.Zero(t, h.mock.GetTotalCallCount(), "nothing sent")
}

// Enums are open both ways: a value the caller sends that the library does
// not list (a status or payment method a newer service may add) is sent as
// given and the service decides; only an empty one is refused before
// sending. The sandbox, like the service, refuses the unknown values here.
func TestUnknownEnumValuesAreSent(t *testing.T) {
	_, demo, client, done := exampleSandbox()
	defer done()
	ctx := context.Background()
	calls := map[string]func() error{
		"payout status": func() error {
			_, err := client.Payouts.SimulateStatus(ctx, uuid.New(), types.PayoutStatus("PAID"))
			return err
		},
		"kyc status": func() error {
			_, err := client.KYC.SimulateStatus(ctx, demo.Customer.ID, types.KYCStatus("DONE"))
			return err
		},
		"bank status": func() error {
			_, err := client.Customers.SimulateBankVerification(ctx, demo.Customer.ID, demo.BankAccount.ID, types.BankAccountStatus("CHECKED"))
			return err
		},
		"payment method": func() error {
			_, err := client.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{Asset: "usdt", Fiat: "inr",
				SendingAmount: decimal.NewFromInt(3000), CustomerID: demo.Customer.ID, BankID: demo.BankAccount.ID,
				PaymentMethod: types.PaymentMethod("NEFT")})
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			require.Error(t, err)
			assert.NotErrorIs(t, err, fiatramp.ErrInvalidRequest, "refused before sending")
			var apiErr *fiatramp.APIError
			require.ErrorAs(t, err, &apiErr, "the service's answer")
			assert.Equal(t, 400, apiErr.StatusCode)
		})
	}
}
