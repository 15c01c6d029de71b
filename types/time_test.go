package types_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

func TestTimestampForms(t *testing.T) {
	cases := []struct{ in, want string }{
		{"2025-03-08T07:31:24.770179Z", "2025-03-08T07:31:24.770179Z"}, // public notes
		{"2025-02-11T01:30:08.000Z", "2025-02-11T01:30:08Z"},           // public notes
		{"2025-02-11T01:30:08Z", "2025-02-11T01:30:08Z"},
		{"2025-02-11T01:30:08.1Z", "2025-02-11T01:30:08.1Z"},
		{"2025-02-11T01:30:08.123456789Z", "2025-02-11T01:30:08.123456789Z"},
		{"2025-02-11T07:00:08.5+05:30", "2025-02-11T01:30:08.5Z"},
		{"2025-02-10T20:30:08-05:00", "2025-02-11T01:30:08Z"},
		{"2025-02-11T01:30:08", "2025-02-11T01:30:08Z"},               // no zone: UTC
		{"2025-02-11T01:30:08.770179", "2025-02-11T01:30:08.770179Z"}, // no zone: UTC
		{"2025-02-11t01:30:08z", "2025-02-11T01:30:08Z"},              // RFC 3339 allows lower case
		{"2025-02-11 01:30:08+00:00", "2025-02-11T01:30:08Z"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			var p types.Payout
			require.NoError(t, json.Unmarshal([]byte(`{"created_at":"`+tc.in+`","updated_at":"`+tc.in+`"}`), &p))
			requireTime(t, tc.want, p.CreatedAt)
			requireTime(t, tc.want, p.UpdatedAt)
		})
	}

	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(`{"created_at":"2025-02-11T01:30:08"}`), &p))
	require.Equal(t, time.UTC, p.CreatedAt.Location(), "a timestamp without zone is UTC")
}

func TestTimestampNullAbsentEmpty(t *testing.T) {
	for _, body := range []string{`{}`, `{"created_at":null}`, `{"created_at":""}`} {
		var q types.PayinQuotation
		require.NoError(t, json.Unmarshal([]byte(body), &q), body)
		require.True(t, q.CreatedAt.IsZero(), body)
		require.True(t, q.ExpiryTime.IsZero(), body)
	}
}

func TestTimestampGarbageNamesTheField(t *testing.T) {
	for _, lit := range []string{`"yesterday"`, `"2025-02-11"`, `"2025-02-30T01:30:08Z"`, `"2025-02-11T25:30:08Z"`, `"2025-02-11T01:30:08+0530"`, `1741419084`, `true`, `{}`, `[]`} {
		t.Run(lit, func(t *testing.T) {
			var q types.PayinQuotation
			err := json.Unmarshal([]byte(`{"id":"0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d","expiry_time":`+lit+`}`), &q)
			require.Error(t, err)
			require.Contains(t, err.Error(), "PayinQuotation.expiry_time")
			var ute *json.UnmarshalTypeError
			require.ErrorAs(t, err, &ute)
			require.Equal(t, "expiry_time", ute.Field)
			require.Equal(t, "time.Time", ute.Type.String())
		})
	}
}
