package fiatrampotel_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	fiatramp "github.com/fiatramp/fiatramp-go"
	fiatrampotel "github.com/fiatramp/fiatramp-go/otel"
)

func ExampleNewObserver() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"status":true,"message":"ok","data":{"available_balance":{"USDT":"10"}}}`))
	}))
	defer srv.Close()

	// In production: your SDK's TracerProvider and MeterProvider, or none
	// for the global ones.
	spans := tracetest.NewSpanRecorder()
	obs, err := fiatrampotel.NewObserver(
		fiatrampotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))))
	if err != nil {
		log.Fatal(err)
	}
	client, err := fiatramp.New("my-api-key", "my-api-secret",
		fiatramp.WithBaseURL(srv.URL), fiatramp.WithObserver(obs))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Payouts.GetBalance(context.Background()); err != nil {
		log.Fatal(err)
	}
	for _, s := range spans.Ended() {
		fmt.Println(s.SpanKind(), s.Name())
	}
	// Output:
	// client GET /pos/api/v1/payout/balance
	// internal Payouts.GetBalance
}

// serviceStandIn answers every request with an account balance, in place
// of the service.
type serviceStandIn struct{}

func (serviceStandIn) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Request: r, Header: http.Header{},
		Body: io.NopCloser(strings.NewReader(`{"status":true,"message":"ok","data":{"available_balance":{"USDT":"10"}}}`))}, nil
}

// The attempt span carries the HTTP client attributes of the semantic
// conventions; server.port is the scheme's default when the base address
// names no port.
func ExampleNewObserver_attributes() {
	spans := tracetest.NewSpanRecorder()
	obs, err := fiatrampotel.NewObserver(
		fiatrampotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))))
	if err != nil {
		log.Fatal(err)
	}
	client, err := fiatramp.New("my-api-key", "my-api-secret",
		fiatramp.WithBaseURL("https://api.fiatramp.test"),
		fiatramp.WithHTTPClient(&http.Client{Transport: serviceStandIn{}}),
		fiatramp.WithObserver(obs))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Payouts.GetBalance(context.Background()); err != nil {
		log.Fatal(err)
	}
	attempt := spans.Ended()[0]
	for _, kv := range attempt.Attributes() {
		fmt.Printf("%s=%s\n", kv.Key, kv.Value.Emit())
	}
	// Unordered output:
	// fiatramp.operation=Payouts.GetBalance
	// http.request.method=GET
	// url.template=/pos/api/v1/payout/balance
	// server.address=api.fiatramp.test
	// server.port=443
	// url.scheme=https
	// http.response.status_code=200
}
