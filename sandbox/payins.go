package sandbox

// Payin operations under /pis/api/v1/payin: the quotation (create and
// fetch), the payin initiated against it, its fetch, the link of its
// exchange transfer id, and the payin status simulation.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// Refusal messages of create payin quotation, in the order the checks run,
// word for word as the service documents them; msgPayinNotFound answers a
// fetch of a quotation that is absent or another organization's.
const (
	msgCustomerUnverified = "Customer is unverified"
	msgBankUnverified     = "Bank account is unverified"
	msgOnrampDisabled     = "Onramp is disabled"
	msgBelowMinimum       = "Entered amount is less than minimum transaction amount"
	msgAboveMaximum       = "Entered amount exceeds maximum transaction amount"
	msgAMLFailed          = "AML SCREENING FAILED"
	msgEDDRequired        = "EDD required"
	msgDailyLimit         = "Daily onramp limit exhausted"
	msgPayinNotFound      = "Quotation is not found"
)

// iosCheckoutBase is where the sandbox's ios_checkout_link points: the
// .invalid top-level domain marks it as not a real page.
const iosCheckoutBase = "https://checkout.sandbox.invalid/upi/"

// payinBankTypes is the bank account type each payment method needs: a
// bank_account for IMPS, a vpa for UPI.
var payinBankTypes = map[types.PaymentMethod]types.BankAccountType{
	types.PaymentMethodIMPS: types.BankAccountTypeBankAccount,
	types.PaymentMethodUPI:  types.BankAccountTypeVPA,
}

// createPayinQuotation is POST /pis/api/v1/payin/quotation. Field errors
// come first, then the asset/fiat pair, then the refusals in the order of
// their messages above (customer unverified, bank unverified, onramp
// disabled, amount below the minimum or above the maximum, AML, EDD,
// daily limit); the first failing one answers.
func (s *Sandbox) createPayinQuotation(rq *request) reply {
	f := rq.body
	asset, _ := f.str("asset", true)
	fiat, _ := f.str("fiat", true)
	amount := f.decimal("sending_amount")
	customerID := f.uuid("customer_id")
	bankID := f.uuid("bank_id")
	methodText, ok := f.str("payment_method", true)
	method := types.PaymentMethod(methodText)
	if _, known := payinBankTypes[method]; ok && !known {
		f.fail("payment_method", fmt.Sprintf("%q is not a valid choice.", methodText))
	}
	var suspicious, lawEnforcement bool
	if risk := f.object("risk_parameters", false); risk != nil {
		risk.str("ip_address", false)
		risk.str("device_id", false)
		suspicious = risk.boolean("suspicious_activity_report")
		lawEnforcement = risk.boolean("law_enforcement_agency_report")
	}
	if rep := f.refused(); rep != nil {
		return *rep
	}

	asset, fiat = strings.ToUpper(asset), strings.ToUpper(fiat)
	rate, ok := s.settings.Rates[asset+"/"+fiat]
	if !ok || !rate.IsPositive() { // a non-positive rate in the settings quotes nothing
		return fieldRefusal(map[string][]string{"asset": {fmt.Sprintf("Unsupported asset/fiat pair %s/%s.", asset, fiat)}})
	}

	c := s.orgCustomer(rq, customerID)
	if c == nil || c.KYCStatus != types.KYCVerified {
		return rule(msgCustomerUnverified)
	}
	if reason := s.payinBankProblem(rq, c, bankID, method); reason != "" {
		return refusal(http.StatusBadRequest, "", msgBankUnverified, map[string][]string{"bank_id": {reason}})
	}
	if c.OnrampDisabled {
		return rule(msgOnrampDisabled)
	}
	if amount.LessThanOrEqual(s.settings.MinPayinAmount) {
		return rule(msgBelowMinimum)
	}
	maxAmount := s.settings.MaxIMPSAmount
	if method == types.PaymentMethodUPI {
		maxAmount = s.settings.MaxUPIAmount
	}
	if amount.GreaterThan(maxAmount) {
		return rule(msgAboveMaximum)
	}
	if c.AMLFailed {
		return rule(msgAMLFailed)
	}
	// A VERIFIED payin EDD lifts the customer's flag, as the limits show.
	if c.EDDRequired && !eddLifted(rq.org, c.ID, limitPayin) || suspicious || lawEnforcement {
		return rule(msgEDDRequired)
	}
	day := rq.now.UTC().Format("2006-01-02")
	limit := s.settings.DailyOnrampLimit
	if c.DailyLimitExhausted || limit.IsPositive() && c.quoted[day].Add(amount).GreaterThan(limit) {
		return rule(msgDailyLimit)
	}
	if bad := s.consumeLimit(rq.org, c.ID, limitPayin, method, amount, rq.now); bad != nil {
		return *bad
	}

	receiving, fee, gst := s.payinPrice(amount, rate)
	q := &payinQuotation{
		id: uuid.New(), orderID: uuid.New(), customerID: c.ID, bankID: bankID,
		asset: asset, fiat: fiat, method: method,
		sending: amount, rate: rate, receiving: receiving, fee: fee, gst: gst,
		createdAt: rq.now, expiresAt: rq.now.Add(s.settings.PayinQuotationValidity),
		status: types.PayinProcessing,
	}
	if c.quoted == nil {
		c.quoted = map[string]decimal.Decimal{}
	}
	c.quoted[day] = c.quoted[day].Add(amount)
	rq.org.payinQuotations[q.id] = q
	return success(http.StatusOK, "Quotation created successfully", s.payinQuotationData(q, false))
}

