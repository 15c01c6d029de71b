package sandbox

// Payout operations: standard, prefunded and remittance creates, fetch,
// the status simulation and the prefunded balance, under /pos/api/v1.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// Messages of the payout operations: the service's documented refusals of
// a standard create word for word; the sandbox's own wording for the
// refusals whose text the service does not document (insufficient balance,
// remitter and payout not found).
const (
	poMsgReferenceExists   = "Client Reference ID already exists"
	poMsgQuotationNotFound = "Quotation is not found"
	poMsgCustomerMismatch  = "Customer ID does not match with the quotation"
	poMsgQuotationExpired  = "Quotation has expired"
	poMsgQuotationLinked   = "Quotation is already linked to another payout"
	poMsgOrderInUse        = "Exchange Order ID already linked to a payout that is either processing or successful"
	poMsgNotEntitled       = "This endpoint is not available for your organization."
	poMsgInsufficient      = "Insufficient prefunded balance"
	poMsgRemitterNotFound  = "Remitter not found or access denied"
	poMsgPayoutNotFound    = "Payout not found or access denied"
	poMsgPayoutIDRequired  = "Payout ID is required."
	poMsgPayoutIDInvalid   = "Payout ID is invalid"
	poMsgInitiated         = "Payout initiated successfully"
	// poMsgSimulatedFailure is the failure_reason of a payout simulated to
	// FAILED or REFUNDED.
	poMsgSimulatedFailure = "Simulated failure: the beneficiary bank rejected the transfer"
	// poMsgSimulatedRefund is the refund_reason of a REFUNDED payout's
	// webhook.
	poMsgSimulatedRefund = "Simulated refund: the reserved amount was returned"
)

// createPayout is POST /pos/api/v1/payout/initiate: a standard payout,
// funded on chain, so nothing is reserved. An optional transaction_hash
// (the on-chain model) is stored on the payout. Its refusals are those of
// claimable, plus an exchange_order_id held by a PROCESSING or SUCCESS
// payout.
func (s *Sandbox) createPayout(rq *request) reply {
	f := rq.body
	qid, cid := f.uuid("quotation_id"), f.uuid("customer_id")
	order := optionalString(f, "exchange_order_id")
	ref := optionalString(f, "client_reference_id")
	hash := optionalString(f, "transaction_hash") // the on-chain model's deposit
	if bad := f.refused(); bad != nil {
		return *bad
	}
	q, bad := s.claimable(rq, ref, qid, cid, nil)
	if bad == nil && order != nil && s.orderInUse(rq.org, *order) {
		bad = refuseRule(poMsgOrderInUse)
	}
	if bad == nil {
		bad = s.consumeLimit(rq.org, q.CustomerID, limitPayout, types.PaymentMethodIMPS, q.ReceivingAmount, rq.now)
	}
	if bad != nil {
		return *bad
	}
	p := s.newPayout(rq, PayoutStandard, q, ref, order)
	p.TransactionHash = hash
	return success(http.StatusCreated, poMsgInitiated, payoutCreatedOf(p))
}

// createPrefundedPayout is POST /pos/api/v1/prefunded/payout/initiate
// with {quotation_id, customer: {sender, receiver}, client_reference_id}:
// the amount is reserved from the organization's prefunded balance.
// Entitlement is checked before the body, so an organization without a
// prefunded wallet learns that first ("This endpoint is not available for
// your organization.").
func (s *Sandbox) createPrefundedPayout(rq *request) reply {
	if !rq.org.Prefunded {
		return rule(poMsgNotEntitled)
	}
	f := rq.body
	qid := f.uuid("quotation_id")
	var sender, receiver uuid.UUID
	if c := f.object("customer", true); c != nil {
		sender, receiver = payoutParty(c, "sender"), payoutParty(c, "receiver")
	}
	ref := optionalString(f, "client_reference_id")
	if bad := f.refused(); bad != nil {
		return *bad
	}
	q, bad := s.claimable(rq, ref, qid, receiver, nil)
	if bad == nil {
		bad = lacksBalance(rq.org, q)
	}
	if bad == nil {
		bad = s.consumeLimit(rq.org, q.CustomerID, limitPayout, types.PaymentMethodIMPS, q.ReceivingAmount, rq.now)
	}
	if bad != nil {
		return *bad
	}
	p := s.newPayout(rq, PayoutPrefunded, q, ref, nil)
	p.SenderID = &sender // for reference only: the sender is not looked up
	reservePrefunded(rq.org, p)
	return success(http.StatusCreated, poMsgInitiated, prefundedCreated(p))
}

