package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// Organization is a customer of the service: it owns customers, bank
// accounts, quotations and payouts, and signs with its own key and secret.
type Organization struct {
	// ID is generated when zero.
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name,omitempty"`
	// APIKey and APISecret are generated when empty.
	APIKey    string `json:"api_key"`
	APISecret string `json:"api_secret"`
	// Prefunded says the organization holds a prefunded wallet: it may use
	// the prefunded payout operation, and its remittance payouts debit the
	// prefunded balance instead of needing a transaction hash.
	Prefunded bool `json:"prefunded"`
	// Balances is the prefunded balance per asset code (upper case).
	Balances map[string]decimal.Decimal `json:"balances,omitempty"`
	// WebhookURL receives the organization's webhook deliveries (absolute
	// http or https); empty sends none. The registration operation
	// (POST /org/api/v1/organizations/api-webhooks) and SetWebhookURL
	// change it.
	WebhookURL string `json:"webhook_url,omitempty"`
}

// CustomerFlags are the outcomes of checks the sandbox cannot perform
// itself; each makes a payin quotation fail with the service's message
// for it.
type CustomerFlags struct {
	// OnrampDisabled refuses a payin quotation with "Onramp is disabled"
	// (KYC done without a verified Aadhaar).
	OnrampDisabled bool `json:"onramp_disabled,omitempty"`
	// AMLFailed refuses a payin quotation with "AML SCREENING FAILED".
	AMLFailed bool `json:"aml_failed,omitempty"`
	// EDDRequired makes an enhanced due diligence (EDD) due in both
	// directions: the payout and payin limits show is_edd_required and
	// the payout and payin EDD saves are accepted, until an EDD lifts
	// that direction's limits (a payin EDD lifts both); and it refuses a
	// payin quotation with "EDD required" until a payin EDD of the
	// customer is VERIFIED. Payouts are refused only beyond their limit.
	EDDRequired bool `json:"edd_required,omitempty"`
	// DailyLimitExhausted refuses a payin quotation with "Daily onramp
	// limit exhausted".
	DailyLimitExhausted bool `json:"daily_limit_exhausted,omitempty"`
}

// Customer is one of an organization's customers.
type Customer struct {
	// ID is generated when zero.
	ID             uuid.UUID `json:"id"`
	OrganizationID uuid.UUID `json:"organization_id"`
	Name           string    `json:"name,omitempty"`
	// Email and Phone are the contact details a created customer must
	// have, unique within the organization. Each defaults to one made
	// from the customer's id (customer-<id>@example.com; +91 and ten
	// digits).
	Email string `json:"email,omitempty"`
	Phone string `json:"phone,omitempty"`
	// KYCStatus defaults to VERIFIED.
	KYCStatus types.KYCStatus `json:"kyc_status,omitempty"`
	CustomerFlags
}

// BankAccount is a customer's bank account or UPI address.
type BankAccount struct {
	// ID is generated when zero.
	ID         uuid.UUID `json:"id"`
	CustomerID uuid.UUID `json:"customer_id"`
	// Type is types.BankAccountTypeBankAccount (the default; usable for
	// IMPS) or types.BankAccountTypeVPA (usable for UPI).
	Type types.BankAccountType `json:"type,omitempty"`
	// Status defaults to VERIFIED; only a VERIFIED account backs a payin.
	Status        types.BankAccountStatus `json:"status,omitempty"`
	AccountNumber string                  `json:"account_number,omitempty"`
	IFSC          string                  `json:"ifsc,omitempty"`
	VPA           string                  `json:"vpa,omitempty"`
	// AccountName is the name the bank holds for the account, shown as
	// beneficiary_name and account_name.
	AccountName   string  `json:"account_name,omitempty"`
	BankName      string  `json:"bank_name,omitempty"`
	Country       string  `json:"country,omitempty"` // defaults to IND
	FailureReason *string `json:"failure_reason,omitempty"`
}

