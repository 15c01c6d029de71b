package webhook_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/fiatramp/fiatramp-go/webhook"
)

// BenchmarkVerify measures one verification of a typical event (about 200
// bytes): header checks, canonical JSON, HMAC, constant-time comparison and
// decoding.
func BenchmarkVerify(b *testing.B) {
	h := signed(b, testKey, testSecret, testNow.Unix(), typicalBody)
	body := []byte(typicalBody)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for range b.N {
		if _, err := webhook.Verify(testKey, testSecret, h, body, testNow); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandlerDuplicate measures the Handler's answer to a repeated
// delivery (verified, found done, acknowledged), the cost a burst of
// duplicates puts on a receiver.
func BenchmarkHandlerDuplicate(b *testing.B) {
	h := webhook.Handler(testKey, testSecret, func(context.Context, *webhook.Event) error { return nil },
		webhook.WithClock(fixedClock()))
	ev := payoutEvent("p1", webhook.EventSuccess)
	serve(h, delivery(b, ev))
	req := delivery(b, ev)
	b.ReportAllocs()
	for range b.N {
		req.Body, _ = req.GetBody()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}