// payoutParty reads customer.<name>, a required object holding a required
// uuid id; uuid.Nil when either is missing (the error is filed).
func payoutParty(c *fields, name string) uuid.UUID {
	if o := c.object(name, true); o != nil {
		return o.uuid("id")
	}
	return uuid.Nil
}

// createRemittancePayout is POST Settings.RemittancePayoutPath with
// {quotation_id, customer_id, remitter_id, client_reference_id,
// transaction_hash}. transaction_hash is required unless the organization
// is prefunded; a prefunded organization's remittance payout debits its
// balance like a prefunded payout, and a hash it sends anyway is stored.
func (s *Sandbox) createRemittancePayout(rq *request) reply {
	f := rq.body
	qid, cid, rid := f.uuid("quotation_id"), f.uuid("customer_id"), f.uuid("remitter_id")
	ref := optionalString(f, "client_reference_id")
	var hash *string
	if rq.org.Prefunded {
		hash = optionalString(f, "transaction_hash")
	} else if h, ok := f.str("transaction_hash", true); ok {
		hash = &h
	}
	if bad := f.refused(); bad != nil {
		return *bad
	}
	q, bad := s.claimable(rq, ref, qid, cid, func() *reply {
		if rq.org.remitters[rid] == nil {
			return refuseRule(poMsgRemitterNotFound)
		}
		return nil
	})
	if bad == nil && rq.org.Prefunded {
		bad = lacksBalance(rq.org, q)
	}
	if bad == nil {
		bad = s.consumeLimit(rq.org, q.CustomerID, limitPayout, types.PaymentMethodIMPS, q.ReceivingAmount, rq.now)
	}
	if bad != nil {
		return *bad
	}
	p := s.newPayout(rq, PayoutRemittance, q, ref, nil)
	p.RemitterID, p.TransactionHash = &rid, hash
	if rq.org.Prefunded {
		reservePrefunded(rq.org, p)
	}
	return success(http.StatusCreated, poMsgInitiated, remittanceCreated{
		payoutCreated:   payoutCreatedOf(p),
		RemitterID:      rid,
		TransactionHash: hash,
		UTR:             p.UTR,
		FailureReason:   p.FailureReason,
		UpdatedAt:       stamp(p.UpdatedAt),
	})
}

// getBalance is GET /pos/api/v1/payout/balance: the
// prefunded balance per asset, amounts as decimal strings.
func (s *Sandbox) getBalance(rq *request) reply {
	if !rq.org.Prefunded {
		return rule(poMsgNotEntitled)
	}
	available := make(map[string]string, len(rq.org.balances))
	for asset, amount := range rq.org.balances {
		available[asset] = amount.String()
	}
	return success(http.StatusOK, "Balance fetched successfully", struct {
		AvailableBalance map[string]string `json:"available_balance"`
	}{available})
}

// simulatePayoutStatus is PATCH /pos/api/v1/payout/mock-payout-status
// with {payout_id, payout_status}: as the service documents it, it moves
// only a PROCESSING payout, to any status the transition table
// (types.PayoutStatus.Next) allows from PROCESSING; movePayout does the
// move. A move to the status the payout already has (not PROCESSING)
// answers success, changes nothing and sends nothing: a retried simulation
// sets the same status again. The table's later moves (FAILED to
// REFUNDED, out of IN_REVIEW) are the service's own doing, made in the
// sandbox by SetPayoutStatus.
func (s *Sandbox) simulatePayoutStatus(rq *request) reply {
	f := rq.body
	id := f.uuid("payout_id")
	to, ok := f.str("payout_status", true)
	if ok && !slices.Contains(types.PayoutStatus("").Values(), types.PayoutStatus(to)) {
		f.fail("payout_status", `"`+to+`" is not a valid choice.`)
	}
	if bad := f.refused(); bad != nil {
		return *bad
	}
	p := rq.org.payouts.byID[id]
	answer := func() reply {
		return success(http.StatusOK, "Payout status updated successfully", struct {
			PayoutID     uuid.UUID          `json:"payout_id"`
			PayoutStatus types.PayoutStatus `json:"payout_status"`
		}{p.ID, p.Status})
	}
	switch {
	case p == nil:
		return rule(poMsgPayoutNotFound)
	case p.Status == types.PayoutStatus(to) && p.Status != types.PayoutProcessing:
		// A repeat of the move just made (a retry after a lost answer)
		// sets the same status: nothing changes, no webhook.
		return answer()
	case p.Status != types.PayoutProcessing:
		return rule(fmt.Sprintf("Only a payout in PROCESSING can be simulated; this payout is %s.", p.Status))
	}
	if refused := s.movePayout(rq, p, types.PayoutStatus(to)); refused != "" {
		return rule(refused)
	}
	return answer()
}

