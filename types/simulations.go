package types

import (
	"encoding/json"

	"github.com/google/uuid"
)

// PayoutStatusSimulation is the answer of the sandbox payout status
// simulation, PATCH /pos/api/v1/payout/mock-payout-status:
// {payout_id, payout_status}.
type PayoutStatusSimulation struct {
	// PayoutID is the payout whose status was set.
	PayoutID uuid.UUID `json:"payout_id"`
	// PayoutStatus is the status the payout now has.
	PayoutStatus PayoutStatus `json:"payout_status"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var payoutStatusSimulationPlan = compilePlan[PayoutStatusSimulation]()

// UnmarshalJSON decodes the data of the payout status simulation and keeps a
// copy of data in Raw. null leaves s unchanged; on error s is unchanged.
func (s *PayoutStatusSimulation) UnmarshalJSON(data []byte) error {
	return decode(s, data)
}

func (*PayoutStatusSimulation) plan() *plan { return payoutStatusSimulationPlan }

// KYCStatusSimulation is the answer of the sandbox KYC status simulation,
// PATCH /cms/api/v1/kyc/mock-kyc-status: {id, status}.
type KYCStatusSimulation struct {
	// ID is the id of the customer whose status was set.
	ID uuid.UUID `json:"id"`
	// Status is the KYC status the customer now has.
	Status KYCStatus `json:"status"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var kycStatusSimulationPlan = compilePlan[KYCStatusSimulation]()

// UnmarshalJSON decodes the data of the KYC status simulation and keeps a copy
// of data in Raw. null leaves s unchanged; on error s is unchanged.
func (s *KYCStatusSimulation) UnmarshalJSON(data []byte) error {
	return decode(s, data)
}

func (*KYCStatusSimulation) plan() *plan { return kycStatusSimulationPlan }

// BankVerificationSimulation is the data of the sandbox bank verification
// simulation (POST /cms/api/v1/bank/mock-bank-verification):
// {customer_id, bank_id, bank_account_status}.
type BankVerificationSimulation struct {
	// CustomerID is the customer who owns the account.
	CustomerID uuid.UUID `json:"customer_id"`
	// BankID is the bank account whose verification was set.
	BankID uuid.UUID `json:"bank_id"`
	// BankAccountStatus is the status the account now has.
	BankAccountStatus BankAccountStatus `json:"bank_account_status"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var bankVerificationSimulationPlan = compilePlan[BankVerificationSimulation]()

// UnmarshalJSON decodes the simulation's data and keeps a copy of data in
// Raw. null leaves s unchanged; on error s is unchanged.
func (s *BankVerificationSimulation) UnmarshalJSON(data []byte) error {
	return decode(s, data)
}

func (*BankVerificationSimulation) plan() *plan { return bankVerificationSimulationPlan }

// PayinStatusSimulation is the data of the sandbox payin status simulation
// (PATCH /pis/api/v1/payin/mock-payin-status): {payin_id, payin_status}.
type PayinStatusSimulation struct {
	// PayinID is the payin that moved (the payin's own id).
	PayinID uuid.UUID `json:"payin_id"`
	// PayinStatus is the status the payin now has.
	PayinStatus PayinStatus `json:"payin_status"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var payinStatusSimulationPlan = compilePlan[PayinStatusSimulation]()

// UnmarshalJSON decodes the simulation's data and keeps a copy of data in
// Raw. null leaves s unchanged; on error s is unchanged.
func (s *PayinStatusSimulation) UnmarshalJSON(data []byte) error {
	return decode(s, data)
}

func (*PayinStatusSimulation) plan() *plan { return payinStatusSimulationPlan }
