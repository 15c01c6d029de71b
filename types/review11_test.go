package types_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// TestReview11InfoRequirementLastKeyWins: the service's reader keeps the
// last of a repeated key, so an object followed by null (or any value that
// is not an object) under the same key leaves no requirement.
func TestReview11InfoRequirementLastKeyWins(t *testing.T) {
	var a types.AdditionalInfoRequired
	require.NoError(t, a.UnmarshalJSON([]byte(`{"income_range":{"type":"select","required":true},"income_range":null,`+
		`"profession":{"type":"text"},"profession":"no","x":{"type":"t"},"x":{"type":"u","required":true}}`)))
	require.Nil(t, a.IncomeRange)
	require.Nil(t, a.Profession)
	require.Equal(t, map[string]types.InfoRequirement{"x": {Type: "u", Required: true}}, a.Fields)

	a = types.AdditionalInfoRequired{}
	require.NoError(t, a.UnmarshalJSON([]byte(`{"income_range":{"type":"select"},"income_range":null}`)))
	require.Nil(t, a.Fields, "nil when there are none")
	require.NoError(t, a.UnmarshalJSON([]byte(`{"income_range":null,"income_range":{"type":"select"}}`)))
	require.Equal(t, &types.InfoRequirement{Type: "select"}, a.IncomeRange)
}
