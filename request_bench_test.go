package fiatramp_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// This file holds the harness of every benchmark named VsFloor, which
// measure what the library costs on top of net/http: each runs a library
// call and the hand-written net/http call doing the same work (floorSend:
// JSON body in canonical form, HMAC-SHA256 signature, the request, decode
// of the envelope into a struct with decimal fields) against the same
// canned answer, interleaved in chunks so that both see the same machine
// (compareWithFloor), for example:
//
//	go test -run '^$' -bench 'VsFloor' -benchtime 20000x .
//
// ratio is library time over floor time, mem-ratio library bytes over
// floor bytes, allocs-ratio library allocations over floor allocations;
// extra-µs/call is the difference in time per call; lib-B, floor-B,
// lib-allocs and floor-allocs are per call.

// benchPayoutData is the data of a payout create answer.
const benchPayoutData = `{"id":"6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23",` +
	`"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","client_reference_id":"ref-2025-03-08-000123",` +
	`"bank_id":"1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b","asset":"USDT","fiat":"INR","rate":"86.450000",` +
	`"sending_amount":"1250.000000","receiveing_amount":"108062.500000",` +
	`"fees":{"client_fee_fiat":"120.50","client_fee_crypto":"1.393868","acme_fee":"54.03","pg_fee":"0.00",` +
	`"client_gst_fiat":"21.69","client_gst_crypto":"0.250896","acme_gst":"9.73","pg_gst":"0.00","tds":"1080.63",` +
	`"gross_effective_exchange_rate":"85.291234"},` +
	`"exchange_order_id":"EX-88231994","exchange_transfer_id":null,"status":"PROCESSING",` +
	`"failure_reason":null,"utr":null,"created_at":"2025-03-08T07:31:24.770179Z",` +
	`"updated_at":"2025-03-08T07:31:24.770179Z"}`

var benchAnswer = []byte(`{"status":true,"message":"Payout initiated successfully","data":` + benchPayoutData + `}`)

var benchRequest = types.CreatePayoutRequest{
	QuotationID:       uuid.MustParse("2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"),
	CustomerID:        uuid.MustParse("0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"),
	ExchangeOrderID:   "EX-88231994",
	ClientReferenceID: "ref-2025-03-08-000123",
}

// floorRequest is the request body with its fields in sorted order, so that
// json.Marshal writes canonical JSON.
type floorRequest struct {
	ClientReferenceID string    `json:"client_reference_id"`
	CustomerID        uuid.UUID `json:"customer_id"`
	ExchangeOrderID   string    `json:"exchange_order_id"`
	QuotationID       uuid.UUID `json:"quotation_id"`
}

type floorFees struct {
	ClientFeeFiat   decimal.Decimal `json:"client_fee_fiat"`
	ClientFeeCrypto decimal.Decimal `json:"client_fee_crypto"`
	AcmeFee         decimal.Decimal `json:"acme_fee"`
	PGFee           decimal.Decimal `json:"pg_fee"`
	ClientGSTFiat   decimal.Decimal `json:"client_gst_fiat"`
	ClientGSTCrypto decimal.Decimal `json:"client_gst_crypto"`
	AcmeGST         decimal.Decimal `json:"acme_gst"`
	PGGST           decimal.Decimal `json:"pg_gst"`
	TDS             decimal.Decimal `json:"tds"`
	GrossRate       decimal.Decimal `json:"gross_effective_exchange_rate"`
}

type floorPayout struct {
	ID                 uuid.UUID       `json:"id"`
	QuotationID        uuid.UUID       `json:"quotation_id"`
	CustomerID         uuid.UUID       `json:"customer_id"`
	ClientReferenceID  *string         `json:"client_reference_id"`
	BankID             uuid.UUID       `json:"bank_id"`
	Asset              string          `json:"asset"`
	Fiat               string          `json:"fiat"`
	Rate               decimal.Decimal `json:"rate"`
	SendingAmount      decimal.Decimal `json:"sending_amount"`
	ReceivingAmount    decimal.Decimal `json:"receiveing_amount"`
	Fees               floorFees       `json:"fees"`
	ExchangeOrderID    *string         `json:"exchange_order_id"`
	ExchangeTransferID *string         `json:"exchange_transfer_id"`
	Status             string          `json:"status"`
	FailureReason      *string         `json:"failure_reason"`
	UTR                *string         `json:"utr"`
	CreatedAt          time.Time       `json:"created_at"`
	UpdatedAt          time.Time       `json:"updated_at"`
}

