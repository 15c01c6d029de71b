package sandbox_test

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// historyPayouts creates n payouts of customer cust, each on its own
// quotation, one a day from the sandbox clock's day on, and returns their
// ids in creation order.
func historyPayouts(e *env, cust sandbox.Customer, bank uuid.UUID, n int) []uuid.UUID {
	e.t.Helper()
	ids := make([]uuid.UUID, n)
	for i := range ids {
		q := e.quotation(func(q *sandbox.Quotation) { q.CustomerID, q.BankID = cust.ID, bank })
		p, err := e.client.Payouts.Create(ctx(e.t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: cust.ID})
		require.NoError(e.t, err)
		ids[i] = p.ID
		e.sb.Advance(24 * time.Hour)
	}
	return ids
}

// collect walks the history under f and returns the payout ids in order.
func collect(t *testing.T, c *fiatramp.Client, f types.PayoutListFilter) []uuid.UUID {
	t.Helper()
	var ids []uuid.UUID
	for p, err := range c.Payouts.All(ctx(t), f) {
		require.NoError(t, err)
		ids = append(ids, p.ID)
	}
	return ids
}

func TestPayoutHistoryPagesWithAbsoluteLinks(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.PageSize = 3 })
	ids := historyPayouts(e, e.cust, e.bank.ID, 7)

	page, err := e.client.Payouts.List(ctx(t), types.PayoutListFilter{CustomerID: e.cust.ID})
	require.NoError(t, err)
	assert.Equal(t, 7, page.Count)
	require.Len(t, page.Results, 3)
	assert.Equal(t, ids[0], page.Results[0].ID, "creation order")
	require.NotNil(t, page.Next)
	assert.True(t, strings.HasPrefix(*page.Next, "http://"), "absolute next link: %s", *page.Next)
	assert.Contains(t, *page.Next, "customer_id="+e.cust.ID.String(), "the link keeps the filter")
	assert.Nil(t, page.Previous)

	second, err := e.client.Payouts.ListPage(ctx(t), *page.Next)
	require.NoError(t, err)
	assert.Equal(t, ids[3], second.Results[0].ID)
	require.NotNil(t, second.Previous)

	assert.Equal(t, ids, collect(t, e.client, types.PayoutListFilter{}), "every item, page after page")
	assert.Equal(t, "EXO", page.Results[0].ExchangeOrderID[:3], "fetch shape")
}

func TestPayoutHistoryFilters(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.PageSize = 2 })
	other := e.customer(e.org, sandbox.Customer{Name: "Vikram"})
	otherBank := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: other.ID, AccountName: "Vikram"})).(sandbox.BankAccount)
	day0 := e.sb.Now()
	mine := historyPayouts(e, e.cust, e.bank.ID, 4) // days 0..3
	theirs := historyPayouts(e, other, otherBank.ID, 2)
	_, err := e.client.Payouts.SimulateStatus(ctx(t), mine[1], types.PayoutSuccess)
	require.NoError(t, err)
	_, err = e.client.Payouts.SimulateStatus(ctx(t), theirs[0], types.PayoutSuccess)
	require.NoError(t, err)

	assert.Equal(t, mine, collect(t, e.client, types.PayoutListFilter{CustomerID: e.cust.ID}))
	assert.Equal(t, theirs, collect(t, e.client, types.PayoutListFilter{CustomerID: other.ID}))
	assert.Equal(t, []uuid.UUID{mine[1], theirs[0]}, collect(t, e.client, types.PayoutListFilter{Status: types.PayoutSuccess}))
	assert.Equal(t, []uuid.UUID{mine[1]}, collect(t, e.client, types.PayoutListFilter{Status: types.PayoutSuccess, CustomerID: e.cust.ID}))
	assert.Empty(t, collect(t, e.client, types.PayoutListFilter{Status: "PARKED"}), "an unknown status is sent and matches nothing")
	days := collect(t, e.client, types.PayoutListFilter{StartDate: day0.Add(24 * time.Hour), EndDate: day0.Add(48 * time.Hour)})
	assert.Equal(t, mine[1:3], days, "days 1 and 2, both ends included")

	// Another organization sees none of them.
	assert.Empty(t, collect(t, e.clientFor(e.otherOrg(false)), types.PayoutListFilter{}))
}

