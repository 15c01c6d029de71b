package fiatramp_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// demoService answers a few routes with canned envelopes, standing in for
// the service so that the examples run. It checks that every request is
// signed over the body it carries.
func demoService() *httptest.Server {
	routes := map[string]string{
		"POST /pos/api/v1/payout/initiate":                           ok(createdPayoutData),
		"GET /pos/api/v1/payout/" + payoutID.String():                ok(fetchedPayoutData),
		"POST /pis/api/v1/payin/quotation":                           ok(payinQuotationData),
		"GET /cms/api/v1/bank/list/" + customerID.String():           bankPage(2, "null", 1, 2),
		"GET /pos/api/v1/payout/balance":                             ok(`{"available_balance":{"USDT":"1500.25"}}`),
		"POST /org/api/v1/organizations/api-webhooks":                ok(`"http://127.0.0.1:8080/webhooks/fiatramp"`),
		"GET /pis/api/v1/payin/8d1f3a52-0c4e-4b7a-9f61-2e5d7c9a0b34": ok(`{"id":"8d1f3a52-0c4e-4b7a-9f61-2e5d7c9a0b34","status":"PROCESSING"}`),
		"POST /pos/api/v1/prefunded/payout/initiate":                 fail("Insufficient prefunded balance", "BAD_REQUEST", `{}`),
		"GET /cms/api/v1/kyc/configuration/" + bankID.String():       fail("Customer not found or access denied", "BAD_REQUEST", `{}`),
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := routes[r.Method+" "+r.URL.Path]
		switch {
		case body == "":
			http.NotFound(w, r)
		case strings.Contains(body, `"status":false`):
			w.WriteHeader(http.StatusBadRequest)
		case r.Method == http.MethodPost:
			w.WriteHeader(http.StatusCreated)
		}
		_, _ = w.Write([]byte(body))
	}))
}

func ExampleNew() {
	client, err := fiatramp.New("my-api-key", "my-api-secret",
		fiatramp.WithBaseURL("https://sandbox.fiatramp.example"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(client) // the secret is never printed
	// Output: fiatramp.Client{baseURL: https://sandbox.fiatramp.example, apiKey: ****-key, apiSecret: [redacted]}
}

func ExamplePayoutsService_Create() {
	srv := demoService()
	defer srv.Close()
	client, err := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}

	payout, err := client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID:       uuid.MustParse("2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"),
		CustomerID:        uuid.MustParse("0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"),
		ExchangeOrderID:   "ord-9",
		ClientReferenceID: "ref-2026-0001",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(payout.Status, payout.SendingAmount, payout.Asset, "->", payout.ReceivingAmount, payout.Fiat)
	// Output: PROCESSING 1000.000001 USDT -> 88123.45 INR
}

func ExamplePayoutsService_Get() {
	srv := demoService()
	defer srv.Close()
	client, _ := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))

	payout, err := client.Payouts.Get(context.Background(), uuid.MustParse("3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34"))
	if err != nil {
		log.Fatal(err)
	}
	if payout.Status == types.PayoutSuccess && payout.UTR != nil {
		fmt.Println("paid, bank reference", *payout.UTR)
	}
	// Output: paid, bank reference UTR123456789
}

func ExamplePayinsService_CreateQuotation() {
	srv := demoService()
	defer srv.Close()
	client, _ := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))

	q, err := client.Payins.CreateQuotation(context.Background(), types.CreatePayinQuotationRequest{
		Asset:         "USDT", // sent as "usdt"
		Fiat:          "INR",
		SendingAmount: decimal.RequireFromString("2500.01"), // sent as the string "2500.01"
		CustomerID:    uuid.MustParse("0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"),
		BankID:        uuid.MustParse("1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12"), // a vpa account for UPI
		PaymentMethod: types.PaymentMethodUPI,
		RiskParameters: types.RiskParameters{
			IPAddress: "203.0.113.7",
			DeviceID:  "dev-42",
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("pay to", q.DepositInstructions.AccountNumber, q.DepositInstructions.IFSC, "before", q.ExpiryTime.Format("15:04:05 MST"))
	// Output: pay to 001122334455 ABCD0001234 before 07:36:24 UTC
}

func ExampleCustomersService_BankAccounts() {
	srv := demoService()
	defer srv.Close()
	client, _ := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))

	customerID := uuid.MustParse("0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01")
	for account, err := range client.Customers.BankAccounts(context.Background(), customerID) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(account.AccountNumber, account.IFSC, account.BankAccountStatus)
	}
	// Output:
	// 001 ABCD0001 VERIFIED
	// 002 ABCD0002 VERIFIED
}