// Wallet is a customer's crypto wallet address.
type Wallet struct {
	// ID is generated when zero.
	ID            uuid.UUID          `json:"id"`
	CustomerID    uuid.UUID          `json:"customer_id"`
	WalletAddress string             `json:"wallet_address"`
	Status        types.WalletStatus `json:"wallet_status,omitempty"` // defaults to ACTIVE
	FailureReason *string            `json:"failure_reason,omitempty"`
}

// Fees are a payout quotation's fees, with the keys of a standard payout's
// fees object (client_fee_fiat, ..., gross_effective_exchange_rate). A
// prefunded payout shows ServiceFee, ClientFeeFiat (as client_fee),
// ClientGSTFiat (as client_gst) and TDS.
type Fees struct {
	ClientFeeFiat              decimal.Decimal `json:"client_fee_fiat"`
	ClientFeeCrypto            decimal.Decimal `json:"client_fee_crypto"`
	ServiceFee                 decimal.Decimal `json:"service_fee"`
	PGFee                      decimal.Decimal `json:"pg_fee"`
	ClientGSTFiat              decimal.Decimal `json:"client_gst_fiat"`
	ClientGSTCrypto            decimal.Decimal `json:"client_gst_crypto"`
	ServiceGST                 decimal.Decimal `json:"service_gst"`
	PGGST                      decimal.Decimal `json:"pg_gst"`
	TDS                        decimal.Decimal `json:"tds"`
	GrossEffectiveExchangeRate decimal.Decimal `json:"gross_effective_exchange_rate"`
}

// Quotation is a payout quotation: it locks a rate for paying
// ReceivingAmount of Fiat to BankID against SendingAmount of Asset.
// Payouts.CreateQuotation creates one through the interface, priced by
// the sandbox; a test adds one as a fixture to fix its own amounts, rate
// and expiry. One quotation backs at most one payout, of any of the three
// kinds.
type Quotation struct {
	// ID is generated when zero.
	ID         uuid.UUID `json:"id"`
	CustomerID uuid.UUID `json:"customer_id"`
	// BankID defaults to the customer's first bank account.
	BankID uuid.UUID `json:"bank_id"`
	// Asset, Network and Fiat default to USDT, TRON and INR.
	Asset   string `json:"asset,omitempty"`
	Network string `json:"network,omitempty"`
	Fiat    string `json:"fiat,omitempty"`
	// SendingAmount is the crypto amount and must be positive.
	SendingAmount decimal.Decimal `json:"sending_amount"`
	// Rate defaults to the settings' rate for Asset/Fiat.
	Rate decimal.Decimal `json:"rate"`
	// ReceivingAmount defaults to SendingAmount × Rate, rounded to 2 places.
	ReceivingAmount decimal.Decimal `json:"receiving_amount"`
	Fees            Fees            `json:"fees"`
	// WalletAddress is the deposit address; generated when empty.
	WalletAddress string `json:"wallet_address,omitempty"`
	// ExpiresAt defaults to the sandbox clock plus
	// Settings.PayoutQuotationValidity.
	ExpiresAt time.Time `json:"expires_at"`
}

// Remitter is an organization's remitter, named by remittance payouts.
type Remitter struct {
	// ID is generated when zero.
	ID             uuid.UUID `json:"id"`
	OrganizationID uuid.UUID `json:"organization_id"`
	Name           string    `json:"name,omitempty"`
}

// PayoutKind says which operation created a payout.
type PayoutKind string

// The three payout operations.
const (
	PayoutStandard   PayoutKind = "standard"
	PayoutPrefunded  PayoutKind = "prefunded"
	PayoutRemittance PayoutKind = "remittance"
)

