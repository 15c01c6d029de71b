package sandbox

// Bank accounts: adding one (POST /cms/api/v1/bank/create), the list of a
// customer's accounts, page by page (GET
// /cms/api/v1/bank/list/{customer_id}), one account (GET
// /cms/api/v1/bank/{customer_id}/{bank_id}) and the bank verification
// simulation (POST /cms/api/v1/bank/mock-bank-verification), whose payload
// is the sandbox's own choice: the service's documentation names the path
// but does not show the body.

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// Refusal messages of the bank operations: the service's words for the
// bank fetch (without a full stop) and the REST framework's for a page out
// of range.
const (
	msgBankNotFound = "Bank not found or access denied"
	msgInvalidPage  = "Invalid page."
)

// Refusals of add bank account, in the service's words.
const (
	msgVPAInUse     = "VPA already in use"
	msgMaxVPAs      = "Maximum 3 UPI IDs allowed"
	msgAccountInUse = "Account number already in use"
	msgMaxAccounts  = "Maximum 3 bank account details allowed"
	// maxBanksPerType is how many bank accounts, and how many VPAs, one
	// customer may hold.
	maxBanksPerType = 3
)

// Field errors of add bank account when the body names neither shape or
// both: the sandbox's own words under non_field_errors (the service's are
// not documented).
const (
	msgBankNeitherShape = "Either account_number and ifsc, or vpa, is required."
	msgBankBothShapes   = "Send either account_number and ifsc, or vpa, not both."
)

// bankFailureReasons are the documented failure_reason values of a bank
// account's verification.
var bankFailureReasons = []string{
	types.BankFailureInvalidIFSC, types.BankFailureInvalidAccountNumber, types.BankFailureAccountTypeNRE,
	types.BankFailurePennyDropFailed, types.BankFailureNameMismatch, types.BankFailureBankRiskCheckFailed,
}

// ifscPattern is an IFSC: four letters, a zero, six letters or digits.
var ifscPattern = regexp.MustCompile(`^[A-Z]{4}0[A-Z0-9]{6}$`)

// accountNumberPattern is an Indian bank account number: 9 to 18 digits.
var accountNumberPattern = regexp.MustCompile(`^[0-9]{9,18}$`)

// bankFailureFor is the failure_reason a bank account fails verification
// with when none is asked for: INVALID_IFSC for an IFSC that is not
// well formed, INVALID_ACCOUNT_NUMBER for a number that is not 9 to 18
// digits, NAME_MISMATCH otherwise.
func bankFailureFor(b *bankAccount) string {
	switch {
	case b.Type != types.BankAccountTypeVPA && !ifscPattern.MatchString(b.IFSC):
		return types.BankFailureInvalidIFSC
	case b.Type != types.BankAccountTypeVPA && !accountNumberPattern.MatchString(b.AccountNumber):
		return types.BankFailureInvalidAccountNumber
	}
	return types.BankFailureNameMismatch
}

// nullable returns nil for "" and &s otherwise, for strings that do not
// apply to an account's type.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// bankListItem is one item of the bank list. Strings
// that do not apply to the account's type are null: vpa for a
// bank_account, account_number and ifsc for a vpa.
type bankListItem struct {
	ID                uuid.UUID               `json:"id"`
	CustomerID        uuid.UUID               `json:"customer_id"`
	AccountNumber     *string                 `json:"account_number"`
	IFSC              *string                 `json:"ifsc"`
	AccountName       *string                 `json:"account_name"`
	VPA               *string                 `json:"vpa"`
	BankAccountType   types.BankAccountType   `json:"bank_account_type"`
	BankAccountStatus types.BankAccountStatus `json:"bank_account_status"`
	FailureReason     *string                 `json:"failure_reason"`
}