func ExampleAPIError() {
	srv := demoService()
	defer srv.Close()
	client, _ := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))

	_, err := client.Payouts.CreatePrefunded(context.Background(), types.CreatePrefundedPayoutRequest{
		QuotationID: uuid.MustParse("2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"),
		Customer: types.PrefundedCustomer{
			Sender:   types.CustomerRef{ID: uuid.MustParse("4fa03f5c-7d8e-4a99-9eb2-6b5d0c2e3f45")},
			Receiver: types.CustomerRef{ID: uuid.MustParse("0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01")},
		},
	})
	switch {
	case errors.Is(err, fiatramp.ErrInsufficientBalance):
		fmt.Println("top up the prefunded wallet, then retry")
	case errors.Is(err, fiatramp.ErrQuotationExpired):
		fmt.Println("ask for a new quotation")
	case err != nil:
		log.Fatal(err)
	}
	var apiErr *fiatramp.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Message)
	}
	// Output:
	// top up the prefunded wallet, then retry
	// 400 Insufficient prefunded balance
}

func ExampleValidationError() {
	client, _ := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL("https://sandbox.fiatramp.example"))

	_, err := client.Payins.CreateQuotation(context.Background(), types.CreatePayinQuotationRequest{
		Asset: "usdt", Fiat: "inr", SendingAmount: decimal.Zero,
	})
	var ve *fiatramp.ValidationError
	if errors.As(err, &ve) {
		fmt.Println(ve.Field, errors.Is(err, fiatramp.ErrInvalidRequest))
	}
	// Output: sending_amount true
}

func ExampleClient_Do() {
	srv := demoService()
	defer srv.Close()
	client, _ := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))

	// Fetching a payin is not typed yet; Do signs and decodes it like any
	// other call.
	var payin struct {
		Status string `json:"status"`
	}
	path := "/pis/api/v1/payin/8d1f3a52-0c4e-4b7a-9f61-2e5d7c9a0b34"
	if err := client.Do(context.Background(), http.MethodGet, path, nil, &payin); err != nil {
		log.Fatal(err)
	}
	fmt.Println(payin.Status)
	// Output: PROCESSING
}

