package fiatramp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

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
