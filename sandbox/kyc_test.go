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

// TestKYCOnboarding walks a customer from creation to VERIFIED through a
// failure and its update, then resets it, and checks the signed CUSTOMER
// webhooks: FAILED with the failure reason, then VERIFIED, none for
// PROCESSING or UNVERIFIED.
func TestKYCOnboarding(t *testing.T) {
	e, rc := hookEnv(t, nil)
	c := e.newCustomer(1)
	res, err := e.client.KYC.AddData(ctx(t), kycData(c.ID, 1))
	require.NoError(t, err)
	assert.Equal(t, types.KYCProcessing, res.Status)

	_, err = e.client.KYC.SimulateStatus(ctx(t), c.ID, types.KYCTaxVerificationFailed)
	require.NoError(t, err)
	st, reason := e.status(c.ID)
	assert.Equal(t, types.KYCFailed, st, "a failed customer shows FAILED")
	assert.Equal(t, types.KYCFailureTax, reason)

	res, err = e.client.KYC.UpdateTaxInfo(ctx(t), types.UpdateTaxInfoRequest{CustomerID: c.ID, TaxNumber: "ABCDE9999F"})
	require.NoError(t, err)
	assert.Equal(t, types.KYCUnverified, res.Status, "an update sends the customer back to UNVERIFIED")
	_, err = e.client.KYC.SimulateStatus(ctx(t), c.ID, types.KYCVerified)
	require.NoError(t, err, "an updated customer awaits a decision")
	st, reason = e.status(c.ID)
	assert.Equal(t, types.KYCVerified, st)
	assert.Empty(t, reason)

	res, err = e.client.KYC.Reset(ctx(t), c.ID)
	require.NoError(t, err)
	assert.Equal(t, types.KYCUnverified, res.Status)
	_, err = e.client.KYC.AddData(ctx(t), kycData(c.ID, 1))
	require.NoError(t, err, "after a reset, KYC data is taken anew (its numbers are free again)")

	settle(t, e.sb)
	var events []string
	for _, h := range rc.hooks() {
		assert.True(t, signedBy(e.org, h), "signed: %s", h.body)
		events = append(events, h.body)
	}
	assert.Equal(t, []string{
		body("CUSTOMER", c.ID.String(), "FAILED", `{"failure_reason":"TAX_VERIFICATION_FAILED"}`),
		body("CUSTOMER", c.ID.String(), "VERIFIED", `{}`),
	}, events)
}