// payoutMoveRefusal is how a move the transition table does not hold is
// refused, by the simulation and by SetPayoutStatus alike.
func payoutMoveRefusal(from, to types.PayoutStatus) string {
	return fmt.Sprintf("Payout status cannot move from %s to %s.", from, to)
}

// movePayout moves p to status to along the transition table, or returns
// the refusal (payoutMoveRefusal) and changes nothing. SUCCESS pays (utr
// and an exchange transfer id appear); FAILED and REFUNDED give a
// failure_reason; a status whose
// funds have come back (REFUNDED, CANCELLED: FundsReturned) returns what
// the payout reserved to the organization's prefunded balance. Every move
// but one to PROCESSING (which has no event) sends the PAYOUT webhook of
// the new status: metadata utr on SUCCESS, failure_reason on FAILED and
// REFUNDED (which adds refund_reason), rfi_link on IN_REVIEW, and the
// client_reference_id when the payout has one. s.mu is held.
func (s *Sandbox) movePayout(rq *request, p *payout, to types.PayoutStatus) (refused string) {
	if !p.Status.CanMoveTo(to) {
		return payoutMoveRefusal(p.Status, to)
	}
	p.Status = to
	p.UpdatedAt = rq.now
	switch to {
	case types.PayoutSuccess:
		utr := fmt.Sprintf("%012d", s.rng.Uint64N(1e12))
		p.UTR = &utr
		if p.ExchangeTransferID == "" { // a linked transfer id stays
			p.ExchangeTransferID = fmt.Sprintf("EXT%012d", s.rng.Uint64N(1e12))
		}
	case types.PayoutFailed, types.PayoutRefunded:
		if p.FailureReason == nil { // a FAILED payout's reason stays on REFUNDED
			reason := poMsgSimulatedFailure
			p.FailureReason = &reason
		}
	}
	if to.FundsReturned() && !p.Reserved.IsZero() {
		o := rq.org
		o.balances[p.Asset] = o.balances[p.Asset].Add(p.Reserved)
		p.Reserved = decimal.Zero
	}
	if to == types.PayoutProcessing {
		return "" // no event is sent for PROCESSING
	}
	meta := payoutEventMeta(p)
	switch to {
	case types.PayoutRefunded:
		meta["refund_reason"] = poMsgSimulatedRefund
	case types.PayoutInReview:
		meta["rfi_link"] = rfiLinkBase + p.ID.String()
	}
	s.emit(rq, EventTypePayout, p.ID.String(), string(to), meta)
	return ""
}

// SetPayoutStatus moves payout id to status, as the service moves a
// payout on its own: along the transition table (types.PayoutStatus.Next),
// with the effects and the signed PAYOUT webhook the simulation gives
// (FAILED to REFUNDED returns a prefunded reservation and sends REFUNDED).
// The payout status simulation moves only a PROCESSING payout; this makes
// the later moves. A move to the payout's current status changes nothing
// and sends nothing; a move the table does not hold is refused with
// "Payout status cannot move from X to Y.".
func (s *Sandbox) SetPayoutStatus(id uuid.UUID, status types.PayoutStatus) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.st.payout(id)
	switch {
	case p == nil:
		return fixtureError("payout status", "no payout %s", id)
	case !status.IsKnown():
		return fixtureError("payout status", "unknown payout status %q", status)
	case p.Status == status:
		return nil
	}
	if refused := s.movePayout(&request{org: s.st.orgs[p.OrganizationID], now: s.now()}, p, status); refused != "" {
		return fixtureError("payout status", "%s", refused)
	}
	return nil
}

// getPayout is GET /pos/api/v1/payout/{payout_id}, for payouts of every
// kind; a missing id is refused "Payout ID is required.", a malformed one
// "Payout ID is invalid". Only the canonical 36-character form is a
// valid id: a path segment is not the place for the other forms uuid.Parse
// tolerates.
func (s *Sandbox) getPayout(rq *request) reply {
	raw := rq.params[0]
	if strings.TrimSpace(raw) == "" {
		return fieldRefusal(map[string][]string{"payout_id": {poMsgPayoutIDRequired}})
	}
	id, err := uuid.Parse(raw)
	if err != nil || len(raw) != 36 {
		return fieldRefusal(map[string][]string{"payout_id": {poMsgPayoutIDInvalid}})
	}
	p := rq.org.payouts.byID[id]
	if p == nil {
		return rule(poMsgPayoutNotFound)
	}
	return success(http.StatusOK, "Payout fetched successfully", payoutFetchedOf(p))
}

