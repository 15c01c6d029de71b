package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kycConfigurationJSON is the data of fetch KYC configuration (interface.md
// 2.8, 4.10), with one extra requirement the document does not list.
const kycConfigurationJSON = `{
  "supported_document_types": ["AADHAAR", "PASSPORT", "VOTER_ID", "DRIVING_LICENSE"],
  "additional_info_required": {
    "options": ["income_range", "profession"],
    "rules": {"type": "allOf", "min_required": 2},
    "income_range": {"type": "string", "required": true},
    "profession": {"type": "string", "required": false},
    "source_of_funds": {"type": "enum", "required": true},
    "note": "not an object, skipped"
  }
}`

func TestKYCConfiguration(t *testing.T) {
	var c types.KYCConfiguration
	require.NoError(t, json.Unmarshal([]byte(kycConfigurationJSON), &c))
	require.Equal(t, []string{"AADHAAR", "PASSPORT", "VOTER_ID", "DRIVING_LICENSE"}, c.SupportedDocumentTypes)
	a := c.AdditionalInfoRequired
	require.Equal(t, []string{"income_range", "profession"}, a.Options)
	require.Equal(t, types.AdditionalInfoRules{Type: "allOf", MinRequired: 2}, a.Rules)
	require.Equal(t, &types.InfoRequirement{Type: "string", Required: true}, a.IncomeRange)
	require.Equal(t, &types.InfoRequirement{Type: "string", Required: false}, a.Profession)
	require.Equal(t, map[string]types.InfoRequirement{
		"income_range":    {Type: "string", Required: true},
		"profession":      {Type: "string", Required: false},
		"source_of_funds": {Type: "enum", Required: true},
	}, a.Fields)
	require.Equal(t, kycConfigurationJSON, string(c.Raw))
}

func TestKYCConfigurationMinimal(t *testing.T) {
	var c types.KYCConfiguration
	require.NoError(t, json.Unmarshal([]byte(`{"supported_document_types":["AADHAAR"],"additional_info_required":{"options":[],"income_range":null}}`), &c))
	require.Equal(t, []string{"AADHAAR"}, c.SupportedDocumentTypes)
	require.Equal(t, []string{}, c.AdditionalInfoRequired.Options)
	require.Nil(t, c.AdditionalInfoRequired.IncomeRange)
	require.Nil(t, c.AdditionalInfoRequired.Profession)
	require.Nil(t, c.AdditionalInfoRequired.Fields)

	require.NoError(t, json.Unmarshal([]byte(`{"additional_info_required":null}`), &c))
	require.Nil(t, c.SupportedDocumentTypes)
	require.Equal(t, types.AdditionalInfoRequired{}, c.AdditionalInfoRequired)
}

// The KYC requirement objects are read as the service's Python reader reads
// them: exact member names, the last duplicate winning. A member spelled in
// another case ("REQUIRED", "Type", "MIN_REQUIRED") or with a Unicode fold is
// another member, which no field takes.
func TestKYCRequirementKeysMatchExactly(t *testing.T) {
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
func TestKYCRequirementWrongType(t *testing.T) {
	var c types.KYCConfiguration
	err := json.Unmarshal([]byte(`{"additional_info_required": {"income_range": {"required": "yes"}}}`), &c)
	var ute *json.UnmarshalTypeError
	require.ErrorAs(t, err, &ute)
	assert.Equal(t, "additional_info_required.income_range.required", ute.Field)
}

func FuzzKYCConfiguration(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.KYCConfiguration]{prior: kycConfigurationJSON, hasRaw: true})
}

func FuzzAdditionalInfoRequired(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.AdditionalInfoRequired]{prior: fuzzAdditionalInfoJSON})
}

// BenchmarkDecodeKYCConfiguration decodes a KYC configuration: a list of
// strings and three levels of nested objects.
func BenchmarkDecodeKYCConfiguration(b *testing.B) {
	benchDecode[types.KYCConfiguration](b, []byte(kycConfigurationJSON))
}

func TestKYCConfigurationCheckAdditionalInfo(t *testing.T) {
	cfg := func(rule string, min int, required ...string) *types.KYCConfiguration {
		c := &types.KYCConfiguration{AdditionalInfoRequired: types.AdditionalInfoRequired{
			Options: []string{"income_range", "profession", "source_of_funds"},
			Rules:   types.AdditionalInfoRules{Type: rule, MinRequired: min},
		}}
		for _, r := range required {
			if c.AdditionalInfoRequired.Fields == nil {
				c.AdditionalInfoRequired.Fields = map[string]types.InfoRequirement{}
			}
			c.AdditionalInfoRequired.Fields[r] = types.InfoRequirement{Type: "string", Required: true}
		}
		return c
	}
	all := map[string]string{"income_range": "5-10L", "profession": "engineer", "source_of_funds": "salary"}
	for name, tc := range map[string]struct {
		cfg     *types.KYCConfiguration
		info    map[string]string
		missing string // "" when it passes
		rule    string
	}{
		"allOf, all given":          {cfg("allOf", 0), all, "", ""},
		"allOf, one blank":          {cfg("allOf", 0), map[string]string{"income_range": "x", "profession": " ", "source_of_funds": "y"}, "profession", "allOf"},
		"anyOf, one given":          {cfg("anyOf", 0), map[string]string{"source_of_funds": "salary"}, "", ""},
		"anyOf, none given":         {cfg("anyOf", 0), map[string]string{"other": "x"}, "income_range", "anyOf"},
		"anyOf, min_required 2":     {cfg("anyOf", 2), map[string]string{"profession": "x"}, "income_range", "min_required"},
		"min_required beyond all":   {cfg("anyOf", 9), all, "", ""},
		"required option missing":   {cfg("anyOf", 1, "source_of_funds"), map[string]string{"profession": "x"}, "source_of_funds", "required"},
		"unknown rule, nothing min": {cfg("oneOf", 0), nil, "", ""},
	} {
		t.Run(name, func(t *testing.T) {
			err := tc.cfg.CheckAdditionalInfo(tc.info)
			if tc.missing == "" {
				require.NoError(t, err)
				return
			}
			var m *types.MissingInfoError
			require.ErrorAs(t, err, &m)
			require.Equal(t, tc.missing, m.Option)
			require.Equal(t, tc.rule, m.Rule)
			require.Contains(t, err.Error(), `"`+tc.missing+`"`)
		})
	}
	// The documented requirement objects count as well as Fields.
	c := cfg("anyOf", 0)
	c.AdditionalInfoRequired.Profession = &types.InfoRequirement{Required: true}
	err := c.CheckAdditionalInfo(map[string]string{"income_range": "x"})
	var m *types.MissingInfoError
	require.ErrorAs(t, err, &m)
	require.Equal(t, "profession", m.Option)
}
