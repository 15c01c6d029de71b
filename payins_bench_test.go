package fiatramp_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// The payin calls measured against the hand-written floor (net/http, a
// canonical body, the HMAC signature, a decode into a struct with decimal
// fields), interleaved, in time and in memory:
//
//	go test -run '^$' -bench 'PayinCallsVsFloor' -benchtime 4000x .
//
// mem-ratio is the library's bytes allocated per call over the floor's.

// floorPayin is the payin as a careful caller declares it.
type floorPayin struct {
	ID                 uuid.UUID       `json:"id"`
	QuotationID        uuid.UUID       `json:"quotation_id"`
	CustomerID         uuid.UUID       `json:"customer_id"`
	ClientReferenceID  *string         `json:"client_reference_id"`
	BankID             uuid.UUID       `json:"bank_id"`
	Asset              string          `json:"asset"`
	Fiat               string          `json:"fiat"`
	PaymentMethod      string          `json:"payment_method"`
	SendingAmount      decimal.Decimal `json:"sending_amount"`
	Rate               decimal.Decimal `json:"rate"`
	ReceivingAmount    decimal.Decimal `json:"receiving_amount"`
	ReceiveingAmount   decimal.Decimal `json:"receiveing_amount"`
	Fees               floorFees       `json:"fees"`
	UTR                string          `json:"utr"`
	ExchangeTransferID *string         `json:"exchange_transfer_id"`
	Status             string          `json:"status"`
	FailureReason      *string         `json:"failure_reason"`
	RefundReason       *string         `json:"refund_reason"`
	CreatedAt          time.Time       `json:"created_at"`
	UpdatedAt          time.Time       `json:"updated_at"`
	ExpiryTime         time.Time       `json:"expiry_time"`
}

// payinFloorSend is the floor's call: sign body (GET signs {}), send,
// read, decode the envelope's data into out.
func payinFloorSend(ctx context.Context, hc *http.Client, method, url string, body []byte, out any) error {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	signed := body
	if signed == nil {
		signed = []byte("{}")
	}
	mac := hmac.New(sha256.New, []byte(testSecret))
	mac.Write([]byte(testKey + "|" + ts + "|"))
	mac.Write(signed)
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-API-KEY", testKey)
	req.Header.Set("X-TIMESTAMP", ts)
	req.Header.Set("X-SIGNATURE", base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, fiatramp.DefaultMaxResponseBytes))
	_ = resp.Body.Close()
	if err != nil {
		return err
	}
	env := struct {
		Status bool `json:"status"`
		Data   any  `json:"data"`
	}{Data: out}
	if err := json.Unmarshal(raw, &env); err != nil {
		return err
	}
	if !env.Status {
		return errors.New("floor: refused")
	}
	return nil
}

// payinSideCost is what n calls of one side took.
type payinSideCost struct {
	t             time.Duration
	bytes, allocs uint64
}

func payinRunCost(b *testing.B, n int, fn func() error) payinSideCost {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	for range n {
		if err := fn(); err != nil {
			b.Fatal(err)
		}
	}
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return payinSideCost{d, after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs}
}