// optionalString reads an optional string member the way the REST framework's
// CharField(required=False) does: absent or null gives nil, blank is a
// field error.
func optionalString(f *fields, name string) *string {
	s, ok := f.str(name, false)
	if !ok {
		return nil
	}
	if strings.TrimSpace(s) == "" {
		f.fail(name, msgBlank)
		return nil
	}
	return &s
}

// refuseRule is rule for the checks that return *reply (nil: passed).
func refuseRule(message string) *reply {
	r := rule(message)
	return &r
}

// claimable runs the checks every payout create shares, in the order the
// service documents its refusals of a standard create: reference unused, quotation of this organization, customer
// matches, then extra (the remittance payout's remitter check, which sits
// here), then not expired (valid up to and including ExpiresAt) and not
// linked. It returns the quotation or the first refusal.
func (s *Sandbox) claimable(rq *request, ref *string, qid, customerID uuid.UUID, extra func() *reply) (*quotation, *reply) {
	if ref != nil {
		if _, used := rq.org.refs[*ref]; used {
			return nil, refuseRule(poMsgReferenceExists)
		}
	}
	q := rq.org.quotations[qid]
	switch {
	case q == nil:
		return nil, refuseRule(poMsgQuotationNotFound)
	case customerID != q.CustomerID:
		return nil, refuseRule(poMsgCustomerMismatch)
	}
	if extra != nil {
		if bad := extra(); bad != nil {
			return nil, bad
		}
	}
	switch {
	case rq.now.After(q.ExpiresAt):
		return nil, refuseRule(poMsgQuotationExpired)
	case q.payoutID != uuid.Nil:
		return nil, refuseRule(poMsgQuotationLinked)
	}
	return q, nil
}

// orderInUse reports whether an exchange order id is held by a payout of
// o that is paid or may still pay (PROCESSING, IN_REVIEW, SUCCESS: the
// service's "either processing or successful"); a payout that will never
// pay (FAILED, REFUNDED, CANCELLED) frees it.
func (s *Sandbox) orderInUse(o *org, order string) bool {
	for _, p := range o.orders[order] {
		if p.Status.MayStillPay() || p.Status.IsPaid() {
			return true
		}
	}
	return false
}

// lacksBalance refuses a quotation whose amount the organization's
// prefunded balance of its asset does not cover.
func lacksBalance(o *org, q *quotation) *reply {
	if o.balances[q.Asset].LessThan(q.SendingAmount) {
		return refuseRule(poMsgInsufficient)
	}
	return nil
}

// reservePrefunded takes p's amount from o's prefunded balance; a move to
// a status whose funds have come back (REFUNDED, CANCELLED) gives it back.
func reservePrefunded(o *org, p *payout) {
	o.balances[p.Asset] = o.balances[p.Asset].Sub(p.SendingAmount)
	p.Reserved = p.SendingAmount
}

// newPayout stores a PROCESSING payout of kind against q, links q to it
// and records ref. Without an exchange order id one is generated, so every
// payout shows one, as the service's do.
func (s *Sandbox) newPayout(rq *request, kind PayoutKind, q *quotation, ref, order *string) *payout {
	exo := fmt.Sprintf("EXO%012d", s.rng.Uint64N(1e12))
	if order != nil {
		exo = *order
	}
	p := &payout{Payout: Payout{
		ID:                uuid.New(),
		Kind:              kind,
		OrganizationID:    rq.org.ID,
		QuotationID:       q.ID,
		CustomerID:        q.CustomerID,
		BankID:            q.BankID,
		ClientReferenceID: ref,
		ExchangeOrderID:   exo,
		Asset:             q.Asset,
		Network:           q.Network,
		Fiat:              q.Fiat,
		Rate:              q.Rate,
		SendingAmount:     q.SendingAmount,
		ReceivingAmount:   q.ReceivingAmount,
		Fees:              q.Fees,
		WalletAddress:     q.WalletAddress,
		Status:            types.PayoutProcessing,
		CreatedAt:         rq.now,
		UpdatedAt:         rq.now,
	}}
	s.storePayout(rq.org, p)
	q.payoutID = p.ID
	if ref != nil {
		rq.org.refs[*ref] = p.ID
	}
	return p
}

