package types

import (
	"encoding/json"

	"github.com/google/uuid"
)

// SourceOfIncome is where a customer's money comes from, as an enhanced
// due diligence (EDD) save declares it. The service documents SALARY,
// BUSINESS_INCOME and OTHERS; another value is sent as given.
type SourceOfIncome string

// Documented sources of income.
const (
	SourceOfIncomeSalary   SourceOfIncome = "SALARY"
	SourceOfIncomeBusiness SourceOfIncome = "BUSINESS_INCOME"
	SourceOfIncomeOthers   SourceOfIncome = "OTHERS"
)

// EDDStatus is the status of an enhanced due diligence: PROCESSING when
// saved, then VERIFIED (the customer's limits are lifted) or FAILED. A
// value not listed here decodes unchanged.
type EDDStatus string

// EDD status values.
const (
	EDDProcessing EDDStatus = "PROCESSING"
	EDDVerified   EDDStatus = "VERIFIED"
	EDDFailed     EDDStatus = "FAILED"
)

// Values returns every EDD status: PROCESSING, VERIFIED, FAILED. The
// slice is new on every call.
func (EDDStatus) Values() []EDDStatus { return []EDDStatus{EDDProcessing, EDDVerified, EDDFailed} }

// IsKnown reports whether s is one of the statuses of Values (compared
// exactly).
func (s EDDStatus) IsKnown() bool {
	return s == EDDProcessing || s == EDDVerified || s == EDDFailed
}

// SavePayoutEDDRequest is the body of save payout EDD, POST
// /ren/api/v1/payout/edd/save: the evidence that lifts a customer's payout
// limits. Lists are sent as JSON arrays ([] when empty).
type SavePayoutEDDRequest struct {
	// CustomerID is the customer (required, KYC-verified).
	CustomerID uuid.UUID `json:"customer_id"`
	// SourceOfIncome is required.
	SourceOfIncome SourceOfIncome `json:"source_of_income"`
	// BankStatementURLs are the bank statements' absolute http(s) URLs.
	BankStatementURLs []string `json:"bank_statement_url"`
	// BankStatementPasswords holds one password per bank statement, ""
	// for none; nil sends "" for each statement.
	BankStatementPasswords []string `json:"bank_statement_passwords"`
	// ITRReportURLs are the income tax returns' absolute http(s) URLs.
	ITRReportURLs []string `json:"itr_report_url"`
	// ITRReportPasswords holds one password per ITR report, "" for none;
	// nil sends "" for each report.
	ITRReportPasswords []string `json:"itr_report_passwords"`
	// Declaration is the customer's declaration that the above is true;
	// always sent, as given (the service judges a save not declared
	// true).
	Declaration bool `json:"declaration"`
}

// SavePayinEDDRequest is the body of save payin EDD, POST
// /ren/api/v1/payin/edd/save: the payout EDD's members (Declaration
// optional, as the newest edition shows no declaration) plus the payin's
// own. A verified payin EDD lifts the payout limits too.
type SavePayinEDDRequest struct {
	// CustomerID is the customer (required, KYC-verified).
	CustomerID uuid.UUID `json:"customer_id"`
	// SourceOfIncome is required.
	SourceOfIncome SourceOfIncome `json:"source_of_income"`
	// BankStatementURLs are the bank statements' absolute http(s) URLs.
	BankStatementURLs []string `json:"bank_statement_url"`
	// BankStatementPasswords holds one password per bank statement, ""
	// for none; nil sends "" for each statement.
	BankStatementPasswords []string `json:"bank_statement_passwords"`
	// ITRReportURLs are the income tax returns' absolute http(s) URLs.
	ITRReportURLs []string `json:"itr_report_url"`
	// ITRReportPasswords holds one password per ITR report, "" for none;
	// nil sends "" for each report.
	ITRReportPasswords []string `json:"itr_report_passwords"`
	// Declaration is the customer's declaration that the above is true.
	// The newest payin save does not show it: it is sent (true) only when
	// true.
	Declaration bool `json:"declaration,omitempty"`
	// Purpose is what the payins are for.
	Purpose string `json:"purpose,omitempty"`
	// AccountOperator says who operates the paying account.
	AccountOperator string `json:"account_operator,omitempty"`
	// AccountOperatorName names the account's operator.
	AccountOperatorName string `json:"account_operator_name,omitempty"`
	// RelationWithAccountOperator is the customer's relation to the
	// operator, e.g. "brother"; the client sends it in lower case, as the
	// service documents it.
	RelationWithAccountOperator string `json:"relation_with_account_operator,omitempty" fiatramp:"lower"`
	// P2PTradingStatus says whether the customer trades peer to peer.
	P2PTradingStatus bool `json:"p2p_trading_status"`
	// SupportingPurposeDocURLs are absolute http(s) URLs of documents
	// supporting Purpose.
	SupportingPurposeDocURLs []string `json:"supporting_purpose_doc_url"`
}

// EDD is a saved enhanced due diligence: the data of a save, {id,
// status}, status PROCESSING until it is reviewed.
type EDD struct {
	// ID is the EDD's id.
	ID uuid.UUID `json:"id"`
	// Status is PROCESSING when saved.
	Status EDDStatus `json:"status"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var eddPlan = compilePlan[EDD]()

// UnmarshalJSON decodes a saved EDD and keeps a copy of data in Raw. null
// leaves e unchanged; on error e is unchanged.
func (e *EDD) UnmarshalJSON(data []byte) error { return decode(e, data) }

func (*EDD) plan() *plan { return eddPlan }
