package sandbox

// Payout quotation operations: create and fetch under
// /pos/api/v1/payout/quotation, and the link of a payout's exchange
// transfer id.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// Refusal messages of create payout quotation, in the order the checks
// run, word for word as the service documents them (the customer and
// bank messages are the payin quotation's, msgCustomerUnverified and
// msgBankUnverified, and so is the minimum's, msgBelowMinimum).
const (
	poqMsgUPIUnsupported = "UPI is not supported"
	poqMsgCreated        = "Quotation created successfully"
	poqMsgFetched        = "Quotation fetched successfully"
	poqMsgIDRequired     = "Quotation ID is required."
	poqMsgIDInvalid      = "Quotation ID is invalid"
	poqMsgTransferLinked = "Transfer ID updated successfully"
)

// createPayoutQuotation is POST /pos/api/v1/payout/quotation with {asset,
// fiat, sending_amount, customer_id, bank_id, risk_parameters, network}.
// Field errors come first, then the asset/fiat pair, then the refusals in
// the order of their messages (customer unverified, bank unverified, UPI
// not supported, amount below the minimum or above the maximum of the
// pair's IMPS limits in Settings.CoinLimits, which the payout
// configuration shows). The quotation is priced from
// Settings.Rates and the payout fee settings: the fiat value
// sending_amount × rate, less the service fee and its GST, rounded down
// to 2 places, is the receiving amount. It expires
// Settings.PayoutQuotationLifetime after creation on the sandbox clock.
// With a network (the on-chain model) it also has a deposit address.
func (s *Sandbox) createPayoutQuotation(rq *request) reply {
	f := rq.body
	asset, _ := f.str("asset", true)
	fiat, _ := f.str("fiat", true)
	amount := f.decimal("sending_amount")
	customerID := f.uuid("customer_id")
	bankID := f.uuid("bank_id")
	network := optionalString(f, "network")
	if risk := f.object("risk_parameters", false); risk != nil {
		risk.str("ip_address", false)
		risk.str("device_id", false)
		risk.boolean("suspicious_activity_report")
		risk.boolean("law_enforcement_agency_report")
	}
	if rep := f.refused(); rep != nil {
		return *rep
	}
	asset, fiat = strings.ToUpper(asset), strings.ToUpper(fiat)
	rate, ok := s.settings.Rates[asset+"/"+fiat]
	if !ok || !rate.IsPositive() {
		return fieldRefusal(map[string][]string{"asset": {fmt.Sprintf("Unsupported asset/fiat pair %s/%s.", asset, fiat)}})
	}
	c := s.orgCustomer(rq, customerID)
	if c == nil || c.KYCStatus != types.KYCVerified {
		return rule(msgCustomerUnverified)
	}
	b := rq.org.banks[bankID]
	switch {
	case b == nil || b.CustomerID != c.ID:
		return refusal(http.StatusBadRequest, "", msgBankUnverified, map[string][]string{"bank_id": {"Bank account not found."}})
	case b.Status != types.BankAccountVerified:
		return refusal(http.StatusBadRequest, "", msgBankUnverified, map[string][]string{"bank_id": {
			fmt.Sprintf("Bank account status is %s; only a %s account is paid to.", b.Status, types.BankAccountVerified)}})
	case b.Type == types.BankAccountTypeVPA:
		return rule(poqMsgUPIUnsupported)
	}
	// A payout is paid by IMPS to a bank account: the configuration's IMPS
	// limits of the pair bound the amount.
	limit, limited := s.settings.CoinLimits[asset+"/"+fiat][types.PaymentMethodIMPS]
	switch {
	case !amount.IsPositive() || limited && amount.LessThan(limit.Min):
		return rule(msgBelowMinimum)
	case limited && amount.GreaterThan(limit.Max):
		return rule(msgAboveMaximum)
	}
	gross := amount.Mul(rate)
	fee := gross.Mul(s.settings.PayoutServiceFee).Round(2)
	gst := fee.Mul(s.settings.PayoutGSTRate).Round(2)
	receiving := gross.Sub(fee).Sub(gst).RoundDown(2)
	if !receiving.IsPositive() {
		return rule(msgBelowMinimum)
	}
	q := &quotation{
		Quotation: Quotation{
			ID: uuid.New(), CustomerID: c.ID, BankID: bankID,
			Asset: asset, Fiat: fiat,
			SendingAmount: amount, Rate: rate, ReceivingAmount: receiving,
			Fees:      Fees{ServiceFee: fee, ServiceGST: gst, GrossEffectiveExchangeRate: receiving.DivRound(amount, 4)},
			ExpiresAt: rq.now.Add(s.settings.PayoutQuotationLifetime),
		},
		orderID:   uuid.New(),
		createdAt: rq.now,
	}
	if network != nil {
		q.Network = strings.ToUpper(*network)
		q.WalletAddress = "T" + randomToken(16)
	}
	rq.org.quotations[q.ID] = q
	return success(http.StatusOK, poqMsgCreated, s.payoutQuotationData(q, rq.now, false))
}

