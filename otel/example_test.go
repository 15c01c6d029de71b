package fiatrampotel_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

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
	if _, err := client.Payouts.Balance(context.Background()); err != nil {
		log.Fatal(err)
	}
	for _, s := range spans.Ended() {
		fmt.Println(s.SpanKind(), s.Name())
	}
	// Output:
	// client GET /pos/api/v1/payout/balance
	// internal Payouts.Balance
}
