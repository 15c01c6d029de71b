package fiatramp

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
)

// The service recomputes the canonical body in Python as
//
//	json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"))
//
// and signs that. Everything in this file reproduces that expression byte
// for byte (python3 is the oracle of the tests), in one pass over the input:
// the parser appends the canonical form of each value to an output buffer;
// for an object it records each member's decoded key and output span, and
// when the keys did not arrive strictly increasing it sorts the members and
// rewrites the object's span.
//
// Strings are held internally (for key comparison only) as "generalised
// UTF-8": every code point, lone surrogates from \u escapes included, in its
// UTF-8 byte form. Byte order of that encoding is code point order, which is
// how Python sorts str keys, and equality is Python's str equality.
//
// One deliberate difference: json.loads(bytes) decodes with the
// "surrogatepass" error handler, so it accepts surrogates encoded in the raw
// bytes (ED A0 80 and so on, which is not UTF-8) as separate code points. Its
// output for them is not canonical in its turn: a raw high and low surrogate
// come out as "\ud83d\ude00", which reads back as one character, so key
// order and duplicate keys can change, and the service would compute a
// different signature over the body actually sent. Such input is refused here
// as invalid UTF-8, which makes every accepted document's canonical form a
// fixed point.

const (
	// maxNestingDepth bounds the nesting of arrays and objects so that hostile
	// input cannot exhaust the stack. (CPython 3.11 itself gives up with a
	// RecursionError at roughly 1000 levels.)
	maxNestingDepth = 10000
	// maxIntDigits is CPython's default int_max_str_digits: json.loads refuses
	// an integer literal with more digits than this.
	maxIntDigits = 4300
	// directOutput is the input size from which canonicalize writes into a
	// buffer of the input's size that it returns, rather than into its
	// pooled buffer that it copies out.
	directOutput = 4 << 10
)

// CanonicalizeJSON returns the canonical form of one JSON document: the bytes
// that Python's json.dumps(json.loads(raw), sort_keys=True,
// separators=(",", ":")) prints. Keys are sorted by code point at every level
// (the last of duplicate keys wins), non-ASCII characters are escaped as
// lowercase \uXXXX, integers keep every digit and other numbers are printed
// as Python prints a float. NaN, Infinity and -Infinity are accepted. raw
// must be UTF-8; a leading byte order mark is dropped, as Python does. It
// returns an error when raw is not one JSON document.
func CanonicalizeJSON(raw []byte) ([]byte, error) {
	return canonicalize(raw, false)
}

// Canonicalize returns the canonical form (see CanonicalizeJSON) of what
// encoding/json makes of v.
func Canonicalize(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("fiatramp: canonical json: %w", err)
	}
	return CanonicalizeJSON(raw)
}

// canonicalizeExact is CanonicalizeJSON for the request path: it also fails
// when a number with a fraction or an exponent would not keep its decimal
// value through the float64 that Python makes of it (for example
// 12345678901234567.5 becomes 1.2345678901234568e+16), including overflow
// to Infinity and underflow to zero, and when the document holds NaN or
// Infinity. Rewrites that keep the value ("1.10" to "1.1", "1E2" to "100.0")
// are accepted.
func canonicalizeExact(raw []byte) ([]byte, error) {
	return canonicalize(raw, true)
}

// member is one member of the object being canonicalized: its decoded key
// (in src when the key has no escape, else in the keys scratch), the key's
// first 8 bytes as a big-endian number (zero-padded), which decides most
// comparisons, and the span of its canonical `"key":value` text in the
// output.
type member struct {
	prefix         uint64
	keyOff, keyLen int
	start, end     int
	keyInScratch   bool
}

// canonState is the reusable state of one canonicalization.
type canonState struct {
	src   []byte
	out   []byte
	keys  []byte   // decoded keys that had escapes, a stack
	mems  []member // members of the open objects, a stack
	tmp   []byte   // scratch for reordering an object
	depth int
	exact bool
}

var canonPool = sync.Pool{New: func() any { return new(canonState) }}

func canonicalize(raw []byte, exact bool) ([]byte, error) {
	st := canonPool.Get().(*canonState)
	st.src, st.exact, st.depth = raw, exact, 0
	st.keys, st.mems = st.keys[:0], st.mems[:0]
	pooledOut := st.out
	direct := len(raw) >= directOutput
	if direct {
		// Canonical text is about as long as its input: one allocation,
		// which becomes the result.
		st.out = make([]byte, 0, len(raw)+len(raw)/8+16)
	} else {
		st.out = st.out[:0]
	}

	var res []byte
	err := st.document()
	switch {
	case err != nil:
	case direct:
		res = st.out
	default:
		res = append(make([]byte, 0, len(st.out)), st.out...)
	}

	// The scratch is kept at any size, so that the cost per byte does not
	// jump above some size; the pool lets it go at the next collections.
	st.src = nil
	if direct {
		st.out = pooledOut
	}
	canonPool.Put(st)
	return res, err
}

