package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

const fuzzCustomerJSON = `{"id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","client_reference_id":"crm-1","full_name":"Asha Rao","email":"asha@example.com","phone":"+919800000001","country":"IND","type":"INDIVIDUAL","status":"UNVERIFIED","failure_reason":null,"document_type":null}`

func TestCustomer(t *testing.T) {
	var c types.Customer
	require.NoError(t, json.Unmarshal([]byte(fuzzCustomerJSON), &c))
	require.Equal(t, types.Customer{
		ID: idCustomer, ClientReferenceID: strPtr("crm-1"), FullName: "Asha Rao", Email: "asha@example.com",
		Phone: "+919800000001", Country: "IND", Type: "INDIVIDUAL", Status: types.KYCUnverified,
		Raw: json.RawMessage(fuzzCustomerJSON),
	}, c)

	// A fetch: the residence members, an older edition's is_edd_verified,
	// a status and a failure reason the library does not know (kept), a
	// repeated member (the last decides) and a member in another case
	// (not read).
	fetched := `{"id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","status":"VERIFIED","status":"FAILED","Status":"VERIFIED",` +
		`"failure_reason":"AML_HIT","non_residence_status":true,"residence_alpha_3_country_code":"ARE","is_edd_verified":true}`
	require.NoError(t, json.Unmarshal([]byte(fetched), &c))
	require.Equal(t, types.KYCFailed, c.Status)
	require.Equal(t, types.KYCFailureReason("AML_HIT"), c.FailureReason)
	require.False(t, c.FailureReason.IsKnown())
	require.False(t, c.FailureReason.IsRecoverable())
	require.True(t, c.NonResidenceStatus)
	require.Equal(t, "ARE", c.ResidenceAlpha3CountryCode)
	require.True(t, c.IsEDDVerified)
	require.Nil(t, c.ClientReferenceID, "a second decode replaces the whole value")

	require.Error(t, json.Unmarshal([]byte(`{"id":"not-a-uuid"}`), &c))
	require.Equal(t, "ARE", c.ResidenceAlpha3CountryCode, "a failed decode leaves the value alone")
}

func TestCustomerPage(t *testing.T) {
	var p types.CustomerPage
	require.NoError(t, json.Unmarshal([]byte(`{"count":1,"next":null,"previous":null,"results":[`+fuzzCustomerJSON+`]}`), &p))
	require.Len(t, p.Results, 1)
	require.Equal(t, idCustomer, p.Results[0].ID)
	require.JSONEq(t, fuzzCustomerJSON, string(p.Results[0].Raw))
}

func TestKYCResult(t *testing.T) {
	var r types.KYCResult
	body := `{"id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","status":"FAILED","failure_reason":"SELFIE_VERIFICATION_FAILED"}`
	require.NoError(t, json.Unmarshal([]byte(body), &r))
	require.Equal(t, types.KYCResult{ID: idCustomer, Status: types.KYCFailed, FailureReason: types.KYCFailureSelfie, Raw: json.RawMessage(body)}, r)
	require.True(t, r.FailureReason.IsRecoverable())
	require.False(t, types.KYCFailureFinal.IsRecoverable())
}

func TestKYCFailureReasonValues(t *testing.T) {
	require.Equal(t, []types.KYCFailureReason{"DOCUMENT_VERIFICATION_FAILED", "TAX_VERIFICATION_FAILED", "SELFIE_VERIFICATION_FAILED", "KYC_FAILED"},
		types.KYCFailureReason("").Values())
	for _, r := range types.KYCFailureReason("").Values() {
		require.True(t, r.IsKnown())
	}
	require.False(t, types.KYCFailureReason("kyc_failed").IsKnown(), "compared exactly")
}

func FuzzCustomer(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Customer]{prior: fuzzCustomerJSON, hasRaw: true})
}

func FuzzKYCResult(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.KYCResult]{prior: `{"id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","status":"PROCESSING","failure_reason":null}`, hasRaw: true})
}
