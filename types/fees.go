package types

import (
	"reflect"
	"strings"

	"github.com/shopspring/decimal"
)

// Fees is the fees object of standard payouts (create and fetch), of
// remittance payouts and of payin quotations. Every amount decodes exactly
// from a JSON number or a decimal string; null and "" leave zero.
//
// The documented keys service_fee and service_gst carry the service's own
// fee, but the real service spells "service" with its brand name (an
// earlier edition used <brand>_fee and <brand>_gst). So a key `<word>_fee` or
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
	ServiceFee decimal.Decimal `json:"service_fee"`
	// PGFee is the payment gateway's fee.
	PGFee decimal.Decimal `json:"pg_fee"`
	// ClientGSTFiat is the GST (goods and services tax) on the client's fee,
	// in fiat.
	ClientGSTFiat decimal.Decimal `json:"client_gst_fiat"`
	// ClientGSTCrypto is the GST on the client's fee, in crypto.
	ClientGSTCrypto decimal.Decimal `json:"client_gst_crypto"`
	// ServiceGST is the GST on the service's fee: service_gst, or the
	// brand-named GST key.
	ServiceGST decimal.Decimal `json:"service_gst"`
	// PGGST is the GST on the payment gateway's fee.
	PGGST decimal.Decimal `json:"pg_gst"`
	// TDS is the tax deducted at source.
	TDS decimal.Decimal `json:"tds"`
	// GrossEffectiveExchangeRate is the exchange rate with every fee
	// included.
	GrossEffectiveExchangeRate decimal.Decimal `json:"gross_effective_exchange_rate"`
	// Other holds every other key whose value is a JSON number or a decimal
	// string (brand keys that lost to an explicit or earlier key included).
	// Keys with null, "" or non-decimal values are skipped (the parent's Raw
	// keeps them). Nil when there are none.
	Other map[string]decimal.Decimal `json:"-"`
}

// PrefundedFees is the fees object of a prefunded payout, as returned by
// POST /pos/api/v1/prefunded/payout/initiate: service_fee, client_fee,
// client_gst, tds. The wire format
// carries decimal strings; JSON numbers are accepted too, and null and ""
// leave zero.
//
// service_fee follows the brand-key rule of Fees: a single-word `<word>_fee`
// key that is not documented and whose word does not start with "client" or
// "pg" fills ServiceFee unless an explicit service_fee is present; the first
// such key wins. Keys match case-sensitively.
type PrefundedFees struct {
	// ServiceFee is the service's own fee: service_fee, or the brand-named
	// fee key.
	ServiceFee decimal.Decimal `json:"service_fee"`
	// ClientFee is the client's (the organization's) fee.
	ClientFee decimal.Decimal `json:"client_fee"`
	// ClientGST is the GST on the client's fee.
	ClientGST decimal.Decimal `json:"client_gst"`
	// TDS is the tax deducted at source.
	TDS decimal.Decimal `json:"tds"`
	// Other holds every other key whose value is a JSON number or a decimal
	// string, as in Fees.Other. Nil when there are none.
	Other map[string]decimal.Decimal `json:"-"`
}

var (
	feesType          = reflect.TypeFor[Fees]()
	prefundedFeesType = reflect.TypeFor[PrefundedFees]()
)

// brandKind classifies a key that is not documented: 'f' for a brand fee key
// (<word>_fee), 'g' for a brand GST key (<word>_gst), 0 otherwise.
func brandKind(key []byte) byte {
	if len(key) < 5 || key[len(key)-4] != '_' {
		return 0
	}
	var kind byte
	switch string(key[len(key)-3:]) {
	case "fee":
		kind = 'f'
	case "gst":
		kind = 'g'
	default:
		return 0
	}
	word := key[:len(key)-4]
	for _, c := range word {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return 0
		}
	}
	if strings.HasPrefix(string(word), "client") || strings.HasPrefix(string(word), "pg") {
		return 0
	}
	return kind
}

// brandSlot tracks the brand keys of one kind while a fees object is read.
type brandSlot struct {
	explicit bool            // the documented service_* key was present
	key      []byte          // first brand key seen, nil if none
	value    decimal.Decimal // its value
	set      bool            // its value was not null or ""
}

// feeReader holds the state shared by the Fees and PrefundedFees decoders.
type feeReader struct {
	other map[string]decimal.Decimal
}

func (r *feeReader) addOther(key []byte, d decimal.Decimal) {
	if r.other == nil {
		r.other = make(map[string]decimal.Decimal)
	}
	r.other[string(key)] = d
}

