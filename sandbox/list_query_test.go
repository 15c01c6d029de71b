package sandbox_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// Both history lists read their query by the same rules: a malformed end
// with a well-formed start is refused under end_date alone (it is not also
// a range with one end); an empty date is malformed, not absent; a
// well-formed range that is not closed is errors.date_range.
func TestHistoryListsShareQueryRules(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		query string
		want  []string // the field errors, exactly
	}{
		{"?start_date=2026-11-01&end_date=01-11-2026", []string{"end_date"}},
		{"?start_date=&end_date=2026-11-01", []string{"start_date"}},
		{"?start_date=2026-11-01", []string{"date_range"}},
		{"?customer_id=nope", []string{"customer_id"}},
	}
	for _, path := range []string{"/pos/api/v1/payout/history", "/pis/api/v1/payin/history"} {
		for _, c := range cases {
			err := e.client.Do(ctx(t), http.MethodGet, path+c.query, nil, nil)
			var apiErr *fiatramp.APIError
			require.True(t, errors.As(err, &apiErr), "%s%s: %v", path, c.query, err)
			assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode, path+c.query)
			var got []string
			for k := range apiErr.FieldErrors {
				got = append(got, k)
			}
			assert.ElementsMatch(t, c.want, got, path+c.query)
		}
	}
}