func newBankListItem(b *bankAccount) bankListItem {
	it := bankListItem{
		ID: b.ID, CustomerID: b.CustomerID, AccountName: nullable(b.AccountName),
		BankAccountType: b.Type, BankAccountStatus: b.Status, FailureReason: b.FailureReason,
	}
	if b.Type == types.BankAccountTypeVPA {
		it.VPA = nullable(b.VPA)
	} else {
		it.AccountNumber, it.IFSC = nullable(b.AccountNumber), nullable(b.IFSC)
	}
	return it
}

// listBankAccounts is GET /cms/api/v1/bank/list/{customer_id}. The service
// does not document its paging parameters; the sandbox reads `page`
// (1-based, default 1) and serves Settings.PageSize accounts per page in
// the order they were added. next and previous are absolute URLs that
// always carry page explicitly. A page that is not an integer of at least
// 1, or lies beyond the last one, answers 404 "Invalid page." as the REST
// framework's paginator does.
func (s *Sandbox) listBankAccounts(rq *request) reply {
	c := s.pathCustomer(rq, rq.params[0])
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	page, ok := pageParam(rq.r.URL.Query())
	if !ok {
		return invalidPage()
	}
	// The links carry no other parameter: the bank list has no filter.
	return listReply(s, rq.r, nil, page, c.banks, newBankListItem, "Bank accounts fetched successfully")
}

// bankIdentifiers is the identifiers object of a fetched bank account.
type bankIdentifiers struct {
	AccountNumber string `json:"account_number,omitempty"`
	IFSC          string `json:"ifsc,omitempty"`
	VPA           string `json:"vpa,omitempty"`
}

// bankData is the bank account as a fetch of one account answers it.
type bankData struct {
	ID                uuid.UUID               `json:"id"`
	CustomerID        uuid.UUID               `json:"customer_id"`
	Country           string                  `json:"country"`
	BankAccountType   string                  `json:"bank_account_type"`
	Identifiers       bankIdentifiers         `json:"identifiers"`
	AccountNumber     *string                 `json:"account_number"`
	IFSC              *string                 `json:"ifsc"`
	BankAccountStatus types.BankAccountStatus `json:"bank_account_status"`
	BeneficiaryName   *string                 `json:"beneficiary_name"`
	BankName          *string                 `json:"bank_name"`
	FailureReason     *string                 `json:"failure_reason"`
}

// getBankAccount is GET /cms/api/v1/bank/{customer_id}/{bank_id}. The
// fetch-one type is ACCOUNT_DETAILS for a bank_account (as the service
// shows it) and
// VPA for a vpa, whose identifiers hold {vpa}.
func (s *Sandbox) getBankAccount(rq *request) reply {
	c := s.pathCustomer(rq, rq.params[0])
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	id, ok := idFromPath(rq.params[1])
	if !ok {
		return rule(msgBankNotFound)
	}
	b := rq.org.banks[id]
	if b == nil || b.CustomerID != c.ID {
		return rule(msgBankNotFound)
	}
	data := bankData{
		ID: b.ID, CustomerID: b.CustomerID, Country: b.Country,
		BankAccountType:   "ACCOUNT_DETAILS",
		Identifiers:       bankIdentifiers{AccountNumber: b.AccountNumber, IFSC: b.IFSC},
		AccountNumber:     nullable(b.AccountNumber),
		IFSC:              nullable(b.IFSC),
		BankAccountStatus: b.Status,
		BeneficiaryName:   nullable(b.AccountName),
		BankName:          nullable(b.BankName),
		FailureReason:     b.FailureReason,
	}
	if b.Type == types.BankAccountTypeVPA {
		data.BankAccountType = "VPA"
		data.Identifiers = bankIdentifiers{VPA: b.VPA}
		data.AccountNumber, data.IFSC = nil, nil
	}
	return success(http.StatusOK, "Bank account fetched successfully", data)
}

// bankTransitions are the moves of the bank verification simulation: the
// statuses a bank account in status from may move to.
func bankTransitions(from types.BankAccountStatus) []types.BankAccountStatus {
	switch from {
	case types.BankAccountProcessing:
		return []types.BankAccountStatus{types.BankAccountVerified, types.BankAccountFailed}
	}
	return nil
}