// payoutHead is the start of both variants of the standard payout,
// identical in create and fetch.
type payoutHead struct {
	ID                uuid.UUID `json:"id"`
	QuotationID       uuid.UUID `json:"quotation_id"`
	CustomerID        uuid.UUID `json:"customer_id"`
	ClientReferenceID *string   `json:"client_reference_id"`
	BankID            uuid.UUID `json:"bank_id"`
	Asset             string    `json:"asset"`
	Fiat              string    `json:"fiat"`
}

// payoutHeadOf returns p's payoutHead.
func payoutHeadOf(p *payout) payoutHead {
	return payoutHead{p.ID, p.QuotationID, p.CustomerID, p.ClientReferenceID, p.BankID, p.Asset, p.Fiat}
}

// payoutCreated is the standard payout as create answers it: amounts are
// JSON numbers.
type payoutCreated struct {
	payoutHead
	Rate            json.Number        `json:"rate"`
	SendingAmount   json.Number        `json:"sending_amount"`
	ReceivingAmount json.Number        `json:"receiving_amount"`
	Fees            feeNumbers         `json:"fees"`
	ExchangeOrderID string             `json:"exchange_order_id"`
	Status          types.PayoutStatus `json:"status"`
	CreatedAt       string             `json:"created_at"`
}

// payoutCreatedOf returns the create variant of p.
func payoutCreatedOf(p *payout) payoutCreated {
	return payoutCreated{
		payoutHead:      payoutHeadOf(p),
		Rate:            num(p.Rate),
		SendingAmount:   num(p.SendingAmount),
		ReceivingAmount: num(p.ReceivingAmount),
		Fees:            feesJSON(p.Fees),
		ExchangeOrderID: p.ExchangeOrderID,
		Status:          p.Status,
		CreatedAt:       stamp(p.CreatedAt),
	}
}

// remittanceCreated is the data of a created remittance payout, whose
// fields the service does not document: the create variant of the
// standard payout plus remitter_id, transaction_hash and the fields the
// fetch variant adds.
type remittanceCreated struct {
	payoutCreated
	RemitterID      uuid.UUID `json:"remitter_id"`
	TransactionHash *string   `json:"transaction_hash"`
	UTR             *string   `json:"utr"`
	FailureReason   *string   `json:"failure_reason"`
	UpdatedAt       string    `json:"updated_at"`
}

// payoutFetched is the standard payout as fetch answers it: amounts are decimal strings
// and the fiat amount is spelled receiveing_amount, as the service spells
// it.
type payoutFetched struct {
	payoutHead
	Rate               string             `json:"rate"`
	SendingAmount      string             `json:"sending_amount"`
	ReceiveingAmount   string             `json:"receiveing_amount"`
	Fees               feeNumbers         `json:"fees"`
	ExchangeOrderID    string             `json:"exchange_order_id"`
	ExchangeTransferID string             `json:"exchange_transfer_id"`
	Status             types.PayoutStatus `json:"status"`
	FailureReason      *string            `json:"failure_reason"`
	UTR                *string            `json:"utr"`
	CreatedAt          string             `json:"created_at"`
	UpdatedAt          string             `json:"updated_at"`
}

// payoutFetchedOf returns the fetch variant of p.
func payoutFetchedOf(p *payout) payoutFetched {
	return payoutFetched{
		payoutHead:         payoutHeadOf(p),
		Rate:               p.Rate.String(),
		SendingAmount:      p.SendingAmount.String(),
		ReceiveingAmount:   p.ReceivingAmount.String(),
		Fees:               feesJSON(p.Fees),
		ExchangeOrderID:    p.ExchangeOrderID,
		ExchangeTransferID: p.ExchangeTransferID,
		Status:             p.Status,
		FailureReason:      p.FailureReason,
		UTR:                p.UTR,
		CreatedAt:          stamp(p.CreatedAt),
		UpdatedAt:          stamp(p.UpdatedAt),
	}
}

