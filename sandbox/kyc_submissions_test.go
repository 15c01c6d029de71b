package sandbox_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

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
