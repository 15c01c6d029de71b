package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// TestPageResultsAsEncodingJSON pins the one-pass decoding of a page's
// results to what encoding/json makes of the same array: null, empty, an
// object, a bad item, a null item, and the field path of an item's error.
func TestPageResultsAsEncodingJSON(t *testing.T) {
	const item = `{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","type":"vpa","vpa":"a@b","status":"VERIFIED"}`
	for _, results := range []string{`null`, `[]`, `[` + item + `]`, `[` + item + `,null,` + item + `]`, `{}`, `"x"`, `[1]`, `[{"id":5}]`, `[` + item + `,{"status":[]}]`} {
		t.Run(results, func(t *testing.T) {
			var page types.BankAccountPage
			err := page.UnmarshalJSON([]byte(`{"count":1,"results":` + results + `}`))
			var want []types.BankAccountListItem
			wantErr := json.Unmarshal([]byte(results), &want)
			if wantErr != nil {
				require.Error(t, err)
				require.Contains(t, err.Error(), "cannot unmarshal "+wantErr.(*json.UnmarshalTypeError).Value+" ")
				var ute *json.UnmarshalTypeError
				require.ErrorAs(t, err, &ute)
				require.Equal(t, "Page[BankAccountListItem]", ute.Struct)
				wantField := "results"
				if f := wantErr.(*json.UnmarshalTypeError).Field; f != "" {
					wantField += "." + f
				}
				require.Equal(t, wantField, ute.Field)
				return
			}
			require.NoError(t, err)
			require.Equal(t, want == nil, page.Results == nil, "nil for null, empty for []")
			require.Len(t, page.Results, len(want))
			for i := range want {
				require.Equal(t, want[i].ID, page.Results[i].ID)
				require.Equal(t, string(want[i].Raw), string(page.Results[i].Raw))
			}
		})
	}
}
