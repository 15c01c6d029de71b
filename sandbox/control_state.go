package sandbox

// Control plane: the state group: reading an organization, its balances
// and payouts, a customer, the delivery log, the counts and the settings,
// and setting a balance, a webhook URL, a KYC status or customer flags.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// organizationOf returns the organization of the path's first parameter.
func (c *control) organizationOf(params []string) (Organization, error) {
	id, err := pathID("organization", params[0])
	if err != nil {
		return Organization{}, err
	}
	o, ok := c.sb.Organization(id)
	if !ok {
		return Organization{}, notFound("no organization %s", id)
	}
	return o, nil
}

// customerOf returns the customer of the path's first parameter.
func (c *control) customerOf(params []string) (Customer, error) {
	id, err := pathID("customer", params[0])
	if err != nil {
		return Customer{}, err
	}
	cu, ok := c.sb.Customer(id)
	if !ok {
		return Customer{}, notFound("no customer %s", id)
	}
	return cu, nil
}

func (c *control) organization(_ *http.Request, params []string, _ []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, o, nil
}

func (c *control) balances(_ *http.Request, params []string, _ []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	if o.Balances == nil {
		o.Balances = map[string]decimal.Decimal{}
	}
	return http.StatusOK, struct {
		Balances map[string]decimal.Decimal `json:"balances"`
	}{o.Balances}, nil
}

// balanceJSON is one asset's prefunded balance.
type balanceJSON struct {
	Asset  string          `json:"asset"`
	Amount decimal.Decimal `json:"amount"`
}

func (c *control) balance(_ *http.Request, params []string, _ []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	asset := strings.ToUpper(params[1])
	return http.StatusOK, balanceJSON{asset, c.sb.Balance(o.ID, asset)}, nil
}

