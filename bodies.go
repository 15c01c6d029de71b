package fiatramp

import (
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// Each request the library sends is written here straight in its
// canonical form: members in code-point order of their keys, no white
// space, strings escaped as the service's Python json.dumps escapes them
// (non-ASCII as lowercase \uXXXX). The bytes written are the bytes signed
// and sent; TestRequestBytesGolden pins them. Optional strings are left
// out when empty.

// bodyWriter writes one canonical JSON document.
type bodyWriter struct {
	b     []byte
	first bool // no member written yet in the open object
}

func newBodyWriter(size int) *bodyWriter { return &bodyWriter{b: make([]byte, 0, size)} }

// open starts an object; key, when not "", names it inside the open one.
func (w *bodyWriter) open(key string) {
	if key != "" {
		w.key(key)
	}
	w.b = append(w.b, '{')
	w.first = true
}

// close ends the open object.
func (w *bodyWriter) close() {
	w.b = append(w.b, '}')
	w.first = false
}

// key writes a member's key (plain ASCII, in order) and its colon.
func (w *bodyWriter) key(k string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
}

func (w *bodyWriter) str(k, s string) {
	w.key(k)
	w.b = appendPyString(w.b, s)
}

// optional writes s unless it is empty.
func (w *bodyWriter) optional(k, s string) {
	if s != "" {
		w.str(k, s)
	}
}

func (w *bodyWriter) id(k string, id uuid.UUID) {
	w.key(k)
	w.b = append(w.b, '"')
	for i, x := range id {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			w.b = append(w.b, '-')
		}
		w.b = append(w.b, hexDigits[x>>4], hexDigits[x&0xf])
	}
	w.b = append(w.b, '"')
}

func (w *bodyWriter) bool(k string, v bool) {
	w.key(k)
	if v {
		w.b = append(w.b, "true"...)
	} else {
		w.b = append(w.b, "false"...)
	}
}

// exactDecimal writes d as a JSON string in plain positional notation
// with exactly its own digits: no rounding, no trimmed zeros, no exponent
// (2600.50 stays "2600.50"), whatever decimal's package-level switches say.
func (w *bodyWriter) exactDecimal(k string, d decimal.Decimal) {
	w.str(k, d.StringFixed(max(0, -d.Exponent())))
}

// appendPyString appends s as a JSON string the way Python's json.dumps
// (ensure_ascii) writes it. Each byte of invalid UTF-8 becomes U+FFFD, as
// encoding/json makes it.
func appendPyString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			b = appendEscaped(b, rune(c))
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = appendEscaped(b, r)
		i += size
	}
	return append(b, '"')
}

func createPayoutBody(r types.CreatePayoutRequest) []byte {
	w := newBodyWriter(160 + len(r.ClientReferenceID) + len(r.ExchangeOrderID))
	w.open("")
	w.optional("client_reference_id", r.ClientReferenceID)
	w.id("customer_id", r.CustomerID)
	w.optional("exchange_order_id", r.ExchangeOrderID)
	w.id("quotation_id", r.QuotationID)
	w.close()
	return w.b
}

func createPrefundedPayoutBody(r types.CreatePrefundedPayoutRequest) []byte {
	w := newBodyWriter(200 + len(r.ClientReferenceID))
	w.open("")
	w.optional("client_reference_id", r.ClientReferenceID)
	w.open("customer")
	w.open("receiver")
	w.id("id", r.Customer.Receiver.ID)
	w.close()
	w.open("sender")
	w.id("id", r.Customer.Sender.ID)
	w.close()
	w.close()
	w.id("quotation_id", r.QuotationID)
	w.close()
	return w.b
}

func createRemittancePayoutBody(r types.CreateRemittancePayoutRequest) []byte {
	w := newBodyWriter(200 + len(r.ClientReferenceID) + len(r.TransactionHash))
	w.open("")
	w.optional("client_reference_id", r.ClientReferenceID)
	w.id("customer_id", r.CustomerID)
	w.id("quotation_id", r.QuotationID)
	w.id("remitter_id", r.RemitterID)
	w.optional("transaction_hash", r.TransactionHash)
	w.close()
	return w.b
}

// createPayinQuotationBody sends asset and fiat in lower case,
// sending_amount as an exact decimal string and risk_parameters always.
func createPayinQuotationBody(r types.CreatePayinQuotationRequest) []byte {
	rp := r.RiskParameters
	w := newBodyWriter(320 + len(r.Asset) + len(r.Fiat) + len(rp.IPAddress) + len(rp.DeviceID))
	w.open("")
	w.str("asset", strings.ToLower(r.Asset))
	w.id("bank_id", r.BankID)
	w.id("customer_id", r.CustomerID)
	w.str("fiat", strings.ToLower(r.Fiat))
	w.str("payment_method", string(r.PaymentMethod))
	w.open("risk_parameters")
	w.optional("device_id", rp.DeviceID)
	w.optional("ip_address", rp.IPAddress)
	w.bool("law_enforcement_agency_report", rp.LawEnforcementAgencyReport)
	w.bool("suspicious_activity_report", rp.SuspiciousActivityReport)
	w.close()
	w.exactDecimal("sending_amount", r.SendingAmount)
	w.close()
	return w.b
}

func addWalletBody(r types.AddWalletRequest) []byte {
	w := newBodyWriter(80 + len(r.WalletAddress))
	w.open("")
	w.id("customer_id", r.CustomerID)
	w.str("wallet_address", r.WalletAddress)
	w.close()
	return w.b
}

// idStatusBody is the body of a simulation: an id and a status.
func idStatusBody(idKey string, id uuid.UUID, statusKey, status string) []byte {
	w := newBodyWriter(96 + len(status))
	w.open("")
	if idKey < statusKey {
		w.id(idKey, id)
		w.str(statusKey, status)
	} else {
		w.str(statusKey, status)
		w.id(idKey, id)
	}
	w.close()
	return w.b
}

func bankVerificationBody(customerID, bankID uuid.UUID, status types.BankAccountStatus) []byte {
	w := newBodyWriter(128 + len(status))
	w.open("")
	w.str("bank_account_status", string(status))
	w.id("bank_id", bankID)
	w.id("customer_id", customerID)
	w.close()
	return w.b
}