func (st *canonState) errorf(off int, format string, args ...any) error {
	return fmt.Errorf("fiatramp: canonical json: "+format+" at offset %d", append(args, off)...)
}

func (st *canonState) skipWS(i int) int { return jsonscan.SkipSpace(st.src, i) }

func (st *canonState) document() error {
	src := st.src
	i := 0
	// json.loads(bytes) decodes with "utf-8-sig", which drops one BOM.
	if len(src) >= 3 && src[0] == 0xef && src[1] == 0xbb && src[2] == 0xbf {
		i = 3
	}
	i = st.skipWS(i)
	i, err := st.value(i)
	if err != nil {
		return err
	}
	if i = st.skipWS(i); i != len(src) {
		return st.errorf(i, "extra data after the document")
	}
	return nil
}

// value appends the canonical form of the value starting at src[i] (not
// whitespace) and returns the offset just after it.
func (st *canonState) value(i int) (int, error) {
	src := st.src
	if i >= len(src) {
		return i, st.errorf(i, "expecting value")
	}
	switch c := src[i]; c {
	case '"':
		end, _, err := st.str(i, false)
		return end, err
	case '{':
		return st.object(i)
	case '[':
		return st.array(i)
	case 'n':
		return st.literal(i, "null")
	case 't':
		return st.literal(i, "true")
	case 'f':
		return st.literal(i, "false")
	case 'N':
		return st.nonFinite(i, "NaN")
	case 'I':
		return st.nonFinite(i, "Infinity")
	case '-':
		if i+1 < len(src) && src[i+1] == 'I' {
			return st.nonFinite(i, "-Infinity")
		}
		return st.number(i)
	default:
		if c >= '0' && c <= '9' {
			return st.number(i)
		}
		return i, st.errorf(i, "expecting value")
	}
}

func (st *canonState) hasPrefix(i int, lit string) bool {
	return len(st.src)-i >= len(lit) && string(st.src[i:i+len(lit)]) == lit
}

func (st *canonState) literal(i int, lit string) (int, error) {
	if !st.hasPrefix(i, lit) {
		return i, st.errorf(i, "expecting value")
	}
	st.out = append(st.out, lit...)
	return i + len(lit), nil
}

func (st *canonState) nonFinite(i int, lit string) (int, error) {
	if !st.hasPrefix(i, lit) {
		return i, st.errorf(i, "expecting value")
	}
	if st.exact {
		return i, st.errorf(i, "%s cannot be sent as a number; send the amount as a string", lit)
	}
	st.out = append(st.out, lit...)
	return i + len(lit), nil
}

func (st *canonState) array(i int) (int, error) {
	if st.depth++; st.depth > maxNestingDepth {
		return i, st.errorf(i, "nesting deeper than %d levels", maxNestingDepth)
	}
	src := st.src
	st.out = append(st.out, '[')
	i = st.skipWS(i + 1)
	if i < len(src) && src[i] == ']' {
		st.out = append(st.out, ']')
		st.depth--
		return i + 1, nil
	}
	for {
		var err error
		if i, err = st.value(i); err != nil {
			return i, err
		}
		i = st.skipWS(i)
		if i < len(src) && src[i] == ',' {
			st.out = append(st.out, ',')
			i = st.skipWS(i + 1)
			continue
		}
		if i < len(src) && src[i] == ']' {
			st.out = append(st.out, ']')
			st.depth--
			return i + 1, nil
		}
		return i, st.errorf(i, "expecting ',' or ']'")
	}
}

func (st *canonState) key(m *member) []byte {
	if m.keyInScratch {
		return st.keys[m.keyOff : m.keyOff+m.keyLen]
	}
	return st.src[m.keyOff : m.keyOff+m.keyLen]
}

// keyPrefix returns the first 8 bytes of k as a big-endian number, padded
// with zero bytes.
func keyPrefix(k []byte) uint64 {
	if len(k) >= 8 {
		return binary.BigEndian.Uint64(k)
	}
	var p uint64
	for i := 0; i < 8; i++ {
		p <<= 8
		if i < len(k) {
			p |= uint64(k[i])
		}
	}
	return p
}

