package sandbox

// The hosted widget: its initialization (POST /widget/initialize) and the
// state of its sessions, which the widget page (hosted_pages.go) shows and a
// tester completes or abandons.

import (
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// WidgetValidity is how long a widget link's token is valid, on the
// sandbox clock, as the service documents it.
const WidgetValidity = 30 * time.Minute

// WidgetState is the state of a hosted widget session.
type WidgetState string

// Widget session states.
const (
	// WidgetOpen: initialized, waiting for the tester.
	WidgetOpen WidgetState = "OPEN"
	// WidgetCompleted: the tester completed the order.
	WidgetCompleted WidgetState = "COMPLETED"
	// WidgetAbandoned: the tester abandoned the order.
	WidgetAbandoned WidgetState = "ABANDONED"
	// WidgetExpired: open when its token's 30 minutes ran out.
	WidgetExpired WidgetState = "EXPIRED"
)

// WidgetSession is a hosted widget session: the order it was initialized
// with, its link and its state.
type WidgetSession struct {
	OrganizationID uuid.UUID            `json:"organization_id"`
	Link           string               `json:"widget_link"`
	AssetCode      string               `json:"asset_code"`
	FiatAmount     decimal.Decimal      `json:"fiat_amount"`
	FiatCurrency   string               `json:"fiat_currency"`
	FlowType       types.WidgetFlowType `json:"flow_type"`
	NetworkCode    string               `json:"network_code"`
	PaymentMethod  types.PaymentMethod  `json:"payment_method"`
	WalletAddress  string               `json:"wallet_address"`
	CreatedAt      time.Time            `json:"created_at"`
	ExpiresAt      time.Time            `json:"expires_at"`
	// State is WidgetExpired for a session left open past ExpiresAt.
	State WidgetState `json:"state"`
}

// widgetSession is a widget session's state.
type widgetSession struct {
	WidgetSession
}

// stateAt is the session's state at now: an open session past its expiry
// has expired.
func (w *widgetSession) stateAt(now time.Time) WidgetState {
	if w.State == WidgetOpen && !now.Before(w.ExpiresAt) {
		return WidgetExpired
	}
	return w.State
}

// initializeWidget is POST /widget/initialize with {asset_code,
// fiat_amount, fiat_currency, flow_type, network_code, payment_method,
// wallet_address}, answering {widget_link}: the sandbox's widget page with
// a token valid WidgetValidity. flow_type is "buy" or "sell", and
// payment_method one of the payment methods; fiat_amount must be above
// zero.
func (s *Sandbox) initializeWidget(rq *request) reply {
	f := rq.body
	asset, _ := f.str("asset_code", true)
	amount := f.decimal("fiat_amount")
	if _, ok := f.value("fiat_amount"); ok && len(f.errs["fiat_amount"]) == 0 && !amount.IsPositive() {
		f.fail("fiat_amount", "Ensure this value is greater than 0.")
	}
	fiat, _ := f.str("fiat_currency", true)
	flow, ok := f.str("flow_type", true)
	if ok && flow != string(types.WidgetFlowBuy) && flow != string(types.WidgetFlowSell) {
		f.fail("flow_type", fmt.Sprintf("%q is not a valid choice.", flow))
	}
	network, _ := f.str("network_code", true)
	method, ok := f.str("payment_method", true)
	if ok && !types.PaymentMethod(method).IsKnown() {
		f.fail("payment_method", fmt.Sprintf("%q is not a valid choice.", method))
	}
	wallet, _ := f.str("wallet_address", true)
	if rep := f.refused(); rep != nil {
		return *rep
	}
	token := newPageToken()
	link := s.hostedBase(rq.r) + HostedPrefix + "widget/" + token
	w := &widgetSession{WidgetSession: WidgetSession{
		OrganizationID: rq.org.ID, Link: link,
		AssetCode: asset, FiatAmount: amount, FiatCurrency: fiat, FlowType: types.WidgetFlowType(flow),
		NetworkCode: network, PaymentMethod: types.PaymentMethod(method), WalletAddress: wallet,
		CreatedAt: rq.now, ExpiresAt: rq.now.Add(WidgetValidity), State: WidgetOpen,
	}}
	rq.org.widgets = append(rq.org.widgets, w)
	s.st.index.pages[token] = pageRef{org: rq.org, widget: w}
	return success(http.StatusOK, "Widget initialized successfully", struct {
		WidgetLink string `json:"widget_link"`
	}{link})
}

// WidgetSessions returns the widget sessions of organization orgID, in
// the order they were initialized, with their state now.
func (s *Sandbox) WidgetSessions(orgID uuid.UUID) []WidgetSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var all []*widgetSession
	if o := s.st.orgs[orgID]; o != nil {
		all = o.widgets
	}
	out := make([]WidgetSession, len(all))
	for i, w := range all {
		out[i] = w.WidgetSession
		out[i].State = w.stateAt(now)
	}
	return out
}
