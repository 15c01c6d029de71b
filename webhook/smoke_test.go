package webhook_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/fiatramp/fiatramp-go/webhook"
	"github.com/stretchr/testify/require"
)

func TestSmokeRoundTrip(t *testing.T) {
	now := time.Unix(1700000000, 0)
	utr := "UTR123"
	req, err := webhook.NewTestDelivery("key", "secret", "http://x/hook", webhook.Event{
		Type: webhook.TypePayout, ID: "p1", Event: webhook.EventSuccess, Timestamp: now,
		Metadata: webhook.Metadata{UTR: &utr},
	}, now)
	require.NoError(t, err)
	calls := 0
	h := webhook.Handler("key", "secret", func(ctx context.Context, ev *webhook.Event) error {
		calls++
		require.Equal(t, "p1", ev.ID)
		require.Equal(t, utr, *ev.Metadata.UTR)
		return nil
	}, webhook.WithClock(func() time.Time { return now }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, 1, calls)
}
