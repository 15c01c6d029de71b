// Command quickstart is a first look at fiatramp-go.
//
// With no environment set it starts the embedded sandbox (package sandbox:
// the whole service in memory, on a loopback port) and walks one payout
// story against it, printing what each call sent and got back.
//
// With FIATRAMP_API_KEY, FIATRAMP_API_SECRET and FIATRAMP_BASE_URL set it
// talks to that service instead, read-only: it fetches the KYC configuration
// and every bank account of FIATRAMP_CUSTOMER_ID, and the payout
// FIATRAMP_PAYOUT_ID, when those are set.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	if os.Getenv(fiatramp.EnvAPIKey) == "" {
		return story(ctx)
	}
	return live(ctx)
}

// story walks the payout story against the embedded sandbox.
func story(ctx context.Context) error {
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
	customer, pending := demo.Customer.ID, demo.PendingCustomer.ID

	fmt.Println("No FIATRAMP_API_KEY set: started the embedded sandbox at", srv.URL)
	fmt.Printf("signing as demo organization %q (key %s)\n\n", demo.Organization.Name, demo.Organization.APIKey)

	step(1, "KYC configuration of customer %s", customer)
	cfg, err := client.KYC.GetConfiguration(ctx, customer)
	if err != nil {
		return err
	}
	fmt.Println("   documents accepted:", cfg.SupportedDocumentTypes)

	step(2, "KYC simulation: customer %s is PROCESSING, move it to VERIFIED", pending)
	kyc, err := client.KYC.SimulateStatus(ctx, pending, types.KYCVerified)
	if err != nil {
		return err
	}
	fmt.Println("   status now:", kyc.Status)

	step(3, "add a wallet for the customer")
	wallet, err := client.Customers.AddWallet(ctx, types.AddWalletRequest{
		CustomerID: customer, WalletAddress: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
	})
	if err != nil {
		return err
	}
	fmt.Printf("   wallet %s: %s (%s)\n", wallet.ID, wallet.WalletAddress, wallet.WalletStatus)

	step(4, "list the customer's bank accounts (every page)")
	for account, err := range client.Customers.BankAccounts(ctx, customer) {
		if err != nil {
			return err
		}
		fmt.Printf("   %s  %-12s %s\n", account.ID, account.BankAccountType, describeAccount(account))
	}

	step(5, "a payin quotation: 5000 INR over UPI")
	quote, err := client.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{
		Asset: "USDT", Fiat: "INR", SendingAmount: decimal.NewFromInt(5000),
		CustomerID: customer, BankID: demo.VPA.ID, PaymentMethod: types.PaymentMethodUPI,
		RiskParameters: types.RiskParameters{IPAddress: "203.0.113.7", DeviceID: "device-42"},
	})
	if err != nil {
		return err
	}
	fmt.Printf("   quotation %s: pay %s %s, receive %s %s at %s; expires %s\n",
		quote.ID, quote.SendingAmount, quote.Fiat, quote.ReceivingAmount, quote.Asset, quote.Rate,
		quote.ExpiryTime.Format(time.RFC3339))
	if quote.DeepLink != "" {
		fmt.Println("   UPI deep link:", quote.DeepLink)
	}

	step(6, "a standard payout against quotation %s", demo.Quotations[0].ID)
	payout, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID, CustomerID: customer, ClientReferenceID: "quickstart-001",
	})
	if err != nil {
		return err
	}
	fmt.Printf("   payout %s: %s, %s %s -> %s %s\n", payout.ID, payout.Status,
		payout.SendingAmount, payout.Asset, payout.ReceivingAmount, payout.Fiat)

	step(7, "a prefunded payout against quotation %s", demo.Quotations[1].ID)
	before := sb.Balance(demo.Organization.ID, "USDT")
	prefunded, err := client.Payouts.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{
		QuotationID: demo.Quotations[1].ID,
		Customer: types.PrefundedCustomer{
			Sender:   types.CustomerRef{ID: customer},
			Receiver: types.CustomerRef{ID: customer},
		},
		ClientReferenceID: "quickstart-002",
	})
	if err != nil {
		return err
	}
	fmt.Printf("   payout %s: %s; prefunded balance %s USDT -> %s USDT\n", prefunded.ID, prefunded.Status,
		before, sb.Balance(demo.Organization.ID, "USDT"))

	step(8, "a webhook receiver (webhook.Handler) on loopback, registered with the sandbox")
	events := make(chan *webhook.Event, 8)
	hookURL, stop, err := receive(demo.Organization, sb.Now, events)
	if err != nil {
		return err
	}
	defer stop()
	if err := client.Do(ctx, http.MethodPost, "/org/api/v1/organizations/api-webhooks", map[string]string{"url": hookURL}, nil); err != nil {
		return err
	}
	fmt.Println("   POST /org/api/v1/organizations/api-webhooks {\"url\": \"" + hookURL + "\"}")

	step(9, "simulate the bank paying payout %s; its signed event arrives; fetch it", payout.ID)
	if _, err := client.Payouts.SimulateStatus(ctx, payout.ID, types.PayoutSuccess); err != nil {
		return err
	}
	select {
	case ev := <-events:
		fmt.Printf("   webhook: %s %s %s, utr %s (signature verified)\n", ev.Type, ev.ID, ev.Event, deref(ev.Metadata.UTR))
	case <-ctx.Done():
		return fmt.Errorf("no webhook arrived: %w", ctx.Err())
	}
	fetched, err := client.Payouts.Get(ctx, payout.ID)
	if err != nil {
		return err
	}
	fmt.Printf("   payout %s: %s, utr %s\n", fetched.ID, fetched.Status, deref(fetched.UTR))

	step(10, "two refused requests and their typed errors")
	_, err = client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID, CustomerID: customer, ClientReferenceID: "quickstart-003",
	})
	if err := expect(err, fiatramp.ErrQuotationAlreadyLinked, "reusing quotation "+demo.Quotations[0].ID.String()); err != nil {
		return err
	}
	_, err = client.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{
		Asset: "USDT", Fiat: "INR", SendingAmount: decimal.NewFromInt(2000),
		CustomerID: customer, BankID: demo.BankAccount.ID, PaymentMethod: types.PaymentMethodIMPS,
	})
	if err := expect(err, fiatramp.ErrAmountBelowMinimum, "a 2000 INR payin quotation"); err != nil {
		return err
	}

	fmt.Println("\nDone. Set FIATRAMP_API_KEY, FIATRAMP_API_SECRET and FIATRAMP_BASE_URL to run against a service;")
	fmt.Println("`go run ./cmd/fiatramp sandbox` serves this sandbox to programs in any language.")
	return nil
}

