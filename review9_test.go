package fiatramp_test

import (
	"context"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A chain of pages whose next links are long and distinct costs memory for
// the page being read, not for every link followed so far: the listing
// remembers what it visited without keeping each link's text (a server can
// make every link nearly as long as the body cap, and the page cap allows
// 10,000 of them).
func TestBankAccountsMemoryDoesNotGrowWithLinkText(t *testing.T) {
	h := newHarness(t)
	path := "/cms/api/v1/bank/list/" + customerID.String()
	pad := strings.Repeat("a", 1<<20)
	h.mock.RegisterResponder(http.MethodGet, testBase+path, func(req *http.Request) (*http.Response, error) {
		n, _ := strconv.Atoi(req.URL.Query().Get("p"))
		next := jsonQuote(testBase + path + "?p=" + strconv.Itoa(n+1) + "&pad=" + pad)
		return httpmock.NewStringResponse(200, bankPage(1, next, n%900+1)), nil
	})
	const pages = 48
	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n := 0
	for _, err := range h.client.Customers.BankAccounts(context.Background(), customerID) {
		require.NoError(t, err)
		if n++; n == pages {
			runtime.GC()
			runtime.ReadMemStats(&during)
			break
		}
	}
	require.Equal(t, pages, n)
	grown := int64(during.HeapAlloc) - int64(before.HeapAlloc)
	assert.Less(t, grown, int64(pages/2)<<20, "heap grew by %d MiB over %d pages of 1 MiB links", grown>>20, pages)
}
