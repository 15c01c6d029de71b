package webhook

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fiatramp/fiatramp-go"
	"github.com/stretchr/testify/require"
)

// referenceDecode is decodeEvent written with encoding/json maps: slower,
// obviously exact on keys (canonical JSON has each key once). It cannot
// read NaN or Infinity, so it is compared only on documents without them.
func referenceDecode(canonical []byte) (*Event, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(canonical, &top); err != nil || top == nil {
		return nil, malformed("body is not a JSON object")
	}
	str := func(k string) (string, error) {
		raw, ok := top[k]
		if !ok || string(raw) == "null" {
			return "", malformed("body has no %q", k)
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", malformed("%q is not a string", k)
		}
		if s == "" {
			return "", malformed("%q is empty", k)
		}
		return s, nil
	}
	var ev Event
	typ, err := str("type")
	if err != nil {
		return nil, err
	}
	id, err := str("id")
	if err != nil {
		return nil, err
	}
	name, err := str("event")
	if err != nil {
		return nil, err
	}
	ev.Type, ev.ID, ev.Event = Type(typ), id, EventName(name)
	if ev.Timestamp, err = decodeTimestamp(top["timestamp"]); err != nil {
		return nil, err
	}
	raw := top["metadata"]
	if raw != nil && string(raw) != "null" {
		var obj map[string]json.RawMessage
		if raw[0] != '{' || json.Unmarshal(raw, &obj) != nil {
			return nil, malformed("\"metadata\" is not an object")
		}
		for _, k := range metadataKeys {
			v, ok := obj[k]
			if !ok || string(v) == "null" {
				continue
			}
			var s string
			if json.Unmarshal(v, &s) != nil {
				return nil, malformed("\"metadata.%s\" is not a string", k)
			}
			*ev.Metadata.field(k) = &s
		}
		ev.Metadata.Raw = append(json.RawMessage(nil), raw...)
	}
	return &ev, nil
}

// checkAgainstReference decodes body both ways and compares.
func checkAgainstReference(t *testing.T, body []byte) {
	canonical, err := fiatramp.CanonicalizeJSON(body)
	if err != nil {
		return
	}
	got, gotErr := decodeEvent(canonical)
	if !json.Valid(canonical) {
		return // NaN or Infinity: no reference
	}
	want, wantErr := referenceDecode(canonical)
	if wantErr != nil {
		require.Error(t, gotErr, "%s", body)
		require.Equal(t, wantErr.Error(), gotErr.Error(), "%s", body)
		return
	}
	require.NoError(t, gotErr, "%s", body)
	require.True(t, reflect.DeepEqual(want, got), "%s\nwant %+v\ngot  %+v", body, want, got)
}

var (
	genKeys = []string{"type", "id", "event", "timestamp", "metadata", "Type", "ID", "utr", "failure_reason",
		"rfi_link", "refund_reason", "x", `\u0074ype`, `i\u0064`, `metadat\u0061`, `ut\u0072`, "é", `"`, `}`}
	genStrings = []string{"PAYOUT", "SUCCESS", "", "p-1", `a\"b`, `}`, `{`, `]`, `\\`, `\u00e9`, `\ud83d\ude00`, "é😀",
		`\n\t`, `,`, `:`, "2026-11-23T11:59:58Z", "1795435198", `\/`, `\ud800`}
)

func genValue(r *rand.Rand, depth int) string {
	switch n := r.IntN(10); {
	case n < 4:
		return `"` + genStrings[r.IntN(len(genStrings))] + `"`
	case n == 4:
		return []string{"null", "true", "false", "0", "-1", "1.5", "1e3", "12345678901234567890", "1795435198.25"}[r.IntN(9)]
	case n == 5 && depth < 4:
		var parts []string
		for range r.IntN(4) {
			parts = append(parts, genValue(r, depth+1))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case depth < 4:
		return genObject(r, depth+1)
	}
	return `"x"`
}

func genObject(r *rand.Rand, depth int) string {
	var parts []string
	for range r.IntN(8) {
		parts = append(parts, `"`+genKeys[r.IntN(len(genKeys))]+`" : `+genValue(r, depth))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// genEvent makes an event body whose fields are mostly valid, so that the
// comparison reaches the decoding of each of them.
func genEvent(r *rand.Rand) string {
	pick := func(valid []string, noise int) string {
		if r.IntN(10) < noise {
			return genValue(r, 3)
		}
		return valid[r.IntN(len(valid))]
	}
	strs := []string{`"PAYOUT"`, `"p-1"`, `"a\"b}"`, `"\u00e9\ud83d\ude00"`, `"é,:{"`, `"x\/y"`}
	times := []string{`"2026-11-23T11:59:58Z"`, `"2026-11-23 11:59:58.5"`, `1795435198`, `1795435198.25`, `"1795435198"`, `null`}
	var md []string
	for range r.IntN(6) {
		k := []string{"utr", "failure_reason", "rfi_link", "refund_reason", `ut\u0072`, "UTR", "other"}[r.IntN(7)]
		md = append(md, `"`+k+`":`+pick(append(strs, "null"), 2))
	}
	members := []string{
		`"type":` + pick(strs, 1), `"id":` + pick(strs, 1), `"event":` + pick(strs, 1),
		`"timestamp":` + pick(times, 1), `"metadata":{` + strings.Join(md, ",") + `}`,
		`"` + genKeys[r.IntN(len(genKeys))] + `":` + genValue(r, 2),
	}
	r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	return "{" + strings.Join(members, ", ") + "}"
}

func TestDecodeEventMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 2026))
	accepted := 0
	for i := range 20000 {
		var body string
		if i%3 == 0 {
			// Mostly valid events, with noise.
			body = genEvent(r)
		} else {
			body = genObject(r, 0)
		}
		checkAgainstReference(t, []byte(body))
		if c, err := fiatramp.CanonicalizeJSON([]byte(body)); err == nil {
			if _, err := decodeEvent(c); err == nil {
				accepted++
			}
		}
	}
	require.Greater(t, accepted, 2000, "the generator makes too few valid events to compare")
	t.Logf("%d documents compared, %d of them valid events", 20000, accepted)
}