// receive serves a webhook receiver for organization o on a loopback port,
// verifying deliveries on the clock now, and sends each event handled to
// events. It returns the receiver's URL and a function that stops it.
func receive(o sandbox.Organization, now func() time.Time, events chan<- *webhook.Event) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	h := webhook.Handler(o.APIKey, o.APISecret, func(_ context.Context, ev *webhook.Event) error {
		select {
		case events <- ev:
		default: // nobody is listening any more
		}
		return nil
	}, webhook.WithClock(now))
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/webhooks", func() { _ = srv.Close() }, nil
}

// step prints a numbered heading.
func step(n int, format string, args ...any) {
	fmt.Printf("%d. %s\n", n, fmt.Sprintf(format, args...))
}

// expect prints a refusal that must match sentinel, or says why it did not.
func expect(err, sentinel error, what string) error {
	var apiErr *fiatramp.APIError
	if !errors.As(err, &apiErr) || !errors.Is(err, sentinel) {
		return fmt.Errorf("%s: expected %v, got %v", what, sentinel, err)
	}
	fmt.Printf("   %s: HTTP %d %q\n", what, apiErr.StatusCode, apiErr.Message)
	fmt.Printf("     errors.Is(err, fiatramp.%s) == true\n", sentinelName(sentinel))
	return nil
}

// sentinelName names the sentinels the story shows.
func sentinelName(err error) string {
	switch err {
	case fiatramp.ErrQuotationAlreadyLinked:
		return "ErrQuotationAlreadyLinked"
	case fiatramp.ErrAmountBelowMinimum:
		return "ErrAmountBelowMinimum"
	}
	return err.Error()
}

// describeAccount shows a list item's account number and IFSC, or its UPI
// address.
func describeAccount(a types.BankAccountListItem) string {
	if a.VPA != "" {
		return a.VPA
	}
	return a.AccountNumber + " " + a.IFSC
}

// deref returns *s, or "-" for nil.
func deref(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

// live reads from the service FIATRAMP_BASE_URL names; it changes nothing.
func live(ctx context.Context) error {
	client, err := fiatramp.NewFromEnv()
	if err != nil {
		return err
	}
	fmt.Println("client:", client)
	if id := os.Getenv("FIATRAMP_CUSTOMER_ID"); id != "" {
		customerID, err := uuid.Parse(id)
		if err != nil {
			return fmt.Errorf("FIATRAMP_CUSTOMER_ID: %w", err)
		}
		cfg, err := client.KYC.GetConfiguration(ctx, customerID)
		if err != nil {
			return err
		}
		fmt.Println("KYC documents accepted:", cfg.SupportedDocumentTypes)
		for account, err := range client.Customers.BankAccounts(ctx, customerID) {
			if err != nil {
				return err
			}
			fmt.Printf("bank account %s: %s (%s, %s)\n", account.ID, describeAccount(account), account.BankAccountType, account.BankAccountStatus)
		}
	}
	if id := os.Getenv("FIATRAMP_PAYOUT_ID"); id != "" {
		payoutID, err := uuid.Parse(id)
		if err != nil {
			return fmt.Errorf("FIATRAMP_PAYOUT_ID: %w", err)
		}
		p, err := client.Payouts.Get(ctx, payoutID)
		if err != nil {
			return err
		}
		fmt.Printf("payout %s: %s, %s %s -> %s %s\n", p.ID, p.Status, p.SendingAmount, p.Asset, p.ReceivingAmount, p.Fiat)
	}
	return nil
}
