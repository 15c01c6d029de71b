package fiatramp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

const historyPath = "/pos/api/v1/payout/history"

// historyPage is a history page of count items with the given next link
// (JSON, e.g. `null`) holding payouts numbered by nums, fetch shape.
func historyPage(count int, next string, nums ...int) string {
	items := make([]string, len(nums))
	for i, n := range nums {
		items[i] = fmt.Sprintf(`{"id":"00000000-0000-4000-8000-%012d","status":"SUCCESS","client_reference_id":"ref-%d",`+
			`"sending_amount":"10.5","receiveing_amount":"918.29","rate":"88.5"}`, n, n)
	}
	return ok(fmt.Sprintf(`{"count":%d,"next":%s,"previous":null,"results":[%s]}`, count, next, strings.Join(items, ",")))
}

// historyRefs walks the history and returns each payout's reference.
func historyRefs(t *testing.T, c *fiatramp.Client, f types.PayoutListFilter) ([]string, error) {
	t.Helper()
	var refs []string
	for p, err := range c.Payouts.All(context.Background(), f) {
		if err != nil {
			return refs, err
		}
		refs = append(refs, *p.ClientReferenceID)
	}
	return refs, nil
}

func TestPayoutsListHistoryQuery(t *testing.T) {
	ist := time.FixedZone("IST", 5*3600+1800)
	for _, tc := range []struct {
		name   string
		filter types.PayoutListFilter
		query  string
	}{
		{"no filter", types.PayoutListFilter{}, ""},
		{"every filter", types.PayoutListFilter{Status: types.PayoutSuccess, CustomerID: customerID,
			StartDate: time.Date(2026, 1, 1, 23, 0, 0, 0, time.UTC), EndDate: time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)},
			"customer_id=" + customerID.String() + "&end_date=2026-01-31&payout_status=SUCCESS&start_date=2026-01-01"},
		{"the date in its own zone", types.PayoutListFilter{StartDate: time.Date(2026, 2, 1, 0, 30, 0, 0, ist), EndDate: time.Date(2026, 2, 1, 0, 30, 0, 0, ist)},
			"end_date=2026-02-01&start_date=2026-02-01"},
		{"an unknown status is sent as given", types.PayoutListFilter{Status: "ON HOLD"}, "payout_status=ON+HOLD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.mock.RegisterResponder(http.MethodGet, testBase+historyPath, func(req *http.Request) (*http.Response, error) {
				assertSigned(t, req, testNow.Unix(), "") // the query is not signed
				assert.Equal(t, tc.query, req.URL.RawQuery)
				return httpmock.NewStringResponse(http.StatusOK, historyPage(1, "null", 1)), nil
			})
			page, err := h.client.Payouts.List(context.Background(), tc.filter)
			require.NoError(t, err)
			require.Len(t, page.Results, 1)
			assert.Equal(t, "918.29", page.Results[0].ReceivingAmount.String(), "fetch shape: receiveing_amount")
			assert.Equal(t, 1, h.mock.GetTotalCallCount())
		})
	}
}

// A date range with one end, or ending before it starts, is refused before
// sending, naming the field; so is every other listing call with it.
func TestPayoutsHistoryDateRangeRefused(t *testing.T) {
	h := newHarness(t)
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		field  string
		filter types.PayoutListFilter
	}{
		{"end_date", types.PayoutListFilter{StartDate: day}},
		{"start_date", types.PayoutListFilter{EndDate: day}},
		{"end_date", types.PayoutListFilter{StartDate: day, EndDate: day.Add(-time.Hour)}},
	} {
		_, err := h.client.Payouts.List(context.Background(), tc.filter)
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr)
		assert.Equal(t, tc.field, verr.Field)
		_, err = historyRefs(t, h.client, tc.filter)
		require.ErrorAs(t, err, &verr)
		assert.Equal(t, tc.field, verr.Field)
	}
	assert.Zero(t, h.mock.GetTotalCallCount())
}