// prefundedPayoutData is the data of a created prefunded payout: amounts
// and fees are decimal strings.
type prefundedPayoutData struct {
	ID                uuid.UUID `json:"id"`
	QuotationID       uuid.UUID `json:"quotation_id"`
	BankID            uuid.UUID `json:"bank_id"`
	Asset             string    `json:"asset"`
	Network           string    `json:"network"`
	Fiat              string    `json:"fiat"`
	Rate              string    `json:"rate"`
	SendingAmount     string    `json:"sending_amount"`
	ReceivingAmount   string    `json:"receiving_amount"`
	ClientReferenceID *string   `json:"client_reference_id"`
	Fees              struct {
		ServiceFee string `json:"service_fee"`
		ClientFee  string `json:"client_fee"`
		ClientGST  string `json:"client_gst"`
		TDS        string `json:"tds"`
	} `json:"fees"`
	Status          types.PayoutStatus `json:"status"`
	WalletAddress   string             `json:"wallet_address"`
	TransactionHash *string            `json:"transaction_hash"`
	UTR             *string            `json:"utr"`
	FailureReason   *string            `json:"failure_reason"`
	UpdatedAt       string             `json:"updated_at"`
	CreatedAt       string             `json:"created_at"`
	Customer        struct {
		Sender   payoutPartyID `json:"sender"`
		Receiver payoutPartyID `json:"receiver"`
	} `json:"customer"`
}

// payoutPartyID is one side of a prefunded payout's customer object.
type payoutPartyID struct {
	ID *uuid.UUID `json:"id"`
}

// prefundedCreated returns p in the shape of a prefunded create's answer.
func prefundedCreated(p *payout) prefundedPayoutData {
	out := prefundedPayoutData{
		ID: p.ID, QuotationID: p.QuotationID, BankID: p.BankID,
		Asset: p.Asset, Network: p.Network, Fiat: p.Fiat,
		Rate: p.Rate.String(), SendingAmount: p.SendingAmount.String(), ReceivingAmount: p.ReceivingAmount.String(),
		ClientReferenceID: p.ClientReferenceID,
		Status:            p.Status, WalletAddress: p.WalletAddress,
		TransactionHash: p.TransactionHash, UTR: p.UTR, FailureReason: p.FailureReason,
		UpdatedAt: stamp(p.UpdatedAt), CreatedAt: stamp(p.CreatedAt),
	}
	out.Fees.ServiceFee = p.Fees.ServiceFee.String()
	out.Fees.ClientFee = p.Fees.ClientFeeFiat.String()
	out.Fees.ClientGST = p.Fees.ClientGSTFiat.String()
	out.Fees.TDS = p.Fees.TDS.String()
	receiver := p.CustomerID
	out.Customer.Sender.ID, out.Customer.Receiver.ID = p.SenderID, &receiver
	return out
}

// feeNumbers is the fees object of a standard payout or payin quotation:
// every key a JSON number.
type feeNumbers struct {
	ClientFeeFiat              json.Number `json:"client_fee_fiat"`
	ClientFeeCrypto            json.Number `json:"client_fee_crypto"`
	ServiceFee                 json.Number `json:"service_fee"`
	PGFee                      json.Number `json:"pg_fee"`
	ClientGSTFiat              json.Number `json:"client_gst_fiat"`
	ClientGSTCrypto            json.Number `json:"client_gst_crypto"`
	ServiceGST                 json.Number `json:"service_gst"`
	PGGST                      json.Number `json:"pg_gst"`
	TDS                        json.Number `json:"tds"`
	GrossEffectiveExchangeRate json.Number `json:"gross_effective_exchange_rate"`
}

// feesJSON returns f as a fees object of JSON numbers.
func feesJSON(f Fees) feeNumbers {
	return feeNumbers{
		num(f.ClientFeeFiat), num(f.ClientFeeCrypto), num(f.ServiceFee), num(f.PGFee),
		num(f.ClientGSTFiat), num(f.ClientGSTCrypto), num(f.ServiceGST), num(f.PGGST),
		num(f.TDS), num(f.GrossEffectiveExchangeRate),
	}
}

// storePayout files a new payout in o's table, its customer's list and
// the index of exchange orders; s.mu is held.
func (s *Sandbox) storePayout(o *org, p *payout) {
	o.payouts.add(p.ID, p, payoutCreatedAt)
	if c := o.customers.byID[p.CustomerID]; c != nil {
		c.payouts = insertByTime(c.payouts, p, payoutCreatedAt)
	}
	if p.ExchangeOrderID != "" {
		o.orders[p.ExchangeOrderID] = append(o.orders[p.ExchangeOrderID], p)
	}
}

// payoutCreatedAt is when p was created, the order of the payout lists.
func payoutCreatedAt(p *payout) time.Time { return p.CreatedAt }
