package sandbox

// Payins: a payin initiated against a payin quotation, its fetch and the
// link of its exchange transfer id.

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

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