// Payout is a stored payout, as the sandbox holds it.
type Payout struct {
	ID                 uuid.UUID          `json:"id"`
	Kind               PayoutKind         `json:"kind"`
	OrganizationID     uuid.UUID          `json:"organization_id"`
	QuotationID        uuid.UUID          `json:"quotation_id"`
	CustomerID         uuid.UUID          `json:"customer_id"`
	SenderID           *uuid.UUID         `json:"sender_id,omitempty"`   // prefunded
	RemitterID         *uuid.UUID         `json:"remitter_id,omitempty"` // remittance
	BankID             uuid.UUID          `json:"bank_id"`
	ClientReferenceID  *string            `json:"client_reference_id"`
	ExchangeOrderID    string             `json:"exchange_order_id"`
	ExchangeTransferID string             `json:"exchange_transfer_id"`
	TransactionHash    *string            `json:"transaction_hash"`
	Asset              string             `json:"asset"`
	Network            string             `json:"network"`
	Fiat               string             `json:"fiat"`
	Rate               decimal.Decimal    `json:"rate"`
	SendingAmount      decimal.Decimal    `json:"sending_amount"`
	ReceivingAmount    decimal.Decimal    `json:"receiving_amount"`
	Fees               Fees               `json:"fees"`
	WalletAddress      string             `json:"wallet_address"`
	Status             types.PayoutStatus `json:"status"`
	UTR                *string            `json:"utr"`
	FailureReason      *string            `json:"failure_reason"`
	// Reserved is the amount of Asset taken from the prefunded balance.
	Reserved  decimal.Decimal `json:"reserved"`
	CreatedAt time.Time       `json:"created_at"`
	UpdatedAt time.Time       `json:"updated_at"`
}

// fixtureError is the error of a fixture method given something it cannot
// add.
func fixtureError(what, format string, args ...any) error {
	return fmt.Errorf("sandbox: %s: %s", what, fmt.Sprintf(format, args...))
}

// randomToken returns n random bytes in hex, for generated keys and
// secrets.
func randomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// AddOrganization adds o, generating what it leaves empty, and returns it
// as stored. Its key must be unused.
func (s *Sandbox) AddOrganization(o Organization) (Organization, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o.ID == uuid.Nil {
		o.ID = uuid.New()
	}
	if _, dup := s.st.orgs[o.ID]; dup {
		return Organization{}, fixtureError("organization", "id %s already exists", o.ID)
	}
	if o.APIKey == "" {
		o.APIKey = "sbx_key_" + randomToken(12)
	}
	if o.APISecret == "" {
		o.APISecret = "sbx_secret_" + randomToken(24)
	}
	if s.st.orgByKey(o.APIKey) != nil {
		return Organization{}, fixtureError("organization", "API key %q already in use", o.APIKey)
	}
	if o.WebhookURL != "" {
		if problem := webhookURLProblem(o.WebhookURL); problem != "" {
			return Organization{}, fixtureError("organization", "webhook_url %q: %s", o.WebhookURL, problem)
		}
	}
	balances := make(map[string]decimal.Decimal, len(o.Balances))
	for asset, amount := range o.Balances {
		if amount.IsNegative() {
			return Organization{}, fixtureError("organization", "balance of %s is negative", asset)
		}
		balances[strings.ToUpper(asset)] = amount
	}
	o.Balances = nil // the state keeps one balance map: st.balances
	st := newOrg(o, balances)
	s.st.orgs[o.ID] = st
	s.st.index.keys[o.APIKey] = st
	return s.orgSnapshot(st), nil
}

// orgSnapshot is o with its current balances, sharing nothing with the
// state.
func (s *Sandbox) orgSnapshot(o *org) Organization {
	out := o.Organization
	out.Balances = make(map[string]decimal.Decimal, len(o.balances))
	for k, v := range o.balances {
		out.Balances[k] = v
	}
	return out
}

// Organization returns the organization id as it stands now, its
// balances included.
func (s *Sandbox) Organization(id uuid.UUID) (Organization, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.st.orgs[id]
	if !ok {
		return Organization{}, false
	}
	return s.orgSnapshot(o), true
}

// Balance returns the prefunded balance of asset (any case) of
// organization orgID.
func (s *Sandbox) Balance(orgID uuid.UUID, asset string) decimal.Decimal {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o, ok := s.st.orgs[orgID]; ok {
		return o.balances[strings.ToUpper(asset)]
	}
	return decimal.Zero
}

// SetBalance sets the prefunded balance of asset of organization orgID.
func (s *Sandbox) SetBalance(orgID uuid.UUID, asset string, amount decimal.Decimal) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.st.orgs[orgID]
	if !ok {
		return fixtureError("balance", "no organization %s", orgID)
	}
	if amount.IsNegative() {
		return fixtureError("balance", "amount %s is negative", amount)
	}
	o.balances[strings.ToUpper(asset)] = amount
	return nil
}

