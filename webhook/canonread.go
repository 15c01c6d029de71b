package webhook

import (
	"bytes"
	"encoding/json"
)

// This file reads the members of objects in canonical JSON, the output of
// fiatramp.CanonicalizeJSON: no white space, each key once, strings of
// printable ASCII and escapes only. A key written without escapes in
// canonical form is exactly its decoded text, so comparing the raw bytes of
// a key with "type" is an exact, case-sensitive comparison. Values are
// returned as raw spans and only the ones used are decoded; the reader
// never recurses and never indexes out of range, whatever its input.

// memberIter walks the members of one canonical JSON object.
type memberIter struct {
	b          []byte
	i          int
	key, value []byte
	err        bool // the input was not an object as expected
}

// newMembers starts at obj, which begins with '{'.
func newMembers(obj []byte) memberIter { return memberIter{b: obj, i: 1} }

// next moves to the next member; false at the end of the object or on
// input that is not canonical JSON (then err is set).
func (it *memberIter) next() bool {
	b, i := it.b, it.i
	if i >= len(b) {
		it.err = true
		return false
	}
	if b[i] == '}' {
		return false
	}
	if i > 1 {
		if b[i] != ',' {
			it.err = true
			return false
		}
		i++
	}
	kEnd := skipString(b, i)
	if kEnd < 0 || kEnd >= len(b) || b[kEnd] != ':' {
		it.err = true
		return false
	}
	vEnd := skipValue(b, kEnd+1)
	if vEnd < 0 {
		it.err = true
		return false
	}
	it.key, it.value, it.i = b[i+1:kEnd-1], b[kEnd+1:vEnd], vEnd
	return true
}

// skipString returns the offset after the string starting at b[i], or -1.
func skipString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the offset after the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := skipString(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	// A number, true, false, null, NaN, Infinity or -Infinity.
	j := i
	for j < len(b) && isLiteralByte(b[j]) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// stringValue decodes a JSON string value; false when raw is not one.
func stringValue(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	content := raw[1 : len(raw)-1]
	if bytes.IndexByte(content, '\\') < 0 {
		return string(content), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

func isLiteralByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
}