func TestPayoutsHistoryIterator(t *testing.T) {
	abs := testBase + historyPath
	t.Run("follows absolute links that keep the filter", func(t *testing.T) {
		h := newHarness(t)
		q := "customer_id=" + customerID.String()
		h.mock.RegisterResponderWithQuery(http.MethodGet, abs, q, httpmock.NewStringResponder(200, historyPage(5, `"`+abs+`?`+q+`&page=2"`, 1, 2)))
		h.mock.RegisterResponderWithQuery(http.MethodGet, abs, q+"&page=2", httpmock.NewStringResponder(200, historyPage(5, `"`+abs+`?`+q+`&page=3"`, 3, 4)))
		h.mock.RegisterResponderWithQuery(http.MethodGet, abs, q+"&page=3", httpmock.NewStringResponder(200, historyPage(5, "null", 5)))
		refs, err := historyRefs(t, h.client, types.PayoutListFilter{CustomerID: customerID})
		require.NoError(t, err)
		assert.Equal(t, []string{"ref-1", "ref-2", "ref-3", "ref-4", "ref-5"}, refs)
		assert.Equal(t, 3, h.mock.GetTotalCallCount())
	})
	t.Run("re-roots a link to another scheme and host", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodGet, historyPath, "", 200, historyPage(2, `"http://10.0.0.7:8000/gateway`+historyPath+`?page=2"`, 1))
		h.mock.RegisterResponderWithQuery(http.MethodGet, abs, "page=2", httpmock.NewStringResponder(200, historyPage(2, "null", 2)))
		refs, err := historyRefs(t, h.client, types.PayoutListFilter{})
		require.NoError(t, err)
		assert.Equal(t, []string{"ref-1", "ref-2"}, refs)
		assert.Equal(t, 2, h.mock.GetTotalCallCount())
	})
	for name, next := range map[string]string{
		"another host, outside prefix": "https://evil.example/other" + historyPath + "?page=2",
		"outside prefix":               testHost + "/other" + historyPath + "?page=2",
		"dot segments":                 testBase + "/pos/api/v1/payout/%2e%2e/%2e%2e/x?page=2",
	} {
		t.Run("refuses "+name, func(t *testing.T) {
			h := newHarness(t)
			h.expect(http.MethodGet, historyPath, "", 200, historyPage(4, `"`+next+`"`, 1))
			refs, err := historyRefs(t, h.client, types.PayoutListFilter{})
			assert.Equal(t, []string{"ref-1"}, refs)
			require.ErrorIs(t, err, fiatramp.ErrPagination)
			assert.Equal(t, 1, h.mock.GetTotalCallCount(), "the link was not followed")
		})
	}
	t.Run("stops at the page cap", func(t *testing.T) {
		h := newHarness(t, fiatramp.WithMaxPages(3))
		h.mock.RegisterResponder(http.MethodGet, abs, func(req *http.Request) (*http.Response, error) {
			n := 1
			_, _ = fmt.Sscanf(req.URL.Query().Get("page"), "%d", &n)
			return httpmock.NewStringResponse(200, historyPage(1000, fmt.Sprintf(`"%s?page=%d"`, abs, n+1), n)), nil
		})
		refs, err := historyRefs(t, h.client, types.PayoutListFilter{})
		require.ErrorIs(t, err, fiatramp.ErrPagination)
		assert.Equal(t, []string{"ref-1", "ref-2", "ref-3"}, refs)
		assert.Equal(t, 3, h.mock.GetTotalCallCount())
	})
}

func TestPayoutsListHistoryPage(t *testing.T) {
	abs := testBase + historyPath
	h := newHarness(t)
	h.mock.RegisterResponderWithQuery(http.MethodGet, abs, "page=4&payout_status=FAILED",
		httpmock.NewStringResponder(200, historyPage(31, "null", 31)))
	page, err := h.client.Payouts.ListPage(context.Background(), abs+"?page=4&payout_status=FAILED")
	require.NoError(t, err)
	require.Len(t, page.Results, 1)
	assert.Equal(t, uuid.MustParse("00000000-0000-4000-8000-000000000031"), page.Results[0].ID)

	for _, next := range []string{"", testBase + "/pos/api/v1/payout/" + payoutID.String(), "https://evil.example/gateway" + historyPath} {
		_, err := h.client.Payouts.ListPage(context.Background(), next)
		require.Error(t, err, next)
	}
	assert.Equal(t, 1, h.mock.GetTotalCallCount(), "no link outside the history was sent")
}

// historyTransport serves a history of total payouts, perPage to a page,
// without a network: every page is the same prebuilt items with the next
// link of its number, so that serving costs the same at any size.
type historyTransport struct {
	base    string
	total   int
	perPage int
	items   []byte // perPage items, comma-separated
}

func newHistoryTransport(base string, total, perPage int) *historyTransport {
	nums := make([]int, perPage)
	for i := range nums {
		nums[i] = i + 1
	}
	page := historyPage(0, "null", nums...)
	start := strings.Index(page, `"results":[`) + len(`"results":[`)
	return &historyTransport{base: base, total: total, perPage: perPage, items: []byte(page[start : len(page)-3])}
}

func (h *historyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	n := 1
	if p := req.URL.Query().Get("page"); p != "" {
		n, _ = strconv.Atoi(p)
	}
	next := "null"
	if n*h.perPage < h.total {
		next = `"` + h.base + historyPath + "?page=" + strconv.Itoa(n+1) + `"`
	}
	var body bytes.Buffer
	body.Grow(len(h.items) + 200)
	fmt.Fprintf(&body, `{"status":true,"message":"ok","data":{"count":%d,"next":%s,"previous":null,"results":[`, h.total, next)
	body.Write(h.items)
	body.WriteString(`]}}`)
	return &http.Response{
		StatusCode: 200, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   io.NopCloser(&body), ContentLength: int64(body.Len()), Request: req,
	}, nil
}

