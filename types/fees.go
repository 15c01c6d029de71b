package types

import (
	"github.com/shopspring/decimal"
)

// Fees is the fees object of standard payouts (create and fetch), of
// remittance payouts and of payin quotations. Every amount decodes exactly
// from a JSON number or a decimal string; null and "" leave zero.
//
// The documented keys service_fee and service_gst carry the service's own
// fee, but the real service spells "service" with its brand name (an
// earlier edition used <brand>_fee and <brand>_gst, an older one the plural
// <brand>_fees). So a key `<word>_fee`, `<word>_fees` or
// `<word>_gst`, where word is one run of [a-z0-9] that does not start with
// "client" or "pg", and the key is not documented, is a brand key and fills
// ServiceFee or ServiceGST. An explicit service_fee / service_gst wins over a
// brand key whatever the order; when several brand keys of one kind appear,
// the first one in the document wins. A brand key that does not win lands in
// Other.
//
// Keys match case-sensitively, and a repeated key counts with its last
// value alone, as in a Python dict (the position of its first appearance
// decides which brand key is first): {"acme_fee":"1","zeta_fee":"5",
// "acme_fee":null} has acme_fee first, so ServiceFee is zero and zeta_fee
// is in Other. An explicit service_fee counts as present even when its last
// value is null. Wrong-typed documented or brand keys, in any occurrence,
// are a decode error.
type Fees struct {
	// ClientFeeFiat is the client's (the organization's) fee, in fiat.
	ClientFeeFiat decimal.Decimal `json:"client_fee_fiat"`
	// ClientFeeCrypto is the client's fee, in crypto.
	ClientFeeCrypto decimal.Decimal `json:"client_fee_crypto"`
	// ServiceFee is the service's own fee: service_fee, or the brand-named
	// fee key.
	ServiceFee decimal.Decimal `json:"service_fee" fiatramp:"brand=fee"`
	// PGFee is the payment gateway's fee.
	PGFee decimal.Decimal `json:"pg_fee"`
	// ClientGSTFiat is the GST (goods and services tax) on the client's fee,
	// in fiat.
	ClientGSTFiat decimal.Decimal `json:"client_gst_fiat"`
	// ClientGSTCrypto is the GST on the client's fee, in crypto.
	ClientGSTCrypto decimal.Decimal `json:"client_gst_crypto"`
	// ServiceGST is the GST on the service's fee: service_gst, or the
	// brand-named GST key.
	ServiceGST decimal.Decimal `json:"service_gst" fiatramp:"brand=gst"`
	// PGGST is the GST on the payment gateway's fee.
	PGGST decimal.Decimal `json:"pg_gst"`
	// TDS is the tax deducted at source (tds_fees in an older edition;
	// tds wins unless it is null or "").
	TDS decimal.Decimal `json:"tds" fiatramp:"alias=tds_fees"`
	// GrossEffectiveExchangeRate is the exchange rate with every fee
	// included.
	GrossEffectiveExchangeRate decimal.Decimal `json:"gross_effective_exchange_rate"`
	// Other holds every other key whose value is a JSON number or a decimal
	// string (brand keys that lost to an explicit or earlier key included).
	// Keys with null, "" or non-decimal values are skipped (the parent's Raw
	// keeps them). Nil when there are none. It holds at most
	// MaxOtherMembers keys: an object with more is refused as malformed.
	Other map[string]decimal.Decimal `json:"-" fiatramp:"rest"`
}

var feesPlan = compilePlan[Fees]()

// UnmarshalJSON decodes a fees object of Fees' ten documented keys, with
// the brand-key rule described on Fees. null leaves f unchanged.
func (f *Fees) UnmarshalJSON(data []byte) error { return decode(f, data) }

func (*Fees) plan() *plan { return feesPlan }

// PrefundedFees is the fees object of a prefunded payout, as returned by
// POST /pos/api/v1/prefunded/payout/initiate: service_fee, client_fee,
// client_gst, tds. The wire format
// carries decimal strings; JSON numbers are accepted too, and null and ""
// leave zero.
//
// service_fee follows the brand-key rule of Fees: a single-word `<word>_fee`
// (or `<word>_fees`) key that is not documented and whose word does not start with "client" or
// "pg" fills ServiceFee unless an explicit service_fee is present; the first
// such key wins. Keys match case-sensitively.
type PrefundedFees struct {
	// ServiceFee is the service's own fee: service_fee, or the brand-named
	// fee key.
	ServiceFee decimal.Decimal `json:"service_fee" fiatramp:"brand=fee"`
	// ClientFee is the client's (the organization's) fee.
	ClientFee decimal.Decimal `json:"client_fee"`
	// ClientGST is the GST on the client's fee.
	ClientGST decimal.Decimal `json:"client_gst"`
	// TDS is the tax deducted at source (tds_fees in an older edition;
	// tds wins unless it is null or "").
	TDS decimal.Decimal `json:"tds" fiatramp:"alias=tds_fees"`
	// Other holds every other key whose value is a JSON number or a decimal
	// string, as in Fees.Other. Nil when there are none; at most
	// MaxOtherMembers keys.
	Other map[string]decimal.Decimal `json:"-" fiatramp:"rest"`
}

var prefundedFeesPlan = compilePlan[PrefundedFees]()

// UnmarshalJSON decodes a prefunded payout's fees object, with
// the brand-key rule described on PrefundedFees. null leaves f unchanged.
func (f *PrefundedFees) UnmarshalJSON(data []byte) error { return decode(f, data) }

func (*PrefundedFees) plan() *plan { return prefundedFeesPlan }