// getPayoutQuotation is GET /pos/api/v1/payout/quotation/{quotation_id};
// a missing id is refused "Quotation ID is required.", a malformed one
// "Quotation ID is invalid", an absent one or another organization's
// "Quotation is not found". Fixture quotations are served too.
func (s *Sandbox) getPayoutQuotation(rq *request) reply {
	param := rq.params[0]
	if strings.TrimSpace(param) == "" {
		return fieldRefusal(map[string][]string{"quotation_id": {poqMsgIDRequired}})
	}
	id, ok := idFromPath(param)
	if !ok {
		return fieldRefusal(map[string][]string{"quotation_id": {poqMsgIDInvalid}})
	}
	q := rq.org.quotations[id]
	if q == nil {
		return rule(poMsgQuotationNotFound)
	}
	return success(http.StatusOK, poqMsgFetched, s.payoutQuotationData(q, rq.now, true))
}

// payoutQuotationStatus is q's state at now: LINKED once a payout uses
// it, else EXPIRED after its expiry (a payout may be created up to and
// including ExpiresAt), else UNLINKED.
func payoutQuotationStatus(q *quotation, now time.Time) types.QuotationStatus {
	switch {
	case q.payoutID != uuid.Nil:
		return types.QuotationLinked
	case now.After(q.ExpiresAt):
		return types.QuotationExpired
	}
	return types.QuotationUnlinked
}

// payoutQuotationJSON is the payout quotation as the service sends it:
// amounts as numbers; order_id and status only when fetched; network and
// wallet_address only in the on-chain model.
type payoutQuotationJSON struct {
	ID              uuid.UUID   `json:"id"`
	OrderID         *uuid.UUID  `json:"order_id,omitempty"`
	CustomerID      uuid.UUID   `json:"customer_id"`
	BankID          uuid.UUID   `json:"bank_id"`
	Status          string      `json:"status,omitempty"`
	Asset           string      `json:"asset"`
	Fiat            string      `json:"fiat"`
	Network         string      `json:"network,omitempty"`
	WalletAddress   string      `json:"wallet_address,omitempty"`
	SendingAmount   json.Number `json:"sending_amount"`
	Rate            json.Number `json:"rate"`
	ReceivingAmount json.Number `json:"receiving_amount"`
	Fees            feeNumbers  `json:"fees"`
	CreatedAt       string      `json:"created_at"`
	ExpiryTime      string      `json:"expiry_time"`
}

// payoutQuotationData builds the answer of create (fetched false) and
// fetch (fetched true: with order_id and status at now). A fixture
// quotation has no order id and creation time of its own: its order id
// is its id, and it was created its fixture validity before its expiry.
func (s *Sandbox) payoutQuotationData(q *quotation, now time.Time, fetched bool) payoutQuotationJSON {
	created := q.createdAt
	if created.IsZero() {
		created = q.ExpiresAt.Add(-s.settings.PayoutQuotationValidity)
	}
	out := payoutQuotationJSON{
		ID: q.ID, CustomerID: q.CustomerID, BankID: q.BankID,
		Asset: q.Asset, Fiat: q.Fiat, Network: q.Network, WalletAddress: q.WalletAddress,
		SendingAmount: num(q.SendingAmount), Rate: num(q.Rate), ReceivingAmount: num(q.ReceivingAmount),
		Fees:      feesJSON(q.Fees),
		CreatedAt: stamp(created), ExpiryTime: stamp(q.ExpiresAt),
	}
	if fetched {
		order := q.orderID
		if order == uuid.Nil {
			order = q.ID
		}
		out.OrderID = &order
		out.Status = string(payoutQuotationStatus(q, now))
	}
	return out
}

// linkTransfer is PATCH /pos/api/v1/payout/update-transfer-id with
// {exchange_order_id, exchange_transfer_id}: it records the transfer id on
// the organization's latest payout of that exchange order, which its
// fetch and history show from then on. Linking again sets the value
// again (the last one stays). An order no payout of the organization
// holds is "Payout not found or access denied".
func (s *Sandbox) linkTransfer(rq *request) reply {
	f := rq.body
	order, _ := f.str("exchange_order_id", true)
	transfer, _ := f.str("exchange_transfer_id", true)
	if bad := f.refused(); bad != nil {
		return *bad
	}
	held := rq.org.orders[order]
	if len(held) == 0 {
		return rule(poMsgPayoutNotFound)
	}
	p := held[len(held)-1]
	p.ExchangeTransferID = transfer
	p.UpdatedAt = rq.now
	return success(http.StatusOK, poqMsgTransferLinked, struct {
		ExchangeOrderID    string `json:"exchange_order_id"`
		ExchangeTransferID string `json:"exchange_transfer_id"`
	}{order, transfer})
}