func ExampleCanonicalizeJSON() {
	canonical, err := fiatramp.CanonicalizeJSON([]byte(`{"b": 1.50, "a": "café <&>", "c": [1E2, 10]}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(canonical))
	// Output: {"a":"caf\u00e9 <&>","b":1.5,"c":[100.0,10]}
}

func ExampleSign() {
	body, _ := fiatramp.Canonicalize(map[string]string{"payout_id": "3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34"})
	signature := fiatramp.Sign("my-api-key", "my-api-secret", 1767225600, body)
	fmt.Println(string(body))
	fmt.Println(signature)
	// Output:
	// {"payout_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34"}
	// S6rhB9M9dz8FMoLxcoYvJ89/sESTXMf9trTpA0l/ZpI=
}

func ExampleWithRetry() {
	client, err := fiatramp.New("my-api-key", "my-api-secret",
		fiatramp.WithBaseURL("https://sandbox.fiatramp.example"),
		fiatramp.WithRetry(fiatramp.RetryPolicy{
			MaxAttempts:    3,                // the first attempt and two retries
			InitialBackoff: 2 * time.Second,  // then 4 s, plus jitter
			MaxBackoff:     10 * time.Second, // also caps Retry-After
		}),
		fiatramp.WithTimeout(20*time.Second), // each attempt
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(client.BaseURL())
	// Output: https://sandbox.fiatramp.example
}

// A connection dropped after the service stored the payout: the client
// retries with the same client_reference_id, the service refuses the
// duplicate, and the call ends in an *OutcomeUnknownError that says the
// payout was probably created, never in a plain failure.
func ExampleOutcomeUnknownError() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization,
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: 10 * time.Millisecond}))
	_ = sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/pos/api/v1/payout/initiate", Count: 1})

	ctx := context.Background()
	req := types.CreatePayoutRequest{
		QuotationID:       demo.Quotations[0].ID,
		CustomerID:        demo.Customer.ID,
		ClientReferenceID: "order-1001",
	}
	_, err := client.Payouts.Create(ctx, req)
	var unknown *fiatramp.OutcomeUnknownError
	if errors.As(err, &unknown) {
		fmt.Println("outcome unknown for", unknown.ClientReferenceID, "probably created:", unknown.ProbablyCreated)
	}

	// Reconcile: repeat the very same create. It cannot pay twice.
	_, err = client.Payouts.Create(ctx, req)
	switch {
	case err == nil:
		fmt.Println("created now")
	case errors.Is(err, fiatramp.ErrClientReferenceExists), errors.Is(err, fiatramp.ErrQuotationAlreadyLinked):
		fmt.Println("created by the earlier call: do not pay again")
	case errors.Is(err, fiatramp.ErrOutcomeUnknown):
		fmt.Println("still unknown: try again later")
	default:
		fmt.Println("refused:", err)
	}
	// Output:
	// outcome unknown for order-1001 probably created: true
	// created by the earlier call: do not pay again
}

func ExamplePayoutsService_GetBalance() {
	srv := demoService()
	defer srv.Close()
	client, err := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}

	balance, err := client.Payouts.GetBalance(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(balance.AvailableBalance["USDT"], "USDT available")
	// Output: 1500.25 USDT available
}

// Without a webhook receiver, Wait polls a payout until its fiat outcome
// is decided.
func ExamplePayoutsService_Wait() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	payout, _ := client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID, CustomerID: demo.Customer.ID,
	})
	_, _ = client.Payouts.SimulateStatus(context.Background(), payout.ID, types.PayoutSuccess)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	final, err := client.Payouts.Wait(ctx, payout.ID,
		fiatramp.WithPollInterval(2*time.Second, 30*time.Second))
	if err != nil {
		log.Fatal(err) // the context ended first (the error names the last status), or a fetch failed for good
	}
	fmt.Println(final.Status, final.Status.IsFinal())
	// Output: SUCCESS true
}

// A failed payout's funds come back later, with REFUNDED: the moment to
// re-credit the user. WaitUntil(types.PayoutStatus.IsFinal) waits for it
// (here the sandbox's service refunds the payout at once).
func ExampleWaitUntil() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	payout, _ := client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID, CustomerID: demo.Customer.ID,
	})
	_, _ = client.Payouts.SimulateStatus(context.Background(), payout.ID, types.PayoutFailed)
	failed, _ := client.Payouts.Wait(context.Background(), payout.ID)
	fmt.Println(failed.Status, "final:", failed.Status.IsFinal(), "funds back:", failed.Status.FundsReturned())

	_ = sb.SetPayoutStatus(payout.ID, types.PayoutRefunded) // the service refunds it
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	final, err := client.Payouts.Wait(ctx, payout.ID, fiatramp.WaitUntil(types.PayoutStatus.IsFinal))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(final.Status, "final:", final.Status.IsFinal(), "funds back:", final.Status.FundsReturned())
	// Output:
	// FAILED final: false funds back: false
	// REFUNDED final: true funds back: true
}

func ExampleWithMaxPages() {
	// A service whose every page links to one more.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := len(r.URL.Query().Get("p")) + 1
		next := `"` + r.URL.Path + "?p=" + strings.Repeat("x", page) + `"`
		_, _ = w.Write([]byte(bankPage(1_000_000, next, page)))
	}))
	defer srv.Close()

	client, err := fiatramp.New("my-api-key", "my-api-secret",
		fiatramp.WithBaseURL(srv.URL),
		fiatramp.WithMaxPages(3), // DefaultMaxPages (10,000) unless set
	)
	if err != nil {
		log.Fatal(err)
	}
	customerID := uuid.MustParse("0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01")
	for account, err := range client.Customers.BankAccounts(context.Background(), customerID) {
		if errors.Is(err, fiatramp.ErrPagination) {
			fmt.Println("not followed past the cap")
			break
		}
		fmt.Println(account.AccountNumber)
	}
	// Output:
	// 001
	// 002
	// 003
	// not followed past the cap
}

// settledUTR is code under test in a user's program: it takes the
// fiatramp.PayoutsAPI interface rather than *fiatramp.PayoutsService, so
// that a test can hand it a fake.
func settledUTR(ctx context.Context, payouts fiatramp.PayoutsAPI, id uuid.UUID) (string, error) {
	p, err := payouts.Get(ctx, id)
	if err != nil {
		return "", err
	}
	if p.Status != types.PayoutSuccess || p.UTR == nil {
		return "", fmt.Errorf("payout %s is %s, not paid", id, p.Status)
	}
	return *p.UTR, nil
}

// fakePayouts embeds fiatramp.PayoutsAPI, so it satisfies the interface
// however many methods later versions add, and overrides only Get. A
// method it does not override calls the nil embedded interface and
// panics, which a test notices at once.
type fakePayouts struct {
	fiatramp.PayoutsAPI
	payouts map[uuid.UUID]*types.Payout
}

func (f fakePayouts) Get(_ context.Context, id uuid.UUID, _ ...fiatramp.RequestOption) (*types.Payout, error) {
	p, found := f.payouts[id]
	if !found {
		return nil, fmt.Errorf("fake: no payout %s", id)
	}
	return p, nil
}

// ExamplePayoutsAPI shows a fake PayoutsAPI in a user's test: production
// code passes client.Payouts, the test passes the fake.
func ExamplePayoutsAPI() {
	paid := uuid.MustParse("3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34")
	pending := uuid.MustParse("5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
	utr := "UTR123456789"
	fake := fakePayouts{payouts: map[uuid.UUID]*types.Payout{
		paid:    {ID: paid, Status: types.PayoutSuccess, UTR: &utr},
		pending: {ID: pending, Status: types.PayoutProcessing},
	}}

	utr, err := settledUTR(context.Background(), fake, paid)
	fmt.Println(utr, err)
	_, err = settledUTR(context.Background(), fake, pending)
	fmt.Println(err)
	// Output:
	// UTR123456789 <nil>
	// payout 5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d is PROCESSING, not paid
}

func ExampleNewFromEnv() {
	// A deployment sets these (from its secret store); the example sets
	// them itself so that it runs.
	os.Setenv(fiatramp.EnvAPIKey, "my-api-key")
	os.Setenv(fiatramp.EnvAPISecret, "my-api-secret")
	os.Setenv(fiatramp.EnvBaseURL, "https://sandbox.fiatramp.example")
	defer func() {
		for _, k := range []string{fiatramp.EnvAPIKey, fiatramp.EnvAPISecret, fiatramp.EnvBaseURL} {
			os.Unsetenv(k)
		}
	}()

	// Options given here win over the environment.
	client, err := fiatramp.NewFromEnv(fiatramp.WithTimeout(20 * time.Second))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(client.BaseURL())

	os.Unsetenv(fiatramp.EnvAPISecret)
	_, err = fiatramp.NewFromEnv()
	fmt.Println(err)
	// Output:
	// https://sandbox.fiatramp.example
	// fiatramp: FIATRAMP_API_KEY and FIATRAMP_API_SECRET must be set
}

func ExampleCaptureResponse() {
	srv := demoService()
	defer srv.Close()
	client, _ := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))

	// The response of the last attempt is kept, also when the call fails.
	var resp fiatramp.Response
	_, err := client.Payouts.CreatePrefunded(context.Background(), types.CreatePrefundedPayoutRequest{
		QuotationID: uuid.MustParse("2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"),
		Customer: types.PrefundedCustomer{
			Sender:   types.CustomerRef{ID: uuid.MustParse("6f7e8d9c-0b1a-4c2d-9e3f-4a5b6c7d8e9f")},
			Receiver: types.CustomerRef{ID: uuid.MustParse("0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01")},
		},
	}, fiatramp.CaptureResponse(&resp))
	fmt.Println(errors.Is(err, fiatramp.ErrInsufficientBalance))
	fmt.Println(resp.StatusCode, strings.Contains(string(resp.Body), `"err_code":"BAD_REQUEST"`))
	// Output:
	// true
	// 400 true
}

func ExampleWithLogger() {
	srv := demoService()
	defer srv.Close()

	// Every attempt is logged at debug level: method, path, attempt,
	// status, duration, and the error and the wait before a retry when
	// there are. The time and the duration are dropped here so that the
	// output is the same on every run.
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" {
				return slog.Attr{}
			}
			return a
		},
	}))
	client, err := fiatramp.New("my-api-key", "my-api-secret",
		fiatramp.WithBaseURL(srv.URL),
		fiatramp.WithLogger(logger),
	)
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Payouts.Get(context.Background(), uuid.MustParse("3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34"))
	if err != nil {
		log.Fatal(err)
	}
	// Output: level=DEBUG msg="fiatramp request" method=GET path=/pos/api/v1/payout/3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34 attempt=1 status=200
}

// ExamplePayoutsService_GetRate asks for the indicative rate of a payout:
// fiat per unit of asset. The quotation locks the rate a payout is made at.
func ExamplePayoutsService_GetRate() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The query is not signed: a GET signs "{}".
		fmt.Println(r.Method, r.URL.Path+"?"+r.URL.RawQuery)
		_, _ = w.Write([]byte(ok(`{"asset":"USDT","fiat":"INR","rate":88.50}`)))
	}))
	defer srv.Close()
	client, _ := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))

	rate, err := client.Payouts.GetRate(context.Background(), types.RateRequest{Asset: "usdt", Fiat: "inr"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rate.Asset, rate.Fiat, rate.Rate)
	// Output:
	// GET /pos/api/v1/payout/fetch-rate?asset=USDT&fiat=INR
	// USDT INR 88.5
}

// exampleSandbox serves a sandbox seeded with the demo organization,
// changed by opts, and returns a client signing as it.
func exampleSandbox(opts ...sandbox.Option) (*sandbox.Sandbox, sandbox.Demo, *fiatramp.Client, func()) {
	sb := sandbox.New(opts...)
	demo, err := sb.SeedDemo()
	if err != nil {
		log.Fatal(err)
	}
	srv, err := sandbox.NewServer(sb)
	if err != nil {
		log.Fatal(err)
	}
	client, err := srv.Client(demo.Organization)
	if err != nil {
		log.Fatal(err)
	}
	return sb, demo, client, func() { _ = srv.Close() }
}

// ExamplePayoutsService_GetConfiguration reads what payouts support in INR:
// the answer is keyed by fiat (or flat, from an older deployment), and
// Fiat and Limits read either.
func ExamplePayoutsService_GetConfiguration() {
	_, _, client, done := exampleSandbox()
	defer done()

	cfg, err := client.Payouts.GetConfiguration(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	inr, ok := cfg.Fiat("INR")
	fmt.Println(ok, inr.SupportedAssets)
	imps, _ := inr.Limits("USDT", "IMPS")
	fmt.Println("USDT by IMPS:", imps.Min, "to", imps.Max)
	// Output:
	// true [usdc usdt]
	// USDT by IMPS: 10 to 5000
}

// ExamplePayinsService_GetConfiguration reads what payins support: the
// sandbox shows the crypto a payin quotation of its smallest and largest
// fiat amount delivers.
func ExamplePayinsService_GetConfiguration() {
	_, _, client, done := exampleSandbox()
	defer done()

	cfg, err := client.Payins.GetConfiguration(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	inr, _ := cfg.Fiat("inr")
	upi, _ := inr.Limits("usdc", "upi")
	fmt.Println("USDC by UPI:", upi.Min, "to", upi.Max)
	// Output: USDC by UPI: 27.946832 to 1117.873303
}

// ExamplePayinsService_GetRate asks for the indicative rate of a payin.
func ExamplePayinsService_GetRate() {
	_, _, client, done := exampleSandbox()
	defer done()

	rate, err := client.Payins.GetRate(context.Background(), types.RateRequest{Asset: "USDT", Fiat: "INR"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rate.Asset, rate.Fiat, rate.Rate)
	// Output: USDT INR 88.5
}

// ExamplePayoutsService_GetLimits checks what a customer may still be paid
// today before quoting a payout.
func ExamplePayoutsService_GetLimits() {
	_, demo, client, done := exampleSandbox()
	defer done()

	limits, err := client.Payouts.GetLimits(context.Background(), demo.Customer.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("available:", limits.AvailableLimit, "of", limits.DailyLimit)
	fmt.Println("EDD required:", limits.IsEDDRequired)
	// Output:
	// available: 10000000 of 10000000
	// EDD required: false
}

// ExamplePayinsService_GetLimits checks a customer's payin limits per method.
func ExamplePayinsService_GetLimits() {
	_, demo, client, done := exampleSandbox()
	defer done()

	limits, err := client.Payins.GetLimits(context.Background(), demo.Customer.ID)
	if err != nil {
		log.Fatal(err)
	}
	pm := limits.PaymentMethodLimits
	fmt.Println("UPI:", pm.PerTransactionLimit["UPI"], "a payment,", pm.TotalAvailableLimit["UPI"], "left today")
	// Output: UPI: 100000 a payment, 1000000 left today
}

// ExamplePayoutsService_SaveEDD: a customer beyond the daily payout limit
// is refused "EDD required"; an EDD, once verified, lifts the limit.
func ExamplePayoutsService_SaveEDD() {
	sb, demo, client, done := exampleSandbox(func(st *sandbox.Settings) {
		st.PayoutLimits = sandbox.DailyLimits{Daily: decimal.NewFromInt(1000)} // INR 1,000 a day
	})
	defer done()
	ctx := context.Background()

	q, _ := sb.AddQuotation(sandbox.Quotation{CustomerID: demo.Customer.ID, SendingAmount: decimal.NewFromInt(20)}) // INR 1,770
	_, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: demo.Customer.ID})
	fmt.Println(errors.Is(err, fiatramp.ErrEDDRequired))

	edd, err := client.Payouts.SaveEDD(ctx, types.SavePayoutEDDRequest{
		CustomerID:        demo.Customer.ID,
		SourceOfIncome:    types.SourceOfIncomeSalary,
		BankStatementURLs: []string{"https://files.example/statement-2026-01.pdf"},
		Declaration:       true,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(edd.Status)

	// The review is the service's; the sandbox's is SetEDDStatus.
	if err := sb.SetEDDStatus(edd.ID, types.EDDVerified); err != nil {
		log.Fatal(err)
	}
	payout, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: demo.Customer.ID})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(payout.Status)
	// Output:
	// true
	// PROCESSING
	// PROCESSING
}

// ExamplePayinsService_SaveEDD saves a payin EDD, which, once verified,
// lifts the customer's payout limits too.
func ExamplePayinsService_SaveEDD() {
	sb, demo, client, done := exampleSandbox()
	defer done()
	_ = sb.SetCustomerFlags(demo.Customer.ID, sandbox.CustomerFlags{EDDRequired: true})

	edd, err := client.Payins.SaveEDD(context.Background(), types.SavePayinEDDRequest{
		CustomerID:               demo.Customer.ID,
		SourceOfIncome:           types.SourceOfIncomeBusiness,
		ITRReportURLs:            []string{"https://files.example/itr-2025.pdf"},
		Declaration:              true,
		Purpose:                  "Investment",
		SupportingPurposeDocURLs: []string{"https://files.example/purpose.pdf"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(edd.Status)
	// Output: PROCESSING
}

func ExamplePayoutsService_CreateQuotation() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	ctx := context.Background()

	quote, err := client.Payouts.CreateQuotation(ctx, types.CreatePayoutQuotationRequest{
		Asset: "USDT", Fiat: "INR", SendingAmount: decimal.RequireFromString("10.5"),
		CustomerID: demo.Customer.ID, BankID: demo.BankAccount.ID,
		RiskParameters: types.RiskParameters{IPAddress: "203.0.113.9"},
	})
	if err != nil {
		log.Fatal(err) // e.g. errors.Is(err, fiatramp.ErrCustomerUnverified)
	}
	fmt.Println(quote.SendingAmount, quote.Asset, "->", quote.ReceivingAmount, quote.Fiat, "valid for", quote.ExpiryTime.Sub(quote.CreatedAt))

	payout, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: quote.ID, CustomerID: demo.Customer.ID, ExchangeOrderID: "EXO-2026-0001",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(payout.Status, payout.ReceivingAmount.Equal(quote.ReceivingAmount))
	// Output:
	// 10.5 USDT -> 918.29 INR valid for 5m0s
	// PROCESSING true
}

func ExamplePayoutsService_GetQuotation() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	ctx := context.Background()

	quote, _ := client.Payouts.CreateQuotation(ctx, types.CreatePayoutQuotationRequest{
		Asset: "usdt", Fiat: "inr", SendingAmount: decimal.NewFromInt(20),
		CustomerID: demo.Customer.ID, BankID: demo.BankAccount.ID,
	})
	before, err := client.Payouts.GetQuotation(ctx, quote.ID)
	if err != nil {
		log.Fatal(err)
	}
	_, _ = client.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: quote.ID, CustomerID: demo.Customer.ID})
	after, _ := client.Payouts.GetQuotation(ctx, quote.ID)
	fmt.Println(before.Status, "->", after.Status)
	// Output: UNLINKED -> LINKED
}

func ExamplePayoutsService_LinkTransfer() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	ctx := context.Background()
	payout, _ := client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID, CustomerID: demo.Customer.ID, ExchangeOrderID: "EXO-2026-0002",
	})

	link, err := client.Payouts.LinkTransfer(ctx, types.LinkTransferRequest{
		ExchangeOrderID: "EXO-2026-0002", ExchangeTransferID: "770011223344",
	})
	if err != nil {
		log.Fatal(err)
	}
	fetched, _ := client.Payouts.Get(ctx, payout.ID)
	fmt.Println(link.ExchangeOrderID, link.ExchangeTransferID, fetched.ExchangeTransferID)
	// Output: EXO-2026-0002 770011223344 770011223344
}

func ExamplePayoutsService_All() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	ctx := context.Background()
	for i, q := range demo.Quotations[:2] {
		_, _ = client.Payouts.Create(ctx, types.CreatePayoutRequest{
			QuotationID: q.ID, CustomerID: demo.Customer.ID, ClientReferenceID: fmt.Sprintf("ref-%d", i),
		})
	}

	// Every payout of the customer, page after page, one page in memory.
	today := sb.Now().UTC()
	filter := types.PayoutListFilter{CustomerID: demo.Customer.ID, StartDate: today, EndDate: today}
	for payout, err := range client.Payouts.All(ctx, filter) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(*payout.ClientReferenceID, payout.Status)
	}
	// A range with one end is refused before sending.
	_, err := client.Payouts.List(ctx, types.PayoutListFilter{StartDate: today})
	fmt.Println(errors.Is(err, fiatramp.ErrInvalidRequest))
	// Output:
	// ref-0 PROCESSING
	// ref-1 PROCESSING
	// true
}

// The organization's webhook URL: every event from now on goes there.
func ExampleOrganizationService_SetWebhookURL() {
	srv := demoService()
	defer srv.Close()
	client, _ := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))

	registered, err := client.Organization.SetWebhookURL(context.Background(), "http://127.0.0.1:8080/webhooks/fiatramp")
	if err != nil {
		log.Fatal(err) // what is not a URL at all is refused before sending
	}
	fmt.Println(registered)
	// Output: http://127.0.0.1:8080/webhooks/fiatramp
}

// A verified customer's bank account starts PROCESSING; the BANK webhook
// (or a fetch) tells when it is VERIFIED. In the sandbox, the simulation
// decides.
func ExampleCustomersService_AddBankAccount() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	ctx := context.Background()

	bank, err := client.Customers.AddBankAccount(ctx, types.AddBankAccountRequest{
		CustomerID:    demo.Customer.ID,
		AccountNumber: "50100123456789", IFSC: "HDFC0001234", AccountName: "Asha Rao",
	})
	if err != nil {
		// "already in use" after a retry: list the customer's accounts
		// (BankAccounts); the one with this number is the one added.
		log.Fatal(err)
	}
	fmt.Println(bank.BankAccountType, bank.BankAccountStatus)

	_, _ = client.Customers.SimulateBankVerification(ctx, demo.Customer.ID, bank.ID, types.BankAccountVerified)
	fetched, _ := client.Customers.GetBankAccount(ctx, demo.Customer.ID, bank.ID)
	fmt.Println(fetched.BankAccountStatus, fetched.IFSC, fetched.HolderName())
	// Output:
	// bank_account PROCESSING
	// VERIFIED HDFC0001234 Asha Rao
}

// Once the customer has paid the quoted amount, Initiate records the payin
// by the bank transfer's UTR.
func ExamplePayinsService_Initiate() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	ctx := context.Background()

	q, err := client.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{
		Asset: "USDT", Fiat: "INR", SendingAmount: decimal.RequireFromString("2600.50"),
		CustomerID: demo.Customer.ID, BankID: demo.VPA.ID, PaymentMethod: types.PaymentMethodUPI,
	})
	if err != nil {
		log.Fatal(err)
	}
	// ... the customer pays q.SendingAmount, reads the UTR off the transfer ...
	payin, err := client.Payins.Initiate(ctx, types.InitiatePayinRequest{
		QuotationID: q.ID, CustomerID: demo.Customer.ID, UTR: "412345678901", ClientReferenceID: "order-2001",
	})
	var unknown *fiatramp.OutcomeUnknownError
	switch {
	case errors.As(err, &unknown):
		// The payin may exist: look for the UTR in the customer's history
		// (Payins.All), or repeat the same call, which cannot record twice.
		log.Fatal(err)
	case err != nil:
		log.Fatal(err)
	}
	fmt.Println(payin.Status, payin.UTR, payin.ID != q.ID)
	// Output: PROCESSING 412345678901 true
}

// Get follows a payin by its own id; SimulateStatus moves it in the
// sandbox, and LinkTransfer stores the exchange transfer that delivered
// its asset.
func ExamplePayinsService_Get() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	ctx := context.Background()
	q, _ := client.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{
		Asset: "USDT", Fiat: "INR", SendingAmount: decimal.RequireFromString("2600.50"),
		CustomerID: demo.Customer.ID, BankID: demo.VPA.ID, PaymentMethod: types.PaymentMethodUPI,
	})
	payin, _ := client.Payins.Initiate(ctx, types.InitiatePayinRequest{QuotationID: q.ID, CustomerID: demo.Customer.ID, UTR: "412345678902"})

	_, _ = client.Payins.SimulateStatus(ctx, payin.ID, types.PayinFailed)
	_, _ = client.Payins.SimulateStatus(ctx, payin.ID, types.PayinRefundInitiated)
	_, _ = client.Payins.LinkTransfer(ctx, types.LinkPayinTransferRequest{PayinID: payin.ID, ExchangeTransferID: "778899"})

	got, err := client.Payins.Get(ctx, payin.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Status, got.FailureReason, got.RefundReason, got.ExchangeTransferID)
	// Output: REFUND_INITIATED PAYMENT_NOT_RECEIVED INCORRECT_AMOUNT 778899
}

// All walks every page of the payin history, filtered; memory stays
// bounded by one page.
func ExamplePayinsService_All() {
	sb := sandbox.New(func(s *sandbox.Settings) { s.PageSize = 2 })
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	ctx := context.Background()
	for _, utr := range []string{"412345678903", "412345678904", "412345678905"} {
		q, _ := client.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{
			Asset: "USDT", Fiat: "INR", SendingAmount: decimal.RequireFromString("2600.50"),
			CustomerID: demo.Customer.ID, BankID: demo.VPA.ID, PaymentMethod: types.PaymentMethodUPI,
		})
		_, _ = client.Payins.Initiate(ctx, types.InitiatePayinRequest{QuotationID: q.ID, CustomerID: demo.Customer.ID, UTR: utr})
	}

	for p, err := range client.Payins.All(ctx, types.PayinListFilter{CustomerID: demo.Customer.ID}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(p.UTR, p.Status)
	}
	// Output:
	// 412345678903 PROCESSING
	// 412345678904 PROCESSING
	// 412345678905 PROCESSING
}

func ExampleCustomersService_Create() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	ctx := context.Background()

	customer, err := client.Customers.Create(ctx, types.CreateCustomerRequest{
		FullName: "Ravi Kumar", Email: "ravi@example.com", Phone: "+919800000009", Alpha3CountryCode: "IND",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(customer.Status)

	// The same e-mail again is refused by the service.
	_, err = client.Customers.Create(ctx, types.CreateCustomerRequest{
		FullName: "Ravi K", Email: "ravi@example.com", Phone: "+919800000010", Alpha3CountryCode: "IND",
	})
	var apiErr *fiatramp.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Message)
	}

	// An e-mail without "@" is refused before sending, naming the field.
	_, err = client.Customers.Create(ctx, types.CreateCustomerRequest{
		FullName: "Ravi K", Email: "ravi.example.com", Phone: "+919800000010", Alpha3CountryCode: "IND",
	})
	var bad *fiatramp.ValidationError
	if errors.As(err, &bad) {
		fmt.Println(bad.Field)
	}
	// Output:
	// UNVERIFIED
	// Email already in use
	// email
}

func ExampleCustomersService_All() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)

	// The zero filter lists every customer; From and To (DD-MM-YYYY) keep
	// the days asked for.
	n := 0
	for _, err := range client.Customers.All(context.Background(), types.CustomerListFilter{}) {
		if err != nil {
			log.Fatal(err)
		}
		n++
	}
	fmt.Println(n, "customers")
	// Output: 3 customers
}

func ExampleKYCService_AddData() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)
	ctx := context.Background()

	customer, err := client.Customers.Create(ctx, types.CreateCustomerRequest{
		FullName: "Ravi Kumar", Email: "ravi@example.com", Phone: "+919800000009", Alpha3CountryCode: "IND",
	})
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := client.KYC.GetConfiguration(ctx, customer.ID)
	if err != nil {
		log.Fatal(err)
	}
	req := types.AddKYCDataRequest{
		CustomerID: customer.ID, FullName: "Ravi Kumar", Phone: "+919800000009", FullAddress: "12 MG Road, Pune",
		DOB: "31-01-1990", TaxNumber: "ABCDE1234F", DocumentType: "PASSPORT",
		DocumentFrontImageURL: "https://img.example/front.png",
		DocumentDetails:       types.DocumentDetails{DocumentNumber: "P1234567"},
		AdditionalInfo:        map[string]string{"income_range": "5-10L"},
	}
	// Checked against the configuration's rules before sending.
	_, err = client.KYC.AddData(ctx, req, fiatramp.CheckKYCRules(cfg))
	fmt.Println(err)

	req.AdditionalInfo["profession"] = "engineer"
	res, err := client.KYC.AddData(ctx, req, fiatramp.CheckKYCRules(cfg))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status)

	// The sandbox's KYC simulation fails the tax check; the tax update is
	// the recovery.
	if _, err := client.KYC.SimulateStatus(ctx, customer.ID, types.KYCTaxVerificationFailed); err != nil {
		log.Fatal(err)
	}
	got, _ := client.Customers.Get(ctx, customer.ID)
	fmt.Println(got.Status, got.FailureReason, got.FailureReason.IsRecoverable())
	res, err = client.KYC.UpdateTaxInfo(ctx, types.UpdateTaxInfoRequest{CustomerID: customer.ID, TaxNumber: "ABCDE1235F"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status)
	// Output:
	// fiatramp: invalid request: additional_info.profession: additional_info: "profession" is missing (rule required)
	// PROCESSING
	// FAILED TAX_VERIFICATION_FAILED true
	// UNVERIFIED
}

func ExampleKYCConfiguration_CheckAdditionalInfo() {
	var cfg types.KYCConfiguration
	_ = cfg.UnmarshalJSON([]byte(`{"supported_document_types":["PASSPORT"],
		"additional_info_required":{"options":["income_range","profession"],"rules":{"type":"anyOf","min_required":1}}}`))
	fmt.Println(cfg.CheckAdditionalInfo(map[string]string{}))
	fmt.Println(cfg.CheckAdditionalInfo(map[string]string{"profession": "engineer"}))
	// Output:
	// additional_info: 0 of the options given, the rule anyOf needs 1: "income_range" is missing
	// <nil>
}

// The hosted KYC link: send the customer to the link; they complete KYC
// there and come back to the redirect URL, and a CUSTOMER webhook says how
// it ended. The sandbox's link opens its own page, where a tester approves
// or declines the customer.
func ExampleKYCService_GenerateLink() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)

	link, err := client.KYC.GenerateLink(context.Background(), types.KYCLinkRequest{
		CustomerID:  demo.PendingCustomer.ID,
		RedirectURL: "https://shop.example/kyc-done",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(link.CustomerID == demo.PendingCustomer.ID)
	fmt.Println(strings.HasPrefix(link.URL, client.BaseURL()+sandbox.HostedPrefix+"kyc/"))

	// A redirect URL that is not an absolute http(s) URL is refused
	// before sending.
	_, err = client.KYC.GenerateLink(context.Background(), types.KYCLinkRequest{
		CustomerID: demo.PendingCustomer.ID, RedirectURL: "/kyc-done",
	})
	fmt.Println(err)
	// Output:
	// true
	// true
	// fiatramp: invalid request: redirect_url: must be an absolute http or https URL, got "/kyc-done"
}

// The hosted widget: a session for one buy order, whose link carries a
// token valid 30 minutes. The sandbox's link opens its own page, where a
// tester completes or abandons the order.
func ExampleWidgetService_Initialize() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization)

	w, err := client.Widget.Initialize(context.Background(), types.WidgetRequest{
		AssetCode:     "USDT",
		FiatAmount:    decimal.RequireFromString("2600.50"), // sent as "2600.50"
		FiatCurrency:  "INR",
		FlowType:      types.WidgetFlowBuy,
		NetworkCode:   "TRON",
		PaymentMethod: types.PaymentMethodUPI,
		WalletAddress: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.HasPrefix(w.WidgetLink, client.BaseURL()+sandbox.HostedPrefix+"widget/"))
	session := sb.WidgetSessions(demo.Organization.ID)[0]
	fmt.Println(session.State, session.ExpiresAt.Sub(session.CreatedAt))
	// Output:
	// true
	// OPEN 30m0s
}

// A fake returns a refusal built from the fields a test cares about; it
// matches its sentinels as the same answer from the service would.
func ExampleAPIError_fake() {
	rateLimited := &fiatramp.APIError{StatusCode: 429}
	unverified := &fiatramp.APIError{StatusCode: 400, Message: "Customer is unverified"}

	fmt.Println(errors.Is(rateLimited, fiatramp.ErrRateLimited))
	fmt.Println(errors.Is(fmt.Errorf("quote: %w", unverified), fiatramp.ErrCustomerUnverified))
	fmt.Println(errors.Is(&fiatramp.APIError{}, fiatramp.ErrInternal))
	// Output:
	// true
	// true
	// false
}

// SentinelNames labels a failure for a log line or a metric.
func ExampleSentinelNames() {
	err := fmt.Errorf("payout order-1001: %w", &fiatramp.APIError{StatusCode: 401, Code: "AUTH_TIMESTAMP_EXPIRED"})
	fmt.Println(fiatramp.SentinelNames(err))
	fmt.Println(fiatramp.SentinelNames(context.DeadlineExceeded) == nil)
	// Output:
	// [ErrUnauthorized ErrClockSkew]
	// true
}