// payinBankProblem says why bank bankID cannot back customer c's payin by
// method, or "" when it can. Another organization's account is absent.
func (s *Sandbox) payinBankProblem(rq *request, c *customer, bankID uuid.UUID, method types.PaymentMethod) string {
	b := rq.org.banks[bankID]
	switch want := payinBankTypes[method]; {
	case b == nil:
		return "Bank account not found."
	case b.CustomerID != c.ID:
		return "Bank account is linked to another customer."
	case b.Status != types.BankAccountVerified:
		return fmt.Sprintf("Bank account status is %s; only a %s account backs a payin.", b.Status, types.BankAccountVerified)
	case b.Type != want:
		return fmt.Sprintf("Bank account is of type %s; %s needs a %s.", b.Type, method, want)
	}
	return ""
}

// getPayinQuotation is GET /pis/api/v1/payin/quotation/{quotation_id}; a
// missing id is refused "Quotation ID is required.", a malformed one
// "Quotation ID is invalid". Its status is payinQuotationStatus's.
func (s *Sandbox) getPayinQuotation(rq *request) reply {
	param := rq.params[0]
	if strings.TrimSpace(param) == "" {
		return fieldRefusal(map[string][]string{"quotation_id": {"Quotation ID is required."}})
	}
	id, ok := idFromPath(param)
	if !ok {
		return fieldRefusal(map[string][]string{"quotation_id": {"Quotation ID is invalid"}})
	}
	q := rq.org.payinQuotations[id]
	if q == nil {
		return rule(msgPayinNotFound)
	}
	data := s.payinQuotationData(q, true)
	data.Status = string(payinQuotationStatus(q, rq.now))
	return success(http.StatusOK, "Quotation fetched successfully", data)
}

// payinQuotationStatus is q's fetched status at now: its payin's status
// once a payin is initiated on it, else EXPIRED from its expiry on (a
// payin may be initiated only before it), else PROCESSING.
func payinQuotationStatus(q *payinQuotation, now time.Time) types.QuotationStatus {
	if q.payin == nil && !now.Before(q.expiresAt) {
		return types.QuotationExpired
	}
	return types.QuotationStatus(q.status)
}

// payinDeposit is deposit_instructions.
type payinDeposit struct {
	AccountNumber string `json:"account_number"`
	IFSC          string `json:"ifsc"`
	AccountName   string `json:"account_name"`
}