// The service answers a range with one end under errors.date_range; the
// client refuses it before sending, so the raw call shows the service's
// side.
func TestPayoutHistoryDateRangeRefusals(t *testing.T) {
	e := newEnv(t)
	for _, q := range []string{"start_date=2026-11-01", "end_date=2026-11-01", "start_date=2026-11-02&end_date=2026-11-01"} {
		err := e.client.Do(ctx(t), http.MethodGet, "/pos/api/v1/payout/history?"+q, nil, nil)
		var apiErr *fiatramp.APIError
		require.ErrorAs(t, err, &apiErr, q)
		assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
		assert.Contains(t, apiErr.FieldErrors, "date_range", q)
		assert.ErrorIs(t, err, fiatramp.ErrInvalidDateRange, q)
	}
	err := e.client.Do(ctx(t), http.MethodGet, "/pos/api/v1/payout/history?start_date=01-11-2026&end_date=2026-11-02", nil, nil)
	var apiErr *fiatramp.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Contains(t, apiErr.FieldErrors, "start_date")
	err = e.client.Do(ctx(t), http.MethodGet, "/pos/api/v1/payout/history?page=9", nil, nil)
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)

	_, err = e.client.Payouts.List(ctx(t), types.PayoutListFilter{StartDate: epoch})
	assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
}

// BenchmarkPayoutsAtScale reads pages of the payout list of an
// organization holding 1,000, 10,000 and 100,000 payouts (created through
// the operation, ten customers in turn, a day of the sandbox clock per
// thousand): the first and a middle page, a customer's first page and a
// day's first page. The time per page must not grow with the number of
// payouts: each is a slice of the organization's (or the customer's)
// list, the day found by binary search. Requests go to the handler in
// process and the garbage collector is off while timing, as in
// BenchmarkCustomersAtScale. It reports the heap a payout costs with its
// quotation.
//
//	go test -run '^$' -bench PayoutsAtScale -benchtime 2000x ./sandbox/
func BenchmarkPayoutsAtScale(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		e := newEnv(b)
		client := e.clientFor(e.org, fiatramp.WithHTTPClient(&http.Client{Transport: inProcess{e.sb}}))
		custs := make([]sandbox.Customer, 10)
		banks := make([]uuid.UUID, len(custs))
		for i := range custs {
			custs[i] = e.customer(e.org, sandbox.Customer{Name: "Person " + strconv.Itoa(i)})
			banks[i] = e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: custs[i].ID})).(sandbox.BankAccount).ID
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		middleDay := e.sb.Now()
		for i := 0; i < n; i++ {
			c := custs[i%len(custs)]
			q, err := e.sb.AddQuotation(sandbox.Quotation{CustomerID: c.ID, BankID: banks[i%len(custs)],
				SendingAmount: decimal.NewFromInt(10), ExpiresAt: e.sb.Now().Add(time.Hour)})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := client.Payouts.Create(context.Background(), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: c.ID}); err != nil {
				b.Fatal(err)
			}
			if i%1000 == 999 {
				e.sb.Advance(24 * time.Hour)
			}
			if i == n/2 {
				middleDay = e.sb.Now()
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perPayout := float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
		timed := func(b *testing.B, path string) {
			runtime.GC()
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := client.Do(context.Background(), http.MethodGet, path, nil, nil); err != nil {
					b.Fatal(err)
				}
			}
		}
		const list = "/pos/api/v1/payout/history"
		day := middleDay.UTC().Format("2006-01-02")
		b.Run(fmt.Sprintf("first/%d", n), func(b *testing.B) {
			timed(b, list)
			b.ReportMetric(perPayout, "heapB/payout")
		})
		b.Run(fmt.Sprintf("middle/%d", n), func(b *testing.B) { timed(b, fmt.Sprintf("%s?page=%d", list, n/20)) })
		b.Run(fmt.Sprintf("customer/%d", n), func(b *testing.B) { timed(b, list+"?customer_id="+custs[3].ID.String()) })
		b.Run(fmt.Sprintf("day/%d", n), func(b *testing.B) { timed(b, list+"?start_date="+day+"&end_date="+day) })
	}
}
