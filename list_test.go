package fiatramp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// endlessPages serves a bank account listing that never ends: page N holds
// account N and links to page N+1, so every link is new and valid. Pages
// after last (when last > 0) link to nothing.
func endlessPages(t *testing.T, last int) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	listPath := "/gateway/cms/api/v1/bank/list/" + customerID.String()
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		if r.URL.Path != listPath {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		n := 1
		if p := r.URL.Query().Get("page"); p != "" {
			var err error
			if n, err = strconv.Atoi(p); err != nil {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
		}
		next := `"` + listPath + "?page=" + strconv.Itoa(n+1) + `"`
		if last > 0 && n >= last {
			next = "null"
		}
		_, _ = io.WriteString(w, bankPage(1_000_000, next, n))
	}))
	t.Cleanup(srv.Close)
	return srv, &served
}

func pagingClient(t *testing.T, srv *httptest.Server, opts ...fiatramp.Option) *fiatramp.Client {
	t.Helper()
	c, err := fiatramp.New(testKey, testSecret, append([]fiatramp.Option{
		fiatramp.WithBaseURL(srv.URL + "/gateway"),
		fiatramp.WithHTTPClient(srv.Client()),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}),
	}, opts...)...)
	require.NoError(t, err)
	return c
}

// TestBankAccountsPageCap: a server handing out an endless chain of
// distinct, valid pages is followed up to the cap and no further; the
// listing then ends with ErrPagination long before the context would.
func TestBankAccountsPageCap(t *testing.T) {
	t.Run("WithMaxPages", func(t *testing.T) {
		srv, served := endlessPages(t, 0)
		c := pagingClient(t, srv, fiatramp.WithMaxPages(25))
		got, err := collect(t, c)
		require.ErrorIs(t, err, fiatramp.ErrPagination)
		assert.Contains(t, err.Error(), "more than 25 pages")
		assert.Len(t, got, 25, "every item of the pages fetched is yielded")
		assert.Equal(t, "0025", got[24], "the last item is page 25's")
		assert.Equal(t, int64(25), served.Load(), "no request past the cap")
	})

	t.Run("a listing of exactly the cap ends normally", func(t *testing.T) {
		srv, served := endlessPages(t, 7)
		c := pagingClient(t, srv, fiatramp.WithMaxPages(7))
		got, err := collect(t, c)
		require.NoError(t, err)
		assert.Len(t, got, 7)
		assert.Equal(t, int64(7), served.Load())
	})

	t.Run("one page more than the cap is refused", func(t *testing.T) {
		srv, served := endlessPages(t, 8)
		c := pagingClient(t, srv, fiatramp.WithMaxPages(7))
		got, err := collect(t, c)
		require.ErrorIs(t, err, fiatramp.ErrPagination)
		assert.Len(t, got, 7)
		assert.Equal(t, int64(7), served.Load())
	})

	t.Run("the default cap", func(t *testing.T) {
		if testing.Short() {
			t.Skip("fetches DefaultMaxPages pages")
		}
		require.Equal(t, 10_000, fiatramp.DefaultMaxPages)
		srv, served := endlessPages(t, 0)
		c := pagingClient(t, srv)
		// The context would let the chain run for minutes: the cap, not the
		// deadline, ends it.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		n := 0
		var err error
		for _, e := range c.Customers.BankAccounts(ctx, customerID) {
			if e != nil {
				err = e
				break
			}
			n++
		}
		require.ErrorIs(t, err, fiatramp.ErrPagination)
		require.NoError(t, ctx.Err())
		assert.Equal(t, fiatramp.DefaultMaxPages, n)
		assert.Equal(t, int64(fiatramp.DefaultMaxPages), served.Load())
	})

	t.Run("WithMaxPages refuses a cap below one", func(t *testing.T) {
		for _, n := range []int{0, -1} {
			_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase), fiatramp.WithMaxPages(n))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "WithMaxPages")
		}
	})
}

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