// SetWebhookURL sets the webhook URL of organization orgID; "" stops
// deliveries to it (events from then on are logged as DeliveryNoURL).
func (s *Sandbox) SetWebhookURL(orgID uuid.UUID, webhookURL string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.st.orgs[orgID]
	if !ok {
		return fixtureError("webhook URL", "no organization %s", orgID)
	}
	if webhookURL != "" {
		if problem := webhookURLProblem(webhookURL); problem != "" {
			return fixtureError("webhook URL", "%q: %s", webhookURL, problem)
		}
	}
	o.WebhookURL = webhookURL
	return nil
}

// AddCustomer adds c to its organization and returns it as stored.
func (s *Sandbox) AddCustomer(c Customer) (Customer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.st.orgs[c.OrganizationID]
	if !ok {
		return Customer{}, fixtureError("customer", "no organization %s", c.OrganizationID)
	}
	// A generated id is new; one given is looked for in every
	// organization.
	if c.ID == uuid.Nil {
		c.ID = uuid.New()
	} else if _, dup := s.st.customer(c.ID); dup != nil {
		return Customer{}, fixtureError("customer", "id %s already exists", c.ID)
	}
	if c.KYCStatus == "" {
		c.KYCStatus = types.KYCVerified
	}
	if !c.KYCStatus.IsKnown() {
		return Customer{}, fixtureError("customer", "unknown KYC status %q", c.KYCStatus)
	}
	if c.Email == "" {
		c.Email = "customer-" + c.ID.String() + "@example.com"
	}
	if c.Phone == "" {
		h := fnv.New64a()
		_, _ = h.Write(c.ID[:])
		for n := h.Sum64() % 1e9; c.Phone == "" || o.phones[c.Phone] != uuid.Nil; n = (n + 1) % 1e9 {
			c.Phone = fmt.Sprintf("+919%09d", n)
		}
	}
	switch {
	case !validEmail(c.Email):
		return Customer{}, fixtureError("customer", "email %q is not a valid address", c.Email)
	case o.emails[strings.ToLower(c.Email)] != uuid.Nil:
		return Customer{}, fixtureError("customer", "email %q is another customer's", c.Email)
	case o.phones[c.Phone] != uuid.Nil:
		return Customer{}, fixtureError("customer", "phone %q is another customer's", c.Phone)
	}
	cust := &customer{Customer: c}
	cust.profile.email, cust.profile.phone = c.Email, c.Phone
	addCustomer(o, cust, s.now())
	o.emails[strings.ToLower(c.Email)], o.phones[c.Phone] = c.ID, c.ID
	return c, nil
}

// Customer returns customer id as it stands now (its KYC status moves
// with the KYC simulation).
func (s *Sandbox) Customer(id uuid.UUID) (Customer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, c := s.st.customer(id)
	if c == nil {
		return Customer{}, false
	}
	return c.Customer, true
}

// SetCustomerFlags replaces the flags of customer id.
func (s *Sandbox) SetCustomerFlags(id uuid.UUID, f CustomerFlags) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, c := s.st.customer(id)
	if c == nil {
		return fixtureError("customer flags", "no customer %s", id)
	}
	c.CustomerFlags = f
	return nil
}

// SetKYCStatus sets the KYC status of customer id directly, whatever the
// simulation's transition table says.
func (s *Sandbox) SetKYCStatus(id uuid.UUID, status types.KYCStatus) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, c := s.st.customer(id)
	if c == nil {
		return fixtureError("KYC status", "no customer %s", id)
	}
	if !status.IsKnown() {
		return fixtureError("KYC status", "unknown KYC status %q", status)
	}
	c.KYCStatus = status
	return nil
}

