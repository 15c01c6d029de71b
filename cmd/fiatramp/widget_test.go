package main

// fiatramp widget initialize, run as a user runs it.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

func TestCLIWidgetInit(t *testing.T) {
	w := newWorld(t)
	r := cli(t, w.env, "", "widget", "initialize", "-amount", "2600.50", "-network", "TRON", "-method", "upi", "-wallet", "TQn9Y2")
	require.Equal(t, 0, r.code, r)
	var got struct {
		WidgetLink string `json:"widget_link"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	assert.True(t, strings.Contains(got.WidgetLink, sandbox.HostedPrefix+"widget/"), got.WidgetLink)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPost, reqs[0].Method)
	assert.Equal(t, "/widget/initialize", reqs[0].Path)
	assert.Equal(t, `{"asset_code":"USDT","fiat_amount":"2600.50","fiat_currency":"INR","flow_type":"buy","network_code":"tron","payment_method":"UPI","wallet_address":"TQn9Y2"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])
	sessions := w.sb.WidgetSessions(w.demo.Organization.ID)
	require.Len(t, sessions, 1)
	assert.Equal(t, sandbox.WidgetOpen, sessions[0].State)

	for _, bad := range [][]string{
		{"widget", "initialize", "-network", "TRON", "-method", "UPI", "-wallet", "T"},                       // no -amount
		{"widget", "initialize", "-amount", "1e3", "-network", "TRON", "-method", "UPI", "-wallet", "T"},     // not a plain decimal
		{"widget", "initialize", "-amount", "0", "-network", "TRON", "-method", "UPI", "-wallet", "T"},       // refused before sending
		{"widget", "initialize", "-amount", "10", "-network", "TRON", "-method", "UPI", "-wallet", "T", "x"}, // extra argument
	} {
		r = cli(t, w.env, "", bad...)
		assert.Equal(t, 2, r.code, "%v: %s", bad, r)
	}
	assert.Empty(t, w.requests(), "nothing more was sent")
}
