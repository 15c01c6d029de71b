package types

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/shopspring/decimal"
)

// Fees is the fees object of standard payouts and payin quotations
// (interface.md section 2.4). Every amount decodes exactly from a JSON number
// or a decimal string; null and "" leave zero.
//
// The interface document writes the service's own name as `service` in
// service_fee and service_gst, but the real service spells it with its brand
// name (public notes, "Fee field names"). So a key `<word>_fee` or
// `<word>_gst`, where word is one run of [a-z0-9] that does not start with
// "client" or "pg", and the key is not documented, is a brand key and fills
// ServiceFee or ServiceGST. An explicit service_fee / service_gst wins over a
// brand key whatever the order; when several brand keys of one kind appear,
// the first one in the document wins. A brand key that does not win lands in
// Other.
//
// Keys match case-sensitively. Wrong-typed documented or brand keys are a
// decode error.
type Fees struct {
	// ClientFeeFiat is client_fee_fiat.
	ClientFeeFiat decimal.Decimal `json:"client_fee_fiat"`
	// ClientFeeCrypto is client_fee_crypto.
	ClientFeeCrypto decimal.Decimal `json:"client_fee_crypto"`
	// ServiceFee is service_fee, or the brand-named fee key.
	ServiceFee decimal.Decimal `json:"service_fee"`
	// PGFee is pg_fee (payment gateway fee).
	PGFee decimal.Decimal `json:"pg_fee"`
	// ClientGSTFiat is client_gst_fiat.
	ClientGSTFiat decimal.Decimal `json:"client_gst_fiat"`
	// ClientGSTCrypto is client_gst_crypto.
	ClientGSTCrypto decimal.Decimal `json:"client_gst_crypto"`
	// ServiceGST is service_gst, or the brand-named GST key.
	ServiceGST decimal.Decimal `json:"service_gst"`
	// PGGST is pg_gst.
	PGGST decimal.Decimal `json:"pg_gst"`
	// TDS is tds (tax deducted at source).
	TDS decimal.Decimal `json:"tds"`
	// GrossEffectiveExchangeRate is gross_effective_exchange_rate.
	GrossEffectiveExchangeRate decimal.Decimal `json:"gross_effective_exchange_rate"`
	// Other holds every other key whose value is a JSON number or a decimal
	// string (brand keys that lost to an explicit or earlier key included).
	// Keys with null, "" or non-decimal values are skipped (the parent's Raw
	// keeps them). Nil when there are none.
	Other map[string]decimal.Decimal `json:"-"`
}

// PrefundedFees is the fees object of a prefunded payout (interface.md
// section 2.3): service_fee, client_fee, client_gst, tds. The wire format
// carries decimal strings; JSON numbers are accepted too, and null and ""
// leave zero.
//
// service_fee follows the brand-key rule of Fees: a single-word `<word>_fee`
// key that is not documented and whose word does not start with "client" or
// "pg" fills ServiceFee unless an explicit service_fee is present; the first
// such key wins. Keys match case-sensitively.
type PrefundedFees struct {
	// ServiceFee is service_fee, or the brand-named fee key.
	ServiceFee decimal.Decimal `json:"service_fee"`
	// ClientFee is client_fee.
	ClientFee decimal.Decimal `json:"client_fee"`
	// ClientGST is client_gst.
	ClientGST decimal.Decimal `json:"client_gst"`
	// TDS is tds.
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
	typeName string
	other    map[string]decimal.Decimal
}

func (r *feeReader) addOther(key []byte, d decimal.Decimal) {
	if r.other == nil {
		r.other = make(map[string]decimal.Decimal)
	}
	r.other[string(key)] = d
}

// brand records the brand key key with value raw in slot.
func (r *feeReader) brand(slot *brandSlot, key, raw []byte) error {
	d, set, err := parseDecimal(raw)
	if err != nil {
		return withField(err, r.typeName, string(key))
	}
	if slot.key == nil {
		slot.key, slot.value, slot.set = key, d, set
	} else if set {
		r.addOther(key, d)
	}
	return nil
}