// AddBankAccount adds b to its customer and returns it as stored.
func (s *Sandbox) AddBankAccount(b BankAccount) (BankAccount, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, c := s.st.customer(b.CustomerID)
	if c == nil {
		return BankAccount{}, fixtureError("bank account", "no customer %s", b.CustomerID)
	}
	// A generated id is new; one given is looked for in every
	// organization.
	if b.ID == uuid.Nil {
		b.ID = uuid.New()
	} else if s.st.anyOrg(func(o *org) bool { return o.banks[b.ID] != nil }) {
		return BankAccount{}, fixtureError("bank account", "id %s already exists", b.ID)
	}
	if b.Type == "" {
		b.Type = types.BankAccountTypeBankAccount
	}
	switch b.Type {
	case types.BankAccountTypeBankAccount:
		if b.AccountNumber == "" {
			b.AccountNumber = fmt.Sprintf("%012d", s.rng.Uint64N(1e12))
		}
		if b.IFSC == "" {
			b.IFSC = "SBIN0000001"
		}
	case types.BankAccountTypeVPA:
		if b.VPA == "" {
			b.VPA = fmt.Sprintf("customer%06d@upi", s.rng.Uint64N(1e6))
		}
	default:
		return BankAccount{}, fixtureError("bank account", "type %q is neither %q nor %q", b.Type, types.BankAccountTypeBankAccount, types.BankAccountTypeVPA)
	}
	if b.Status == "" {
		b.Status = types.BankAccountVerified
	}
	if !b.Status.IsKnown() {
		return BankAccount{}, fixtureError("bank account", "unknown status %q", b.Status)
	}
	if b.AccountName == "" {
		b.AccountName = c.Name
	}
	if b.BankName == "" && b.Type == types.BankAccountTypeBankAccount {
		b.BankName = "State Bank of India"
	}
	if b.Country == "" {
		b.Country = "IND"
	}
	stored := b
	stored.FailureReason = clonePtr(b.FailureReason)
	s.addBank(o, c, &bankAccount{BankAccount: stored})
	return b, nil
}

// AddWallet adds w to its customer and returns it as stored.
func (s *Sandbox) AddWallet(w Wallet) (Wallet, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, c := s.st.customer(w.CustomerID)
	if c == nil {
		return Wallet{}, fixtureError("wallet", "no customer %s", w.CustomerID)
	}
	if w.WalletAddress == "" {
		return Wallet{}, fixtureError("wallet", "wallet_address is empty")
	}
	if w.Status != "" && !w.Status.IsKnown() {
		return Wallet{}, fixtureError("wallet", "unknown status %q", w.Status)
	}
	if w.ID != uuid.Nil && s.st.anyOrg(func(o *org) bool { return o.wallets[w.ID] != nil }) {
		return Wallet{}, fixtureError("wallet", "id %s already exists", w.ID)
	}
	return s.addWallet(o, c, w), nil
}

// addWallet stores w, customer c's of organization o, generating its id
// and status; s.mu is held.
func (s *Sandbox) addWallet(o *org, c *customer, w Wallet) Wallet {
	if w.ID == uuid.Nil {
		w.ID = uuid.New()
	}
	if w.Status == "" {
		w.Status = types.WalletActive
	}
	stored := w
	stored.FailureReason = clonePtr(w.FailureReason)
	o.wallets[w.ID] = &stored
	c.wallets = append(c.wallets, &stored)
	return w
}

