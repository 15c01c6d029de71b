package fiatramp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

const kycConfigData = `{"supported_document_types":["AADHAAR","PASSPORT","VOTER_ID","DRIVING_LICENSE"],
  "additional_info_required":{"options":["income_range","profession"],"rules":{"type":"allOf","min_required":2},
  "income_range":{"type":"string","required":true},"profession":{"type":"string","required":false}}}`

func TestKYCGetConfiguration(t *testing.T) {
	h := newHarness(t)
	h.expect(http.MethodGet, "/cms/api/v1/kyc/configuration/"+customerID.String(), "", http.StatusOK, ok(kycConfigData))
	cfg, err := h.client.KYC.GetConfiguration(context.Background(), customerID)
	require.NoError(t, err)
	assert.Equal(t, []string{"AADHAAR", "PASSPORT", "VOTER_ID", "DRIVING_LICENSE"}, cfg.SupportedDocumentTypes)
	assert.Equal(t, "allOf", cfg.AdditionalInfoRequired.Rules.Type)
	assert.Equal(t, 2, cfg.AdditionalInfoRequired.Rules.MinRequired)
	require.NotNil(t, cfg.AdditionalInfoRequired.IncomeRange)
	assert.True(t, cfg.AdditionalInfoRequired.IncomeRange.Required)
	require.NotNil(t, cfg.AdditionalInfoRequired.Profession)
	assert.False(t, cfg.AdditionalInfoRequired.Profession.Required)
}

func TestKYCSimulateStatus(t *testing.T) {
	h := newHarness(t)
	h.expect(http.MethodPatch, "/cms/api/v1/kyc/mock-kyc-status",
		`{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","kyc_status":"TAX_VERIFICATION_FAILED"}`,
		http.StatusOK, ok(`{"id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","status":"TAX_VERIFICATION_FAILED"}`))
	s, err := h.client.KYC.SimulateStatus(context.Background(), customerID, types.KYCTaxVerificationFailed)
	require.NoError(t, err)
	assert.Equal(t, customerID, s.ID)
	assert.Equal(t, types.KYCTaxVerificationFailed, s.Status)
}

func TestKYCCustomerNotFound(t *testing.T) {
	h := newHarness(t)
	// public-notes: business errors may also come inside errors arrays.
	h.mock.RegisterResponder(http.MethodGet, testBase+"/cms/api/v1/kyc/configuration/"+customerID.String(),
		httpmock.NewStringResponder(400, fail("Bad request", "X", `{"customer":["Customer not found or access denied."]}`)))
	_, err := h.client.KYC.GetConfiguration(context.Background(), customerID)
	require.ErrorIs(t, err, fiatramp.ErrCustomerNotFound)
	assert.NotErrorIs(t, err, fiatramp.ErrBankNotFound)
}
