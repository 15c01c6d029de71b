package types_test

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

func TestEDD(t *testing.T) {
	id := uuid.MustParse("9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d")
	body := `{"id":"` + id.String() + `","status":"PROCESSING"}`
	var e types.EDD
	require.NoError(t, json.Unmarshal([]byte(body), &e))
	require.Equal(t, id, e.ID)
	require.Equal(t, types.EDDProcessing, e.Status)
	require.Equal(t, body, string(e.Raw))

	require.NoError(t, json.Unmarshal([]byte(`{"id":"`+id.String()+`","status":"ESCALATED"}`), &e))
	require.Equal(t, types.EDDStatus("ESCALATED"), e.Status, "an unknown status keeps its text")
	require.False(t, e.Status.IsKnown())
	for _, s := range types.EDDStatus("").Values() {
		require.True(t, s.IsKnown(), s)
	}

	before := e
	require.Error(t, json.Unmarshal([]byte(`{"id":"not-a-uuid"}`), &e))
	require.Equal(t, before.ID, e.ID, "unchanged on error")
}

func FuzzEDD(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.EDD]{prior: `{"id":"9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d","status":"PROCESSING"}`, hasRaw: true})
}
