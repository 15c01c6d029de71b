package fiatramp_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

const payinHistoryPath = "/pis/api/v1/payin/history"

// payinPage is a page of the payin history holding a payin for each utr.
func payinPage(count int, next string, utrs ...string) string {
	items := make([]string, len(utrs))
	for i, u := range utrs {
		items[i] = fmt.Sprintf(`{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","utr":%q,"status":"SUCCESS","sending_amount":"2600.00","receiveing_amount":"29.1"}`, u)
	}
	return ok(fmt.Sprintf(`{"count":%d,"next":%s,"previous":null,"results":[%s]}`, count, next, strings.Join(items, ",")))
}

func TestPayinsListHistory(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponderWithQuery(http.MethodGet, testBase+payinHistoryPath,
		"customer_id=0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01&end_date=2025-03-09&payin_status=FAILED&start_date=2025-03-01",
		func(req *http.Request) (*http.Response, error) {
			assertSigned(t, req, testNow.Unix(), "")
			return httpmock.NewStringResponse(200, payinPage(1, "null", "123456789012")), nil
		})
	ist := time.FixedZone("IST", 5*3600+1800)
	page, err := h.client.Payins.List(context.Background(), types.PayinListFilter{
		Status: types.PayinFailed, CustomerID: customerID,
		// Each date is the calendar date in the time's own location.
		StartDate: time.Date(2025, 3, 1, 0, 30, 0, 0, ist), EndDate: time.Date(2025, 3, 9, 23, 0, 0, 0, time.UTC),
	})
	require.NoError(t, err)
	assert.Equal(t, 1, page.Count)
	require.Len(t, page.Results, 1)
	assert.Equal(t, "123456789012", page.Results[0].UTR)
	assert.Equal(t, "29.1", page.Results[0].ReceivingAmount.String())
	assert.Equal(t, 1, h.mock.GetTotalCallCount())
}

func TestPayinsListHistoryUnfiltered(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodGet, testBase+payinHistoryPath, func(req *http.Request) (*http.Response, error) {
		assert.Empty(t, req.URL.RawQuery, "no filter, no query")
		return httpmock.NewStringResponse(200, payinPage(0, "null")), nil
	})
	page, err := h.client.Payins.List(context.Background(), types.PayinListFilter{})
	require.NoError(t, err)
	assert.NotNil(t, page.Results)
	assert.Empty(t, page.Results)
}

func TestPayinsHistory(t *testing.T) {
	abs := testBase + payinHistoryPath
	h := newHarness(t)
	h.mock.RegisterResponderWithQuery(http.MethodGet, abs, "payin_status=SUCCESS",
		httpmock.NewStringResponder(200, payinPage(3, `"`+abs+`?page=2&payin_status=SUCCESS"`, "A", "B")))
	h.mock.RegisterResponderWithQuery(http.MethodGet, abs, "page=2&payin_status=SUCCESS",
		httpmock.NewStringResponder(200, payinPage(3, "null", "C")))
	var utrs []string
	for p, err := range h.client.Payins.All(context.Background(), types.PayinListFilter{Status: types.PayinSuccess}) {
		require.NoError(t, err)
		utrs = append(utrs, p.UTR)
	}
	assert.Equal(t, []string{"A", "B", "C"}, utrs)
	assert.Equal(t, 2, h.mock.GetTotalCallCount())

	t.Run("refuses a link that leaves the base path", func(t *testing.T) {
		h := newHarness(t)
		h.mock.RegisterResponder(http.MethodGet, abs,
			httpmock.NewStringResponder(200, payinPage(3, `"https://evil.example/other/pis/api/v1/payin/history?page=2"`, "A")))
		var last error
		n := 0
		for _, err := range h.client.Payins.All(context.Background(), types.PayinListFilter{}) {
			n++
			last = err
		}
		assert.Equal(t, 2, n)
		require.ErrorIs(t, last, fiatramp.ErrPagination)
		assert.Equal(t, 1, h.mock.GetTotalCallCount())
	})
}

func TestPayinsListHistoryPage(t *testing.T) {
	abs := testBase + payinHistoryPath
	h := newHarness(t)
	h.mock.RegisterResponderWithQuery(http.MethodGet, abs, "page=2", httpmock.NewStringResponder(200, payinPage(3, "null", "C")))
	page, err := h.client.Payins.ListPage(context.Background(), abs+"?page=2")
	require.NoError(t, err)
	assert.Equal(t, "C", page.Results[0].UTR)

	_, err = h.client.Payins.ListPage(context.Background(), testBase+"/pos/api/v1/payout/history?page=2")
	require.ErrorIs(t, err, fiatramp.ErrPagination, "a page of another list")
	assert.Equal(t, 1, h.mock.GetTotalCallCount())
}

// TestPayinsHistoryDateRange: one date without the other, or an end
// before the start, is refused before sending, naming the missing field.
func TestPayinsHistoryDateRange(t *testing.T) {
	h := newHarness(t)
	day := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	cases := map[string]types.PayinListFilter{
		"start_date": {EndDate: day},
		"end_date":   {StartDate: day},
	}
	for field, q := range cases {
		_, err := h.client.Payins.List(context.Background(), q)
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr, field)
		assert.Equal(t, field, verr.Field)
		for _, err := range h.client.Payins.All(context.Background(), q) {
			require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		}
	}
	_, err := h.client.Payins.List(context.Background(), types.PayinListFilter{StartDate: day, EndDate: day.AddDate(0, 0, -1)})
	var verr *fiatramp.ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, "end_date", verr.Field)
	assert.Zero(t, h.mock.GetTotalCallCount())
}
