// Command quickstart is a first look at fiatramp-go.
//
// With no environment set it starts the embedded sandbox (package sandbox:
// the whole service in memory, on a loopback port) with one empty
// organization, and walks the payout story from nothing with typed calls
// only: a webhook receiver registered, a customer created and KYC-verified,
// a bank account added and verified, then configuration, limits, rate,
// quotation, payout, transfer link, the simulated bank payment, its signed
// webhook, the payout fetched with its UTR and found in the history.
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
	"strings"
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

// story walks the payout story against the embedded sandbox, starting
// from an organization with nothing in it.
func story(ctx context.Context) error {
	sb := sandbox.New()
	defer func() { _ = sb.Close() }()
	org, err := sb.AddOrganization(sandbox.Organization{Name: "Quickstart Exchange"})
	if err != nil {
		return err
	}
	srv, err := sandbox.NewServer(sb)
	if err != nil {
		return err
	}
	defer srv.Close()
	client, err := srv.Client(org)
	if err != nil {
		return err
	}
	fmt.Println("No FIATRAMP_API_KEY set: started the embedded sandbox at", srv.URL)
	fmt.Printf("signing as organization %q (key %s); it has no customers yet\n\n", org.Name, org.APIKey)

	step(1, "webhook receiver (webhook.Handler) on loopback, registered")
	events := make(chan *webhook.Event, 16)
	hookURL, stop, err := receive(org, sb.Now, events)
	if err != nil {
		return err
	}
	defer stop()
	registered, err := client.Organization.SetWebhookURL(ctx, hookURL)
	if err != nil {
		return err
	}
	fmt.Println("   registered", registered)

	step(2, "create a customer")
	customer, err := client.Customers.Create(ctx, types.CreateCustomerRequest{
		FullName: "Asha Rao", Email: "asha@example.com", Phone: "+919800000001",
		Alpha3CountryCode: "IND", ClientReferenceID: "user-1001",
	})
	if err != nil {
		return err
	}
	fmt.Printf("   customer %s: %s\n", customer.ID, customer.Status)

	step(3, "KYC configuration")
	cfg, err := client.KYC.GetConfiguration(ctx, customer.ID)
	if err != nil {
		return err
	}
	fmt.Printf("   documents %v; additional info %v\n", cfg.SupportedDocumentTypes, cfg.AdditionalInfoRequired.Options)

	step(4, "add KYC data, checked against the configuration before sending")
	kyc, err := client.KYC.AddData(ctx, types.AddKYCDataRequest{
		CustomerID: customer.ID, FullName: "Asha Rao", Phone: "+919800000001",
		FullAddress: "12 MG Road, Pune", DOB: "31-01-1990", TaxNumber: "ABCDE1234F",
		DocumentType: "PASSPORT", DocumentFrontImageURL: "https://img.example/asha-front.png",
		DocumentDetails: types.DocumentDetails{DocumentNumber: "P1234567"},
		AdditionalInfo:  map[string]string{"income_range": "5-10L", "profession": "engineer"},
	}, fiatramp.CheckKYCRules(cfg))
	if err != nil {
		return err
	}
	fmt.Println("   KYC:", kyc.Status)

	step(5, "KYC simulation (sandbox): the check passes")
	if _, err := client.KYC.SimulateStatus(ctx, customer.ID, types.KYCVerified); err != nil {
		return err
	}
	if err := await(ctx, events, webhook.TypeCustomer, customer.ID.String()); err != nil {
		return err
	}

	step(6, "add a bank account")
	bank, err := client.Customers.AddBankAccount(ctx, types.AddBankAccountRequest{
		CustomerID: customer.ID, AccountNumber: "50100123456789", IFSC: "HDFC0001234", AccountName: "Asha Rao",
	})
	if err != nil {
		return err
	}
	fmt.Printf("   bank account %s: %s %s\n", bank.ID, bank.BankAccountType, bank.BankAccountStatus)

	step(7, "bank verification simulation (sandbox): the account is verified")
	if _, err := client.Customers.SimulateBankVerification(ctx, customer.ID, bank.ID, types.BankAccountVerified); err != nil {
		return err
	}
	if err := await(ctx, events, webhook.TypeBank, bank.ID.String()); err != nil {
		return err
	}

	step(8, "payout configuration")
	conf, err := client.Payouts.GetConfiguration(ctx)
	if err != nil {
		return err
	}
	inr, ok := conf.Fiat("INR")
	if !ok {
		return fmt.Errorf("payout configuration: no INR")
	}
	imps, _ := inr.Limits("USDT", "IMPS")
	fmt.Printf("   INR assets %v; USDT by IMPS %s to %s\n", inr.SupportedAssets, imps.Min, imps.Max)

	step(9, "payout limits of the customer")
	limits, err := client.Payouts.GetLimits(ctx, customer.ID)
	if err != nil {
		return err
	}
	fmt.Printf("   available %s of %s INR today; EDD required: %t\n",
		orDash(limits.AvailableLimit), orDash(limits.DailyLimit), limits.IsEDDRequired)

	step(10, "payout rate")
	rate, err := client.Payouts.GetRate(ctx, types.RateRequest{Asset: "USDT", Fiat: "INR"})
	if err != nil {
		return err
	}
	fmt.Printf("   1 %s = %s %s\n", rate.Asset, rate.Rate, rate.Fiat)

	step(11, "payout quotation: 100 USDT to the bank account")
	quote, err := client.Payouts.CreateQuotation(ctx, types.CreatePayoutQuotationRequest{
		Asset: "USDT", Fiat: "INR", SendingAmount: decimal.NewFromInt(100),
		CustomerID: customer.ID, BankID: bank.ID,
		RiskParameters: types.RiskParameters{IPAddress: "203.0.113.7", DeviceID: "device-42"},
	})
	if err != nil {
		return err
	}
	fmt.Printf("   quotation %s: %s %s -> %s %s at %s; expires %s\n", quote.ID,
		quote.SendingAmount, quote.Asset, quote.ReceivingAmount, quote.Fiat, quote.Rate,
		quote.ExpiryTime.Format(time.RFC3339))

	step(12, "initiate the payout")
	const exchangeOrder = "EXO-QS-0001"
	payout, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: quote.ID, CustomerID: customer.ID,
		ExchangeOrderID: exchangeOrder, ClientReferenceID: "quickstart-001",
	})
	if err != nil {
		return err
	}
	fmt.Printf("   payout %s: %s, %s %s -> %s %s\n", payout.ID, payout.Status,
		payout.SendingAmount, payout.Asset, payout.ReceivingAmount, payout.Fiat)
	if !payout.SendingAmount.Equal(quote.SendingAmount) || !payout.ReceivingAmount.Equal(quote.ReceivingAmount) {
		return fmt.Errorf("payout amounts %s/%s differ from the quotation's %s/%s",
			payout.SendingAmount, payout.ReceivingAmount, quote.SendingAmount, quote.ReceivingAmount)
	}
	fmt.Println("   amounts equal the quotation's")

	step(13, "the same quotation again, under another reference: refused, never paid twice")
	_, err = client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: quote.ID, CustomerID: customer.ID, ClientReferenceID: "quickstart-002",
	})
	if !errors.Is(err, fiatramp.ErrQuotationAlreadyLinked) {
		return fmt.Errorf("a second payout of quotation %s was not refused as already linked: %v", quote.ID, err)
	}
	fmt.Printf("   refused: %v (%s)\n", err, strings.Join(fiatramp.SentinelNames(err), ", "))

	step(14, "link the exchange transfer that sent the USDT")
	link, err := client.Payouts.LinkTransfer(ctx, types.LinkTransferRequest{
		ExchangeOrderID: exchangeOrder, ExchangeTransferID: "770011223344",
	})
	if err != nil {
		return err
	}
	fmt.Printf("   order %s -> transfer %s\n", link.ExchangeOrderID, link.ExchangeTransferID)

	step(15, "payout simulation (sandbox): the bank pays")
	if _, err := client.Payouts.SimulateStatus(ctx, payout.ID, types.PayoutSuccess); err != nil {
		return err
	}
	if err := await(ctx, events, webhook.TypePayout, payout.ID.String()); err != nil {
		return err
	}

	step(16, "fetch the payout")
	fetched, err := client.Payouts.Get(ctx, payout.ID)
	if err != nil {
		return err
	}
	fmt.Printf("   payout %s: %s, utr %s, transfer %s\n", fetched.ID, fetched.Status, deref(fetched.UTR), fetched.ExchangeTransferID)

	step(17, "payout history of the customer, today")
	today := sb.Now().UTC()
	n := 0
	for p, err := range client.Payouts.All(ctx, types.PayoutListFilter{CustomerID: customer.ID, StartDate: today, EndDate: today}) {
		if err != nil {
			return err
		}
		n++
		fmt.Printf("   %s %s %s %s -> %s %s, ref %s, utr %s\n", p.ID, p.Status, p.SendingAmount, p.Asset,
			p.ReceivingAmount, p.Fiat, deref(p.ClientReferenceID), deref(p.UTR))
	}
	fmt.Printf("   %d payout(s)\n", n)

	step(18, "what the payout used")
	after, err := client.Payouts.GetLimits(ctx, customer.ID)
	if err != nil {
		return err
	}
	fmt.Printf("   payout limit available %s INR (was %s)\n", orDash(after.AvailableLimit), orDash(limits.AvailableLimit))
	q, err := client.Payouts.GetQuotation(ctx, quote.ID)
	if err != nil {
		return err
	}
	fmt.Printf("   quotation %s: %s\n", q.ID, q.Status)

	fmt.Println("\nDone. `go run ./examples/onboarding` shows a failed KYC check and its update.")
	fmt.Println("Set FIATRAMP_API_KEY, FIATRAMP_API_SECRET and FIATRAMP_BASE_URL to run against a service;")
	fmt.Println("`go run ./cmd/fiatramp sandbox` serves this sandbox to programs in any language.")
	return nil
}

// await waits for the webhook of type typ about id, printing each event
// that arrives until then.
func await(ctx context.Context, events <-chan *webhook.Event, typ webhook.Type, id string) error {
	for {
		select {
		case ev := <-events:
			line := fmt.Sprintf("   webhook: %s %s %s", ev.Type, ev.ID, ev.Event)
			if ev.Metadata.UTR != nil {
				line += ", utr " + *ev.Metadata.UTR
			}
			if ev.Metadata.FailureReason != nil {
				line += ", failure " + *ev.Metadata.FailureReason
			}
			fmt.Println(line + " (signature verified)")
			if ev.Type == typ && ev.ID == id {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("no %s webhook for %s arrived: %w", typ, id, ctx.Err())
		}
	}
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

// orDash returns *d as text, or "-" for nil.
func orDash(d *decimal.Decimal) string {
	if d == nil {
		return "-"
	}
	return d.String()
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