// floorSend is the hand-written call a careful caller writes with net/http
// alone, and the floor of every benchmark named VsFloor: the payload
// (nil for none, as a GET sends, which signs "{}"; bytes sent as they are;
// any other value marshalled by encoding/json, whose maps and sorted
// struct fields give canonical JSON for ASCII text) signed with
// HMAC-SHA256, sent with method to url, the answer read under the
// library's size cap, a refusal returned as an error and the envelope's
// data decoded into out.
func floorSend(ctx context.Context, hc *http.Client, method, url string, payload, out any) error {
	var body []byte
	switch p := payload.(type) {
	case nil:
	case []byte:
		body = p
	default:
		raw, err := json.Marshal(p)
		if err != nil {
			return err
		}
		body = raw
	}
	signed := body
	if signed == nil {
		signed = []byte("{}")
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
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

// floorCall is the payout create written by hand.
func floorCall(ctx context.Context, hc *http.Client, url string) error {
	var p floorPayout
	err := floorSend(ctx, hc, http.MethodPost, url, floorRequest{
		ClientReferenceID: benchRequest.ClientReferenceID, CustomerID: benchRequest.CustomerID,
		ExchangeOrderID: benchRequest.ExchangeOrderID, QuotationID: benchRequest.QuotationID,
	}, &p)
	if err == nil && p.ID == uuid.Nil {
		err = errors.New("floor: not a payout")
	}
	return err
}

// memoryTransport answers every request with body, without a network.
type memoryTransport struct{ body []byte }

func (m memoryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	return &http.Response{
		StatusCode: 200, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(m.body)),
		ContentLength: int64(len(m.body)), Request: req,
	}, nil
}

// sideCost is what some calls of one side took: wall time, bytes and
// allocations.
type sideCost struct {
	t             time.Duration
	bytes, allocs uint64
}

func (c *sideCost) add(o sideCost) {
	c.t, c.bytes, c.allocs = c.t+o.t, c.bytes+o.bytes, c.allocs+o.allocs
}

// runSide makes n calls of fn with par concurrent callers (par 1: in this
// goroutine) and returns what they took.
func runSide(b *testing.B, n, par int, fn func() error) sideCost {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	if par <= 1 {
		for range n {
			if err := fn(); err != nil {
				b.Fatal(err)
			}
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		var failed atomic.Value
		for range par {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for next.Add(1) <= int64(n) {
					if err := fn(); err != nil {
						failed.Store(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if err, _ := failed.Load().(error); err != nil {
			b.Fatal(err)
		}
	}
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return sideCost{d, after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs}
}

// compareWithFloor is the one A/B comparison of the VsFloor benchmarks:
// it runs b.N library calls and b.N floor calls with par concurrent
// callers, interleaved in chunks in alternating order (so that neither
// side always runs right after the other and pays for its garbage
// collection), and reports the library over the floor in time (ratio),
// bytes (mem-ratio) and allocations (allocs-ratio), the extra time per
// call, and each side's bytes and allocations per call.
func compareWithFloor(b *testing.B, par int, lib, floor func() error) {
	const chunk = 128
	// Warm both paths (connections, pools) before measuring.
	runSide(b, chunk, par, lib)
	runSide(b, chunk, par, floor)
	b.ResetTimer()
	var l, f sideCost
	for k, done := 0, 0; done < b.N; k, done = k+1, done+chunk {
		n := min(chunk, b.N-done)
		if k%2 == 1 {
			f.add(runSide(b, n, par, floor))
		}
		l.add(runSide(b, n, par, lib))
		if k%2 == 0 {
			f.add(runSide(b, n, par, floor))
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(l.t)/float64(f.t), "ratio")
	b.ReportMetric(float64(l.bytes)/float64(f.bytes), "mem-ratio")
	b.ReportMetric(float64(l.allocs)/float64(f.allocs), "allocs-ratio")
	b.ReportMetric(float64(l.t-f.t)/n/1e3, "extra-µs/call")
	b.ReportMetric(float64(l.bytes)/n, "lib-B/call")
	b.ReportMetric(float64(f.bytes)/n, "floor-B/call")
	b.ReportMetric(float64(l.allocs)/n, "lib-allocs/call")
	b.ReportMetric(float64(f.allocs)/n, "floor-allocs/call")
}

// compareOnLoopbackAndMemory runs compareWithFloor for one operation (one
// caller) through an in-memory transport and on loopback HTTP, both
// answering answer; floor gets the URL of path on each.
func compareOnLoopbackAndMemory(b *testing.B, answer []byte, path string,
	lib func(context.Context, *fiatramp.Client) error, floor func(context.Context, *http.Client, string) error) {
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	}))
	defer srv.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 4}
	defer tr.CloseIdleConnections()
	for _, env := range []struct {
		name, base string
		hc         *http.Client
	}{
		{"memory", "http://127.0.0.1:1", &http.Client{Transport: memoryTransport{answer}}},
		{"loopback", srv.URL, &http.Client{Transport: tr}},
	} {
		c := benchClient(b, env.base, env.hc)
		b.Run(env.name, func(b *testing.B) {
			compareWithFloor(b, 1,
				func() error { return lib(ctx, c) },
				func() error { return floor(ctx, env.hc, env.base+path) })
		})
	}
}

func benchClient(b *testing.B, base string, hc *http.Client) *fiatramp.Client {
	c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(base), fiatramp.WithHTTPClient(hc))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkCallVsFloor compares a payout create through the library with
// the hand-written floor: on loopback HTTP (a server answering a canned
// payout) and through an in-memory transport, sequentially and with 32
// concurrent callers.
func BenchmarkCallVsFloor(b *testing.B) {
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(benchAnswer)
	}))
	defer srv.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	defer tr.CloseIdleConnections()
	for _, env := range []struct {
		name string
		base string
		hc   *http.Client
	}{
		{"loopback", srv.URL, &http.Client{Transport: tr}},
		{"memory", "http://127.0.0.1:1", &http.Client{Transport: memoryTransport{benchAnswer}}},
	} {
		c := benchClient(b, env.base, env.hc)
		url := env.base + "/pos/api/v1/payout/initiate"
		lib := func() error {
			p, err := c.Payouts.Create(ctx, benchRequest)
			if err == nil && p.ID == uuid.Nil {
				err = errors.New("library: not a payout")
			}
			return err
		}
		floor := func() error { return floorCall(ctx, env.hc, url) }
		for _, par := range []int{1, 32} {
			b.Run(fmt.Sprintf("%s/x%d", env.name, par), func(b *testing.B) { compareWithFloor(b, par, lib, floor) })
		}
	}
}

