package fiatramp

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fiatramp/fiatramp-go/types"
)

// Hostile bodies under the default size cap, one per attack class on the
// work of decoding a response. They serve the table tests, the fuzz seeds
// and BenchmarkHostileResponse.

// hostileDeepErrors nests `errors` about 10,000 arrays deep in 19 KiB.
func hostileDeepErrors() []byte {
	const depth = 9800
	return []byte(`{"status":false,"message":"Quotation has expired","errors":` +
		strings.Repeat("[", depth) + `"x"` + strings.Repeat("]", depth) + `,"data":null}`)
}

// hostileDeepObjectErrors nests `errors` 6,000 objects deep.
func hostileDeepObjectErrors() []byte {
	const depth = 6000
	return []byte(`{"status":false,"message":"Quotation has expired","errors":` +
		strings.Repeat(`{"a":`, depth) + `"x"` + strings.Repeat("}", depth) + `,"data":null}`)
}

// hostileWrappedString wraps a 4 MB string in 40 arrays inside `errors`.
func hostileWrappedString() []byte {
	const depth = 40
	return []byte(`{"status":false,"errors":{"f":` + strings.Repeat("[", depth) +
		`"` + strings.Repeat("a", 4_000_000) + `"` + strings.Repeat("]", depth) + `}}`)
}

// hostileWideErrors fills `errors` with 500,000 one-letter messages under
// 1,000 fields.
func hostileWideErrors() []byte {
	var b strings.Builder
	b.WriteString(`{"status":false,"errors":{`)
	for f := 0; f < 1000; f++ {
		if f > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"field_` + strconv.Itoa(f) + `":[`)
		b.WriteString(strings.Repeat(`"m",`, 499))
		b.WriteString(`"m"]`)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// hostileWideNesting holds 10,000 values each nested 60 levels deep in an
// `errors` array: no value too deep, the whole wide.
func hostileWideNesting() []byte {
	item := strings.Repeat("[", 60) + `"x"` + strings.Repeat("]", 60)
	return []byte(`{"status":false,"errors":[` + strings.Repeat(item+",", 9999) + item + `]}`)
}

// hostileLongDecimal is a successful payout whose sending_amount has
// 1.5 million digits.
func hostileLongDecimal() []byte {
	return []byte(`{"status":true,"message":"ok","data":{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34",` +
		`"sending_amount":"` + strings.Repeat("9", 1_500_000) + `","rate":"1","status":"PROCESSING"}}`)
}

// hostileBody is one hostile response: its status and body, and a fresh
// out for decodeResponse.
type hostileBody struct {
	name   string
	status int
	body   func() []byte
	out    func() any
}

var hostileBodies = []hostileBody{
	{"deep-array-errors", 400, hostileDeepErrors, func() any { return nil }},
	{"deep-object-errors", 400, hostileDeepObjectErrors, func() any { return nil }},
	{"wrapped-4MB-string", 400, hostileWrappedString, func() any { return nil }},
	{"wide-errors", 400, hostileWideErrors, func() any { return nil }},
	{"wide-nesting", 400, hostileWideNesting, func() any { return nil }},
	{"long-decimal", 200, hostileLongDecimal, func() any { return new(types.Payout) }},
}

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHostileResponse decodes one hostile response of each kind:
// B/op is the memory allocated, ns/op the wall time and cpu-ns/op the CPU
// time of the whole process (garbage collection included).
func BenchmarkHostileResponse(b *testing.B) {
	for _, h := range hostileBodies {
		body := h.body()
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			start := cpuTime()
			for range b.N {
				_ = decodeResponse(h.status, body, h.out(), nil)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