// finish resolves slot: the brand value fills *dst unless the explicit key
// was present, in which case it moves to Other.
func (r *feeReader) finish(slot *brandSlot, dst *decimal.Decimal) {
	if slot.key == nil {
		return
	}
	if !slot.explicit {
		*dst = slot.value
	} else if slot.set {
		r.addOther(slot.key, slot.value)
	}
}

// unknown stores an unknown key in Other when its value is a decimal, and
// skips it otherwise.
func (r *feeReader) unknown(key, raw []byte) error {
	d, set, err := parseDecimal(raw)
	if err != nil {
		return skipValid(raw)
	}
	if set {
		r.addOther(key, d)
	}
	return nil
}

// UnmarshalJSON decodes the fees object of interface.md section 2.4, with
// the brand-key rule described on Fees. null leaves f unchanged.
func (f *Fees) UnmarshalJSON(data []byte) error {
	null, err := nullOrObject(data, feesType)
	if err != nil || null {
		return err
	}
	var out Fees
	r := feeReader{typeName: "Fees"}
	var fee, gst brandSlot
	it := newObjectIter(data)
	for {
		key, raw, ok := it.next()
		if !ok {
			break
		}
		var dst *decimal.Decimal
		switch string(key) {
		case "client_fee_fiat":
			dst = &out.ClientFeeFiat
		case "client_fee_crypto":
			dst = &out.ClientFeeCrypto
		case "service_fee":
			dst = &out.ServiceFee
			fee.explicit = true
		case "pg_fee":
			dst = &out.PGFee
		case "client_gst_fiat":
			dst = &out.ClientGSTFiat
		case "client_gst_crypto":
			dst = &out.ClientGSTCrypto
		case "service_gst":
			dst = &out.ServiceGST
			gst.explicit = true
		case "pg_gst":
			dst = &out.PGGST
		case "tds":
			dst = &out.TDS
		case "gross_effective_exchange_rate":
			dst = &out.GrossEffectiveExchangeRate
		}
		if dst != nil {
			d, _, err := parseDecimal(raw)
			if err != nil {
				return withField(err, "Fees", string(key))
			}
			*dst = d
			continue
		}
		switch brandKind(key) {
		case 'f':
			err = r.brand(&fee, key, raw)
		case 'g':
			err = r.brand(&gst, key, raw)
		default:
			if err := r.unknown(key, raw); err != nil {
				return fmt.Errorf("types: decoding Fees: %w", err)
			}
		}
		if err != nil {
			return err
		}
	}
	if it.err != nil {
		return fmt.Errorf("types: decoding Fees: %w", it.err)
	}
	r.finish(&fee, &out.ServiceFee)
	r.finish(&gst, &out.ServiceGST)
	out.Other = r.other
	*f = out
	return nil
}

// UnmarshalJSON decodes the fees object of interface.md section 2.3, with
// the brand-key rule described on PrefundedFees. null leaves f unchanged.
func (f *PrefundedFees) UnmarshalJSON(data []byte) error {
	null, err := nullOrObject(data, prefundedFeesType)
	if err != nil || null {
		return err
	}
	var out PrefundedFees
	r := feeReader{typeName: "PrefundedFees"}
	var fee brandSlot
	it := newObjectIter(data)
	for {
		key, raw, ok := it.next()
		if !ok {
			break
		}
		var dst *decimal.Decimal
		switch string(key) {
		case "service_fee":
			dst = &out.ServiceFee
			fee.explicit = true
		case "client_fee":
			dst = &out.ClientFee
		case "client_gst":
			dst = &out.ClientGST
		case "tds":
			dst = &out.TDS
		}
		if dst != nil {
			d, _, err := parseDecimal(raw)
			if err != nil {
				return withField(err, "PrefundedFees", string(key))
			}
			*dst = d
			continue
		}
		if brandKind(key) == 'f' {
			if err := r.brand(&fee, key, raw); err != nil {
				return err
			}
			continue
		}
		if err := r.unknown(key, raw); err != nil {
			return fmt.Errorf("types: decoding PrefundedFees: %w", err)
		}
	}
	if it.err != nil {
		return fmt.Errorf("types: decoding PrefundedFees: %w", it.err)
	}
	r.finish(&fee, &out.ServiceFee)
	out.Other = r.other
	*f = out
	return nil
}