// simulateBankVerification is POST /cms/api/v1/bank/mock-bank-verification
// with {customer_id, bank_id, bank_account_status} and, for FAILED, an
// optional failure_reason (one of the documented ones): it moves a
// PROCESSING bank account to VERIFIED or FAILED and sends the BANK
// webhook. FAILED without a failure_reason takes bankFailureFor's. An
// absent account, another customer's or another organization's is "Bank
// not found or access denied"; a move to the account's current status
// answers success, changes nothing and sends nothing (a retried simulation
// sets the same status again); any other move is refused with a 400
// naming both statuses.
func (s *Sandbox) simulateBankVerification(rq *request) reply {
	f := rq.body
	customerID, bankID := f.uuid("customer_id"), f.uuid("bank_id")
	status, ok := f.str("bank_account_status", true)
	to := types.BankAccountStatus(status)
	if ok && !to.IsKnown() {
		f.fail("bank_account_status", fmt.Sprintf("%q is not a valid choice.", status))
	}
	why, asked := f.str("failure_reason", false)
	if asked && !slices.Contains(bankFailureReasons, why) {
		f.fail("failure_reason", fmt.Sprintf("%q is not a valid choice.", why))
	}
	if bad := f.refused(); bad != nil {
		return *bad
	}
	c := s.orgCustomer(rq, customerID)
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	b := rq.org.banks[bankID]
	if b == nil || b.CustomerID != c.ID {
		return rule(msgBankNotFound)
	}
	answer := success(http.StatusOK, "Bank verification status updated successfully", struct {
		CustomerID        uuid.UUID               `json:"customer_id"`
		BankID            uuid.UUID               `json:"bank_id"`
		BankAccountStatus types.BankAccountStatus `json:"bank_account_status"`
	}{c.ID, b.ID, to})
	if b.Status == to {
		// A repeat of the move just made (a retry after a lost answer):
		// nothing changes, no webhook.
		return answer
	}
	if !slices.Contains(bankTransitions(b.Status), to) {
		return rule(fmt.Sprintf("Bank account status cannot move from %s to %s.", b.Status, to))
	}
	if !asked {
		why = bankFailureFor(b)
	}
	s.settleBank(rq, b, to, why)
	return answer
}

// settleBank moves bank account b to status to (VERIFIED or FAILED, the
// latter with failure_reason why) and sends the BANK webhook.
func (s *Sandbox) settleBank(rq *request, b *bankAccount, to types.BankAccountStatus, why string) {
	b.Status = to
	b.FailureReason = nil
	meta := map[string]any{}
	if to == types.BankAccountFailed {
		b.FailureReason = &why
		meta["failure_reason"] = why
	}
	s.emit(rq, EventTypeBank, b.ID.String(), string(to), meta)
}

