package sandbox_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

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
				if to == from {
					require.NoError(t, err, "a repeat sets the same status")
					assert.Equal(t, to, got.Status)
					assert.Equal(t, from, now.KYCStatus, "state unchanged")
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

// kycData is valid KYC data for customer id, its tax and document numbers
// made unique by n.
func kycData(id uuid.UUID, n int) types.AddKYCDataRequest {
	return types.AddKYCDataRequest{
		CustomerID: id, FullName: "Asha Rao", Phone: "+919800000001", FullAddress: "12 MG Road, Pune",
		DOB: "31-01-1990", TaxNumber: fmt.Sprintf("ABCDE%04dF", n), DocumentType: "PASSPORT",
		DocumentFrontImageURL: "https://img.example/front.png",
		DocumentDetails:       types.DocumentDetails{DocumentNumber: fmt.Sprintf("P%07d", n)},
		AdditionalInfo:        map[string]string{"income_range": "5-10L", "profession": "engineer"},
	}
}

// newCustomer creates a customer through the API.
func (e *env) newCustomer(n int) *types.Customer {
	e.t.Helper()
	c, err := e.client.Customers.Create(ctx(e.t), newPerson(n))
	require.NoError(e.t, err)
	return c
}

// status fetches a customer's status and failure reason.
func (e *env) status(id uuid.UUID) (types.KYCStatus, types.KYCFailureReason) {
	e.t.Helper()
	c, err := e.client.Customers.Get(ctx(e.t), id)
	require.NoError(e.t, err)
	return c.Status, c.FailureReason
}

// TestCustomersSimulateKYCStatusLostAnswer: the simulation is retried as
// an update (a repeat sets the same status). When its first answer is lost
// after the move, the retry must not be refused "cannot move from VERIFIED
// to VERIFIED", which would report a move that happened as failed; nor may
// it send the webhook twice.
func TestCustomersSimulateKYCStatusLostAnswer(t *testing.T) {
	e, rc := hookEnv(t, nil)
	require.NoError(t, e.sb.SetKYCStatus(e.cust.ID, types.KYCProcessing))
	c := e.clientFor(e.org, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}))
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/cms/api/v1/kyc/mock-kyc-status", Count: 1}))
	got, err := c.KYC.SimulateStatus(ctx(t), e.cust.ID, types.KYCVerified)
	require.NoError(t, err, "the move happened")
	assert.Equal(t, types.KYCVerified, got.Status)
	now, _ := e.sb.Customer(e.cust.ID)
	assert.Equal(t, types.KYCVerified, now.KYCStatus)
	settle(t, e.sb)
	n := 0
	for _, h := range rc.hooks() {
		if strings.Contains(h.body, `"VERIFIED"`) && strings.Contains(h.body, e.cust.ID.String()) {
			n++
		}
	}
	assert.Equal(t, 1, n, "one webhook for one change")
}
