// Command quickstart is a first look at fiatramp-go.
//
// With FIATRAMP_API_KEY, FIATRAMP_API_SECRET and FIATRAMP_BASE_URL set it
// talks to that service: it fetches the KYC configuration and every bank
// account of FIATRAMP_CUSTOMER_ID, and the payout FIATRAMP_PAYOUT_ID, when
// those are set. Without them it runs offline: it shows the exact bytes a
// payin quotation request is signed over and sent as, its signature headers,
// and a bad request refused before anything leaves the process.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	if os.Getenv(fiatramp.EnvAPIKey) == "" {
		return offline(ctx)
	}
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
			fmt.Printf("bank account %s: %s %s (%s, %s)\n", account.ID, account.AccountNumber, account.IFSC, account.BankAccountType, account.BankAccountStatus)
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

func offline(ctx context.Context) error {
	fmt.Println("No FIATRAMP_API_KEY set: running offline, nothing is sent.")
	fmt.Println()

	req := types.CreatePayinQuotationRequest{
		Asset:         "USDT",
		Fiat:          "INR",
		SendingAmount: decimal.RequireFromString("2500.50"),
		CustomerID:    uuid.MustParse("0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"),
		BankID:        uuid.MustParse("1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12"),
		PaymentMethod: types.PaymentMethodUPI,
		RiskParameters: types.RiskParameters{
			IPAddress: "203.0.113.7",
			DeviceID:  "device-42",
		},
	}
	body, err := fiatramp.Canonicalize(req)
	if err != nil {
		return err
	}
	ts := time.Now().Unix()
	fmt.Println("1. A payin quotation request, as the exact bytes signed and sent")
	fmt.Println("   (keys sorted, no spaces, asset and fiat lower case, amount a decimal string):")
	fmt.Printf("   POST /pis/api/v1/payin/quotation\n   %s\n\n", body)
	fmt.Println("2. Its authentication headers (demo key and secret):")
	fmt.Println("   X-API-KEY:   demo-key")
	fmt.Println("   X-TIMESTAMP:", strconv.FormatInt(ts, 10))
	fmt.Println("   X-SIGNATURE:", fiatramp.Sign("demo-key", "demo-secret", ts, body))
	fmt.Println()

	client, err := fiatramp.New("demo-key", "demo-secret", fiatramp.WithBaseURL("https://fiatramp.invalid"))
	if err != nil {
		return err
	}
	req.SendingAmount = decimal.Zero
	_, err = client.Payins.CreateQuotation(ctx, req)
	var ve *fiatramp.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("expected a validation error, got %v", err)
	}
	fmt.Println("3. A bad request is refused before anything is sent:")
	fmt.Printf("   field %q: %v\n\n", ve.Field, err)
	fmt.Println("Set FIATRAMP_API_KEY, FIATRAMP_API_SECRET and FIATRAMP_BASE_URL (and optionally")
	fmt.Println("FIATRAMP_CUSTOMER_ID, FIATRAMP_PAYOUT_ID) to run it against a service.")
	return nil
}
