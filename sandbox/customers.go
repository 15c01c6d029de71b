package sandbox

// Customer operations under /cms/api/v1: add wallet, the KYC simulation,
// the KYC configuration, and fetching one or all of a customer's bank
// accounts.

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// Refusal messages of the customer operations, as the service documents
// them for the bank and KYC configuration fetches (without a full stop).
const (
	msgCustomerNotFound = "Customer not found or access denied"
	msgBankNotFound     = "Bank not found or access denied"
	msgInvalidPage      = "Invalid page."
)

// kycTransitions is the sandbox KYC simulation's transition table, as the
// service documents it: current status -> the statuses it may move to. A
// status absent from the table, or mapped to nothing, allows no move; the
// service documents no moves out of TAX_VERIFICATION_FAILED and
// DOCUMENT_VERIFICATION_FAILED, so the sandbox refuses them.
var kycTransitions = map[types.KYCStatus][]types.KYCStatus{
	types.KYCUnverified: nil,
	types.KYCFailed:     {types.KYCUnverified},
	types.KYCVerified:   {types.KYCUnverified},
	types.KYCProcessing: {
		types.KYCTaxVerificationFailed,
		types.KYCDocumentVerificationFailed,
		types.KYCVerified,
		types.KYCUnverified,
	},
}

// kycMoveAllowed reports whether the KYC simulation may move a customer
// from one status to another.
func kycMoveAllowed(from, to types.KYCStatus) bool {
	for _, next := range kycTransitions[from] {
		if next == to {
			return true
		}
	}
	return false
}

// idFromPath parses a path parameter as a uuid in its canonical 36
// character form; anything else is malformed.
func idFromPath(s string) (uuid.UUID, bool) {
	if len(s) != 36 {
		return uuid.Nil, false
	}
	id, err := uuid.Parse(s)
	if err != nil {
		return uuid.Nil, false
	}
	return id, true
}

// orgCustomer returns customer id of the request's organization, or nil
// when it is absent or another organization's (treated alike).
func (s *Sandbox) orgCustomer(rq *request, id uuid.UUID) *customer {
	c, ok := s.customers[id]
	if !ok || c.OrganizationID != rq.org.ID {
		return nil
	}
	return c
}

// pathCustomer is orgCustomer for a path parameter: a malformed id is
// absent too.
func (s *Sandbox) pathCustomer(rq *request, param string) *customer {
	id, ok := idFromPath(param)
	if !ok {
		return nil
	}
	return s.orgCustomer(rq, id)
}

// walletData is the wallet object: id, customer_id, wallet_address,
// wallet_status, failure_reason.
type walletData struct {
	ID            uuid.UUID          `json:"id"`
	CustomerID    uuid.UUID          `json:"customer_id"`
	WalletAddress string             `json:"wallet_address"`
	WalletStatus  types.WalletStatus `json:"wallet_status"`
	FailureReason *string            `json:"failure_reason"`
}

func newWalletData(w *Wallet) walletData {
	return walletData{
		ID: w.ID, CustomerID: w.CustomerID, WalletAddress: w.WalletAddress,
		WalletStatus: w.Status, FailureReason: w.FailureReason,
	}
}

// addWalletOp is POST /cms/api/v1/wallet/add with {customer_id,
// wallet_address}. Adding an address the customer already has answers that
// wallet with 200 instead of storing a second one (the service does not
// say; the sandbox's choice); a new wallet answers 201.
func (s *Sandbox) addWalletOp(rq *request) reply {
	f := rq.body
	customerID := f.uuid("customer_id")
	address, _ := f.str("wallet_address", true)
	if rep := f.refused(); rep != nil {
		return *rep
	}
	c := s.orgCustomer(rq, customerID)
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	for _, w := range s.wallets {
		if w.CustomerID == c.ID && w.WalletAddress == address {
			return success(http.StatusOK, "Wallet already added", newWalletData(w))
		}
	}
	w := s.addWallet(Wallet{CustomerID: c.ID, WalletAddress: address})
	return success(http.StatusCreated, "Wallet added successfully", newWalletData(&w))
}

// simulateKYCStatus is PATCH /cms/api/v1/kyc/mock-kyc-status with
// {customer_id, kyc_status}, answering {id, status} and moving a customer
// only along kycTransitions. A move to VERIFIED sends the CUSTOMER webhook
// VERIFIED; a move to a failed status sends FAILED
// with that status as failure_reason; a move to UNVERIFIED sends none.
func (s *Sandbox) simulateKYCStatus(rq *request) reply {
	f := rq.body
	customerID := f.uuid("customer_id")
	status, ok := f.str("kyc_status", true)
	to := types.KYCStatus(status)
	if ok && !to.IsKnown() {
		f.fail("kyc_status", fmt.Sprintf("%q is not a valid choice.", status))
	}
	if rep := f.refused(); rep != nil {
		return *rep
	}
	c := s.orgCustomer(rq, customerID)
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	from := c.KYCStatus
	if !kycMoveAllowed(from, to) {
		return rule(fmt.Sprintf("KYC status cannot move from %s to %s.", from, to))
	}
	c.KYCStatus = to
	switch to {
	case types.KYCVerified:
		s.emit(rq, EventTypeCustomer, c.ID.String(), string(types.KYCVerified), map[string]any{})
	case types.KYCTaxVerificationFailed, types.KYCDocumentVerificationFailed, types.KYCFailed:
		s.emit(rq, EventTypeCustomer, c.ID.String(), string(types.KYCFailed), map[string]any{"failure_reason": string(to)})
	}
	return success(http.StatusOK, "KYC status updated successfully", struct {
		ID     uuid.UUID       `json:"id"`
		Status types.KYCStatus `json:"status"`
	}{c.ID, to})
}