// undocumented decodes the current member of m, whose key is not a
// documented one: a brand fee key goes to fee, a brand GST key to gst (nil
// when the object has no service GST, so that such a key is an unknown
// one), and any other key is an unknown one.
func (r *feeReader) undocumented(m *members, fee, gst *brandSlot) {
	switch kind := brandKind(m.key); {
	case kind == 'f':
		r.brand(m, fee)
	case kind == 'g' && gst != nil:
		r.brand(m, gst)
	default:
		r.unknown(m)
	}
}

// brand records the current member of m, a brand key, in slot. As for
// every key, the last value of a repeated key counts: a repeat of the
// slot's key updates the slot (it does not land in Other).
func (r *feeReader) brand(m *members, slot *brandSlot) {
	d, set, err := parseDecimal(m.raw)
	if err != nil {
		m.fail(err)
		return
	}
	switch {
	case slot.key == nil:
		slot.key, slot.value, slot.set = m.key, d, set
	case string(slot.key) == string(m.key):
		slot.value, slot.set = d, set
	default:
		r.setOther(m.key, d, set)
	}
}

// setOther records the value of a key bound for Other. The last value of a
// repeated key counts, so a null or "" removes an earlier one.
func (r *feeReader) setOther(key []byte, d decimal.Decimal, set bool) {
	if set {
		r.addOther(key, d)
	} else {
		delete(r.other, string(key))
	}
}

// result returns Other: nil when there are none.
func (r *feeReader) result() map[string]decimal.Decimal {
	if len(r.other) == 0 {
		return nil
	}
	return r.other
}

// resolve settles slot: the brand value fills *dst unless the explicit key
// was present, in which case it moves to Other.
func (r *feeReader) resolve(slot *brandSlot, dst *decimal.Decimal) {
	if slot.key == nil {
		return
	}
	if !slot.explicit {
		*dst = slot.value
	} else if slot.set {
		r.addOther(slot.key, slot.value)
	}
}

// unknown stores the current member of m in Other when its value is a
// decimal, and skips it otherwise; the last value of a repeated key counts.
func (r *feeReader) unknown(m *members) {
	d, set, err := parseDecimal(m.raw)
	if err != nil {
		delete(r.other, string(m.key))
		m.skip()
		return
	}
	r.setOther(m.key, d, set)
}

// UnmarshalJSON decodes a fees object of Fees' ten documented keys, with
// the brand-key rule described on Fees. null leaves f unchanged.
func (f *Fees) UnmarshalJSON(data []byte) error {
	var out Fees
	var r feeReader
	var fee, gst brandSlot
	m := objectMembers("Fees", feesType, data)
	for m.next() {
		switch string(m.key) {
		case "client_fee_fiat":
			m.decimal(&out.ClientFeeFiat)
		case "client_fee_crypto":
			m.decimal(&out.ClientFeeCrypto)
		case "service_fee":
			m.decimal(&out.ServiceFee)
			fee.explicit = true
		case "pg_fee":
			m.decimal(&out.PGFee)
		case "client_gst_fiat":
			m.decimal(&out.ClientGSTFiat)
		case "client_gst_crypto":
			m.decimal(&out.ClientGSTCrypto)
		case "service_gst":
			m.decimal(&out.ServiceGST)
			gst.explicit = true
		case "pg_gst":
			m.decimal(&out.PGGST)
		case "tds":
			m.decimal(&out.TDS)
		case "gross_effective_exchange_rate":
			m.decimal(&out.GrossEffectiveExchangeRate)
		default:
			r.undocumented(&m, &fee, &gst)
		}
	}
	r.resolve(&fee, &out.ServiceFee)
	r.resolve(&gst, &out.ServiceGST)
	out.Other = r.result()
	return finishObject(&m, f, &out, nil)
}

// UnmarshalJSON decodes a prefunded payout's fees object, with
// the brand-key rule described on PrefundedFees. null leaves f unchanged.
func (f *PrefundedFees) UnmarshalJSON(data []byte) error {
	var out PrefundedFees
	var r feeReader
	var fee brandSlot
	m := objectMembers("PrefundedFees", prefundedFeesType, data)
	for m.next() {
		switch string(m.key) {
		case "service_fee":
			m.decimal(&out.ServiceFee)
			fee.explicit = true
		case "client_fee":
			m.decimal(&out.ClientFee)
		case "client_gst":
			m.decimal(&out.ClientGST)
		case "tds":
			m.decimal(&out.TDS)
		default:
			r.undocumented(&m, &fee, nil)
		}
	}
	r.resolve(&fee, &out.ServiceFee)
	out.Other = r.result()
	return finishObject(&m, f, &out, nil)
}
