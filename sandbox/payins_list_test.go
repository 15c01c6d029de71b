package sandbox_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// TestPayinHistory: filtered by status, customer and UTC days of the
// sandbox clock, paged with absolute links that keep the filter, and read
// whole by History.
func TestPayinHistory(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.PageSize = 2 })
	var day1 []*types.Payin
	for range 3 {
		day1 = append(day1, payinOn(t, e))
	}
	_, err := e.client.Payins.SimulateStatus(ctx(t), day1[1].ID, types.PayinFailed)
	require.NoError(t, err)
	e.sb.Advance(24 * time.Hour)
	day2 := payinOn(t, e)

	page, err := e.client.Payins.List(ctx(t), types.PayinListFilter{})
	require.NoError(t, err)
	assert.Equal(t, 4, page.Count)
	require.Len(t, page.Results, 2)
	assert.Equal(t, day1[0].ID, page.Results[0].ID, "in the order initiated")
	require.NotNil(t, page.Next)
	assert.True(t, strings.HasPrefix(*page.Next, "http://"), "absolute: %s", *page.Next)
	assert.Nil(t, page.Previous)
	next, err := e.client.Payins.ListPage(ctx(t), *page.Next)
	require.NoError(t, err)
	assert.Equal(t, []string{day1[2].UTR, day2.UTR}, []string{next.Results[0].UTR, next.Results[1].UTR})
	assert.Nil(t, next.Next)
	assert.NotNil(t, next.Previous)

	var all []string
	for p, err := range e.client.Payins.All(ctx(t), types.PayinListFilter{CustomerID: e.cust.ID}) {
		require.NoError(t, err)
		all = append(all, p.UTR)
	}
	assert.Equal(t, []string{day1[0].UTR, day1[1].UTR, day1[2].UTR, day2.UTR}, all)

	page, err = e.client.Payins.List(ctx(t), types.PayinListFilter{Status: types.PayinFailed})
	require.NoError(t, err)
	require.Len(t, page.Results, 1)
	assert.Equal(t, day1[1].ID, page.Results[0].ID)
	assert.Equal(t, types.PayinFailurePaymentNotReceived, page.Results[0].FailureReason)

	d1 := epoch
	page, err = e.client.Payins.List(ctx(t), types.PayinListFilter{StartDate: d1, EndDate: d1})
	require.NoError(t, err)
	assert.Equal(t, 3, page.Count)
	require.NotNil(t, page.Next)
	assert.Contains(t, *page.Next, "start_date=2026-11-21", "the next link keeps the filter")
	var onDay2 []string
	for p, err := range e.client.Payins.All(ctx(t), types.PayinListFilter{StartDate: d1.AddDate(0, 0, 1), EndDate: d1.AddDate(0, 0, 9)}) {
		require.NoError(t, err)
		onDay2 = append(onDay2, p.UTR)
	}
	assert.Equal(t, []string{day2.UTR}, onDay2)

	other := e.customer(e.org, sandbox.Customer{Name: "Nobody"})
	page, err = e.client.Payins.List(ctx(t), types.PayinListFilter{CustomerID: other.ID})
	require.NoError(t, err)
	assert.Zero(t, page.Count)
	assert.NotNil(t, page.Results)

	// Another organization sees none of them.
	page, err = e.clientFor(e.otherOrg(false)).Payins.List(ctx(t), types.PayinListFilter{})
	require.NoError(t, err)
	assert.Zero(t, page.Count)
}

// TestPayinHistoryRefusals: a range with one end is refused under
// errors.date_range, as the service does; bad dates and ids under their
// own names; a page past the last is 404.
func TestPayinHistoryRefusals(t *testing.T) {
	e := newEnv(t)
	const path = "/pis/api/v1/payin/history"
	for _, q := range []string{"?start_date=2026-11-21", "?end_date=2026-11-21", "?start_date=2026-11-22&end_date=2026-11-21"} {
		err := e.client.Do(ctx(t), http.MethodGet, path+q, nil, nil)
		apiErr := refused(t, err, http.StatusBadRequest, apiMessage(t, err), fiatramp.ErrFieldMissing)
		assert.Contains(t, apiErr.FieldErrors, "date_range", q)
	}
	err := e.client.Do(ctx(t), http.MethodGet, path+"?start_date=21-11-2026&end_date=2026-11-21&customer_id=x", nil, nil)
	apiErr := refused(t, err, http.StatusBadRequest, apiMessage(t, err))
	assert.Contains(t, apiErr.FieldErrors, "start_date")
	assert.Contains(t, apiErr.FieldErrors, "customer_id")
	err = e.client.Do(ctx(t), http.MethodGet, path+"?page=2", nil, nil)
	refused(t, err, http.StatusNotFound, "Invalid page.")
}