func FuzzDecodeEvent(f *testing.F) {
	f.Add([]byte(`{"type":"PAYOUT","id":"p1","event":"SUCCESS","timestamp":"2026-11-23T11:59:58Z","metadata":{"utr":"U1"}}`))
	f.Add([]byte(`{"type":"PAYOUT","\u0069d":"p1","id":"p2","event":"SUCCESS","metadata":{"x":[{"}":"]"}]}}`))
	f.Add([]byte(`{"type":"PAYOUT","id":"p1","event":"SUCCESS","metadata":{"x":NaN}}`))
	f.Add([]byte(`[{"type":"PAYOUT"}]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		checkAgainstReference(t, body)
	})
}

func TestDecodeEventRefusesWhatIsNotCanonical(t *testing.T) {
	// The reader only ever sees canonical JSON; still, no input may make it
	// index out of range or loop, and each is refused as malformed.
	for _, in := range []string{"{", `{"a"`, `{"a":`, `{"a":1`, `{"a":1,`, `{"a":1;"b":2}`, `{"a":"x`, `{"a":[1,2`, `{"a":{"b":"\`,
		`{"a"1}`, `{"\`, `{:1}`, `{"a":}`, `{"a":1}x`, `[]`, ``, `{"type":"PAYOUT","id":"p","event":"SUCCESS","metadata":{"utr":"U"`} {
		_, err := decodeEvent([]byte(in))
		require.ErrorIs(t, err, ErrMalformed, "%q", in)
	}
	for _, in := range []string{`"\x"`, `"`, `x`, `1`} {
		_, err := decodeEvent([]byte(`{"type":` + in + `,"id":"p","event":"SUCCESS"}`))
		require.ErrorIs(t, err, ErrMalformed, "%q", in)
	}
}

// TestDecodeEventDepth: the reader takes the canonicalizer's cap, so a
// signed body that CanonicalizeJSON accepts is read however deeply an
// unread metadata member nests; one level deeper is not JSON to Verify.
func TestDecodeEventDepth(t *testing.T) {
	nested := func(levels int) []byte { // levels counts the event object
		inner := levels - 2 // the event and its metadata
		return []byte(`{"type":"PAYOUT","id":"p","event":"SUCCESS","metadata":{"utr":"U","deep":` +
			strings.Repeat("[", inner) + strings.Repeat("]", inner) + `}}`)
	}
	canonical, err := fiatramp.CanonicalizeJSON(nested(maxEventDepth))
	require.NoError(t, err, "the canonicalizer's cap is maxEventDepth")
	ev, err := decodeEvent(canonical)
	require.NoError(t, err)
	require.Equal(t, "U", *ev.Metadata.UTR)

	_, err = fiatramp.CanonicalizeJSON(nested(maxEventDepth + 1))
	require.Error(t, err, "the canonicalizer's cap is maxEventDepth")
	_, err = decodeEvent(nested(maxEventDepth + 1))
	require.ErrorIs(t, err, ErrMalformed, "deeper than the cap")
}

// BenchmarkDecodeEvent compares the reader with the encoding/json version
// it replaced (referenceDecode) on a typical event:
//
//	go test -run '^$' -bench DecodeEvent -count 5 ./webhook
func BenchmarkDecodeEvent(b *testing.B) {
	canonical, err := fiatramp.CanonicalizeJSON([]byte(`{"type":"PAYOUT","id":"0b5e7f6a-3c2d-4e1f-9a8b-7c6d5e4f3a2b","event":"SUCCESS",` +
		`"timestamp":"2026-11-23T11:59:58.123456Z","metadata":{"utr":"UTR202611230001","failure_reason":null}}`))
	require.NoError(b, err)
	for _, impl := range []struct {
		name string
		fn   func([]byte) (*Event, error)
	}{{"reader", decodeEvent}, {"encoding-json", referenceDecode}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := impl.fn(canonical); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
