package fiatramp_test

import (
	"context"
	"fmt"
	"net/http"
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
func historyRefs(t *testing.T, c *fiatramp.Client, f types.PayoutHistoryFilter) ([]string, error) {
	t.Helper()
	var refs []string
	for p, err := range c.Payouts.History(context.Background(), f) {
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
		filter types.PayoutHistoryFilter
		query  string
	}{
		{"no filter", types.PayoutHistoryFilter{}, ""},
		{"every filter", types.PayoutHistoryFilter{Status: types.PayoutSuccess, CustomerID: customerID,
			StartDate: time.Date(2026, 1, 1, 23, 0, 0, 0, time.UTC), EndDate: time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)},
			"customer_id=" + customerID.String() + "&end_date=2026-01-31&payout_status=SUCCESS&start_date=2026-01-01"},
		{"the date in its own zone", types.PayoutHistoryFilter{StartDate: time.Date(2026, 2, 1, 0, 30, 0, 0, ist), EndDate: time.Date(2026, 2, 1, 0, 30, 0, 0, ist)},
			"end_date=2026-02-01&start_date=2026-02-01"},
		{"an unknown status is sent as given", types.PayoutHistoryFilter{Status: "ON HOLD"}, "payout_status=ON+HOLD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.mock.RegisterResponder(http.MethodGet, testBase+historyPath, func(req *http.Request) (*http.Response, error) {
				assertSigned(t, req, testNow.Unix(), "") // the query is not signed
				assert.Equal(t, tc.query, req.URL.RawQuery)
				return httpmock.NewStringResponse(http.StatusOK, historyPage(1, "null", 1)), nil
			})
			page, err := h.client.Payouts.ListHistory(context.Background(), tc.filter)
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
		filter types.PayoutHistoryFilter
	}{
		{"end_date", types.PayoutHistoryFilter{StartDate: day}},
		{"start_date", types.PayoutHistoryFilter{EndDate: day}},
		{"end_date", types.PayoutHistoryFilter{StartDate: day, EndDate: day.Add(-time.Hour)}},
	} {
		_, err := h.client.Payouts.ListHistory(context.Background(), tc.filter)
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
		refs, err := historyRefs(t, h.client, types.PayoutHistoryFilter{CustomerID: customerID})
		require.NoError(t, err)
		assert.Equal(t, []string{"ref-1", "ref-2", "ref-3", "ref-4", "ref-5"}, refs)
		assert.Equal(t, 3, h.mock.GetTotalCallCount())
	})
	for name, next := range map[string]string{
		"another host":   "https://evil.example/gateway" + historyPath + "?page=2",
		"outside prefix": testHost + "/other" + historyPath + "?page=2",
		"dot segments":   testBase + "/pos/api/v1/payout/%2e%2e/%2e%2e/x?page=2",
	} {
		t.Run("refuses "+name, func(t *testing.T) {
			h := newHarness(t)
			h.expect(http.MethodGet, historyPath, "", 200, historyPage(4, `"`+next+`"`, 1))
			refs, err := historyRefs(t, h.client, types.PayoutHistoryFilter{})
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
		refs, err := historyRefs(t, h.client, types.PayoutHistoryFilter{})
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
	page, err := h.client.Payouts.ListHistoryPage(context.Background(), abs+"?page=4&payout_status=FAILED")
	require.NoError(t, err)
	require.Len(t, page.Results, 1)
	assert.Equal(t, uuid.MustParse("00000000-0000-4000-8000-000000000031"), page.Results[0].ID)

	for _, next := range []string{"", testBase + "/pos/api/v1/payout/" + payoutID.String(), "https://evil.example/gateway" + historyPath} {
		_, err := h.client.Payouts.ListHistoryPage(context.Background(), next)
		require.Error(t, err, next)
	}
	assert.Equal(t, 1, h.mock.GetTotalCallCount(), "no link outside the history was sent")
}
