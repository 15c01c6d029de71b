package sandbox_test

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

// BenchmarkStateMemory reports the heap an organization costs when added
// (its empty tables and indexes) and a customer added to it: add 10,000
// of each and divide. A payout's cost (with its quotation) is reported by
// BenchmarkPayoutsAtScale.
//
//	go test -run '^$' -bench StateMemory -benchtime 1x ./sandbox/
func BenchmarkStateMemory(b *testing.B) {
	const n = 10_000
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for i := 0; i < b.N; i++ {
		sb := sandbox.New()
		start := heap()
		var last sandbox.Organization
		for j := 0; j < n; j++ {
			o, err := sb.AddOrganization(sandbox.Organization{Name: "Org " + strconv.Itoa(j)})
			if err != nil {
				b.Fatal(err)
			}
			last = o
		}
		orgs := heap()
		for j := 0; j < n; j++ {
			if _, err := sb.AddCustomer(sandbox.Customer{OrganizationID: last.ID, Name: "Person " + strconv.Itoa(j)}); err != nil {
				b.Fatal(err)
			}
		}
		customers := heap()
		b.ReportMetric(float64(orgs-start)/n, "heapB/organization")
		b.ReportMetric(float64(customers-orgs)/n, "heapB/customer")
		runtime.KeepAlive(sb)
	}
}
