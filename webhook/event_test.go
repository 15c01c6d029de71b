package webhook_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/fiatramp/fiatramp-go/webhook"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEnums(t *testing.T) {
	assert.Equal(t, []webhook.Type{"CUSTOMER", "BANK", "PAYIN", "PAYOUT", "EDD"}, webhook.Type("").Values())
	assert.Equal(t, []webhook.EventName{"VERIFIED", "FAILED", "SUCCESS", "REFUNDED", "IN_REVIEW", "REFUND_INITIATED", "ON_HOLD"}, webhook.EventName("").Values())
	for _, ty := range webhook.Type("").Values() {
		assert.True(t, ty.IsKnown(), ty)
	}
	for _, e := range webhook.EventName("").Values() {
		assert.True(t, e.IsKnown(), e)
	}
	for _, s := range []string{"", "payout", "Payout", "PAYOUT ", "WALLET"} {
		assert.False(t, webhook.Type(s).IsKnown(), s)
	}
	for _, s := range []string{"", "success", "PROCESSING", "PENDING"} {
		assert.False(t, webhook.EventName(s).IsKnown(), s)
	}
	// Events per type, as documented.
	want := map[webhook.Type][]webhook.EventName{
		webhook.TypeCustomer: {"VERIFIED", "FAILED"},
		webhook.TypeBank:     {"VERIFIED", "FAILED"},
		webhook.TypeEDD:      {"VERIFIED", "FAILED"},
		webhook.TypePayout:   {"SUCCESS", "FAILED", "REFUNDED", "IN_REVIEW"},
		webhook.TypePayin:    {"SUCCESS", "FAILED", "REFUNDED", "REFUND_INITIATED", "ON_HOLD"},
	}
	for ty, evs := range want {
		assert.Equal(t, evs, ty.Events(), ty)
	}
	assert.Nil(t, webhook.Type("WALLET").Events())
	// A slice returned is the caller's.
	v := webhook.TypePayout.Events()
	v[0] = "X"
	assert.Equal(t, webhook.EventSuccess, webhook.TypePayout.Events()[0])

	known := func(ty webhook.Type, e webhook.EventName) bool {
		ev := webhook.Event{Type: ty, Event: e}
		return ev.IsKnown()
	}
	assert.True(t, known(webhook.TypePayout, webhook.EventInReview))
	assert.True(t, known(webhook.TypeCustomer, webhook.EventVerified))
	assert.False(t, known(webhook.TypePayin, webhook.EventInReview))
	assert.True(t, known(webhook.TypePayin, webhook.EventRefundInitiated))
	assert.False(t, known(webhook.TypePayout, webhook.EventOnHold))
	assert.False(t, known(webhook.TypePayout, webhook.EventVerified))
	assert.False(t, known(webhook.TypePayout, "PROCESSING"))
	assert.False(t, known("WALLET", webhook.EventFailed))
}

func TestDedupeKey(t *testing.T) {
	ev := webhook.Event{Type: webhook.TypePayout, ID: "0b5e7f6a-3c2d", Event: webhook.EventSuccess}
	assert.Equal(t, "PAYOUT/SUCCESS/0b5e7f6a-3c2d", ev.DedupeKey())
	// Values that contain the separator cannot make two events collide.
	a := webhook.Event{Type: "A", Event: "B/C", ID: "D"}
	b := webhook.Event{Type: "A", Event: "B", ID: "C/D"}
	assert.NotEqual(t, a.DedupeKey(), b.DedupeKey())
	c := webhook.Event{Type: "A", Event: "B", ID: "x\x00y"}
	assert.NotContains(t, c.DedupeKey(), "\x00", "a key must fit a SQL text column")
}

func TestEventMarshalJSON(t *testing.T) {
	reason, utr, ref := "limit", "UTR1", "order-1001"
	ev := webhook.Event{
		Type: webhook.TypePayout, ID: "p1", Event: webhook.EventFailed,
		Timestamp: time.Date(2026, 11, 23, 17, 29, 58, 5e8, time.FixedZone("IST", 5*3600+1800)),
		Metadata: webhook.Metadata{
			FailureReason: &reason, UTR: &utr, ClientReferenceID: &ref,
			Raw: json.RawMessage(`{"utr":"old","extra":{"n":1},"failure_reason":"old"}`),
		},
	}
	b, err := json.Marshal(ev)
	require.NoError(t, err)
	assert.Equal(t, `{"type":"PAYOUT","id":"p1","event":"FAILED","timestamp":"2026-11-23T11:59:58.5Z",`+
		`"metadata":{"client_reference_id":"order-1001","extra":{"n":1},"failure_reason":"limit","utr":"UTR1"}}`, string(b))

	b, err = json.Marshal(webhook.Event{Type: webhook.TypeBank, ID: "b1", Event: webhook.EventVerified})
	require.NoError(t, err)
	assert.Equal(t, `{"type":"BANK","id":"b1","event":"VERIFIED","timestamp":null,"metadata":{}}`, string(b))

	_, err = json.Marshal(webhook.Event{Metadata: webhook.Metadata{Raw: json.RawMessage(`[1]`)}})
	assert.ErrorContains(t, err, "Metadata.Raw is not a JSON object")
}

func TestNewTestDelivery(t *testing.T) {
	ev := payoutEvent("p1", webhook.EventSuccess)
	req, err := webhook.NewTestDelivery(testKey, testSecret, "https://receiver.example/hooks/fiatramp?x=1", ev, testNow)
	require.NoError(t, err)
	assert.Equal(t, http.MethodPost, req.Method)
	assert.Equal(t, "https://receiver.example/hooks/fiatramp?x=1", req.URL.String())
	body, err := io.ReadAll(req.Body)
	require.NoError(t, err)
	want, err := json.Marshal(ev)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(body))
	assert.Equal(t, int64(len(body)), req.ContentLength)
	assert.Equal(t, "application/json", req.Header.Get("Content-Type"))
	assert.Equal(t, "1795435200", req.Header.Get("X-TIMESTAMP"))
	// The signature is the one computed independently of the package.
	assert.Equal(t, signed(t, testKey, testSecret, testNow.Unix(), string(body)).Get("X-SIGNATURE"), req.Header.Get("X-SIGNATURE"))

	got, err := webhook.Verify(testKey, testSecret, req.Header, body, testNow)
	require.NoError(t, err)
	assert.Equal(t, ev.ID, got.ID)
	assert.Equal(t, `{"utr":"UTR-p1"}`, string(got.Metadata.Raw))

	_, err = webhook.NewTestDelivery(testKey, testSecret, "http://bad url\x7f", ev, testNow)
	assert.Error(t, err)
	_, err = webhook.Sign(testKey, testSecret, []byte(`{"a":`), testNow)
	assert.ErrorContains(t, err, "not JSON")
}
