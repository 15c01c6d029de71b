package sandbox_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// page=last is the last page, as the REST framework's paginator serves it:
// a reconciliation reads the newest payouts of a history in creation order
// in one request. An empty list's last page is its first.
func TestPageLast(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.PageSize = 3 })
	var page types.PayoutPage
	require.NoError(t, e.client.Do(ctx(t), http.MethodGet, "/pos/api/v1/payout/history?page=last", nil, &page))
	assert.Equal(t, 0, page.Count)
	assert.Empty(t, page.Results)
	assert.Nil(t, page.Next)
	assert.Nil(t, page.Previous)

	ids := historyPayouts(e, e.cust, e.bank.ID, 7)
	page = types.PayoutPage{}
	require.NoError(t, e.client.Do(ctx(t), http.MethodGet, "/pos/api/v1/payout/history?page=last&customer_id="+e.cust.ID.String(), nil, &page))
	assert.Equal(t, 7, page.Count)
	require.Len(t, page.Results, 1)
	assert.Equal(t, ids[6], page.Results[0].ID, "the newest payout")
	assert.Nil(t, page.Next)
	require.NotNil(t, page.Previous)
	assert.Contains(t, *page.Previous, "page=2")
	assert.Contains(t, *page.Previous, "customer_id="+e.cust.ID.String(), "the link keeps the filter")

	for _, bad := range []string{"LAST", "0", "-1", "first"} {
		err := e.client.Do(ctx(t), http.MethodGet, "/pos/api/v1/payout/history?page="+bad, nil, nil)
		var apiErr *fiatramp.APIError
		require.ErrorAs(t, err, &apiErr, bad)
		assert.Equal(t, http.StatusNotFound, apiErr.StatusCode, bad)
	}
}

// page_size sizes a page up to 100 items, as an older edition of the
// service documents it; the links keep it. Anything else is the default.
func TestPageSize(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) { s.PageSize = 2 })
	historyPayouts(e, e.cust, e.bank.ID, 5)
	for q, want := range map[string]int{"page_size=4": 4, "page_size=500": 5, "page_size=0": 2, "page_size=x": 2, "": 2} {
		var page types.PayoutPage
		require.NoError(t, e.client.Do(ctx(t), http.MethodGet, "/pos/api/v1/payout/history?"+q, nil, &page), q)
		assert.Len(t, page.Results, want, q)
	}
	var page types.PayoutPage
	require.NoError(t, e.client.Do(ctx(t), http.MethodGet, "/pos/api/v1/payout/history?page_size=3", nil, &page))
	require.NotNil(t, page.Next)
	assert.Contains(t, *page.Next, "page_size=3")
}