// BenchmarkPayoutsListHistoryVsFloor compares one history page of 100
// payouts through List with the hand-written floor.
func BenchmarkPayoutsListHistoryVsFloor(b *testing.B) {
	ctx := context.Background()
	const base = "http://127.0.0.1:1"
	hc := &http.Client{Transport: newHistoryTransport(base, 100, 100)}
	c := benchClient(b, base, hc)
	lib := func() error {
		p, err := c.Payouts.List(ctx, types.PayoutListFilter{})
		if err == nil && len(p.Results) != 100 {
			err = fmt.Errorf("library: %d payouts", len(p.Results))
		}
		return err
	}
	floor := func() error {
		var page struct {
			Count   int           `json:"count"`
			Next    *string       `json:"next"`
			Results []floorPayout `json:"results"`
		}
		if err := floorSend(ctx, hc, http.MethodGet, base+historyPath, nil, &page); err != nil {
			return err
		}
		if len(page.Results) != 100 {
			return fmt.Errorf("floor: %d payouts", len(page.Results))
		}
		return nil
	}
	compareWithFloor(b, 1, lib, floor)
}

// BenchmarkPayoutsHistoryWalk walks histories of 1,000, 10,000 and
// 100,000 payouts (100 to a page) through All and reports, for each
// size, the time per payout and the live heap sampled every ten pages
// (after a collection); then the growth exponents of the time per decade
// (1.0 is linear) and the ratio of the largest live heap to the
// smallest's (1.0: bounded by one page, whatever the size).
func BenchmarkPayoutsHistoryWalk(b *testing.B) {
	ctx := context.Background()
	const base = "http://127.0.0.1:1"
	sizes := []int{1_000, 10_000, 100_000}
	times := make([]time.Duration, len(sizes))
	live := make([]uint64, len(sizes))
	warm := benchClient(b, base, &http.Client{Transport: newHistoryTransport(base, sizes[0], 100)})
	for _, err := range warm.Payouts.All(ctx, types.PayoutListFilter{}) { // warm the decoders and pools
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		for i, size := range sizes {
			c := benchClient(b, base, &http.Client{Transport: newHistoryTransport(base, size, 100)})
			runtime.GC()
			var ms runtime.MemStats
			start, n := time.Now(), 0
			var paused time.Duration
			for p, err := range c.Payouts.All(ctx, types.PayoutListFilter{}) {
				if err != nil {
					b.Fatal(err)
				}
				if n++; n%1000 == 0 && p.Status != "" { // every ten pages
					t := time.Now()
					runtime.GC()
					runtime.ReadMemStats(&ms)
					live[i] = max(live[i], ms.HeapAlloc)
					paused += time.Since(t)
				}
			}
			if n != size {
				b.Fatalf("walked %d payouts of %d", n, size)
			}
			times[i] += time.Since(start) - paused
		}
	}
	for i, size := range sizes {
		b.ReportMetric(float64(times[i].Nanoseconds())/float64(size*b.N), fmt.Sprintf("ns/payout@%d", size))
		b.ReportMetric(float64(live[i])/1024, fmt.Sprintf("live-KiB@%d", size))
	}
	b.ReportMetric(math.Log10(float64(times[1])/float64(times[0])), "growth-1k-10k")
	b.ReportMetric(math.Log10(float64(times[2])/float64(times[1])), "growth-10k-100k")
	b.ReportMetric(float64(live[2])/float64(live[0]), "live-ratio-100k/1k")
}

// An Observer sees every page of a filtered walk under List's name
// and path template: never the query, which carries a customer id.
func TestPayoutsHistoryObserverSeesNoQuery(t *testing.T) {
	rec := new(recorder)
	h := newHarness(t, fiatramp.WithObserver(rec))
	abs := testBase + historyPath
	q := "customer_id=" + customerID.String()
	h.mock.RegisterResponderWithQuery(http.MethodGet, abs, q, httpmock.NewStringResponder(200, historyPage(2, `"`+abs+`?`+q+`&page=2"`, 1)))
	h.mock.RegisterResponderWithQuery(http.MethodGet, abs, q+"&page=2", httpmock.NewStringResponder(200, historyPage(2, "null", 2)))
	refs, err := historyRefs(t, h.client, types.PayoutListFilter{CustomerID: customerID})
	require.NoError(t, err)
	assert.Len(t, refs, 2)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	require.Len(t, rec.calls, 2)
	for _, call := range rec.calls {
		assert.Equal(t, "Payouts.List", call.Operation)
		assert.Equal(t, historyPath, call.Route)
		assert.NotContains(t, fmt.Sprintf("%+v", call), customerID.String())
	}
}

// The service's own refusal of a date range matches ErrInvalidDateRange.
func TestPayoutsListHistoryServiceDateRange(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodGet, testBase+historyPath, httpmock.NewStringResponder(http.StatusBadRequest,
		fail("Invalid date range", "REQ_FIELD_MISSING", `{"date_range":["Both start_date and end_date are required."]}`)))
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	_, err := h.client.Payouts.List(context.Background(), types.PayoutListFilter{StartDate: day, EndDate: day})
	require.ErrorIs(t, err, fiatramp.ErrInvalidDateRange)
	assert.False(t, errors.Is(err, fiatramp.ErrInvalidRequest), "the service refused it, not the client")
}