// payinQuotationJSON is the payin quotation as the service sends it. order_id
// and status appear only in the fetch response; the UPI links only for
// UPI, at the top level.
type payinQuotationJSON struct {
	ID                  uuid.UUID           `json:"id"`
	OrderID             *uuid.UUID          `json:"order_id,omitempty"`
	CustomerID          uuid.UUID           `json:"customer_id"`
	BankID              uuid.UUID           `json:"bank_id"`
	Status              string              `json:"status,omitempty"`
	Asset               string              `json:"asset"`
	Fiat                string              `json:"fiat"`
	PaymentMethod       types.PaymentMethod `json:"payment_method"`
	SendingAmount       json.Number         `json:"sending_amount"`
	Rate                json.Number         `json:"rate"`
	ReceivingAmount     json.Number         `json:"receiving_amount"`
	Fees                feeNumbers          `json:"fees"`
	DepositInstructions payinDeposit        `json:"deposit_instructions"`
	DeepLink            string              `json:"deep_link,omitempty"`
	IOSCheckoutLink     string              `json:"ios_checkout_link,omitempty"`
	CreatedAt           string              `json:"created_at"`
	ExpiryTime          string              `json:"expiry_time"`
}

// payinQuotationData builds the answer of create (fetched false) and
// fetch (fetched true: with order_id and status).
func (s *Sandbox) payinQuotationData(q *payinQuotation, fetched bool) payinQuotationJSON {
	dep := s.settings.DepositAccount
	out := payinQuotationJSON{
		ID: q.id, CustomerID: q.customerID, BankID: q.bankID,
		Asset: q.asset, Fiat: q.fiat, PaymentMethod: q.method,
		SendingAmount: num(q.sending), Rate: num(q.rate), ReceivingAmount: num(q.receiving),
		Fees:                feesJSON(q.fees()),
		DepositInstructions: payinDeposit{AccountNumber: dep.AccountNumber, IFSC: dep.IFSC, AccountName: dep.AccountName},
		CreatedAt:           stamp(q.createdAt),
		ExpiryTime:          stamp(q.expiresAt),
	}
	if fetched {
		orderID := q.orderID
		out.OrderID = &orderID
		out.Status = string(q.status)
	}
	if q.method == types.PaymentMethodUPI {
		out.DeepLink = upiDeepLink(dep, q)
		out.IOSCheckoutLink = iosCheckoutBase + q.id.String()
	}
	return out
}

// upiDeepLink is the UPI intent link paying q's amount to the deposit
// VPA, its parameters in the order of the UPI linking specification.
func upiDeepLink(dep DepositAccount, q *payinQuotation) string {
	esc := func(v string) string { return strings.ReplaceAll(url.QueryEscape(v), "+", "%20") }
	return "upi://pay?pa=" + esc(dep.VPA) +
		"&pn=" + esc(dep.AccountName) +
		"&am=" + esc(q.sending.String()) +
		"&cu=" + esc(q.fiat) +
		"&tr=" + esc(q.id.String())
}

