package fiatramptest

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

// QuotationAmount is the sending amount, in USDT, of the quotation a
// Payee comes with.
const QuotationAmount = 10

// Payee is a customer ready to be paid: KYC-verified, with a verified bank
// account and an unused payout quotation to it.
type Payee struct {
	Customer    sandbox.Customer
	BankAccount sandbox.BankAccount
	// Quotation is a payout quotation of QuotationAmount USDT for Customer,
	// paying to BankAccount, valid for the sandbox's quotation lifetime
	// from now on the sandbox clock.
	Quotation sandbox.Quotation
}

// NewPayee adds a payee to the organization; each call adds a new
// customer with a new bank account. It fails the test when the sandbox
// refuses a fixture.
func (sb *Sandbox) NewPayee(t testing.TB) Payee {
	t.Helper()
	c, err := sb.AddCustomer(sandbox.Customer{OrganizationID: sb.Organization.ID, Name: "Asha Rao"})
	if err != nil {
		t.Fatalf("fiatramptest: add customer: %v", err)
	}
	b, err := sb.AddBankAccount(sandbox.BankAccount{
		CustomerID: c.ID, AccountNumber: "001234567890", IFSC: "SBIN0001234",
		AccountName: "Asha Rao", BankName: "State Bank of India",
	})
	if err != nil {
		t.Fatalf("fiatramptest: add bank account: %v", err)
	}
	p := Payee{Customer: c, BankAccount: b}
	p.Quotation = sb.NewQuotation(t, p, decimal.NewFromInt(QuotationAmount))
	return p
}

// NewQuotation adds an unused payout quotation of amount USDT for the
// payee, paying to its bank account at the sandbox's rate: one more payout
// for the same payee. It fails the test when the sandbox refuses it.
func (sb *Sandbox) NewQuotation(t testing.TB, p Payee, amount decimal.Decimal) sandbox.Quotation {
	t.Helper()
	q, err := sb.AddQuotation(sandbox.Quotation{CustomerID: p.Customer.ID, BankID: p.BankAccount.ID, SendingAmount: amount})
	if err != nil {
		t.Fatalf("fiatramptest: add quotation: %v", err)
	}
	return q
}
