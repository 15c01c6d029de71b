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

// The sender and receiver of a prefunded payout are read with exact names,
// the last duplicate winning: encoding/json took "SENDER" (or "Receiver")
// for the service's own member.
func TestReview9PrefundedPartiesKeysMatchExactly(t *testing.T) {
	const a, b, c = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"
	var p types.PrefundedPayoutParties
	require.NoError(t, json.Unmarshal([]byte(`{"sender":{"id":"`+a+`"},"SENDER":{"id":"`+b+`"},`+
		`"receiver":{"id":"`+b+`"},"receiver":{"id":"`+c+`"},"Receiver":{"id":"`+a+`"}}`), &p))
	require.NotNil(t, p.Sender.ID)
	require.NotNil(t, p.Receiver.ID)
	assert.Equal(t, a, p.Sender.ID.String())
	assert.Equal(t, c, p.Receiver.ID.String(), "the last duplicate wins")

	var out types.PrefundedPayout
	require.NoError(t, json.Unmarshal([]byte(`{"customer":{"sender":{"id":"`+a+`"},"Sender":{"id":"`+b+`"}}}`), &out))
	require.NotNil(t, out.Customer.Sender.ID)
	assert.Equal(t, a, out.Customer.Sender.ID.String())

	// A later null or a later object replaces the earlier one whole, as a
	// Python dict does.
	out = types.PrefundedPayout{}
	require.NoError(t, json.Unmarshal([]byte(`{"customer":{"sender":{"id":"`+a+`"},"sender":null,`+
		`"receiver":{"id":"`+b+`"}},"customer":{"receiver":{"id":"`+c+`"}}}`), &out))
	assert.Nil(t, out.Customer.Sender.ID, "the second customer has no sender")
	require.NotNil(t, out.Customer.Receiver.ID)
	assert.Equal(t, c, out.Customer.Receiver.ID.String())
}