// payinVsFloor runs b.N library and b.N floor calls, interleaved in
// chunks in alternating order, and reports the time and memory ratios
// (library over floor) and each side's bytes and allocations per call.
func payinVsFloor(b *testing.B, lib, floor func() error) {
	const chunk = 128
	payinRunCost(b, chunk, lib)
	payinRunCost(b, chunk, floor)
	b.ResetTimer()
	var l, f payinSideCost
	add := func(into *payinSideCost, c payinSideCost) {
		into.t, into.bytes, into.allocs = into.t+c.t, into.bytes+c.bytes, into.allocs+c.allocs
	}
	for k, done := 0, 0; done < b.N; k, done = k+1, done+chunk {
		n := min(chunk, b.N-done)
		if k%2 == 1 {
			add(&f, payinRunCost(b, n, floor))
		}
		add(&l, payinRunCost(b, n, lib))
		if k%2 == 0 {
			add(&f, payinRunCost(b, n, floor))
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(l.t)/float64(f.t), "ratio")
	b.ReportMetric(float64(l.bytes)/float64(f.bytes), "mem-ratio")
	b.ReportMetric(float64(l.bytes)/n, "lib-B/call")
	b.ReportMetric(float64(f.bytes)/n, "floor-B/call")
	b.ReportMetric(float64(l.allocs)/n, "lib-allocs/call")
	b.ReportMetric(float64(f.allocs)/n, "floor-allocs/call")
}

// BenchmarkPayinCallsVsFloor compares Initiate, Get, ListHistory (a page
// of 10 payins), LinkTransfer and SimulateStatus with their hand-written
// floors, through an in-memory transport.
func BenchmarkPayinCallsVsFloor(b *testing.B) {
	ctx := context.Background()
	const base = "http://127.0.0.1:1"
	fetched := `{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","quotation_id":"72d36280-a0b1-4dcc-a1e5-9e80f3516278",` +
		`"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","client_reference_id":"order-7",` +
		`"bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","asset":"USDT","fiat":"INR",` +
		`"sending_amount":"2600.50","rate":"88.50","receiveing_amount":"29.085169",` +
		`"fees":{"client_fee_fiat":"0","client_fee_crypto":"0","service_fee":"26.01","pg_fee":"0","client_gst_fiat":"0",` +
		`"client_gst_crypto":"0","service_gst":"4.68","pg_gst":"0","tds":"0","gross_effective_exchange_rate":"89.4097"},` +
		`"utr":"123456789012","exchange_transfer_id":"778899","status":"SUCCESS","failure_reason":null,"refund_reason":null,` +
		`"created_at":"2025-03-08T07:32:00.000000Z","updated_at":"2025-03-08T07:40:00.000000Z"}`
	page := `{"count":10,"next":null,"previous":null,"results":[` + strings.TrimSuffix(strings.Repeat(fetched+",", 10), ",") + `]}`
	link := `{"payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","exchange_transfer_id":"778899"}`
	sim := `{"payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","payin_status":"SUCCESS"}`
	initReq := types.InitiatePayinRequest{QuotationID: payinQuotation, CustomerID: customerID, UTR: "123456789012", ClientReferenceID: "order-7"}
	for _, tc := range []struct {
		name  string
		data  string
		lib   func(c *fiatramp.Client) error
		floor func(hc *http.Client) error
	}{
		{"Initiate", payinInitiatedData,
			func(c *fiatramp.Client) error { _, err := c.Payins.Initiate(ctx, initReq); return err },
			func(hc *http.Client) error {
				body, err := json.Marshal(struct {
					ClientReferenceID string    `json:"client_reference_id"`
					CustomerID        uuid.UUID `json:"customer_id"`
					QuotationID       uuid.UUID `json:"quotation_id"`
					UTR               string    `json:"utr"`
				}{initReq.ClientReferenceID, initReq.CustomerID, initReq.QuotationID, initReq.UTR})
				if err != nil {
					return err
				}
				var p floorPayin
				return payinFloorSend(ctx, hc, http.MethodPost, base+"/pis/api/v1/payin/initiate", body, &p)
			}},
		{"Get", fetched,
			func(c *fiatramp.Client) error { _, err := c.Payins.Get(ctx, payoutID); return err },
			func(hc *http.Client) error {
				var p floorPayin
				return payinFloorSend(ctx, hc, http.MethodGet, base+"/pis/api/v1/payin/"+payoutID.String(), nil, &p)
			}},
		{"ListHistory", page,
			func(c *fiatramp.Client) error {
				_, err := c.Payins.ListHistory(ctx, types.PayinHistoryFilter{Status: types.PayinSuccess, CustomerID: customerID})
				return err
			},
			func(hc *http.Client) error {
				var p struct {
					Count    int          `json:"count"`
					Next     *string      `json:"next"`
					Previous *string      `json:"previous"`
					Results  []floorPayin `json:"results"`
				}
				return payinFloorSend(ctx, hc, http.MethodGet,
					base+"/pis/api/v1/payin/history?customer_id="+customerID.String()+"&payin_status=SUCCESS", nil, &p)
			}},
		{"LinkTransfer", link,
			func(c *fiatramp.Client) error {
				_, err := c.Payins.LinkTransfer(ctx, types.LinkPayinTransferRequest{PayinID: payoutID, ExchangeTransferID: "778899"})
				return err
			},
			func(hc *http.Client) error {
				type pair struct {
					ExchangeTransferID string    `json:"exchange_transfer_id"`
					PayinID            uuid.UUID `json:"payin_id"`
				}
				body, err := json.Marshal(pair{"778899", payoutID})
				if err != nil {
					return err
				}
				var l pair
				return payinFloorSend(ctx, hc, http.MethodPatch, base+"/pis/api/v1/payin/update-transfer-id", body, &l)
			}},
		{"SimulateStatus", sim,
			func(c *fiatramp.Client) error {
				_, err := c.Payins.SimulateStatus(ctx, payoutID, types.PayinSuccess)
				return err
			},
			func(hc *http.Client) error {
				type pair struct {
					PayinID     uuid.UUID `json:"payin_id"`
					PayinStatus string    `json:"payin_status"`
				}
				body, err := json.Marshal(pair{payoutID, "SUCCESS"})
				if err != nil {
					return err
				}
				var s pair
				return payinFloorSend(ctx, hc, http.MethodPatch, base+"/pis/api/v1/payin/mock-payin-status", body, &s)
			}},
	} {
		hc := &http.Client{Transport: memoryTransport{[]byte(ok(tc.data))}}
		c := benchClient(b, base, hc)
		b.Run(tc.name, func(b *testing.B) {
			payinVsFloor(b, func() error { return tc.lib(c) }, func() error { return tc.floor(hc) })
		})
	}
}