// compareKeys orders members by key in code point order.
func (st *canonState) compareKeys(a, b *member) int {
	if a.prefix != b.prefix {
		if a.prefix < b.prefix {
			return -1
		}
		return 1
	}
	return bytes.Compare(st.key(a), st.key(b))
}

func (st *canonState) object(i int) (int, error) {
	if st.depth++; st.depth > maxNestingDepth {
		return i, st.errorf(i, "nesting deeper than %d levels", maxNestingDepth)
	}
	src := st.src
	objStart := len(st.out)
	st.out = append(st.out, '{')
	i = st.skipWS(i + 1)
	if i < len(src) && src[i] == '}' {
		st.out = append(st.out, '}')
		st.depth--
		return i + 1, nil
	}
	base, keysBase := len(st.mems), len(st.keys)
	ordered := true
	for {
		if i >= len(src) || src[i] != '"' {
			return i, st.errorf(i, "expecting property name enclosed in double quotes")
		}
		if len(st.mems) > base {
			st.out = append(st.out, ',')
		}
		var m member
		var err error
		if i, m, err = st.str(i, true); err != nil {
			return i, err
		}
		m.start = len(st.out) - m.end // the key's opening quote
		m.prefix = keyPrefix(st.key(&m))
		i = st.skipWS(i)
		if i >= len(src) || src[i] != ':' {
			return i, st.errorf(i, "expecting ':' delimiter")
		}
		st.out = append(st.out, ':')
		if i, err = st.value(st.skipWS(i + 1)); err != nil {
			return i, err
		}
		m.end = len(st.out)
		if ordered && len(st.mems) > base && st.compareKeys(&st.mems[len(st.mems)-1], &m) >= 0 {
			ordered = false
		}
		st.mems = append(st.mems, m)

		i = st.skipWS(i)
		if i < len(src) && src[i] == ',' {
			i = st.skipWS(i + 1)
			continue
		}
		if i < len(src) && src[i] == '}' {
			i++
			break
		}
		return i, st.errorf(i, "expecting ',' or '}'")
	}
	if !ordered {
		st.reorder(objStart+1, st.mems[base:])
	}
	st.out = append(st.out, '}')
	st.mems, st.keys = st.mems[:base], st.keys[:keysBase]
	st.depth--
	return i, nil
}

// reorder rewrites out[from:] (the members of one object, separated by
// commas) with the members sorted by key, keeping only the last of each run
// of equal keys as Python's dict does.
func (st *canonState) reorder(from int, ms []member) {
	slices.SortFunc(ms, func(a, b member) int {
		if c := st.compareKeys(&a, &b); c != 0 {
			return c
		}
		return a.start - b.start // equal keys stay in input order
	})
	st.tmp = append(st.tmp[:0], st.out[from:]...)
	st.out = st.out[:from]
	first := true
	for j := range ms {
		m := &ms[j]
		if j+1 < len(ms) && st.compareKeys(m, &ms[j+1]) == 0 {
			continue
		}
		if !first {
			st.out = append(st.out, ',')
		}
		first = false
		st.out = append(st.out, st.tmp[m.start-from:m.end-from]...)
	}
}

// safeASCII marks the bytes that Python's ensure_ascii output keeps as they
// are: printable ASCII except '"' and '\'.
var safeASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// safeRun returns the end of the run of safeASCII bytes that starts at
// src[i], looking at eight bytes at a time while it can.
func safeRun(src []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(src); i += 8 {
		w := binary.LittleEndian.Uint64(src[i:])
		quote, bslash := w^(ones*'"'), w^(ones*'\\')
		// Bit 7 of a byte of special is set when a byte of w is below 0x20,
		// above 0x7e, '"' or '\\' (borrows and carries can only add false
		// positives above a true one, and the byte loop below sorts it out).
		special := ((w-ones*0x20)&^w | (w + ones) | w | (quote-ones)&^quote | (bslash-ones)&^bslash) & highs
		if special != 0 {
			break
		}
	}
	for i < len(src) && safeASCII[src[i]] {
		i++
	}
	return i
}

// appendU16 appends \uXXXX with lowercase hex.
func appendU16(out []byte, c rune) []byte {
	return append(out, '\\', 'u', hexDigits[c>>12&0xf], hexDigits[c>>8&0xf], hexDigits[c>>4&0xf], hexDigits[c&0xf])
}