// TestKYCRefusals: the service's rules, each with its message.
func TestKYCRefusals(t *testing.T) {
	e := newEnv(t)
	a, b := e.newCustomer(1), e.newCustomer(2)
	_, err := e.client.KYC.AddData(ctx(t), kycData(a.ID, 1))
	require.NoError(t, err)

	_, err = e.client.KYC.AddData(ctx(t), kycData(a.ID, 2))
	refused(t, err, http.StatusBadRequest, "KYC already exists", fiatramp.ErrKYCExists)
	sameTax := kycData(b.ID, 2)
	sameTax.TaxNumber = kycData(a.ID, 1).TaxNumber
	_, err = e.client.KYC.AddData(ctx(t), sameTax)
	refused(t, err, http.StatusBadRequest, "KYC already in use", fiatramp.ErrKYCInUse)
	sameDoc := kycData(b.ID, 2)
	sameDoc.DocumentDetails.DocumentNumber = "p0000001" // a's, in another case
	_, err = e.client.KYC.AddData(ctx(t), sameDoc)
	refused(t, err, http.StatusBadRequest, "KYC already in use", fiatramp.ErrKYCInUse)
	_, err = e.client.KYC.AddData(ctx(t), kycData(uuid.New(), 3))
	refused(t, err, http.StatusBadRequest, custNotFound, fiatramp.ErrCustomerNotFound)
	_, err = e.client.KYC.AddData(ctx(t), kycData(b.ID, 2))
	require.NoError(t, err)
	_, err = e.client.KYC.UpdateTaxInfo(ctx(t), types.UpdateTaxInfoRequest{CustomerID: b.ID, TaxNumber: kycData(a.ID, 1).TaxNumber})
	refused(t, err, http.StatusBadRequest, "KYC already in use", fiatramp.ErrKYCInUse)

	// Three updates, of any kind, then the limit.
	_, err = e.client.KYC.UpdateTaxInfo(ctx(t), types.UpdateTaxInfoRequest{CustomerID: a.ID, TaxNumber: "ZZZZZ0001Z"})
	require.NoError(t, err)
	_, err = e.client.KYC.UpdateSelfie(ctx(t), types.UpdateSelfieRequest{CustomerID: a.ID, SelfieURL: "https://img.example/s.jpg"})
	require.NoError(t, err)
	st, _ := e.status(a.ID)
	assert.Equal(t, types.KYCProcessing, st, "a selfie update moves to PROCESSING")
	_, err = e.client.KYC.UpdateAdditionalInfo(ctx(t), types.UpdateAdditionalInfoRequest{CustomerID: a.ID, AdditionalInfo: map[string]string{"profession": "teacher"}})
	require.NoError(t, err)
	_, err = e.client.KYC.UpdateTaxInfo(ctx(t), types.UpdateTaxInfoRequest{CustomerID: a.ID, TaxNumber: "ZZZZZ0002Z"})
	refused(t, err, http.StatusBadRequest, "Limit exceeded", fiatramp.ErrUpdateLimitExceeded)
	doc := types.UpdateDocumentInfoRequest{CustomerID: a.ID, FullAddress: "1 Park St", DocumentType: "VOTER_ID",
		DocumentFrontImageURL: "https://img.example/f.png", DocumentDetails: types.DocumentDetails{DocumentNumber: "V1"}}
	_, err = e.client.KYC.UpdateDocumentInfo(ctx(t), doc)
	refused(t, err, http.StatusBadRequest, "Limit exceeded", fiatramp.ErrUpdateLimitExceeded)
	_, err = e.client.KYC.UpdateSelfie(ctx(t), types.UpdateSelfieRequest{CustomerID: a.ID, SelfieURL: "https://img.example/s2.jpg"})
	refused(t, err, http.StatusBadRequest, "Kyc update limit exceeded", fiatramp.ErrUpdateLimitExceeded)

	// Reset only from VERIFIED; updates need KYC data.
	_, err = e.client.KYC.Reset(ctx(t), b.ID)
	refused(t, err, http.StatusBadRequest, "KYC can be reset only for a VERIFIED customer")
	fresh := e.newCustomer(3)
	_, err = e.client.KYC.UpdateSelfie(ctx(t), types.UpdateSelfieRequest{CustomerID: fresh.ID, SelfieURL: "https://img.example/s.jpg"})
	refused(t, err, http.StatusBadRequest, "KYC not found")
}

// TestKYCRawBadInput: what the client refuses before sending, sent raw,
// gets the service's field errors, naming the field.
func TestKYCRawBadInput(t *testing.T) {
	e := newEnv(t)
	c := e.newCustomer(1)
	good := func() map[string]any {
		return map[string]any{
			"customer_id": c.ID, "full_name": "Asha", "phone": "+9198", "full_address": "Pune", "dob": "31-01-1990",
			"tax_number": "ABCDE1234F", "document_type": "PASSPORT", "document_front_image_url": "https://img.example/f.png",
			"document_details": map[string]any{"document_number": "P1"},
		}
	}
	const dateMsg = "Date has wrong format. Use one of these formats instead: DD-MM-YYYY."
	for _, tc := range []struct {
		field, key string // key: the member changed (dotted: nested)
		value      any
		msg        string
		code       string
		sentinel   error
	}{
		{"full_name", "full_name", "", "This field may not be blank.", "REQ_FIELD_MISSING", fiatramp.ErrFieldMissing},
		{"dob", "dob", "1990-01-31", dateMsg, "INPUT_INVALID_DATE_FORMAT", fiatramp.ErrInvalidDateFormat},
		{"dob", "dob", "31-13-1990", dateMsg, "INPUT_INVALID_DATE_FORMAT", fiatramp.ErrInvalidDateFormat},
		{"registered_date", "registered_date", "31/01/2020", dateMsg, "INPUT_INVALID_DATE_FORMAT", fiatramp.ErrInvalidDateFormat},
		{"document_front_image_url", "document_front_image_url", "img.example/f.png", "Enter a valid URL.", "REQ_FIELD_MISSING", fiatramp.ErrFieldMissing},
		{"selfie_url", "selfie_url", "ftp://img.example/s.jpg", "Enter a valid URL.", "REQ_FIELD_MISSING", fiatramp.ErrFieldMissing},
		{"document_type", "document_type", "LIBRARY_CARD", `"LIBRARY_CARD" is not a valid choice.`, "KYC_INVALID_DOC_TYPE", fiatramp.ErrInvalidDocumentType},
		{"document_details.document_number", "document_details", map[string]any{"document_number": ""}, "This field may not be blank.", "REQ_FIELD_MISSING", fiatramp.ErrFieldMissing},
	} {
		b := good()
		b[tc.key] = tc.value
		err := e.client.Do(ctx(t), http.MethodPost, "/cms/api/v1/kyc/add-kyc-data", b, nil)
		apiErr := refused(t, err, http.StatusBadRequest, tc.msg, tc.sentinel)
		assert.Equal(t, tc.code, apiErr.Code, tc.field)
		assert.Equal(t, map[string][]string{tc.field: {tc.msg}}, apiErr.FieldErrors, tc.field)
	}
	err := e.client.Do(ctx(t), http.MethodPatch, "/cms/api/v1/kyc/update-selfie-info", map[string]any{"customer_id": c.ID, "selfie_url": "selfie.jpg"}, nil)
	refused(t, err, http.StatusBadRequest, "Enter a valid URL.", fiatramp.ErrFieldMissing)
	st, _ := e.status(c.ID)
	assert.Equal(t, types.KYCUnverified, st, "nothing was taken")
}