// addBankAccountOp is POST /cms/api/v1/bank/create with {customer_id} and
// either {account_number, ifsc} (account_name optional: the service's
// examples add accounts without it) or {vpa}. The account
// starts PROCESSING (no webhook: none is sent for PROCESSING) and is
// answered in the list item's shape, 201; with
// Settings.BankVerificationDelay it verifies itself that long after. The customer must be the
// organization's ("Customer not found or access denied") and VERIFIED
// ("Customer is unverified"); an account number or VPA held by any
// customer is "already in use"; a customer holds at most three accounts
// and three VPAs, whatever their status. An IFSC is upper-cased as banks
// print it; a malformed one is accepted and fails verification with
// INVALID_IFSC, as the service reports it.
func (s *Sandbox) addBankAccountOp(rq *request) reply {
	f := rq.body
	customerID := f.uuid("customer_id")
	// A member sent as null counts as not sent: the list item's shape
	// carries the other shape's members as null.
	given := func(name string) bool {
		v, ok := f.value(name)
		return ok && v != nil
	}
	hasNumber, hasIFSC, hasName, hasVPA := given("account_number"), given("ifsc"), given("account_name"), given("vpa")
	account := hasNumber || hasIFSC || hasName
	var number, ifsc, name, vpa string
	switch {
	case account && hasVPA:
		f.fail("non_field_errors", msgBankBothShapes)
	case hasVPA:
		vpa, _ = f.str("vpa", true)
	case account:
		number, _ = f.str("account_number", true)
		ifsc, _ = f.str("ifsc", true)
		if hasName {
			name, _ = f.str("account_name", true)
		}
	default:
		f.fail("non_field_errors", msgBankNeitherShape)
	}
	if bad := f.refused(); bad != nil {
		return *bad
	}
	c := s.orgCustomer(rq, customerID)
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	if c.KYCStatus != types.KYCVerified {
		return rule(msgCustomerUnverified)
	}
	typ := types.BankAccountTypeBankAccount
	if hasVPA {
		typ = types.BankAccountTypeVPA
	}
	ifsc = strings.ToUpper(strings.TrimSpace(ifsc))
	number, vpa = strings.TrimSpace(number), strings.TrimSpace(vpa)
	// Unique across customers, found through the index in constant time.
	key := bankKey(typ, number, vpa)
	if s.st.bankByKey(key) != nil {
		if typ == types.BankAccountTypeVPA {
			return rule(msgVPAInUse)
		}
		return rule(msgAccountInUse)
	}
	held := 0
	for _, b := range c.banks {
		if b.Type == typ {
			held++
		}
	}
	if held >= maxBanksPerType {
		if typ == types.BankAccountTypeVPA {
			return rule(msgMaxVPAs)
		}
		return rule(msgMaxAccounts)
	}
	b := &bankAccount{BankAccount: BankAccount{
		ID: uuid.New(), CustomerID: c.ID, Type: typ, Status: types.BankAccountProcessing,
		AccountNumber: number, IFSC: ifsc, VPA: vpa, AccountName: name, Country: "IND",
	}}
	if b.AccountName == "" {
		b.AccountName = c.Name
	}
	s.addBank(rq.org, c, b)
	if delay := s.settings.BankVerificationDelay; delay > 0 {
		o := rq.org
		s.schedule(rq.now.Add(delay), jobBank, 0, func(at time.Time) {
			// Gone with its organization, or moved by the simulation
			// meanwhile: nothing to verify.
			if s.st.orgs[o.ID] != o || b.Status != types.BankAccountProcessing {
				return
			}
			to, why := autoBankOutcome(b)
			s.settleBank(&request{org: o, now: at}, b, to, why)
		})
	}
	return success(http.StatusOK, "Bank account added successfully", newBankListItem(b))
}

// autoBankOutcome is how an account verifies itself: a VPA, and an
// account whose IFSC and number are well formed, are VERIFIED; otherwise
// FAILED with INVALID_IFSC or INVALID_ACCOUNT_NUMBER.
func autoBankOutcome(b *bankAccount) (types.BankAccountStatus, string) {
	if why := bankFailureFor(b); why != types.BankFailureNameMismatch {
		return types.BankAccountFailed, why
	}
	return types.BankAccountVerified, ""
}

// bankKey is what makes a bank account unique across customers: its
// account number, or its VPA in lower case.
func bankKey(typ types.BankAccountType, number, vpa string) string {
	if typ == types.BankAccountTypeVPA {
		return "vpa:" + strings.ToLower(vpa)
	}
	return "account:" + number
}

// addBank files b, customer c's, in o's table and in the index of bank
// keys; s.mu is held.
func (s *Sandbox) addBank(o *org, c *customer, b *bankAccount) {
	o.banks[b.ID] = b
	c.banks = append(c.banks, b)
	s.st.index.banks[bankKey(b.Type, b.AccountNumber, b.VPA)] = bankRef{o.ID, b.ID}
}