// simulatePayinStatus is PATCH /pis/api/v1/payin/mock-payin-status with
// {payin_id, payin_status}: it moves a payin along the transition table
// (types.PayinStatus.Next) and sends the PAYIN webhook, whose id is the
// payin's id. A move to FAILED
// sets failure_reason (PAYMENT_NOT_RECEIVED, or the body's optional
// failure_reason: INCORRECT_UTR or PAYMENT_NOT_RECEIVED), carried in the
// webhook's metadata; a move to REFUND_INITIATED, or straight to
// REFUNDED, sets refund_reason (INCORRECT_AMOUNT, or the body's optional
// refund_reason from its catalogue), carried by the REFUND_INITIATED and
// REFUNDED webhooks. A
// move to the payin's current status changes nothing and sends nothing
// (a retried simulation sets the same status again). The
// fetched quotation's status shows the payin's. An absent payin or
// another organization's is "Payin not found or access denied"; any other
// move is refused with a 400 naming both statuses. Expiry does not stop
// the simulation: it settles a payin already under way.
func (s *Sandbox) simulatePayinStatus(rq *request) reply {
	f := rq.body
	id := f.uuid("payin_id")
	status, ok := f.str("payin_status", true)
	to := types.PayinStatus(status)
	if ok && !to.IsKnown() {
		f.fail("payin_status", fmt.Sprintf("%q is not a valid choice.", status))
	}
	failure := types.PayinFailurePaymentNotReceived
	if v, ok := f.str("failure_reason", false); ok {
		if failure = types.PayinFailureReason(v); !failure.IsKnown() {
			f.fail("failure_reason", fmt.Sprintf("%q is not a valid choice.", v))
		}
	}
	refund := types.PayinRefundIncorrectAmount
	if v, ok := f.str("refund_reason", false); ok {
		if refund = types.PayinRefundReason(v); !refund.IsKnown() {
			f.fail("refund_reason", fmt.Sprintf("%q is not a valid choice.", v))
		}
	}
	if bad := f.refused(); bad != nil {
		return *bad
	}
	p := s.orgPayin(rq, id)
	if p == nil {
		return rule(msgPayinAbsent)
	}
	answer := success(http.StatusOK, "Payin status updated successfully", struct {
		PayinID     uuid.UUID         `json:"payin_id"`
		PayinStatus types.PayinStatus `json:"payin_status"`
	}{p.id, to})
	if p.status == to {
		// A repeat of the move just made (a retry after a lost answer)
		// sets the same status: nothing changes, no webhook.
		return answer
	}
	if !p.status.CanMoveTo(to) {
		return rule(fmt.Sprintf("Payin status cannot move from %s to %s.", p.status, to))
	}
	p.status, p.updatedAt = to, rq.now
	p.quotation.status = to
	meta := map[string]any{}
	switch to {
	case types.PayinSuccess:
		meta["utr"] = p.utr
	case types.PayinFailed:
		reason := string(failure)
		p.failureReason = &reason
		meta["failure_reason"] = reason
	case types.PayinRefundInitiated, types.PayinRefunded:
		if p.refundReason == nil { // REFUNDED after REFUND_INITIATED keeps its reason
			reason := string(refund)
			p.refundReason = &reason
		}
		meta["refund_reason"] = *p.refundReason
	}
	s.emit(rq, EventTypePayin, p.id.String(), string(to), meta)
	return answer
}

// Refusal messages of payin initiate, fetch and link, word for word as the
// service documents them where it does; msgPayinAbsent (an absent payin or
// another organization's) is the sandbox's own wording, as the service
// shows none.
const (
	msgUTRLinked          = "UTR is already linked to another payin"
	msgUTRFormat          = "Invalid UTR format"
	msgPayinRefExists     = "Client Reference ID already exists"
	msgPayinCustomer      = "Customer ID does not match with the quotation"
	msgPayinExpired       = "Quotation has expired"
	msgPayinLinked        = "Quotation is already linked to another payin"
	msgPayinIDRequired    = "Payin ID is required."
	msgPayinIDInvalid     = "Payin ID is invalid"
	msgPayinAbsent        = "Payin not found or access denied"
	msgPayinInitiated     = "Payin initiated successfully"
	msgPayinTransferSaved = "Exchange transfer ID updated successfully"
)

// utrLength is the length of a UTR the sandbox accepts: 12 letters or
// digits, as the service documents ("12 characters").
const utrLength = 12

// payin is a payin's state: the quotation it was initiated against, the
// UTR and reference it was initiated with, and what moved since.
type payin struct {
	id              uuid.UUID
	quotation       *payinQuotation
	utr             string
	clientReference *string
	status          types.PayinStatus
	failureReason   *string
	refundReason    *string
	transferID      string // "" until linked, as the service shows it
	createdAt       time.Time
	updatedAt       time.Time
}

// storePayin files a new payin in o's table, its customer's list and the
// indexes of UTRs and references; s.mu is held.
func storePayin(o *org, p *payin) {
	o.payins.add(p.id, p, payinCreated)
	if c := o.customers.byID[p.quotation.customerID]; c != nil {
		c.payins = insertByTime(c.payins, p, payinCreated)
	}
	o.utrs[p.utr] = p
	if p.clientReference != nil {
		o.payinRefs[*p.clientReference] = p
	}
}

// payinCreated is when p was initiated, the order of the payin list.
func payinCreated(p *payin) time.Time { return p.createdAt }