// appendEscaped appends code point c as Python's ensure_ascii encoder writes
// it inside a string.
func appendEscaped(out []byte, c rune) []byte {
	switch {
	case c < 0x80 && safeASCII[c]:
		return append(out, byte(c))
	case c == '"':
		return append(out, '\\', '"')
	case c == '\\':
		return append(out, '\\', '\\')
	case c == '\n':
		return append(out, '\\', 'n')
	case c == '\r':
		return append(out, '\\', 'r')
	case c == '\t':
		return append(out, '\\', 't')
	case c == '\b':
		return append(out, '\\', 'b')
	case c == '\f':
		return append(out, '\\', 'f')
	case c >= 0x10000:
		c -= 0x10000
		return appendU16(appendU16(out, 0xd800|(c>>10)), 0xdc00|(c&0x3ff))
	default:
		return appendU16(out, c)
	}
}

// appendWTF8 appends code point c in its UTF-8 byte form, surrogates included.
func appendWTF8(b []byte, c rune) []byte {
	if c >= 0xd800 && c <= 0xdfff {
		return append(b, 0xe0|byte(c>>12), 0x80|byte(c>>6)&0x3f, 0x80|byte(c)&0x3f)
	}
	return utf8.AppendRune(b, c)
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var c rune
	for _, d := range b[:4] {
		switch {
		case d >= '0' && d <= '9':
			d -= '0'
		case d >= 'a' && d <= 'f':
			d -= 'a' - 10
		case d >= 'A' && d <= 'F':
			d -= 'A' - 10
		default:
			return 0, false
		}
		c = c<<4 | rune(d)
	}
	return c, true
}

// str appends the canonical form of the string whose opening quote is at
// src[i] and returns the offset after its closing quote. When isKey, the
// returned member holds the decoded key (keyOff, keyLen, keyInScratch) and in
// end the length of the string's output, quotes included.
func (st *canonState) str(i int, isKey bool) (int, member, error) {
	src := st.src
	outStart := len(st.out)
	out := append(st.out, '"')
	open := i
	i++
	start := i
	var m member
	decoding := false // the key had an escape: its decoded form goes to st.keys
	keyStart := len(st.keys)
	for {
		j := safeRun(src, i)
		out = append(out, src[i:j]...)
		if decoding {
			st.keys = append(st.keys, src[i:j]...)
		}
		i = j
		if i >= len(src) {
			st.out = out
			return i, m, st.errorf(open, "unterminated string starting")
		}
		c := src[i]
		switch {
		case c == '"':
			out = append(out, '"')
			st.out = out
			if isKey {
				if decoding {
					m.keyOff, m.keyLen, m.keyInScratch = keyStart, len(st.keys)-keyStart, true
				} else {
					m.keyOff, m.keyLen = start, i-start
				}
				m.end = len(out) - outStart
			}
			return i + 1, m, nil
		case c == '\\':
			if isKey && !decoding {
				decoding = true
				st.keys = append(st.keys, src[start:i]...)
			}
			if i+1 >= len(src) {
				st.out = out
				return i, m, st.errorf(open, "unterminated string starting")
			}
			var r rune
			switch e := src[i+1]; e {
			case '"', '\\', '/':
				r = rune(e)
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			case 'u':
				var ok bool
				if r, ok = hex4(src[i+2:]); !ok {
					st.out = out
					return i, m, st.errorf(i, "invalid \\uXXXX escape")
				}
				// An escaped high surrogate followed by an escaped low one
				// is one character (json's scanstring joins them).
				if r >= 0xd800 && r <= 0xdbff && i+7 < len(src) && src[i+6] == '\\' && src[i+7] == 'u' {
					lo, ok := hex4(src[i+8:])
					if !ok {
						st.out = out
						return i, m, st.errorf(i+6, "invalid \\uXXXX escape")
					}
					if lo >= 0xdc00 && lo <= 0xdfff {
						r = 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
						i += 6
					}
				}
				i += 4
			default:
				st.out = out
				return i, m, st.errorf(i, "invalid \\escape")
			}
			i += 2
			out = appendEscaped(out, r)
			if decoding {
				st.keys = appendWTF8(st.keys, r)
			}
		case c < 0x20:
			st.out = out
			return i, m, st.errorf(i, "invalid control character")
		case c == 0x7f:
			out = appendU16(out, 0x7f)
			if decoding {
				st.keys = append(st.keys, c)
			}
			i++
		default:
			r, n := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && n <= 1 {
				st.out = out
				return i, m, st.errorf(i, "invalid UTF-8")
			}
			out = appendEscaped(out, r)
			if decoding {
				st.keys = append(st.keys, src[i:i+n]...)
			}
			i += n
		}
	}
}

