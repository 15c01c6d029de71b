package fiatramp

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// benchBody is a typical payin-quotation body as a caller would hand it
// over: keys not sorted, amount as a string.
var benchBody = []byte(`{"sending_amount":"1500.75","asset":"usdt","fiat":"inr",` +
	`"risk_parameters":{"suspicious_activity_report":false,"ip_address":"203.0.113.42",` +
	`"law_enforcement_agency_report":false,"device_id":"3f6c2a9e-8b1d-4c7e-9a05-d2e4b7f10c33"},` +
	`"customer_id":"5b0f8a2c-1d3e-4f6a-9b7c-8e2d1f0a3b4c","bank_id":"a1b2c3d4-e5f6-4789-abcd-ef0123456789",` +
	`"payment_method":"UPI"}`)

const (
	benchKey    = "fr_live_9f8e7d6c5b4a"
	benchSecret = "sk_live_5a4b3c2d1e0f9a8b7c6d5e4f"
	benchTS     = int64(1741419084)
)

// naiveCanonicalSign is the obvious way to do it: decode into any, encode
// with sorted map keys and without HTML escaping, escape non-ASCII, then
// crypto/hmac. It is only a baseline (its number formatting is Go's, not
// Python's).
func naiveCanonicalSign(body []byte) (string, error) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	encoded := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	var out bytes.Buffer
	for _, r := range string(encoded) {
		switch {
		case r == 0x7f:
			out.WriteString(`\u007f`)
		case r < utf8.RuneSelf:
			out.WriteByte(byte(r))
		case r >= 0x10000:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
	}
	mac := hmac.New(sha256.New, []byte(benchSecret))
	mac.Write([]byte(benchKey + "|" + strconv.FormatInt(benchTS, 10) + "|"))
	mac.Write(out.Bytes())
	return base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

func fastCanonicalSign(body []byte) (string, error) {
	canon, err := canonicalizeExact(body)
	if err != nil {
		return "", err
	}
	return Sign(benchKey, benchSecret, benchTS, canon), nil
}

func TestBenchmarkApproachesAgree(t *testing.T) {
	fast, err := fastCanonicalSign(benchBody)
	if err != nil {
		t.Fatal(err)
	}
	naive, err := naiveCanonicalSign(benchBody)
	if err != nil {
		t.Fatal(err)
	}
	if fast != naive {
		t.Fatalf("fast %s, naive %s", fast, naive)
	}
}

// BenchmarkCanonicalizeAndSign measures the request path: canonicalize a
// payin-quotation body, then sign it.
func BenchmarkCanonicalizeAndSign(b *testing.B) {
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(benchBody)))
		for i := 0; i < b.N; i++ {
			if _, err := fastCanonicalSign(benchBody); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("naive", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(benchBody)))
		for i := 0; i < b.N; i++ {
			if _, err := naiveCanonicalSign(benchBody); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkCanonicalizeJSON(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchBody)))
	for i := 0; i < b.N; i++ {
		if _, err := CanonicalizeJSON(benchBody); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSign(b *testing.B) {
	canon, err := CanonicalizeJSON(benchBody)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(canon)))
	for i := 0; i < b.N; i++ {
		Sign(benchKey, benchSecret, benchTS, canon)
	}
}