// kycConfiguration is the KYC configuration, the same for every customer:
// the values the service's documentation shows.
type kycConfiguration struct {
	SupportedDocumentTypes []string              `json:"supported_document_types"`
	AdditionalInfoRequired kycAdditionalInfoJSON `json:"additional_info_required"`
}

type kycAdditionalInfoJSON struct {
	Options     []string       `json:"options"`
	Rules       kycRulesJSON   `json:"rules"`
	IncomeRange kycInfoReqJSON `json:"income_range"`
	Profession  kycInfoReqJSON `json:"profession"`
}

type kycRulesJSON struct {
	Type        string `json:"type"`
	MinRequired int    `json:"min_required"`
}

type kycInfoReqJSON struct {
	Type     string `json:"type"`
	Required bool   `json:"required"`
}

// getKYCConfiguration is GET /cms/api/v1/kyc/configuration/{customer_id};
// an absent or foreign customer is refused "Customer not found or access
// denied".
func (s *Sandbox) getKYCConfiguration(rq *request) reply {
	if s.pathCustomer(rq, rq.params[0]) == nil {
		return rule(msgCustomerNotFound)
	}
	return success(http.StatusOK, "KYC configuration fetched successfully", kycConfiguration{
		SupportedDocumentTypes: []string{"AADHAAR", "PASSPORT", "VOTER_ID", "DRIVING_LICENSE"},
		AdditionalInfoRequired: kycAdditionalInfoJSON{
			Options:     []string{"income_range", "profession"},
			Rules:       kycRulesJSON{Type: "allOf", MinRequired: 2},
			IncomeRange: kycInfoReqJSON{Type: "string", Required: true},
			Profession:  kycInfoReqJSON{Type: "string", Required: true},
		},
	})
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

// bankPage is the data of the bank list: count, next, previous, results.
type bankPage struct {
	Count    int            `json:"count"`
	Next     *string        `json:"next"`
	Previous *string        `json:"previous"`
	Results  []bankListItem `json:"results"`
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
	page := 1
	if q := rq.r.URL.Query(); q.Has("page") {
		n, err := strconv.Atoi(q.Get("page"))
		if err != nil || n < 1 {
			return refusal(http.StatusNotFound, "", msgInvalidPage, nil)
		}
		page = n
	}
	var banks []*bankAccount
	for _, id := range c.banks {
		if b, ok := s.banks[id]; ok && b.CustomerID == c.ID {
			banks = append(banks, b)
		}
	}
	size := s.settings.PageSize
	if page > 1 && page-1 >= (len(banks)+size-1)/size {
		return refusal(http.StatusNotFound, "", msgInvalidPage, nil)
	}
	start := (page - 1) * size
	end := min(start+size, len(banks))
	data := bankPage{Count: len(banks), Results: make([]bankListItem, 0, end-start)}
	for _, b := range banks[start:end] {
		data.Results = append(data.Results, newBankListItem(b))
	}
	base := s.pageBase(rq.r)
	link := func(n int) *string {
		u := base + "?page=" + strconv.Itoa(n)
		return &u
	}
	if end < len(banks) {
		data.Next = link(page + 1)
	}
	if page > 1 {
		data.Previous = link(page - 1)
	}
	return success(http.StatusOK, "Bank accounts fetched successfully", data)
}

// pageBase is the absolute URL, without query, that the bank list's page
// links start with: Settings.PublicURL followed by the route's path when
// set, or else the scheme, Host and path the request arrived with (the
// path of RequestURI, so that a sandbox mounted under a prefix, e.g. with
// http.StripPrefix, still gives links that reach it).
func (s *Sandbox) pageBase(r *http.Request) string {
	if u := s.publicURL(); u != nil {
		return strings.TrimRight(u.String(), "/") + r.URL.EscapedPath()
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	path := r.URL.EscapedPath()
	if r.RequestURI != "" {
		if u, err := url.ParseRequestURI(r.RequestURI); err == nil {
			path = u.EscapedPath()
		}
	}
	return scheme + "://" + r.Host + path
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
	b, ok := s.banks[id]
	if !ok || b.CustomerID != c.ID {
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
