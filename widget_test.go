package fiatramp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// widgetOrder is a valid widget request.
func widgetOrder() types.WidgetRequest {
	return types.WidgetRequest{
		AssetCode: "USDT", FiatAmount: decimal.RequireFromString("2600.50"), FiatCurrency: "INR",
		FlowType: types.WidgetFlowBuy, NetworkCode: "TRON", PaymentMethod: types.PaymentMethodUPI,
		WalletAddress: "TXyz\"<1>",
	}
}

func TestWidgetInitialize(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPost, "/widget/initialize",
		`{"asset_code":"USDT","fiat_amount":"2600.50","fiat_currency":"INR","flow_type":"buy","network_code":"tron","payment_method":"UPI","wallet_address":"TXyz\"<1>"}`,
		http.StatusOK, ok(`{"widget_link":"https://widget.example/?token=abc"}`))
	w, err := h.client.Widget.Initialize(context.Background(), widgetOrder())
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, "https://widget.example/?token=abc", w.WidgetLink)

	// An unknown flow type is sent as it is (the enum is open), in lower
	// case as the service documents its codes.
	req := widgetOrder()
	req.FlowType = "Swap"
	h.mock.Reset()
	calls = h.expect(http.MethodPost, "/widget/initialize",
		`{"asset_code":"USDT","fiat_amount":"2600.50","fiat_currency":"INR","flow_type":"swap","network_code":"tron","payment_method":"UPI","wallet_address":"TXyz\"<1>"}`,
		http.StatusOK, ok(`{"widget_link":"https://widget.example/?token=def"}`))
	_, err = h.client.Widget.Initialize(context.Background(), req)
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
}

func TestWidgetInitializeRefusedBeforeSending(t *testing.T) {
	h := newHarness(t)
	for field, spoil := range map[string]func(*types.WidgetRequest){
		"asset_code":     func(r *types.WidgetRequest) { r.AssetCode = "" },
		"fiat_currency":  func(r *types.WidgetRequest) { r.FiatCurrency = " " },
		"flow_type":      func(r *types.WidgetRequest) { r.FlowType = "" },
		"network_code":   func(r *types.WidgetRequest) { r.NetworkCode = "" },
		"payment_method": func(r *types.WidgetRequest) { r.PaymentMethod = "" },
		"wallet_address": func(r *types.WidgetRequest) { r.WalletAddress = "\t" },
		"fiat_amount":    func(r *types.WidgetRequest) { r.FiatAmount = decimal.Zero },
	} {
		t.Run(field, func(t *testing.T) {
			req := widgetOrder()
			spoil(&req)
			_, err := h.client.Widget.Initialize(context.Background(), req)
			require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
			var ve *fiatramp.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, field, ve.Field)
		})
	}
	req := widgetOrder()
	req.FiatAmount = decimal.RequireFromString("-1")
	_, err := h.client.Widget.Initialize(context.Background(), req)
	require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
	assert.Zero(t, h.mock.GetTotalCallCount(), "nothing sent")
}

func TestWidgetInitializeFieldError(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodPost, testBase+"/widget/initialize",
		httpmock.NewStringResponder(400, fail("This field may not be blank.", "REQ_FIELD_MISSING", `{"network_code":["This field may not be blank."]}`)))
	_, err := h.client.Widget.Initialize(context.Background(), widgetOrder())
	require.ErrorIs(t, err, fiatramp.ErrFieldMissing)
}

// TestWidgetInitializeSandbox: the sandbox answers a link to its widget
// page, and refuses what a client skipping its checks sends.
func TestWidgetInitializeSandbox(t *testing.T) {
	sb := sandbox.New()
	demo, err := sb.SeedDemo()
	require.NoError(t, err)
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	defer srv.Close()
	client, err := srv.Client(demo.Organization)
	require.NoError(t, err)

	w, err := client.Widget.Initialize(context.Background(), widgetOrder())
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(w.WidgetLink, client.BaseURL()+sandbox.HostedPrefix+"widget/"), w.WidgetLink)
	sessions := sb.WidgetSessions(demo.Organization.ID)
	require.Len(t, sessions, 1)
	assert.Equal(t, sandbox.WidgetOpen, sessions[0].State)
	assert.Equal(t, "2600.5", sessions[0].FiatAmount.String())

	var raw map[string]any
	err = client.Do(context.Background(), http.MethodPost, "/widget/initialize",
		map[string]any{"asset_code": "USDT", "fiat_amount": "0", "fiat_currency": "INR", "flow_type": "hold",
			"network_code": "", "payment_method": "UPI", "wallet_address": "T1"}, &raw)
	require.ErrorIs(t, err, fiatramp.ErrFieldMissing)
	var apiErr *fiatramp.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, map[string][]string{
		"fiat_amount":  {"Ensure this value is greater than 0."},
		"flow_type":    {`"hold" is not a valid choice.`},
		"network_code": {"This field may not be blank."},
	}, apiErr.FieldErrors)
}

// floorWidgetCall is Widget.Initialize written by hand with net/http: the
// body marshalled with the amount as a string, signed, sent, and the
// envelope decoded.
func floorWidgetCall(ctx context.Context, hc *http.Client, url string, req types.WidgetRequest) error {
	body, err := json.Marshal(struct {
		AssetCode     string `json:"asset_code"`
		FiatAmount    string `json:"fiat_amount"`
		FiatCurrency  string `json:"fiat_currency"`
		FlowType      string `json:"flow_type"`
		NetworkCode   string `json:"network_code"`
		PaymentMethod string `json:"payment_method"`
		WalletAddress string `json:"wallet_address"`
	}{req.AssetCode, req.FiatAmount.String(), req.FiatCurrency, string(req.FlowType), req.NetworkCode, string(req.PaymentMethod), req.WalletAddress})
	if err != nil {
		return err
	}
	var w struct {
		WidgetLink string `json:"widget_link"`
	}
	if err := floorSend(ctx, hc, http.MethodPost, url, body, &w); err != nil {
		return err
	}
	if w.WidgetLink == "" {
		return errors.New("floor: no widget link")
	}
	return nil
}

// BenchmarkWidgetInitializeVsFloor compares Widget.Initialize with the
// hand-written floor, interleaved, through an in-memory transport:
//
//	go test -run '^$' -bench 'WidgetInitializeVsFloor|KYCGenerateLinkVsFloor' -benchtime 20000x .
func BenchmarkWidgetInitializeVsFloor(b *testing.B) {
	ctx := context.Background()
	answer := []byte(`{"status":true,"message":"Widget initialized successfully","data":{"widget_link":"https://widget.example/?token=eyJhbGciOiJIUzI1NiJ9.e30.abc"}}`)
	hc := &http.Client{Transport: memoryTransport{answer}}
	c := benchClient(b, "http://127.0.0.1:1", hc)
	req := widgetOrder()
	lib := func() error {
		w, err := c.Widget.Initialize(ctx, req)
		if err == nil && w.WidgetLink == "" {
			err = errors.New("library: no widget link")
		}
		return err
	}
	floor := func() error { return floorWidgetCall(ctx, hc, "http://127.0.0.1:1/widget/initialize", req) }
	compareWithFloor(b, 1, lib, floor)
}
