// Command webhooks shows a webhook receiver meeting the embedded sandbox.
//
// It serves a receiver (webhook.Handler) on a loopback port, registers its
// URL with the sandbox, creates a payout and simulates the bank paying it.
// The sandbox delivers the signed PAYOUT SUCCESS event, and then, because
// the program asked it to, the same event once more: the receiver's
// function runs once and the repeat is acknowledged without running it.
// Last, a delivery signed with the wrong secret is refused with 401.
//
//	go run ./examples/webhooks
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "webhooks:", err)
		os.Exit(1)
	}
}

// receiver is what the program's webhook function saw.
type receiver struct {
	mu      sync.Mutex
	handled []*webhook.Event
	arrived chan *webhook.Event
}

// handle is the receiver's function: it records the event. webhook.Handler
// runs it once per event however often the event is delivered.
func (rc *receiver) handle(_ context.Context, ev *webhook.Event) error {
	rc.mu.Lock()
	rc.handled = append(rc.handled, ev)
	rc.mu.Unlock()
	rc.arrived <- ev
	return nil
}

func (rc *receiver) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.handled)
}

func run(ctx context.Context, out io.Writer) error {
	sb := sandbox.New()
	demo, err := sb.SeedDemo()
	if err != nil {
		return err
	}
	srv, err := sandbox.NewServer(sb)
	if err != nil {
		return err
	}
	defer srv.Close()
	client, err := srv.Client(demo.Organization)
	if err != nil {
		return err
	}
	org := demo.Organization

	// 1. The receiver: webhook.Handler verifies each delivery with the
	// organization's own key and secret, on the sandbox's clock.
	rc := &receiver{arrived: make(chan *webhook.Event, 4)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/webhooks/fiatramp", webhook.Handler(org.APIKey, org.APISecret, rc.handle, webhook.WithClock(sb.Now)))
	// ReadTimeout bounds a sender that trickles its body, as Handler's
	// documentation asks.
	hooks := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second}
	go func() { _ = hooks.Serve(ln) }()
	defer hooks.Close()
	hookURL := "http://" + ln.Addr().String() + "/webhooks/fiatramp"
	fmt.Fprintln(out, "1. receiver listening at", hookURL)

	// 2. Register it: the next event goes there.
	if _, err := client.Organization.SetWebhookURL(ctx, hookURL); err != nil {
		return err
	}
	fmt.Fprintln(out, "2. registered with POST /org/api/v1/organizations/api-webhooks")

	// 3. The next delivery will arrive twice, as real deliveries sometimes do.
	if err := sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: sandbox.DeliveryFaultDuplicate, Count: 1}); err != nil {
		return err
	}
	payout, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID, CustomerID: demo.Customer.ID, ClientReferenceID: "webhooks-001",
	})
	if err != nil {
		return err
	}
	if _, err := client.Payouts.SimulateStatus(ctx, payout.ID, types.PayoutSuccess); err != nil {
		return err
	}
	fmt.Fprintf(out, "3. payout %s created and simulated to SUCCESS\n", payout.ID)

	// 4. The signed event arrives.
	select {
	case ev := <-rc.arrived:
		fmt.Fprintf(out, "4. event received: %s %s %s, utr %s\n", ev.Type, ev.ID, ev.Event, deref(ev.Metadata.UTR))
	case <-ctx.Done():
		return fmt.Errorf("no event arrived: %w", ctx.Err())
	}

	// 5. The duplicate was answered 200 without running the function.
	if err := sb.WaitDeliveries(ctx); err != nil {
		return err
	}
	d := sb.Deliveries()[0]
	fmt.Fprintf(out, "5. the sandbox delivered it %d times (answers %s); the function ran %d time(s)\n",
		len(d.Attempts), answers(d), rc.count())

	// 6. A delivery signed with the wrong secret is refused.
	forged, err := webhook.NewTestDelivery(org.APIKey, "not-the-secret", hookURL, webhook.Event{
		Type: webhook.TypePayout, ID: payout.ID.String(), Event: webhook.EventRefunded, Timestamp: sb.Now(),
	}, sb.Now())
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(forged.WithContext(ctx))
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return fmt.Errorf("forged delivery answered %d, want 401", resp.StatusCode)
	}
	fmt.Fprintf(out, "6. a forged delivery was refused: HTTP %d; the function ran %d time(s)\n", resp.StatusCode, rc.count())

	// Without webhooks, Payouts.Wait polls until a final status.
	final, err := client.Payouts.Wait(ctx, payout.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "7. Payouts.Wait (the polling fallback) agrees: %s\n", final.Status)
	return nil
}

// answers lists the HTTP statuses of a delivery's attempts.
func answers(d sandbox.Delivery) string {
	codes := make([]string, len(d.Attempts))
	for i, a := range d.Attempts {
		codes[i] = strconv.Itoa(a.StatusCode)
	}
	return strings.Join(codes, ", ")
}

func deref(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}