// validUTR reports whether utr is 12 ASCII letters or digits.
func validUTR(utr string) bool {
	if len(utr) != utrLength {
		return false
	}
	for i := 0; i < len(utr); i++ {
		c := utr[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

// initiatePayin is POST /pis/api/v1/payin/initiate with {quotation_id,
// customer_id, utr, client_reference_id (optional)}. Field errors come
// first, then the UTR's format, the quotation (absent or another
// organization's: "Quotation is not found"), its customer, then the
// duplicates (UTR, reference, quotation already linked), and expiry last,
// so that a repeat of an initiate that went through is told it is a
// duplicate, whenever it comes. The payin starts PROCESSING with its own
// id, and the quotation's status follows the payin's.
func (s *Sandbox) initiatePayin(rq *request) reply {
	f := rq.body
	quotationID := f.uuid("quotation_id")
	customerID := f.uuid("customer_id")
	utr, _ := f.str("utr", true)
	ref := optionalString(f, "client_reference_id")
	if bad := f.refused(); bad != nil {
		return *bad
	}
	if !validUTR(utr) {
		return refusal(http.StatusBadRequest, "", msgUTRFormat,
			map[string][]string{"utr": {"UTR must be 12 letters or digits."}})
	}
	o := rq.org
	q := o.payinQuotations[quotationID]
	if q == nil {
		return rule(msgPayinNotFound)
	}
	if q.customerID != customerID {
		return rule(msgPayinCustomer)
	}
	if o.utrs[utr] != nil {
		return rule(msgUTRLinked)
	}
	if ref != nil && o.payinRefs[*ref] != nil {
		return rule(msgPayinRefExists)
	}
	if q.payin != nil {
		return rule(msgPayinLinked)
	}
	if !rq.now.Before(q.expiresAt) {
		return rule(msgPayinExpired)
	}
	p := &payin{
		id: uuid.New(), quotation: q,
		utr: utr, clientReference: ref, status: types.PayinProcessing,
		createdAt: rq.now, updatedAt: rq.now,
	}
	q.payin, q.status = p, types.PayinProcessing
	storePayin(o, p)
	return success(http.StatusCreated, msgPayinInitiated, payinInitiatedOf(s, p))
}

// payinInitiatedJSON is the answer of initiate: the quotation's fields as
// JSON numbers, plus the payin's id, utr and status.
type payinInitiatedJSON struct {
	ID                  uuid.UUID           `json:"id"`
	QuotationID         uuid.UUID           `json:"quotation_id"`
	CustomerID          uuid.UUID           `json:"customer_id"`
	ClientReferenceID   *string             `json:"client_reference_id"`
	BankID              uuid.UUID           `json:"bank_id"`
	Asset               string              `json:"asset"`
	Fiat                string              `json:"fiat"`
	PaymentMethod       types.PaymentMethod `json:"payment_method"`
	SendingAmount       json.Number         `json:"sending_amount"`
	Rate                json.Number         `json:"rate"`
	ReceivingAmount     json.Number         `json:"receiving_amount"`
	Fees                feeNumbers          `json:"fees"`
	DepositInstructions payinDeposit        `json:"deposit_instructions"`
	UTR                 string              `json:"utr"`
	Status              types.PayinStatus   `json:"status"`
	CreatedAt           string              `json:"created_at"`
	ExpiryTime          string              `json:"expiry_time"`
}

// payinInitiatedOf returns p in the shape of initiate's answer.
func payinInitiatedOf(s *Sandbox, p *payin) payinInitiatedJSON {
	q := p.quotation
	dep := s.settings.DepositAccount
	return payinInitiatedJSON{
		ID: p.id, QuotationID: q.id, CustomerID: q.customerID, ClientReferenceID: p.clientReference,
		BankID: q.bankID, Asset: q.asset, Fiat: q.fiat, PaymentMethod: q.method,
		SendingAmount: num(q.sending), Rate: num(q.rate), ReceivingAmount: num(q.receiving),
		Fees:                feesJSON(q.fees()),
		DepositInstructions: payinDeposit{AccountNumber: dep.AccountNumber, IFSC: dep.IFSC, AccountName: dep.AccountName},
		UTR:                 p.utr, Status: p.status,
		CreatedAt: stamp(p.createdAt), ExpiryTime: stamp(q.expiresAt),
	}
}

// fees is the fees object of q and of the payins on it.
func (q *payinQuotation) fees() Fees {
	gross := decimal.Zero
	if !q.receiving.IsZero() {
		gross = q.sending.DivRound(q.receiving, 4)
	}
	return Fees{ServiceFee: q.fee, ServiceGST: q.gst, GrossEffectiveExchangeRate: gross}
}

// payinFetchedJSON is a payin as fetch and history answer it: amounts as
// decimal strings, the fiat amount spelled receiveing_amount, null for
// what has not happened.
type payinFetchedJSON struct {
	ID                 uuid.UUID         `json:"id"`
	QuotationID        uuid.UUID         `json:"quotation_id"`
	CustomerID         uuid.UUID         `json:"customer_id"`
	ClientReferenceID  *string           `json:"client_reference_id"`
	BankID             uuid.UUID         `json:"bank_id"`
	Asset              string            `json:"asset"`
	Fiat               string            `json:"fiat"`
	SendingAmount      string            `json:"sending_amount"`
	Rate               string            `json:"rate"`
	ReceiveingAmount   string            `json:"receiveing_amount"`
	Fees               feeNumbers        `json:"fees"`
	UTR                string            `json:"utr"`
	ExchangeTransferID string            `json:"exchange_transfer_id"`
	Status             types.PayinStatus `json:"status"`
	FailureReason      *string           `json:"failure_reason"`
	RefundReason       *string           `json:"refund_reason"`
	CreatedAt          string            `json:"created_at"`
	UpdatedAt          string            `json:"updated_at"`
}

// payinFetchedOf returns p in the shape of fetch and history.
func payinFetchedOf(p *payin) payinFetchedJSON {
	q := p.quotation
	return payinFetchedJSON{
		ID: p.id, QuotationID: q.id, CustomerID: q.customerID, ClientReferenceID: p.clientReference,
		BankID: q.bankID, Asset: q.asset, Fiat: q.fiat,
		SendingAmount: q.sending.String(), Rate: q.rate.String(), ReceiveingAmount: q.receiving.String(),
		Fees: feesJSON(q.fees()), UTR: p.utr, ExchangeTransferID: p.transferID,
		Status: p.status, FailureReason: p.failureReason, RefundReason: p.refundReason,
		CreatedAt: stamp(p.createdAt), UpdatedAt: stamp(p.updatedAt),
	}
}

// orgPayin returns the payin id of rq's organization, or nil.
func (s *Sandbox) orgPayin(rq *request, id uuid.UUID) *payin {
	return rq.org.payins.byID[id]
}

// getPayin is GET /pis/api/v1/payin/{payin_id}: a missing id is refused
// "Payin ID is required.", a malformed one "Payin ID is invalid", an
// absent or foreign payin "Payin not found or access denied".
func (s *Sandbox) getPayin(rq *request) reply {
	param := rq.params[0]
	if strings.TrimSpace(param) == "" {
		return fieldRefusal(map[string][]string{"payin_id": {msgPayinIDRequired}})
	}
	id, ok := idFromPath(param)
	if !ok {
		return fieldRefusal(map[string][]string{"payin_id": {msgPayinIDInvalid}})
	}
	p := s.orgPayin(rq, id)
	if p == nil {
		return rule(msgPayinAbsent)
	}
	return success(http.StatusOK, "Payin fetched successfully", payinFetchedOf(p))
}

// linkPayinTransfer is PATCH /pis/api/v1/payin/update-transfer-id with
// {payin_id, exchange_transfer_id}: it stores the transfer id on the
// payin (a later link replaces it), shown by fetch and history, and
// answers the same two members.
func (s *Sandbox) linkPayinTransfer(rq *request) reply {
	f := rq.body
	id := f.uuid("payin_id")
	transfer, _ := f.str("exchange_transfer_id", true)
	if bad := f.refused(); bad != nil {
		return *bad
	}
	p := s.orgPayin(rq, id)
	if p == nil {
		return rule(msgPayinAbsent)
	}
	p.transferID, p.updatedAt = transfer, rq.now
	return success(http.StatusOK, msgPayinTransferSaved, struct {
		PayinID            uuid.UUID `json:"payin_id"`
		ExchangeTransferID string    `json:"exchange_transfer_id"`
	}{p.id, transfer})
}
