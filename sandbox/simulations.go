package sandbox

// The bank verification and payin status simulations, and the webhook
// registration. Their payloads are the sandbox's own choice: the service's
// documentation names the paths but does not show the bodies.

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// Failure reasons the simulations set.
const (
	// bankMsgSimulatedFailure is the failure_reason of a bank account
	// simulated to FAILED.
	bankMsgSimulatedFailure = "Simulated failure: the name on the bank account does not match the customer's"
	// payinMsgSimulatedFailure is the failure_reason of a payin simulated
	// to FAILED.
	payinMsgSimulatedFailure = "Simulated failure: the payment was not received"
	// payinMsgSimulatedRefund is the refund_reason of a payin simulated to
	// REFUNDED.
	payinMsgSimulatedRefund = "Simulated refund: the payment was returned to the customer"
)

// bankTransitions are the moves of the bank verification simulation.
var bankTransitions = map[types.BankAccountStatus][]types.BankAccountStatus{
	types.BankAccountProcessing: {types.BankAccountVerified, types.BankAccountFailed},
}

// payinTransitions are the moves of the payin status simulation. ON_HOLD
// is a known status, but no documented move leads into or out of it.
var payinTransitions = map[types.PayinStatus][]types.PayinStatus{
	types.PayinProcessing: {types.PayinSuccess, types.PayinFailed},
	types.PayinFailed:     {types.PayinRefunded},
}

// simulateBankVerification is POST /cms/api/v1/bank/mock-bank-verification
// with {customer_id, bank_id, bank_account_status}: it moves a PROCESSING
// bank account to VERIFIED or FAILED (FAILED sets a failure_reason) and
// sends the BANK webhook. An absent account, another customer's or another
// organization's is "Bank not found or access denied"; any other move is
// refused with a 400 naming both statuses.
func (s *Sandbox) simulateBankVerification(rq *request) reply {
	f := rq.body
	customerID, bankID := f.uuid("customer_id"), f.uuid("bank_id")
	status, ok := f.str("bank_account_status", true)
	to := types.BankAccountStatus(status)
	if ok && !to.IsKnown() {
		f.fail("bank_account_status", fmt.Sprintf("%q is not a valid choice.", status))
	}
	if bad := f.refused(); bad != nil {
		return *bad
	}
	c := s.orgCustomer(rq, customerID)
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	b, found := s.banks[bankID]
	if !found || b.CustomerID != c.ID {
		return rule(msgBankNotFound)
	}
	if !slices.Contains(bankTransitions[b.Status], to) {
		return rule(fmt.Sprintf("Bank account status cannot move from %s to %s.", b.Status, to))
	}
	b.Status = to
	meta := map[string]any{}
	if to == types.BankAccountFailed {
		reason := bankMsgSimulatedFailure
		b.FailureReason = &reason
		meta["failure_reason"] = reason
	}
	s.emit(rq, EventTypeBank, b.ID.String(), string(to), meta)
	return success(http.StatusOK, "Bank verification status updated successfully", struct {
		CustomerID        uuid.UUID               `json:"customer_id"`
		BankID            uuid.UUID               `json:"bank_id"`
		BankAccountStatus types.BankAccountStatus `json:"bank_account_status"`
	}{c.ID, b.ID, to})
}

// simulatePayinStatus is PATCH /pis/api/v1/payin/mock-payin-status with
// {quotation_id, payin_status}: it moves the payin of a payin quotation
// along payinTransitions (PROCESSING -> SUCCESS | FAILED, FAILED ->
// REFUNDED) and sends the PAYIN webhook, whose id is the quotation id.
// The fetched quotation's status shows the payin status. An absent
// quotation or another organization's is "Quotation is not found"; any
// other move is refused with a 400 naming both statuses. Expiry does not
// stop the simulation: it settles a payin already under way.
func (s *Sandbox) simulatePayinStatus(rq *request) reply {
	f := rq.body
	id := f.uuid("quotation_id")
	status, ok := f.str("payin_status", true)
	to := types.PayinStatus(status)
	if ok && !to.IsKnown() {
		f.fail("payin_status", fmt.Sprintf("%q is not a valid choice.", status))
	}
	if bad := f.refused(); bad != nil {
		return *bad
	}
	q, found := s.payinQuotations[id]
	if !found || q.organizationID != rq.org.ID {
		return rule(msgPayinNotFound)
	}
	if !slices.Contains(payinTransitions[q.status], to) {
		return rule(fmt.Sprintf("Payin status cannot move from %s to %s.", q.status, to))
	}
	q.status = to
	meta := map[string]any{}
	switch to {
	case types.PayinFailed:
		meta["failure_reason"] = payinMsgSimulatedFailure
	case types.PayinRefunded:
		meta["refund_reason"] = payinMsgSimulatedRefund
	}
	s.emit(rq, EventTypePayin, q.id.String(), string(to), meta)
	return success(http.StatusOK, "Payin status updated successfully", struct {
		QuotationID uuid.UUID         `json:"quotation_id"`
		PayinStatus types.PayinStatus `json:"payin_status"`
	}{q.id, to})
}

// maxWebhookURL is the longest webhook URL the registration accepts.
const maxWebhookURL = 2048

// registerWebhook is POST /org/api/v1/organizations/api-webhooks with
// {"url": "https://..."}: it sets the organization's one webhook URL,
// replacing any earlier one; events from then on go there. The URL must be
// absolute http or https, without user info or fragment, at most 2048
// bytes.
func (s *Sandbox) registerWebhook(rq *request) reply {
	f := rq.body
	raw, ok := f.value("url")
	switch {
	case !ok:
		f.fail("url", msgRequired)
	case raw == nil:
		f.fail("url", msgNull)
	}
	if bad := f.refused(); bad != nil {
		return *bad
	}
	text, isString := raw.(string)
	if !isString {
		return fieldRefusal(map[string][]string{"url": {msgString}})
	}
	if problem := webhookURLProblem(text); problem != "" {
		return fieldRefusal(map[string][]string{"url": {problem}})
	}
	rq.org.WebhookURL = text
	return success(http.StatusOK, "Webhook registered successfully", struct {
		URL string `json:"url"`
	}{text})
}

// webhookURLProblem says what is wrong with a webhook URL, or "".
func webhookURLProblem(text string) string {
	if strings.TrimSpace(text) == "" {
		return msgBlank
	}
	if len(text) > maxWebhookURL {
		return fmt.Sprintf("Ensure this field has no more than %d characters.", maxWebhookURL)
	}
	u, err := url.Parse(text)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Fragment != "" {
		return "Enter a valid URL."
	}
	return ""
}
