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
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// The benchmarks in this file compare the configuration, rate, limits and
// EDD calls with a hand-written net/http floor (signature over "{}" for a
// GET or over the canonical body, the request, and encoding/json into a
// struct with decimal fields), through an in-memory transport answering
// the same canned envelope, interleaved in chunks:
//
//	go test -run '^$' -bench 'VsFloorMemory' -benchtime 20000x .
//
// mem-ratio is the library's bytes allocated over the floor's,
// alloc-ratio its allocations over the floor's, ratio its time over the
// floor's.

// floorDo is the hand-written call: sign, send, read, decode data into out.
func floorDo(ctx context.Context, hc *http.Client, method, url string, body []byte, out any) error {
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

type floorRange struct {
	Min decimal.Decimal `json:"min"`
	Max decimal.Decimal `json:"max"`
}

type floorFiatConfiguration struct {
	SupportedAssets []string                         `json:"supported_assets"`
	CoinLimits      map[string]map[string]floorRange `json:"coin_limits"`
}

type floorRate struct {
	Asset string          `json:"asset"`
	Fiat  string          `json:"fiat"`
	Rate  decimal.Decimal `json:"rate"`
}

type floorLimits struct {
	DailyLimit          decimal.Decimal `json:"daily_limit"`
	AvailableLimit      decimal.Decimal `json:"available_limit"`
	PaymentMethodLimits struct {
		PerTransactionLimit map[string]decimal.Decimal `json:"per_transaction_limit"`
		TotalAvailableLimit map[string]decimal.Decimal `json:"total_available_limit"`
	} `json:"payment_method_limits"`
	FullLimitResetTimestamp  time.Time `json:"full_limit_reset_timestamp"`
	IsEDDRequired            bool      `json:"is_edd_required"`
	IsLimitIncreaseAvailable bool      `json:"is_limit_increase_available"`
}

type floorEDDRequest struct {
	BankStatementPasswords []string  `json:"bank_statement_passwords"`
	BankStatementURL       []string  `json:"bank_statement_url"`
	CustomerID             uuid.UUID `json:"customer_id"`
	Declaration            bool      `json:"declaration"`
	ITRReportPasswords     []string  `json:"itr_report_passwords"`
	ITRReportURL           []string  `json:"itr_report_url"`
	SourceOfIncome         string    `json:"source_of_income"`
}

type floorEDD struct {
	ID     uuid.UUID `json:"id"`
	Status string    `json:"status"`
}

// BenchmarkRenVsFloorMemory compares each configuration, rate, limits and
// EDD call with its floor.
func BenchmarkRenVsFloorMemory(b *testing.B) {
	ctx := context.Background()
	base := "http://127.0.0.1:1"
	answer := func(data string) *http.Client {
		return &http.Client{Transport: memoryTransport{[]byte(`{"status":true,"message":"ok","data":` + data + `}`)}}
	}
	cfgData := `{"inr":{"supported_assets":["usdt","usdc"],"coin_limits":{"usdt":{"imps":{"min":10,"max":5000},"upi":{"min":10,"max":1000}},` +
		`"usdc":{"imps":{"min":10,"max":5000},"upi":{"min":10,"max":1000}}}}}`
	eddReq := types.SavePayoutEDDRequest{CustomerID: customerID, SourceOfIncome: types.SourceOfIncomeSalary,
		BankStatementURLs: []string{"https://docs.example/jan.pdf"}, Declaration: true}
	cases := []struct {
		name  string
		data  string
		lib   func(c *fiatramp.Client) error
		floor func(hc *http.Client) error
	}{
		{"Payouts.Rate", `{"asset":"USDT","fiat":"INR","rate":88.5}`,
			func(c *fiatramp.Client) error {
				_, err := c.Payouts.Rate(ctx, types.RateRequest{Asset: "USDT", Fiat: "INR"})
				return err
			},
			func(hc *http.Client) error {
				return floorDo(ctx, hc, http.MethodGet, base+"/pos/api/v1/payout/fetch-rate?asset=USDT&fiat=INR", nil, new(floorRate))
			}},
		{"Payouts.Configuration", cfgData,
			func(c *fiatramp.Client) error { _, err := c.Payouts.Configuration(ctx); return err },
			func(hc *http.Client) error {
				return floorDo(ctx, hc, http.MethodGet, base+"/pos/api/v1/payout/configuration", nil, new(map[string]floorFiatConfiguration))
			}},
		{"Payouts.Limits", limitsData,
			func(c *fiatramp.Client) error { _, err := c.Payouts.Limits(ctx, customerID); return err },
			func(hc *http.Client) error {
				return floorDo(ctx, hc, http.MethodGet, base+"/ren/api/v1/payout/limits/"+customerID.String(), nil, new(floorLimits))
			}},
		{"Payouts.SaveEDD", `{"id":"83e47391-b1c2-4edd-b2f6-af91a4627389","status":"PROCESSING"}`,
			func(c *fiatramp.Client) error { _, err := c.Payouts.SaveEDD(ctx, eddReq); return err },
			func(hc *http.Client) error {
				body, err := json.Marshal(floorEDDRequest{BankStatementPasswords: []string{""}, BankStatementURL: eddReq.BankStatementURLs,
					CustomerID: customerID, Declaration: true, ITRReportPasswords: []string{}, ITRReportURL: []string{}, SourceOfIncome: "SALARY"})
				if err != nil {
					return err
				}
				return floorDo(ctx, hc, http.MethodPost, base+"/ren/api/v1/payout/edd/save", body, new(floorEDD))
			}},
	}
	for _, tc := range cases {
		hc := answer(tc.data)
		c := benchClient(b, base, hc)
		b.Run(tc.name, func(b *testing.B) {
			compareMemoryWithFloor(b, func() error { return tc.lib(c) }, func() error { return tc.floor(hc) })
		})
	}
}
