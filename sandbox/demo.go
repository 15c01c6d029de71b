package sandbox

import (
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// Demo is what SeedDemo adds: one prefunded organization and enough of
// everything to walk every operation once.
type Demo struct {
	// Organization is prefunded with 1000 USDT; sign with its APIKey and
	// APISecret.
	Organization Organization `json:"organization"`
	// Customer is KYC-verified and owns BankAccount (type bank_account,
	// for IMPS) and VPA (type vpa, for UPI).
	Customer    Customer    `json:"customer"`
	BankAccount BankAccount `json:"bank_account"`
	VPA         BankAccount `json:"vpa"`
	// PendingCustomer's KYC is PROCESSING, for the KYC simulation.
	PendingCustomer Customer `json:"pending_customer"`
	// EDDCustomer is KYC-verified and owes an enhanced due diligence
	// (CustomerFlags.EDDRequired): its payout and payin limits show
	// is_edd_required and both EDD saves are accepted.
	EDDCustomer Customer `json:"edd_customer"`
	// Remitter names the organization's remittance payouts.
	Remitter Remitter `json:"remitter"`
	// Quotations are three unused payout quotations of 10 USDT for
	// Customer, paying to BankAccount: one for each payout operation.
	Quotations []Quotation `json:"quotations"`
}

// SeedDemo adds the demo organization and returns it. Each call adds a
// new one, with new keys.
func (s *Sandbox) SeedDemo() (Demo, error) {
	var d Demo
	var err error
	if d.Organization, err = s.AddOrganization(Organization{
		Name: "Demo Organization", Prefunded: true,
		Balances: map[string]decimal.Decimal{"USDT": decimal.NewFromInt(1000)},
	}); err != nil {
		return Demo{}, err
	}
	if d.Customer, err = s.AddCustomer(Customer{OrganizationID: d.Organization.ID, Name: "Asha Rao", Email: "asha.rao@example.com", Phone: "+919123400001"}); err != nil {
		return Demo{}, err
	}
	if d.BankAccount, err = s.AddBankAccount(BankAccount{
		CustomerID: d.Customer.ID, AccountNumber: "001234567890", IFSC: "SBIN0001234",
		AccountName: "Asha Rao", BankName: "State Bank of India",
	}); err != nil {
		return Demo{}, err
	}
	if d.VPA, err = s.AddBankAccount(BankAccount{
		CustomerID: d.Customer.ID, Type: types.BankAccountTypeVPA, VPA: "asha.rao@upi", AccountName: "Asha Rao",
	}); err != nil {
		return Demo{}, err
	}
	if d.PendingCustomer, err = s.AddCustomer(Customer{
		OrganizationID: d.Organization.ID, Name: "Ravi Kumar", Email: "ravi.kumar@example.com", Phone: "+919123400002",
		KYCStatus: types.KYCProcessing,
	}); err != nil {
		return Demo{}, err
	}
	if d.EDDCustomer, err = s.AddCustomer(Customer{
		OrganizationID: d.Organization.ID, Name: "Meera Iyer", Email: "meera.iyer@example.com", Phone: "+919123400003",
		CustomerFlags: CustomerFlags{EDDRequired: true},
	}); err != nil {
		return Demo{}, err
	}
	if d.Remitter, err = s.AddRemitter(Remitter{OrganizationID: d.Organization.ID, Name: "Global Remit Ltd"}); err != nil {
		return Demo{}, err
	}
	for range 3 {
		q, err := s.AddQuotation(Quotation{
			CustomerID: d.Customer.ID, BankID: d.BankAccount.ID,
			SendingAmount: decimal.NewFromInt(10),
			Rate:          decimal.RequireFromString("88.25"),
			Fees: Fees{
				ServiceFee: decimal.RequireFromString("4.5"),
				ServiceGST: decimal.RequireFromString("0.81"),
			},
		})
		if err != nil {
			return Demo{}, err
		}
		d.Quotations = append(d.Quotations, q)
	}
	return d, nil
}
