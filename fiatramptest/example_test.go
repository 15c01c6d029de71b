package fiatramptest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/fiatramptest"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// exampleT stands in for a test's *testing.T, so that the examples run:
// in a test, pass the test's t.
type exampleT struct {
	testing.TB
	cleanups []func()
}

func (t *exampleT) Helper()          {}
func (t *exampleT) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }
func (t *exampleT) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}

// done runs the cleanups, last first, as a test's end does.
func (t *exampleT) done() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

// A test pays a customer through the real client and the sandbox; the
// second payout on the same quotation is refused.
func ExampleNewClient() {
	t := &exampleT{}
	defer t.done()
	ctx := context.Background()

	client, sb := fiatramptest.NewClient(t)
	payee := sb.NewPayee(t)
	payout, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: payee.Quotation.ID, CustomerID: payee.Customer.ID, ClientReferenceID: "order-1",
	})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	fmt.Println(payout.Status, payout.SendingAmount, payout.Asset)

	_, err = client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: payee.Quotation.ID, CustomerID: payee.Customer.ID, ClientReferenceID: "order-2",
	})
	fmt.Println(errors.Is(err, fiatramp.ErrQuotationAlreadyLinked))
	// Output:
	// PROCESSING 10 USDT
	// true
}

// payoutsWithRefusal is a fake fiatramp.PayoutsAPI whose Create is refused
// as the service refuses an expired quotation.
type payoutsWithRefusal struct {
	fiatramp.PayoutsAPI
}

func (payoutsWithRefusal) Create(context.Context, types.CreatePayoutRequest, ...fiatramp.RequestOption) (*types.Payout, error) {
	return nil, fiatramptest.Refusal(fiatramp.ErrQuotationExpired)
}

// A fake returns the service's refusal; code under test tells it apart
// with errors.Is, as it does the real answer.
func ExampleRefusal() {
	var payouts fiatramp.PayoutsAPI = payoutsWithRefusal{}
	_, err := payouts.Create(context.Background(), types.CreatePayoutRequest{})
	fmt.Println(errors.Is(err, fiatramp.ErrQuotationExpired))
	fmt.Println(err)
	fmt.Println(fiatramp.SentinelNames(fiatramptest.Refusal(fiatramp.ErrQuotationNotFound)))
	// Output:
	// true
	// fiatramp: HTTP 400: Quotation has expired
	// [ErrQuotationNotFound ErrNotFound]
}

// A receiver gets a delivery signed with the organization's key, as the
// service sends it.
func ExampleSandbox_NewDelivery() {
	t := &exampleT{}
	defer t.done()
	_, sb := fiatramptest.NewClient(t)

	receiver := webhook.Handler(sb.Organization.APIKey, sb.Organization.APISecret,
		func(_ context.Context, ev *webhook.Event) error {
			fmt.Println(ev.Type, ev.Event, *ev.Metadata.ClientReferenceID)
			return nil
		})
	ref := "order-1"
	req := sb.NewDelivery(t, "http://localhost/webhooks", webhook.Event{
		Type: webhook.TypePayout, ID: "p-1", Event: webhook.EventSuccess,
		Metadata: webhook.Metadata{ClientReferenceID: &ref},
	})
	rec := httptest.NewRecorder()
	receiver.ServeHTTP(rec, req)
	fmt.Println(rec.Code)
	// Output:
	// PAYOUT SUCCESS order-1
	// 200
}
