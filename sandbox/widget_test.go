package sandbox_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// widgetOrder is a valid widget initialization with a hostile wallet
// address, which the page must show escaped.
func widgetOrder() types.WidgetRequest {
	return types.WidgetRequest{
		AssetCode: "USDT", FiatAmount: decimal.RequireFromString("2600.50"), FiatCurrency: "INR",
		FlowType: types.WidgetFlowBuy, NetworkCode: "TRON", PaymentMethod: types.PaymentMethodUPI,
		WalletAddress: `T<img src=x onerror="alert(1)">`,
	}
}

func TestHostedWidgetPageComplete(t *testing.T) {
	e := newEnv(t)
	w, err := e.client.Widget.Initialize(ctx(t), widgetOrder())
	require.NoError(t, err)
	token := tokenOf(w.WidgetLink)

	status, html := getPage(t, w.WidgetLink)
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, html, "2600.50 INR")
	assert.Contains(t, html, "USDT on tron", "network_code is sent in lower case")
	assert.Contains(t, html, "T&lt;img src=x onerror=&#34;alert(1)&#34;&gt;")
	assert.NotContains(t, html, "<img")
	assert.NotContains(t, html, e.org.APISecret)
	assert.Contains(t, html, "2026-11-21 10:00:00 UTC", "valid 30 minutes on the sandbox clock")

	st, _, _ := postForm(t, w.WidgetLink, "", url.Values{"action": {"complete"}})
	assert.Equal(t, http.StatusForbidden, st, "no token in the form")
	assert.Equal(t, sandbox.WidgetOpen, e.sb.WidgetSessions(e.org.ID)[0].State)

	st, loc, _ := postForm(t, w.WidgetLink, "", url.Values{"action": {"complete"}, "token": {token}})
	require.Equal(t, http.StatusSeeOther, st)
	assert.Equal(t, sandbox.HostedPrefix+"widget/"+token, loc)
	sessions := e.sb.WidgetSessions(e.org.ID)
	require.Len(t, sessions, 1)
	assert.Equal(t, sandbox.WidgetCompleted, sessions[0].State)
	assert.Equal(t, w.WidgetLink, sessions[0].Link)
	assert.Equal(t, epoch.Add(sandbox.WidgetValidity), sessions[0].ExpiresAt)

	_, html = getPage(t, w.WidgetLink)
	assert.Contains(t, html, `<td id="state">COMPLETED</td>`)
	assert.NotContains(t, html, `id="complete"`)
	st, _, html = postForm(t, w.WidgetLink, "", url.Values{"action": {"abandon"}, "token": {token}})
	assert.Equal(t, http.StatusBadRequest, st)
	assert.Contains(t, html, "already COMPLETED")
	assert.Empty(t, e.sb.WidgetSessions(e.otherOrg(false).ID), "another organization's sessions are its own")
}

func TestHostedWidgetPageAbandonAndExpiry(t *testing.T) {
	e := newEnv(t)
	a, err := e.client.Widget.Initialize(ctx(t), widgetOrder())
	require.NoError(t, err)
	b, err := e.client.Widget.Initialize(ctx(t), widgetOrder())
	require.NoError(t, err)
	st, _, _ := postForm(t, a.WidgetLink, "", url.Values{"action": {"abandon"}, "token": {tokenOf(a.WidgetLink)}})
	require.Equal(t, http.StatusSeeOther, st)

	e.sb.Advance(sandbox.WidgetValidity - time.Second)
	status, _ := getPage(t, b.WidgetLink)
	assert.Equal(t, http.StatusOK, status, "valid until its 30 minutes are up")
	e.sb.Advance(time.Second)
	status, html := getPage(t, b.WidgetLink)
	assert.Equal(t, http.StatusGone, status)
	assert.Contains(t, html, "expired")
	st, _, _ = postForm(t, b.WidgetLink, "", url.Values{"action": {"complete"}, "token": {tokenOf(b.WidgetLink)}})
	assert.Equal(t, http.StatusGone, st, "an expired order cannot be completed")

	sessions := e.sb.WidgetSessions(e.org.ID)
	require.Len(t, sessions, 2)
	assert.Equal(t, []sandbox.WidgetState{sandbox.WidgetAbandoned, sandbox.WidgetExpired}, []sandbox.WidgetState{sessions[0].State, sessions[1].State})
	assert.True(t, strings.HasSuffix(sessions[0].Link, tokenOf(a.WidgetLink)), "in the order initialized")
}

func TestInitializeWidgetFieldErrors(t *testing.T) {
	e := newEnv(t)
	err := e.client.Do(ctx(t), http.MethodPost, "/widget/initialize", map[string]any{}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, "This field is required.")
	assert.Len(t, apiErr.FieldErrors, 7)
	err = e.client.Do(ctx(t), http.MethodPost, "/widget/initialize", map[string]any{
		"asset_code": "USDT", "fiat_amount": "-5", "fiat_currency": "INR", "flow_type": "sell",
		"network_code": "TRON", "payment_method": "CASH", "wallet_address": "T1"}, nil)
	apiErr = refused(t, err, http.StatusBadRequest, "Ensure this value is greater than 0.")
	assert.Equal(t, map[string][]string{
		"fiat_amount":    {"Ensure this value is greater than 0."},
		"payment_method": {`"CASH" is not a valid choice.`},
	}, apiErr.FieldErrors, "sell is accepted")
	assert.Empty(t, e.sb.WidgetSessions(e.org.ID))
}