// AddQuotation adds payout quotation q and returns it as stored.
func (s *Sandbox) AddQuotation(q Quotation) (Quotation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, c := s.st.customer(q.CustomerID)
	if c == nil {
		return Quotation{}, fixtureError("quotation", "no customer %s", q.CustomerID)
	}
	// A generated id is new; one given is looked for in every
	// organization.
	if q.ID == uuid.Nil {
		q.ID = uuid.New()
	} else if s.st.anyOrg(func(o *org) bool { return o.quotations[q.ID] != nil }) {
		return Quotation{}, fixtureError("quotation", "id %s already exists", q.ID)
	}
	if q.BankID == uuid.Nil {
		if len(c.banks) == 0 {
			return Quotation{}, fixtureError("quotation", "customer %s has no bank account to pay to", c.ID)
		}
		q.BankID = c.banks[0].ID
	}
	if b, ok := o.banks[q.BankID]; !ok || b.CustomerID != c.ID {
		return Quotation{}, fixtureError("quotation", "bank account %s is not customer %s's", q.BankID, c.ID)
	}
	if q.Asset == "" {
		q.Asset = "USDT"
	}
	if q.Network == "" {
		q.Network = "TRON"
	}
	if q.Fiat == "" {
		q.Fiat = "INR"
	}
	q.Asset, q.Fiat = strings.ToUpper(q.Asset), strings.ToUpper(q.Fiat)
	if !q.SendingAmount.IsPositive() {
		return Quotation{}, fixtureError("quotation", "sending_amount %s is not positive", q.SendingAmount)
	}
	if q.Rate.IsZero() {
		rate, ok := s.settings.Rates[q.Asset+"/"+q.Fiat]
		if !ok {
			return Quotation{}, fixtureError("quotation", "no rate for %s/%s: give one", q.Asset, q.Fiat)
		}
		q.Rate = rate
	}
	if !q.Rate.IsPositive() {
		return Quotation{}, fixtureError("quotation", "rate %s is not positive", q.Rate)
	}
	if q.ReceivingAmount.IsZero() {
		q.ReceivingAmount = q.SendingAmount.Mul(q.Rate).Round(2)
	}
	if !q.ReceivingAmount.IsPositive() {
		return Quotation{}, fixtureError("quotation", "receiving_amount %s is not positive", q.ReceivingAmount)
	}
	if q.WalletAddress == "" {
		q.WalletAddress = "T" + randomToken(16)
	}
	if q.ExpiresAt.IsZero() {
		q.ExpiresAt = s.now().Add(s.settings.PayoutQuotationValidity)
	}
	o.quotations[q.ID] = &quotation{Quotation: q}
	return q, nil
}

// AddRemitter adds r to its organization and returns it as stored.
func (s *Sandbox) AddRemitter(r Remitter) (Remitter, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.st.orgs[r.OrganizationID]
	if !ok {
		return Remitter{}, fixtureError("remitter", "no organization %s", r.OrganizationID)
	}
	// A generated id is new; one given is looked for in every
	// organization.
	if r.ID == uuid.Nil {
		r.ID = uuid.New()
	} else if s.st.anyOrg(func(o *org) bool { return o.remitters[r.ID] != nil }) {
		return Remitter{}, fixtureError("remitter", "id %s already exists", r.ID)
	}
	stored := r
	o.remitters[r.ID] = &stored
	return r, nil
}

// Payout returns stored payout id.
func (s *Sandbox) Payout(id uuid.UUID) (Payout, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.st.payout(id)
	if p == nil {
		return Payout{}, false
	}
	return p.snapshot(), true
}

// Payouts returns every stored payout of organization orgID, in the order
// they were created.
func (s *Sandbox) Payouts(orgID uuid.UUID) []Payout {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.st.orgs[orgID]
	if o == nil {
		return nil
	}
	var out []Payout
	for _, p := range o.payouts.order {
		out = append(out, p.snapshot())
	}
	return out
}

// PayoutByReference returns the payout of organization orgID with client
// reference ref.
func (s *Sandbox) PayoutByReference(orgID uuid.UUID, ref string) (Payout, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.st.orgs[orgID]
	if !ok {
		return Payout{}, false
	}
	id, ok := o.refs[ref]
	if !ok {
		return Payout{}, false
	}
	return o.payouts.byID[id].snapshot(), true
}

// snapshot is p's Payout sharing nothing with the state: a caller writing
// through its pointers changes only its copy.
func (p *payout) snapshot() Payout {
	out := p.Payout
	out.SenderID = clonePtr(out.SenderID)
	out.RemitterID = clonePtr(out.RemitterID)
	out.ClientReferenceID = clonePtr(out.ClientReferenceID)
	out.TransactionHash = clonePtr(out.TransactionHash)
	out.UTR = clonePtr(out.UTR)
	out.FailureReason = clonePtr(out.FailureReason)
	return out
}

// clonePtr returns a pointer to a copy of *p, or nil.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