func (c *control) setBalance(_ *http.Request, params []string, body []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	var in struct {
		Amount decimal.Decimal `json:"amount"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "amount"); err != nil {
		return 0, nil, err
	}
	asset := strings.ToUpper(params[1])
	if strings.TrimSpace(asset) == "" {
		return 0, nil, &controlError{http.StatusBadRequest, "", "the asset in the path is empty"}
	}
	if in.Amount.IsNegative() {
		return 0, nil, badField("amount", "amount %s is negative", in.Amount)
	}
	if err := c.sb.SetBalance(o.ID, asset, in.Amount); err != nil {
		return 0, nil, badField("amount", "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return http.StatusOK, balanceJSON{asset, c.sb.Balance(o.ID, asset)}, nil
}

func (c *control) setWebhookURL(_ *http.Request, params []string, body []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	var in struct {
		WebhookURL string `json:"webhook_url"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "webhook_url"); err != nil {
		return 0, nil, err
	}
	if err := c.sb.SetWebhookURL(o.ID, in.WebhookURL); err != nil {
		return 0, nil, badField("webhook_url", "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return http.StatusOK, in, nil
}

func (c *control) payouts(_ *http.Request, params []string, _ []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	ps := c.sb.Payouts(o.ID)
	if ps == nil {
		ps = []Payout{}
	}
	return http.StatusOK, struct {
		Payouts []Payout `json:"payouts"`
	}{ps}, nil
}

func (c *control) payoutByReference(r *http.Request, params []string, _ []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	q := r.URL.Query()
	refs, ok := q["client_reference_id"]
	if !ok || len(refs) != 1 {
		return 0, nil, badField("client_reference_id", "give the query parameter client_reference_id once")
	}
	p, ok := c.sb.PayoutByReference(o.ID, refs[0])
	if !ok {
		return 0, nil, notFound("organization %s has no payout with client_reference_id %q", o.ID, refs[0])
	}
	return http.StatusOK, p, nil
}

func (c *control) payout(_ *http.Request, params []string, _ []byte) (int, any, error) {
	id, err := pathID("payout", params[0])
	if err != nil {
		return 0, nil, err
	}
	p, ok := c.sb.Payout(id)
	if !ok {
		return 0, nil, notFound("no payout %s", id)
	}
	return http.StatusOK, p, nil
}

// setPayoutStatus moves a payout along the transition table, as the
// service moves it on its own; a move the table does not hold is 400 with
// "Payout status cannot move from X to Y.".
func (c *control) setPayoutStatus(_ *http.Request, params []string, body []byte) (int, any, error) {
	id, err := pathID("payout", params[0])
	if err != nil {
		return 0, nil, err
	}
	if _, ok := c.sb.Payout(id); !ok {
		return 0, nil, notFound("no payout %s", id)
	}
	var in struct {
		Status types.PayoutStatus `json:"status"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "status"); err != nil {
		return 0, nil, err
	}
	if !in.Status.IsKnown() {
		return 0, nil, badField("status", "status %q: want one of %v", in.Status, in.Status.Values())
	}
	if err := c.sb.SetPayoutStatus(id, in.Status); err != nil {
		return 0, nil, badField("status", "%s", strings.TrimPrefix(err.Error(), "sandbox: payout status: "))
	}
	p, _ := c.sb.Payout(id)
	return http.StatusOK, p, nil
}

func (c *control) customer(_ *http.Request, params []string, _ []byte) (int, any, error) {
	cu, err := c.customerOf(params)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, cu, nil
}

func (c *control) setKYCStatus(_ *http.Request, params []string, body []byte) (int, any, error) {
	cu, err := c.customerOf(params)
	if err != nil {
		return 0, nil, err
	}
	var in struct {
		KYCStatus types.KYCStatus `json:"kyc_status"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "kyc_status"); err != nil {
		return 0, nil, err
	}
	if !in.KYCStatus.IsKnown() {
		return 0, nil, badField("kyc_status", "kyc_status %q: want one of %v", in.KYCStatus, in.KYCStatus.Values())
	}
	if err := c.sb.SetKYCStatus(cu.ID, in.KYCStatus); err != nil {
		return 0, nil, badField("kyc_status", "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	cu, _ = c.sb.Customer(cu.ID)
	return http.StatusOK, cu, nil
}

func (c *control) setCustomerFlags(_ *http.Request, params []string, body []byte) (int, any, error) {
	cu, err := c.customerOf(params)
	if err != nil {
		return 0, nil, err
	}
	var in CustomerFlags
	if _, err := decodeStrict(body, &in); err != nil {
		return 0, nil, err
	}
	if err := c.sb.SetCustomerFlags(cu.ID, in); err != nil {
		return 0, nil, notFound("%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	cu, _ = c.sb.Customer(cu.ID)
	return http.StatusOK, cu, nil
}

// deliveryJSON is a Delivery with its body as the JSON object it is.
type deliveryJSON struct {
	Delivery
	Body json.RawMessage `json:"body"`
}

// deliveriesLog answers the delivery log (the newest deliveries, at most
// Settings.DeliveryLogSize), its counts (read at the same moment, those
// dropped from the log included) and the log's size.
func (c *control) deliveriesLog(*http.Request, []string, []byte) (int, any, error) {
	log, counts := c.sb.DeliveryLog()
	out := make([]deliveryJSON, len(log))
	for i, d := range log {
		out[i] = deliveryJSON{Delivery: d, Body: d.Body}
	}
	return http.StatusOK, struct {
		Deliveries []deliveryJSON `json:"deliveries"`
		Counts     DeliveryCounts `json:"counts"`
		LogSize    int            `json:"log_size"`
	}{out, counts, c.sb.Settings().DeliveryLogSize}, nil
}

// deliverDue is POST /_sandbox/deliveries/deliver-due with
// {"timeout_seconds": n}: DeliverDue, then the deliveries still pending
// and when the next one waiting on the sandbox clock comes due (absent
// when none waits); 504 when the attempts due took longer than the
// timeout.
func (c *control) deliverDue(r *http.Request, _ []string, body []byte) (int, any, error) {
	d, err := c.waitTimeout(body)
	if err != nil {
		return 0, nil, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), d)
	defer cancel()
	if err := c.sb.DeliverDue(ctx); err != nil {
		return 0, nil, &controlError{http.StatusGatewayTimeout, "", fmt.Sprintf("deliveries due still being attempted after %v", d)}
	}
	answer := struct {
		Pending int        `json:"pending"`
		NextDue *time.Time `json:"next_due,omitempty"`
	}{Pending: c.sb.DeliveryCounts().States[DeliveryPending]}
	if next, ok := c.sb.NextDeliveryDue(); ok {
		answer.NextDue = &next
	}
	return http.StatusOK, answer, nil
}

// waitTimeout reads {"timeout_seconds": n}, more than 0 and at most
// c.maxWait.
func (c *control) waitTimeout(body []byte) (time.Duration, error) {
	var in struct {
		TimeoutSeconds float64 `json:"timeout_seconds"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, err
	}
	if err := require(present, "timeout_seconds"); err != nil {
		return 0, err
	}
	d, err := seconds("timeout_seconds", in.TimeoutSeconds, false)
	if err != nil || d <= 0 || d > c.maxWait {
		return 0, badField("timeout_seconds", "timeout_seconds %v: want more than 0 and at most %v seconds",
			in.TimeoutSeconds, c.maxWait.Seconds())
	}
	return d, nil
}

func (c *control) waitDeliveries(r *http.Request, _ []string, body []byte) (int, any, error) {
	d, err := c.waitTimeout(body)
	if err != nil {
		return 0, nil, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), d)
	defer cancel()
	if err := c.sb.WaitDeliveries(ctx); err != nil {
		msg := fmt.Sprintf("deliveries still pending after %v", d)
		if next, ok := c.sb.NextDeliveryDue(); ok {
			msg += fmt.Sprintf("; the next retry or delay is due at %s on the sandbox clock: move the clock there (POST %s/clock/advance or PUT %s/clock), then POST %s/deliveries/deliver-due",
				next.Format(time.RFC3339Nano), ControlPrefix, ControlPrefix, ControlPrefix)
		}
		return 0, nil, &controlError{http.StatusGatewayTimeout, "", msg}
	}
	return http.StatusOK, struct {
		Pending int `json:"pending"`
	}{0}, nil
}

func (c *control) stats(*http.Request, []string, []byte) (int, any, error) {
	st := c.sb.Stats()
	faults := map[FaultKind]int{}
	for _, k := range FaultKind("").Values() {
		faults[k] = st.Faults[k]
	}
	return http.StatusOK, struct {
		Requests int               `json:"requests"`
		Faults   map[FaultKind]int `json:"faults"`
	}{st.Requests, faults}, nil
}

// settingsJSON is Settings over HTTP, every setting under its name in
// snake case: durations in seconds (the name ends _seconds), amounts as
// decimal strings. WebhookClient, a Go value, is left out
// (TestControlSettingsShowsEverySetting holds this).
type settingsJSON struct {
	TimestampWindowSeconds         float64                                      `json:"timestamp_window_seconds"`
	MinPayinAmount                 decimal.Decimal                              `json:"min_payin_amount"`
	MaxIMPSAmount                  decimal.Decimal                              `json:"max_imps_amount"`
	MaxUPIAmount                   decimal.Decimal                              `json:"max_upi_amount"`
	DailyOnrampLimit               decimal.Decimal                              `json:"daily_onramp_limit"`
	PayinQuotationValiditySeconds  float64                                      `json:"payin_quotation_validity_seconds"`
	PayoutQuotationValiditySeconds float64                                      `json:"payout_quotation_validity_seconds"`
	PageSize                       int                                          `json:"page_size"`
	RemittancePayoutPath           string                                       `json:"remittance_payout_path"`
	Rates                          map[string]decimal.Decimal                   `json:"rates"`
	PayinServiceFee                decimal.Decimal                              `json:"payin_service_fee"`
	PayinGSTRate                   decimal.Decimal                              `json:"payin_gst_rate"`
	DepositAccount                 DepositAccount                               `json:"deposit_account"`
	RetryAfterSeconds              float64                                      `json:"retry_after_seconds"`
	Seed                           uint64                                       `json:"seed"`
	PublicURL                      string                                       `json:"public_url"`
	WebhookTimeoutSeconds          float64                                      `json:"webhook_timeout_seconds"`
	WebhookMaxAttempts             int                                          `json:"webhook_max_attempts"`
	WebhookInitialBackoffSeconds   float64                                      `json:"webhook_initial_backoff_seconds"`
	WebhookMaxBackoffSeconds       float64                                      `json:"webhook_max_backoff_seconds"`
	WebhookWorkers                 int                                          `json:"webhook_workers"`
	DeliveryLogSize                int                                          `json:"delivery_log_size"`
	AllowRemoteWebhooks            bool                                         `json:"allow_remote_webhooks"`
	CoinLimits                     map[string]map[types.PaymentMethod]CoinLimit `json:"coin_limits"`
	PayoutLimits                   DailyLimits                                  `json:"payout_limits"`
	PayinLimits                    DailyLimits                                  `json:"payin_limits"`
	EDDLimitMultiplier             int64                                        `json:"edd_limit_multiplier"`
	PayoutQuotationLifetimeSeconds float64                                      `json:"payout_quotation_lifetime_seconds"`
	PayoutServiceFee               decimal.Decimal                              `json:"payout_service_fee"`
	PayoutGSTRate                  decimal.Decimal                              `json:"payout_gst_rate"`
	BankVerificationDelaySeconds   float64                                      `json:"bank_verification_delay_seconds"`
	KYCAutoDecisionSeconds         float64                                      `json:"kyc_auto_decision_seconds"`
	KYCAutoFailureReason           types.KYCFailureReason                       `json:"kyc_auto_failure_reason"`
}

func (c *control) settings(*http.Request, []string, []byte) (int, any, error) {
	st := c.sb.Settings()
	return http.StatusOK, settingsJSON{
		TimestampWindowSeconds: st.TimestampWindow.Seconds(),
		MinPayinAmount:         st.MinPayinAmount, MaxIMPSAmount: st.MaxIMPSAmount, MaxUPIAmount: st.MaxUPIAmount,
		DailyOnrampLimit:               st.DailyOnrampLimit,
		PayinQuotationValiditySeconds:  st.PayinQuotationValidity.Seconds(),
		PayoutQuotationValiditySeconds: st.PayoutQuotationValidity.Seconds(),
		PageSize:                       st.PageSize, RemittancePayoutPath: st.RemittancePayoutPath,
		Rates: st.Rates, PayinServiceFee: st.PayinServiceFee, PayinGSTRate: st.PayinGSTRate,
		DepositAccount: st.DepositAccount, RetryAfterSeconds: st.RetryAfter.Seconds(),
		Seed: st.Seed, PublicURL: st.PublicURL,
		WebhookTimeoutSeconds:        st.WebhookTimeout.Seconds(),
		WebhookMaxAttempts:           st.WebhookMaxAttempts,
		WebhookInitialBackoffSeconds: st.WebhookInitialBackoff.Seconds(),
		WebhookMaxBackoffSeconds:     st.WebhookMaxBackoff.Seconds(),
		WebhookWorkers:               st.WebhookWorkers,
		DeliveryLogSize:              st.DeliveryLogSize,
		AllowRemoteWebhooks:          st.AllowRemoteWebhooks,
		CoinLimits:                   st.CoinLimits,
		PayoutLimits:                 st.PayoutLimits, PayinLimits: st.PayinLimits,
		EDDLimitMultiplier:             st.EDDLimitMultiplier,
		PayoutQuotationLifetimeSeconds: st.PayoutQuotationLifetime.Seconds(),
		PayoutServiceFee:               st.PayoutServiceFee, PayoutGSTRate: st.PayoutGSTRate,
		BankVerificationDelaySeconds: st.BankVerificationDelay.Seconds(),
		KYCAutoDecisionSeconds:       st.KYCAutoDecision.Seconds(),
		KYCAutoFailureReason:         st.KYCAutoFailureReason,
	}, nil
}

// edds is GET /_sandbox/customers/{id}/edds: the customer's EDDs.
func (c *control) edds(_ *http.Request, params []string, _ []byte) (int, any, error) {
	cu, err := c.customerOf(params)
	if err != nil {
		return 0, nil, err
	}
	out := c.sb.EDDs(cu.ID)
	if out == nil {
		out = []EDD{}
	}
	return http.StatusOK, map[string]any{"edds": out}, nil
}

// setEDDStatus is PUT /_sandbox/edds/{id}/status with {"status": "VERIFIED"
// or "FAILED"}: the EDD review, the simulation the service does not show.
func (c *control) setEDDStatus(_ *http.Request, params []string, body []byte) (int, any, error) {
	id, err := uuid.Parse(params[0])
	if err != nil {
		return 0, nil, notFound("no EDD %q", params[0])
	}
	var in struct {
		Status types.EDDStatus `json:"status"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "status"); err != nil {
		return 0, nil, err
	}
	if err := c.sb.SetEDDStatus(id, in.Status); err != nil {
		if strings.HasPrefix(err.Error(), "sandbox: no EDD") {
			return 0, nil, notFound("%s", strings.TrimPrefix(err.Error(), "sandbox: "))
		}
		return 0, nil, badField("status", "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return http.StatusOK, map[string]any{"id": id, "status": in.Status}, nil
}

// widgetSessions is GET /_sandbox/organizations/{id}/widget-sessions:
// WidgetSessions.
func (c *control) widgetSessions(_ *http.Request, params []string, _ []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	ws := c.sb.WidgetSessions(o.ID)
	return http.StatusOK, struct {
		Sessions []WidgetSession `json:"widget_sessions"`
	}{ws}, nil
}
