package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// A test starts a sandbox, seeds the demo organization and pays out with
// the real client over loopback.
func Example() {
	sb := sandbox.New()
	demo, err := sb.SeedDemo()
	if err != nil {
		log.Fatal(err)
	}
	srv, err := sandbox.NewServer(sb)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client(demo.Organization)
	if err != nil {
		log.Fatal(err)
	}

	payout, err := client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID:       demo.Quotations[0].ID,
		CustomerID:        demo.Customer.ID,
		ClientReferenceID: "order-1001",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(payout.Status, payout.SendingAmount, payout.Asset, "->", payout.ReceivingAmount, payout.Fiat)

	stored, _ := sb.PayoutByReference(demo.Organization.ID, "order-1001")
	fmt.Println(stored.ID == payout.ID)
	// Output:
	// PROCESSING 10 USDT -> 882.5 INR
	// true
}

// Fault injection makes the next request to a path fail the way a busy
// service does, so a caller's own retry and reconciliation code meets it.
func ExampleSandbox_InjectFault() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	ctx := context.Background()

	// Two 503s in a row: the client retries and the call succeeds.
	client, _ := srv.Client(demo.Organization,
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: 10 * time.Millisecond}))
	err := sb.InjectFault(sandbox.Fault{
		Kind:  sandbox.FaultUnavailable,
		Path:  "/cms/api/v1/kyc/configuration/*",
		Count: 2,
	})
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.KYC.GetConfiguration(ctx, demo.Customer.ID)
	fmt.Println(err, sb.Stats().Faults[sandbox.FaultUnavailable])

	// With retries off, the fault reaches the caller.
	once, _ := srv.Client(demo.Organization, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	_ = sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultUnavailable, Count: 1})
	_, err = once.KYC.GetConfiguration(ctx, demo.Customer.ID)
	fmt.Println(errors.Is(err, fiatramp.ErrUnavailable))
	// Output:
	// <nil> 2
	// true
}

// The sandbox clock moves on demand: a quotation expires without a test
// sleeping. A client from Server.Client follows the sandbox clock, so its
// signatures stay inside the 300-second window.
func ExampleSandbox_Advance() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)

	sb.Advance(11 * time.Minute) // demo quotations live 10 minutes
	_, err := client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID,
		CustomerID:  demo.Customer.ID,
	})
	fmt.Println(errors.Is(err, fiatramp.ErrQuotationExpired))
	// Output: true
}

// Fixtures come from JSON too; nesting says who owns what, so a file needs
// no cross-references.
func ExampleLoadJSON() {
	fixtures, err := sandbox.LoadJSON(strings.NewReader(`{
	  "organizations": [{
	    "name": "Acme", "api_key": "acme-key", "api_secret": "acme-secret",
	    "prefunded": true, "balances": {"USDT": "250"},
	    "customers": [{
	      "name": "Asha Rao", "kyc_status": "VERIFIED",
	      "bank_accounts": [{
	        "type": "bank_account", "account_number": "001234567890", "ifsc": "SBIN0001234",
	        "quotations": [{"sending_amount": "10", "rate": "88.25"}]
	      }]
	    }]
	  }]
	}`))
	if err != nil {
		log.Fatal(err)
	}
	sb := sandbox.New()
	loaded, err := sb.Load(fixtures)
	if err != nil {
		log.Fatal(err)
	}
	org := loaded.Organizations[0]
	q := org.Customers[0].BankAccounts[0].Quotations[0]
	fmt.Println(org.APIKey, sb.Balance(org.ID, "USDT"), q.ReceivingAmount)
	// Output: acme-key 250 882.5
}

// The sandbox delivers webhooks: a state change POSTs a signed event to the
// organization's webhook URL. A delivery fault repeats one; the receiver,
// webhook.Handler, runs its function once and acknowledges the repeat.
func ExampleSandbox_InjectDeliveryFault() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	ctx := context.Background()

	org := demo.Organization
	var handled atomic.Int32
	receiver := httptest.NewServer(webhook.Handler(org.APIKey, org.APISecret,
		func(ctx context.Context, ev *webhook.Event) error {
			handled.Add(1)
			return nil
		}, webhook.WithClock(sb.Now)))
	defer receiver.Close()

	err := sb.SetWebhookURL(org.ID, receiver.URL)
	if err != nil {
		log.Fatal(err)
	}
	err = sb.InjectDeliveryFault(sandbox.DeliveryFault{
		Kind:  sandbox.DeliveryFaultDuplicate,
		Type:  sandbox.EventTypePayout,
		Count: 1,
	})
	if err != nil {
		log.Fatal(err)
	}

	payout, _ := client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID, CustomerID: demo.Customer.ID,
	})
	_, _ = client.Payouts.SimulateStatus(ctx, payout.ID, types.PayoutSuccess)
	if err := sb.WaitDeliveries(ctx); err != nil {
		log.Fatal(err)
	}
	for _, d := range sb.Deliveries() {
		fmt.Println(d.Type, d.Event, d.State, len(d.Attempts), "POSTs")
	}
	fmt.Println("handled", handled.Load())
	// Output:
	// PAYOUT SUCCESS delivered 2 POSTs
	// handled 1
}

// A server started WithControl also serves the control plane under
// /_sandbox, for tests in other languages: here its clock is set over
// HTTP with the admin token.
func ExampleWithControl() {
	sb := sandbox.New()
	srv, err := sandbox.NewServer(sb, sandbox.WithControl("")) // "": a random token
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	req, _ := http.NewRequest(http.MethodPut, srv.URL+sandbox.ControlPrefix+"/clock",
		strings.NewReader(`{"time": "2030-01-01T00:00:00Z"}`))
	req.Header.Set("Authorization", "Bearer "+srv.ControlToken())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Print(resp.StatusCode, " ", string(answer))
	fmt.Println(sb.Now().Format(time.RFC3339))
	// Output:
	// 200 {"now":"2030-01-01T00:00:00Z","unix":1893456000}
	// 2030-01-01T00:00:00Z
}
