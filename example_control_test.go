package fiatramp_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// flakyService answers the first failures requests with 503 and every
// later one with a fetched payout; it counts the requests.
func flakyService(failures int32, count *atomic.Int32) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1) <= failures {
			w.Header().Set("X-Request-Id", "req-5f2c")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(bodyUnavailable))
			return
		}
		_, _ = w.Write([]byte(ok(fetchedPayoutData)))
	}))
}

// attemptPrinter is an Observer that prints each attempt and each call.
type attemptPrinter struct{}

func (attemptPrinter) StartCall(ctx context.Context, _ fiatramp.CallInfo) context.Context {
	return ctx
}

func (attemptPrinter) StartAttempt(ctx context.Context, _ fiatramp.CallInfo, _ int) context.Context {
	return ctx
}

func (attemptPrinter) EndAttempt(_ context.Context, a fiatramp.AttemptInfo) {
	fmt.Printf("attempt %d %s %s: %d %s retry=%t\n", a.Attempt, a.Method, a.Route, a.StatusCode, a.ErrorClass, a.Retry)
}

func (attemptPrinter) EndCall(_ context.Context, r fiatramp.CallResult) {
	fmt.Printf("%s: %s after %d attempts\n", r.Operation, r.Outcome, r.Attempts)
}

func ExampleWithObserver() {
	var requests atomic.Int32
	srv := flakyService(1, &requests)
	defer srv.Close()

	client, err := fiatramp.New("my-api-key", "my-api-secret",
		fiatramp.WithBaseURL(srv.URL),
		fiatramp.WithObserver(attemptPrinter{}),
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: 10 * time.Millisecond}))
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Payouts.Get(context.Background(), payoutID)
	fmt.Println(err)
	// Output:
	// attempt 1 GET /pos/api/v1/payout/{payout_id}: 503 unavailable retry=true
	// attempt 2 GET /pos/api/v1/payout/{payout_id}: 200  retry=false
	// Payouts.Get: success after 2 attempts
	// <nil>
}

func ExampleWithRetryBudget() {
	var requests atomic.Int32
	srv := flakyService(1000, &requests) // an outage
	defer srv.Close()

	// Ten tokens, five a retry: two retries for the whole Client.
	client, err := fiatramp.New("my-api-key", "my-api-secret",
		fiatramp.WithBaseURL(srv.URL),
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond}),
		fiatramp.WithRetryBudget(fiatramp.RetryBudget{Capacity: 10, RetryCost: 5}))
	if err != nil {
		log.Fatal(err)
	}
	for range 3 {
		before := requests.Load()
		_, err := client.Payouts.Get(context.Background(), payoutID)
		fmt.Println(requests.Load()-before, "attempts;",
			"budget exhausted:", errors.Is(err, fiatramp.ErrRetryBudgetExhausted),
			"unavailable:", errors.Is(err, fiatramp.ErrUnavailable))
	}
	// Output:
	// 3 attempts; budget exhausted: true unavailable: true
	// 1 attempts; budget exhausted: true unavailable: true
	// 1 attempts; budget exhausted: true unavailable: true
}

// interval lets one request go per tick. golang.org/x/time/rate's
// *Limiter has the same Wait method, so rate.NewLimiter(10, 1) fits
// WithRateLimiter as well.
type interval struct{ tick <-chan time.Time }

func (l interval) Wait(ctx context.Context) error {
	select {
	case <-l.tick:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func ExampleWithRateLimiter() {
	var requests atomic.Int32
	srv := flakyService(0, &requests)
	defer srv.Close()

	ticker := time.NewTicker(5 * time.Millisecond) // at most 200 requests a second
	defer ticker.Stop()
	client, err := fiatramp.New("my-api-key", "my-api-secret",
		fiatramp.WithBaseURL(srv.URL),
		fiatramp.WithRateLimiter(interval{ticker.C}))
	if err != nil {
		log.Fatal(err)
	}
	for range 3 {
		if _, err := client.Payouts.Get(context.Background(), payoutID); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(requests.Load(), "requests, paced")
	// Output: 3 requests, paced
}

func ExampleWithCallRetry() {
	var requests atomic.Int32
	srv := flakyService(1, &requests)
	defer srv.Close()
	client, err := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}

	// This call makes one attempt, of at most two seconds.
	_, err = client.Payouts.Get(context.Background(), payoutID,
		fiatramp.WithCallRetry(fiatramp.RetryPolicy{MaxAttempts: 1}),
		fiatramp.WithCallTimeout(2*time.Second))
	var apiErr *fiatramp.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, "request id:", apiErr.RequestID)
	}
	// Output: 503 request id: req-5f2c
}

func ExampleCustomersService_ListBankAccountsPage() {
	srv := demoService()
	defer srv.Close()
	client, err := fiatramp.New("my-api-key", "my-api-secret", fiatramp.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}

	// A link kept from an earlier page's Next resumes the listing there.
	next := srv.URL + "/cms/api/v1/bank/list/" + customerID.String() + "?page=2"
	page, err := client.Customers.ListBankAccountsPage(context.Background(), customerID, next)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.Count, len(page.Results))

	// A link naming another address (what a service behind a gateway
	// writes) is followed by its path and query on the base address: the
	// request never goes to the address the link names.
	page, err = client.Customers.ListBankAccountsPage(context.Background(), customerID,
		"http://10.0.0.7:8000/cms/api/v1/bank/list/"+customerID.String()+"?page=2")
	fmt.Println(page.Count, err)

	// A link to another list is refused before anything is sent.
	_, err = client.Customers.ListBankAccountsPage(context.Background(), customerID, srv.URL+"/pos/api/v1/payout/balance")
	fmt.Println(errors.Is(err, fiatramp.ErrPagination))
	// Output:
	// 2 2
	// 2 <nil>
	// true
}