// TestKYCAutoDecision: with Settings.KYCAutoDecision, a customer is
// decided by itself once the delay has passed on the sandbox clock, with
// the webhook; a newer submission makes an earlier pending decision stale.
func TestKYCAutoDecision(t *testing.T) {
	for _, reason := range []types.KYCFailureReason{"", types.KYCFailureDocument} {
		t.Run("reason="+string(reason), func(t *testing.T) {
			e, rc := hookEnv(t, nil, func(s *sandbox.Settings) {
				s.KYCAutoDecision = time.Minute
				s.KYCAutoFailureReason = reason
			})
			c := e.newCustomer(1)
			_, err := e.client.KYC.AddData(ctx(t), kycData(c.ID, 1))
			require.NoError(t, err)
			e.sb.Advance(59 * time.Second)
			st, _ := e.status(c.ID)
			assert.Equal(t, types.KYCProcessing, st, "not yet due")
			e.sb.Advance(time.Second)
			st, got := e.status(c.ID)
			settle(t, e.sb)
			hooks := rc.hooks()
			require.Len(t, hooks, 1)
			assert.True(t, signedBy(e.org, hooks[0]))
			if reason == "" {
				assert.Equal(t, types.KYCVerified, st)
				assert.Contains(t, hooks[0].body, `"event":"VERIFIED"`)
				return
			}
			assert.Equal(t, types.KYCFailed, st)
			assert.Equal(t, reason, got)
			assert.Contains(t, hooks[0].body, `"failure_reason":"DOCUMENT_VERIFICATION_FAILED"`)
		})
	}
	t.Run("stale", func(t *testing.T) {
		e := newEnv(t, func(s *sandbox.Settings) { s.KYCAutoDecision = time.Minute })
		c := e.newCustomer(1)
		_, err := e.client.KYC.AddData(ctx(t), kycData(c.ID, 1))
		require.NoError(t, err)
		_, err = e.client.KYC.SimulateStatus(ctx(t), c.ID, types.KYCTaxVerificationFailed)
		require.NoError(t, err)
		e.sb.Advance(time.Hour)
		st, reason := e.status(c.ID)
		assert.Equal(t, types.KYCFailed, st, "the simulation decided first: the automatic decision is stale")
		assert.Equal(t, types.KYCFailureTax, reason)
	})
}

// TestKYCAutoDecisionOnRunningClock: while the sandbox clock runs with
// real time, the decision comes by itself once due, without a request or a
// move of the clock.
func TestKYCAutoDecisionOnRunningClock(t *testing.T) {
	sb := sandbox.New(func(s *sandbox.Settings) { s.KYCAutoDecision = 50 * time.Millisecond })
	t.Cleanup(func() { _ = sb.Close() })
	demo, err := sb.SeedDemo()
	require.NoError(t, err)
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	client, err := srv.Client(demo.Organization)
	require.NoError(t, err)
	c, err := client.Customers.Create(ctx(t), newPerson(1))
	require.NoError(t, err)
	_, err = client.KYC.AddData(ctx(t), kycData(c.ID, 1))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		got, ok := sb.Customer(c.ID)
		return ok && got.KYCStatus == types.KYCVerified
	}, 5*time.Second, 10*time.Millisecond)
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