// TestPaginationStaysOnBase complements TestCustomersBankAccountsIterator
// (customers_bank_accounts_test.go, httpmock) with real servers: a next
// link naming another scheme, host, port or user is followed by its path
// and query on the base address (what a service behind a gateway needs),
// a link whose path leaves the base path is refused before any request,
// and the other host never sees a request either way.
func TestPaginationStaysOnBase(t *testing.T) {
	listPath := "/gateway/cms/api/v1/bank/list/" + customerID.String()

	foreign := new(hitCounter)
	foreignSrv := httptest.NewServer(foreign)
	defer foreignSrv.Close()

	type served struct {
		mu    sync.Mutex
		paths []string // RequestURI of every request
	}
	start := func(t *testing.T, next string) (*fiatramp.Client, *served, string) {
		t.Helper()
		got := new(served)
		var base string
		api := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got.mu.Lock()
			got.paths = append(got.paths, r.RequestURI)
			runaway := len(got.paths) > 10
			got.mu.Unlock()
			if runaway { // a client that loops on a repeated link fails, not hangs
				w.WriteHeader(http.StatusTeapot)
				return
			}
			if r.URL.Path != listPath {
				w.WriteHeader(http.StatusNotFound)
				return
			}
			link := strings.ReplaceAll(next, "{base}", base)
			link = strings.ReplaceAll(link, "{host}", strings.TrimPrefix(base, "https://"))
			switch r.URL.RawQuery {
			case "":
				_, _ = io.WriteString(w, bankPage(9, jsonQuote(link), 1))
			default: // page 2 and on, for the positive control
				_, _ = io.WriteString(w, bankPage(9, "null", 2))
			}
		}))
		t.Cleanup(api.Close)
		base = api.URL
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(api.URL+"/gateway"),
			fiatramp.WithHTTPClient(api.Client()), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
		require.NoError(t, err)
		return c, got, api.URL
	}

	t.Run("control: a link on the base address is followed", func(t *testing.T) {
		c, got, _ := start(t, "{base}"+listPath+"?page=2")
		items, err := collect(t, c)
		require.NoError(t, err)
		assert.Equal(t, []string{"001", "002"}, items)
		assert.Equal(t, []string{listPath, listPath + "?page=2"}, got.paths)
	})

	t.Run("control: escapes outside the path are followed", func(t *testing.T) {
		c, got, _ := start(t, "{base}"+listPath+"?page=2&after=a%2Fb%2e%2e")
		items, err := collect(t, c)
		require.NoError(t, err)
		assert.Equal(t, []string{"001", "002"}, items)
		assert.Equal(t, []string{listPath, listPath + "?page=2&after=a%2Fb%2e%2e"}, got.paths)
	})

	for name, next := range map[string]string{
		"another host":               foreignSrv.URL + listPath + "?page=2",
		"scheme-relative other host": "//" + strings.TrimPrefix(foreignSrv.URL, "http://") + listPath + "?page=2",
		"https to http, same host":   "http://{host}" + listPath + "?page=2",
		"user info":                  "https://user:pass@{host}" + listPath + "?page=2",
		"another port":               "https://127.0.0.1:1" + listPath + "?page=2",
		"an internal address":        "http://10.0.0.7:8000" + listPath + "?page=2",
	} {
		t.Run("re-roots "+name, func(t *testing.T) {
			before := foreign.hits.Load()
			c, got, _ := start(t, next)
			items, err := collect(t, c)
			require.NoError(t, err)
			assert.Equal(t, []string{"001", "002"}, items)
			assert.Equal(t, []string{listPath, listPath + "?page=2"}, got.paths, "page 2 from the base address")
			assert.Equal(t, before, foreign.hits.Load(), "the other host receives nothing")
		})
	}

	for name, next := range map[string]string{
		"another host outside the base path": foreignSrv.URL + "/other/cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		"another host, no base path":         foreignSrv.URL + "/cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		"outside the base path":              "/other/cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		"dot segments out of base":           "{base}/gateway/../other/cms/api/v1/bank/list/x?page=2",
		"base path as a mere prefix":         "{base}/gatewayX/cms/api/v1/bank/list/x?page=2",
		"the base path itself":               "{base}/gateway",
		"not a URL":                          "https://{host}" + listPath + "?page=%zz\x7f",
		"opaque":                             "mailto:" + listPath,
	} {
		t.Run("refuses "+name, func(t *testing.T) {
			before := foreign.hits.Load()
			c, got, _ := start(t, next)
			items, err := collect(t, c)
			assert.Equal(t, []string{"001"}, items, "the first page is yielded")
			require.ErrorIs(t, err, fiatramp.ErrPagination)
			assert.Equal(t, []string{listPath}, got.paths, "no request for the refused link")
			assert.Equal(t, before, foreign.hits.Load(), "the other host receives nothing")
		})
	}

	t.Run("refuses a link that repeats an earlier page", func(t *testing.T) {
		c, got, _ := start(t, "{base}"+listPath)
		items, err := collect(t, c)
		assert.Equal(t, []string{"001"}, items)
		require.ErrorIs(t, err, fiatramp.ErrPagination)
		assert.Contains(t, err.Error(), "repeats")
		assert.Equal(t, []string{listPath}, got.paths)
	})

	// An escaped dot segment: net/url keeps "%2e%2e" as it is (it is not a
	// dot segment to ResolveReference), the decoded Path still starts with
	// /gateway/, and the request goes out as /gateway/%2e%2e/other/...,
	// which RFC 3986 normalisation (nginx, most gateways) turns into
	// /other/...: outside the base path.
	for name, next := range map[string]string{
		"escaped dot segments":    "{base}/gateway/%2e%2e/other/cms/api/v1/bank/list/x?page=2",
		"escaped slash and dots":  "{base}/gateway/..%2f..%2fother/cms/api/v1/bank/list/x?page=2",
		"upper-case escaped dots": "{base}/gateway/%2E%2E/other/cms/api/v1/bank/list/x?page=2",
		"escaped backslash":       "{base}/gateway/..%5c..%5cother/cms/api/v1/bank/list/x?page=2",
		"escaped single dot":      "{base}/gateway/%2e/cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		// An escaped slash: the decoded path /gateway/other/... passes a
		// prefix check, but the request goes out as /gateway%2Fother/...,
		// which a gateway routing by raw path sends outside /gateway.
		"escaped slash out of the base":    "{base}/gateway%2Fother/cms/api/v1/bank/list/x?page=2",
		"lower-case escaped slash":         "{base}/gateway%2fother/cms/api/v1/bank/list/x?page=2",
		"escaped slash under the base":     "{base}/gateway/cms%2Fapi/v1/bank/list/" + customerID.String() + "?page=2",
		"escaped base path":                "{base}/%67ateway/cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		"mixed-case escaped dots":          "{base}/gateway/%2E%2e/other/cms/api/v1/bank/list/x?page=2",
		"half-escaped dots":                "{base}/gateway/.%2E/other/cms/api/v1/bank/list/x?page=2",
		"plain dots that stay in the base": "{base}/gateway/cms/../cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		"plain single dot":                 "{base}/gateway/./cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		"relative link with dots":          "../list/" + customerID.String() + "?page=2",
		"dots with a path parameter":       "{base}/gateway/..;/other/cms/api/v1/bank/list/x?page=2",
		"double-escaped dots":              "{base}/gateway/%252e%252e/other/cms/api/v1/bank/list/x?page=2",
		"escaped backslash alone":          "{base}/gateway/cms%5capi/v1/bank/list/" + customerID.String() + "?page=2",
	} {
		t.Run("refuses "+name, func(t *testing.T) {
			c, got, _ := start(t, next)
			_, err := collect(t, c)
			require.ErrorIs(t, err, fiatramp.ErrPagination)
			assert.Equal(t, []string{listPath}, got.paths, "no request for the refused link")
		})
	}
}
