package sandbox_test

import (
	"net/http"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
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

// TestRemovedOrganizationLeavesNoHostedPage holds that a hosted page of
// an organization removed (a failed Load undone) is gone for good, even
// once an organization of the same id is added again (the same Load
// retried): the cross-organization index's entry names the removed
// organization, not its id alone.
func TestRemovedOrganizationLeavesNoHostedPage(t *testing.T) {
	e := newEnv(t)
	w, err := e.client.Widget.Initialize(ctx(t), widgetOrder())
	require.NoError(t, err)
	link, err := e.client.KYC.GenerateLink(ctx(t), types.KYCLinkRequest{CustomerID: e.cust.ID, RedirectURL: "https://shop.example/"})
	require.NoError(t, err)

	sandbox.RemoveOrganizations(e.sb, []sandbox.Organization{e.org})
	_, err = e.sb.AddOrganization(e.org)
	require.NoError(t, err)
	_, err = e.sb.AddCustomer(e.cust)
	require.NoError(t, err)

	status, _ := getPage(t, w.WidgetLink)
	assert.Equal(t, http.StatusNotFound, status, "the removed organization's widget session")
	assert.Empty(t, e.sb.WidgetSessions(e.org.ID))
	status, _ = getPage(t, link.URL)
	assert.Equal(t, http.StatusNotFound, status, "the removed organization's KYC link")
}
