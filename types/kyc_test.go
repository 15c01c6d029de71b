package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
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

func TestKYCStatusSimulation(t *testing.T) {
	body := `{"id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","status":"TAX_VERIFICATION_FAILED"}`
	var s types.KYCStatusSimulation
	require.NoError(t, json.Unmarshal([]byte(body), &s))
	require.Equal(t, types.KYCStatusSimulation{ID: idCustomer, Status: types.KYCTaxVerificationFailed, Raw: json.RawMessage(body)}, s)
}