// number appends the canonical form of the number starting at src[i]:
// an integer keeps its digits, anything with a fraction or an exponent is
// printed as Python's repr of the nearest float64.
func (st *canonState) number(i int) (int, error) {
	src := st.src
	start := i
	if src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
	case i < len(src) && src[i] >= '1' && src[i] <= '9':
		for i++; i < len(src) && jsonscan.IsDigit(src[i]); i++ {
		}
	default:
		return i, st.errorf(start, "expecting value")
	}
	intEnd := i
	isFloat := false
	if i < len(src) && src[i] == '.' {
		if i+1 >= len(src) || !jsonscan.IsDigit(src[i+1]) {
			return i, st.errorf(i, "expecting a digit after the decimal point")
		}
		for i += 2; i < len(src) && jsonscan.IsDigit(src[i]); i++ {
		}
		isFloat = true
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i >= len(src) || !jsonscan.IsDigit(src[i]) {
			return i, st.errorf(i, "expecting a digit in the exponent")
		}
		for i++; i < len(src) && jsonscan.IsDigit(src[i]); i++ {
		}
		isFloat = true
	}
	lit := src[start:i]
	if !isFloat {
		digits := intEnd - start
		if src[start] == '-' {
			digits--
		}
		if digits > maxIntDigits {
			return i, st.errorf(start, "integer of %d digits exceeds Python's limit of %d", digits, maxIntDigits)
		}
		if len(lit) == 2 && lit[0] == '-' && lit[1] == '0' { // -0
			lit = lit[1:]
		}
		st.out = append(st.out, lit...)
		return i, nil
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return i, st.errorf(start, "number %q: %v", lit, err)
	}
	before := len(st.out)
	st.out = appendPyFloat(st.out, f)
	if st.exact && (math.IsInf(f, 0) || !sameDecimal(lit, st.out[before:])) {
		return i, st.errorf(start, "number %s would change its value through a float64 (the service would read %s); send the amount as a string",
			shortLiteral(lit), st.out[before:])
	}
	return i, nil
}

// shortLiteral returns lit for an error message, elided in the middle when
// it is long.
func shortLiteral(lit []byte) string {
	if len(lit) <= 64 {
		return string(lit)
	}
	return fmt.Sprintf("%s...%s (%d characters)", lit[:30], lit[len(lit)-20:], len(lit))
}

// appendPyFloat appends f as Python's json.dumps prints a float: repr(f)
// (shortest round-trip digits, exponent form when the decimal exponent is
// below -4 or above 15, ".0" on whole values) or NaN / Infinity / -Infinity.
func appendPyFloat(out []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(out, "NaN"...)
	case math.IsInf(f, 1):
		return append(out, "Infinity"...)
	case math.IsInf(f, -1):
		return append(out, "-Infinity"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // [-]d[.ddd]e±dd
	if e[0] == '-' {
		out = append(out, '-')
		e = e[1:]
	}
	var digits [24]byte
	nd := 0
	k := 0
	for ; e[k] != 'e'; k++ {
		if e[k] != '.' {
			digits[nd] = e[k]
			nd++
		}
	}
	exp := 0
	for _, c := range e[k+2:] {
		exp = exp*10 + int(c-'0')
	}
	if e[k+1] == '-' {
		exp = -exp
	}
	d := digits[:nd]
	decpt := exp + 1 // value = 0.d * 10^decpt
	switch {
	case decpt <= -4 || decpt > 16:
		out = append(out, d[0])
		if nd > 1 {
			out = append(out, '.')
			out = append(out, d[1:]...)
		}
		out = append(out, 'e')
		if exp < 0 {
			out = append(out, '-')
			exp = -exp
		} else {
			out = append(out, '+')
		}
		if exp < 10 {
			out = append(out, '0')
		}
		return strconv.AppendInt(out, int64(exp), 10)
	case decpt <= 0:
		out = append(out, '0', '.')
		for ; decpt < 0; decpt++ {
			out = append(out, '0')
		}
		return append(out, d...)
	case decpt < nd:
		out = append(out, d[:decpt]...)
		out = append(out, '.')
		return append(out, d[decpt:]...)
	default:
		out = append(out, d...)
		for ; decpt > nd; decpt-- {
			out = append(out, '0')
		}
		return append(out, '.', '0')
	}
}

// sameDecimal reports whether number literal lit (a JSON number) and
// Python's rendering of it (repr) denote the same decimal value.
func sameDecimal(lit, repr []byte) bool {
	a, okA := jsonscan.ParseNumber(lit, true)
	b, okB := jsonscan.ParseNumber(repr, false)
	return okA && okB && a.SameValue(b)
}