// sizes are the body sizes of the decode and sign benchmarks.
var sizes = []struct {
	name string
	n    int
}{{"1KB", 1 << 10}, {"10KB", 10 << 10}, {"100KB", 100 << 10}, {"1MB", 1 << 20}}

// BenchmarkDecodeSize measures a whole call (in-memory transport) whose
// answer is a page of bank accounts of about the given size: at the larger
// sizes the time is the decoding of the answer.
func BenchmarkDecodeSize(b *testing.B) {
	item := `{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","type":"bank_account","status":"VERIFIED",` +
		`"account_number":"XXXXXXXX1234","ifsc":"HDFC0001234","vpa":null,"bank_name":"HDFC Bank \u00e9",` +
		`"created_at":"2025-03-08T07:31:24.770179Z"}`
	for _, s := range sizes {
		var page strings.Builder
		page.WriteString(`{"status":true,"message":"ok","data":{"count":1,"next":null,"previous":null,"results":[`)
		for i := 0; page.Len() < s.n-len(item)-4; i++ {
			if i > 0 {
				page.WriteByte(',')
			}
			page.WriteString(item)
		}
		page.WriteString(`]}}`)
		body := []byte(page.String())
		c := benchClient(b, "http://127.0.0.1:1", &http.Client{Transport: memoryTransport{body}})
		id := uuid.MustParse("0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01")
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for range b.N {
				if _, err := c.Customers.ListBankAccounts(context.Background(), id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// compareInMemory runs compareWithFloor (one caller) for one operation,
// both sides answered answer by an in-memory transport; floor gets the
// transport's client, whose base URL is memoryBase.
func compareInMemory(b *testing.B, answer []byte, lib func(*fiatramp.Client) error, floor func(*http.Client) error) {
	hc := &http.Client{Transport: memoryTransport{answer}}
	c := benchClient(b, memoryBase, hc)
	compareWithFloor(b, 1, func() error { return lib(c) }, func() error { return floor(hc) })
}

// memoryBase is the base URL of the in-memory benchmarks: nothing listens
// there, the transport answers.
const memoryBase = "http://127.0.0.1:1"
