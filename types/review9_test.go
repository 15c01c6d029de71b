package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// The KYC requirement objects are read as the service's Python reader reads
// them: exact member names, the last duplicate winning. A member spelled in
// another case ("REQUIRED", "Type", "MIN_REQUIRED") or with a Unicode fold is
// another member, which no field takes.
func TestReview9KYCRequirementKeysMatchExactly(t *testing.T) {
	const body = `{
	  "supported_document_types": ["PASSPORT"],
	  "additional_info_required": {
	    "options": ["income_range"],
	    "rules": {"type": "allOf", "min_required": 1, "TYPE": "anyOf", "Min_Required": 9},
	    "income_range": {"type": "string", "required": false, "REQUIRED": true, "Type": "number"},
	    "profession": {"required": true, "required": false}
	  }
	}`
	var c types.KYCConfiguration
	require.NoError(t, json.Unmarshal([]byte(body), &c))
	a := c.AdditionalInfoRequired
	assert.Equal(t, types.AdditionalInfoRules{Type: "allOf", MinRequired: 1}, a.Rules)
	require.NotNil(t, a.IncomeRange)
	assert.Equal(t, types.InfoRequirement{Type: "string", Required: false}, *a.IncomeRange)
	require.NotNil(t, a.Profession)
	assert.False(t, a.Profession.Required, "the last duplicate wins")
}

// A requirement whose required is not a boolean is a type error naming the
// field, as for every other field of the package.
func TestReview9KYCRequirementWrongType(t *testing.T) {
	var c types.KYCConfiguration
	err := json.Unmarshal([]byte(`{"additional_info_required": {"income_range": {"required": "yes"}}}`), &c)
	var ute *json.UnmarshalTypeError
	require.ErrorAs(t, err, &ute)
	assert.Equal(t, "additional_info_required.income_range.required", ute.Field)
}
