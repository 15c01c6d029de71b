package sandbox_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// kycAllowed is interface.md 3.2's table, written out independently of the
// sandbox's.
var kycAllowed = map[string][]string{
	"UNVERIFIED": {},
	"FAILED":     {"UNVERIFIED"},
	"VERIFIED":   {"UNVERIFIED"},
	"PROCESSING": {"TAX_VERIFICATION_FAILED", "DOCUMENT_VERIFICATION_FAILED", "VERIFIED", "UNVERIFIED"},
}

func TestCustomersSimulateKYCStatusTable(t *testing.T) {
	e := newEnv(t)
	allowedCount := 0
	for _, from := range types.KYCStatus("").Values() {
		for _, to := range types.KYCStatus("").Values() {
			t.Run(string(from)+"->"+string(to), func(t *testing.T) {
				require.NoError(t, e.sb.SetKYCStatus(e.cust.ID, from))
				allowed := false
				for _, s := range kycAllowed[string(from)] {
					allowed = allowed || s == string(to)
				}
				got, err := e.client.KYC.SimulateStatus(ctx(t), e.cust.ID, to)
				now, ok := e.sb.Customer(e.cust.ID)
				require.True(t, ok)
				if allowed {
					allowedCount++
					require.NoError(t, err)
					assert.Equal(t, e.cust.ID, got.ID)
					assert.Equal(t, to, got.Status)
					assert.Equal(t, to, now.KYCStatus)
					return
				}
				apiErr := refused(t, err, http.StatusBadRequest, fmt.Sprintf("KYC status cannot move from %s to %s.", from, to))
				assert.Empty(t, apiErr.Code)
				assert.Equal(t, from, now.KYCStatus, "state unchanged")
			})
		}
	}
	assert.Equal(t, 6, allowedCount, "moves allowed by interface.md 3.2")
}

func TestCustomersSimulateKYCStatusRefusals(t *testing.T) {
	e := newEnv(t)
	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "Foreign", KYCStatus: types.KYCProcessing})

	_, err := e.client.KYC.SimulateStatus(ctx(t), foreign.ID, types.KYCVerified)
	refused(t, err, http.StatusBadRequest, custNotFound, fiatramp.ErrCustomerNotFound)
	got, _ := e.sb.Customer(foreign.ID)
	assert.Equal(t, types.KYCProcessing, got.KYCStatus, "another organization's customer is untouched")
	_, err = e.client.KYC.SimulateStatus(ctx(t), uuid.New(), types.KYCUnverified)
	refused(t, err, http.StatusBadRequest, custNotFound, fiatramp.ErrCustomerNotFound)

	const path = "/cms/api/v1/kyc/mock-kyc-status"
	for _, bad := range []string{"verified", "ALMOST", ""} {
		err = e.client.Do(ctx(t), http.MethodPatch, path, map[string]any{"customer_id": e.cust.ID, "kyc_status": bad}, nil)
		msg := fmt.Sprintf("%q is not a valid choice.", bad)
		if bad == "" {
			msg = "This field may not be blank."
		}
		apiErr := refused(t, err, http.StatusBadRequest, msg, fiatramp.ErrFieldMissing)
		assert.Equal(t, map[string][]string{"kyc_status": {msg}}, apiErr.FieldErrors)
	}
	err = e.client.Do(ctx(t), http.MethodPatch, path, map[string]any{}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, "This field is required.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{
		"customer_id": {"This field is required."},
		"kyc_status":  {"This field is required."},
	}, apiErr.FieldErrors)
	got, _ = e.sb.Customer(e.cust.ID)
	assert.Equal(t, types.KYCVerified, got.KYCStatus)
}

func TestCustomersKYCConfiguration(t *testing.T) {
	e := newEnv(t)
	var resp fiatramp.Response
	cfg, err := e.client.KYC.GetConfiguration(ctx(t), e.cust.ID, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, []string{"AADHAAR", "PASSPORT", "VOTER_ID", "DRIVING_LICENSE"}, cfg.SupportedDocumentTypes)
	info := cfg.AdditionalInfoRequired
	assert.Equal(t, []string{"income_range", "profession"}, info.Options)
	assert.Equal(t, types.AdditionalInfoRules{Type: "allOf", MinRequired: 2}, info.Rules)
	require.NotNil(t, info.IncomeRange)
	require.NotNil(t, info.Profession)
	assert.Equal(t, types.InfoRequirement{Type: "string", Required: true}, *info.IncomeRange)
	assert.Equal(t, types.InfoRequirement{Type: "string", Required: true}, *info.Profession)
	assert.JSONEq(t, `{
		"supported_document_types": ["AADHAAR", "PASSPORT", "VOTER_ID", "DRIVING_LICENSE"],
		"additional_info_required": {
			"options": ["income_range", "profession"],
			"rules": {"type": "allOf", "min_required": 2},
			"income_range": {"type": "string", "required": true},
			"profession": {"type": "string", "required": true}
		}}`, string(cfg.Raw))

	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "Foreign"})
	for _, id := range []uuid.UUID{uuid.New(), foreign.ID} {
		_, err = e.client.KYC.GetConfiguration(ctx(t), id)
		refused(t, err, http.StatusBadRequest, custNotFound, fiatramp.ErrCustomerNotFound)
	}
	for _, id := range []string{"not-a-uuid", ""} {
		err = e.client.Do(ctx(t), http.MethodGet, "/cms/api/v1/kyc/configuration/"+id, nil, nil)
		refused(t, err, http.StatusBadRequest, custNotFound, fiatramp.ErrCustomerNotFound)
	}
}
