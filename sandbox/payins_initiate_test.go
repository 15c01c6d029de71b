package sandbox_test

import (
	"errors"
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

func TestInitiatePayin(t *testing.T) {
	e := newEnv(t)
	q := payinQuote(t, e)
	p, err := e.client.Payins.Initiate(ctx(t), types.InitiatePayinRequest{
		QuotationID: q.ID, CustomerID: e.cust.ID, UTR: "AB12CD34EF56", ClientReferenceID: "order-1",
	})
	require.NoError(t, err)
	assert.NotEqual(t, q.ID, p.ID, "the payin has its own id")
	assert.Equal(t, q.ID, p.QuotationID)
	assert.Equal(t, types.PayinProcessing, p.Status)
	assert.Equal(t, "AB12CD34EF56", p.UTR)
	assert.Equal(t, "order-1", *p.ClientReferenceID)
	assert.True(t, q.SendingAmount.Equal(p.SendingAmount), "the quotation's amounts")
	assert.True(t, q.ReceivingAmount.Equal(p.ReceivingAmount))
	assert.True(t, q.Fees.ServiceFee.Equal(p.Fees.ServiceFee))
	assert.Equal(t, q.ExpiryTime, p.ExpiryTime)
	assert.Contains(t, string(p.Raw), `"sending_amount":10000`, "initiate answers numbers")

	got, err := e.client.Payins.Get(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, p.ID, got.ID)
	assert.Equal(t, "AB12CD34EF56", got.UTR)
	assert.Equal(t, types.PayinProcessing, got.Status)
	assert.True(t, q.ReceivingAmount.Equal(got.ReceivingAmount))
	assert.Contains(t, string(got.Raw), `"receiveing_amount":"`, "fetch answers strings, spelled as the service does")
	assert.Contains(t, string(got.Raw), `"exchange_transfer_id":""`, "empty until linked, as a payout's")
	assert.Equal(t, epoch, got.CreatedAt)

	fetchedQ, err := e.client.Payins.GetQuotation(ctx(t), q.ID)
	require.NoError(t, err)
	assert.Equal(t, "PROCESSING", string(fetchedQ.Status))
}

// TestInitiatePayinRefusals: each rule with the service's message, and a
// refused initiate records nothing.
func TestInitiatePayinRefusals(t *testing.T) {
	e := newEnv(t)
	initiate := func(r types.InitiatePayinRequest) error {
		_, err := e.client.Payins.Initiate(ctx(t), r)
		return err
	}
	q := payinQuote(t, e)
	base := types.InitiatePayinRequest{QuotationID: q.ID, CustomerID: e.cust.ID, UTR: newUTR(), ClientReferenceID: "ref-a"}

	for _, utr := range []string{"12345678901", "1234567890123", "12345678901!", "12345678901é"} {
		r := base
		r.UTR = utr
		apiErr := refused(t, initiate(r), http.StatusBadRequest, "Invalid UTR format", fiatramp.ErrUTRInvalid)
		assert.Contains(t, apiErr.FieldErrors, "utr", utr)
	}
	r := base
	r.QuotationID = uuid.New()
	refused(t, initiate(r), http.StatusBadRequest, "Quotation is not found", fiatramp.ErrQuotationNotFound)
	other := e.customer(e.org, sandbox.Customer{Name: "Ravi"})
	r = base
	r.CustomerID = other.ID
	refused(t, initiate(r), http.StatusBadRequest, "Customer ID does not match with the quotation", fiatramp.ErrCustomerMismatch)

	// Another organization's quotation is not found.
	oo := e.otherOrg(false)
	oc := e.customer(oo, sandbox.Customer{Name: "Other"})
	ob := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: oc.ID})).(sandbox.BankAccount)
	oclient := e.clientFor(oo)
	oq, err := oclient.Payins.CreateQuotation(ctx(t), payinReq(e, func(r *types.CreatePayinQuotationRequest) { r.CustomerID, r.BankID = oc.ID, ob.ID }))
	require.NoError(t, err)
	r = base
	r.QuotationID, r.CustomerID = oq.ID, oc.ID
	refused(t, initiate(r), http.StatusBadRequest, "Quotation is not found", fiatramp.ErrQuotationNotFound)

	first, err := e.client.Payins.Initiate(ctx(t), base)
	require.NoError(t, err)

	// The same UTR, the same reference, the same quotation: each refused.
	q2 := payinQuote(t, e)
	r = base
	r.QuotationID, r.ClientReferenceID = q2.ID, "ref-b"
	refused(t, initiate(r), http.StatusBadRequest, "UTR is already linked to another payin", fiatramp.ErrUTRInUse)
	r.UTR, r.ClientReferenceID = newUTR(), "ref-a"
	refused(t, initiate(r), http.StatusBadRequest, "Client Reference ID already exists", fiatramp.ErrClientReferenceExists)
	r = base
	r.UTR, r.ClientReferenceID = newUTR(), "ref-c"
	refused(t, initiate(r), http.StatusBadRequest, "Quotation is already linked to another payin", fiatramp.ErrQuotationAlreadyLinked)

	// The UTR is unique per organization: another organization may use it.
	_, err = oclient.Payins.Initiate(ctx(t), types.InitiatePayinRequest{QuotationID: oq.ID, CustomerID: oc.ID, UTR: base.UTR, ClientReferenceID: "ref-a"})
	require.NoError(t, err)

	// Expiry on the sandbox clock: at ExpiryTime the quotation is expired.
	e.sb.SetTime(q2.ExpiryTime)
	r = base
	r.QuotationID, r.UTR, r.ClientReferenceID = q2.ID, newUTR(), "ref-d"
	refused(t, initiate(r), http.StatusBadRequest, "Quotation has expired", fiatramp.ErrQuotationExpired)
	// A repeat of the first initiate after expiry is still told it is a
	// duplicate, not that the quotation expired.
	refused(t, initiate(base), http.StatusBadRequest, "UTR is already linked to another payin", fiatramp.ErrUTRInUse)

	page, err := e.client.Payins.List(ctx(t), types.PayinListFilter{})
	require.NoError(t, err)
	require.Len(t, page.Results, 1, "refusals record nothing")
	assert.Equal(t, first.ID, page.Results[0].ID)
}

func TestInitiatePayinFieldErrors(t *testing.T) {
	e := newEnv(t)
	const path = "/pis/api/v1/payin/initiate"
	err := e.client.Do(ctx(t), http.MethodPost, path, map[string]any{"quotation_id": "x", "utr": nil, "client_reference_id": " "}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, "This field may not be blank.", fiatramp.ErrFieldMissing) // the first field's, sorted
	assert.Equal(t, map[string][]string{
		"customer_id": {"This field is required."}, "quotation_id": {"Must be a valid UUID."},
		"utr": {"This field may not be null."}, "client_reference_id": {"This field may not be blank."},
	}, apiErr.FieldErrors)
}

func TestGetPayinRefusals(t *testing.T) {
	e := newEnv(t)
	const base = "/pis/api/v1/payin/"
	err := e.client.Do(ctx(t), http.MethodGet, base+"not-an-id", nil, nil)
	refused(t, err, http.StatusBadRequest, "Payin ID is invalid", fiatramp.ErrPayinIDInvalid)
	err = e.client.Do(ctx(t), http.MethodGet, base, nil, nil)
	refused(t, err, http.StatusBadRequest, "Payin ID is required.", fiatramp.ErrPayinIDInvalid)
	_, err = e.client.Payins.Get(ctx(t), uuid.New())
	refused(t, err, http.StatusBadRequest, "Payin not found or access denied", fiatramp.ErrNotFound)
	p := payinOn(t, e)
	_, err = e.clientFor(e.otherOrg(false)).Payins.Get(ctx(t), p.ID)
	refused(t, err, http.StatusBadRequest, "Payin not found or access denied", fiatramp.ErrNotFound)
}

func TestLinkPayinTransfer(t *testing.T) {
	e := newEnv(t)
	p := payinOn(t, e)
	l, err := e.client.Payins.LinkTransfer(ctx(t), types.LinkPayinTransferRequest{PayinID: p.ID, ExchangeTransferID: "778899"})
	require.NoError(t, err)
	assert.Equal(t, p.ID, l.PayinID)
	assert.Equal(t, "778899", l.ExchangeTransferID)
	got, err := e.client.Payins.Get(ctx(t), p.ID)
	require.NoError(t, err)
	assert.Equal(t, "778899", got.ExchangeTransferID, "stored and shown on fetch")

	_, err = e.client.Payins.LinkTransfer(ctx(t), types.LinkPayinTransferRequest{PayinID: uuid.New(), ExchangeTransferID: "1"})
	refused(t, err, http.StatusBadRequest, "Payin not found or access denied", fiatramp.ErrNotFound)
	_, err = e.clientFor(e.otherOrg(false)).Payins.LinkTransfer(ctx(t), types.LinkPayinTransferRequest{PayinID: p.ID, ExchangeTransferID: "1"})
	refused(t, err, http.StatusBadRequest, "Payin not found or access denied", fiatramp.ErrNotFound)
	err = e.client.Do(ctx(t), http.MethodPatch, "/pis/api/v1/payin/update-transfer-id", map[string]any{"payin_id": p.ID}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, "This field is required.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{"exchange_transfer_id": {"This field is required."}}, apiErr.FieldErrors)
}

// TestInitiatePayinUnderFaults initiates payins through a client that
// retries, against a sandbox that spoils a fifth of the initiates
// (connections dropped before and after the payin is stored, 500, 503),
// and checks that what each caller was told agrees with what is stored:
// a success names the one payin of its UTR, a refusal leaves none, and an
// unknown outcome holds at most one, found by the customer's history
// matched on the UTR (a repeat refused as a duplicate proves one).
func TestInitiatePayinUnderFaults(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	e := newEnv(t)
	const path = "/pis/api/v1/payin/initiate"
	kinds := []sandbox.FaultKind{sandbox.FaultDropBefore, sandbox.FaultDropAfter, sandbox.FaultInternalError, sandbox.FaultUnavailable}
	const share = 0.05 // each kind: a twentieth, a fifth in all
	for i, kind := range kinds {
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{
			Kind: kind, Method: http.MethodPost, Path: path, Fraction: share / (1 - share*float64(i)),
		}))
	}
	client := e.clientFor(e.org, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 4, InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}))
	type outcome struct {
		utr     string
		payin   *types.Payin
		unknown *fiatramp.OutcomeUnknownError
		err     error
	}
	var outcomes []outcome
	for range n {
		q := payinQuote(t, e)
		o := outcome{utr: newUTR()}
		o.payin, o.err = client.Payins.Initiate(ctx(t), types.InitiatePayinRequest{QuotationID: q.ID, CustomerID: e.cust.ID, UTR: o.utr})
		errors.As(o.err, &o.unknown)
		outcomes = append(outcomes, o)
	}
	stored := map[string][]types.Payin{}
	for p, err := range e.client.Payins.All(ctx(t), types.PayinListFilter{CustomerID: e.cust.ID}) {
		require.NoError(t, err)
		stored[p.UTR] = append(stored[p.UTR], p)
	}
	var ok, unknown, unknownCreated, probably int
	for _, o := range outcomes {
		got := stored[o.utr]
		assert.LessOrEqual(t, len(got), 1, "UTR %s recorded once at most", o.utr)
		switch {
		case o.err == nil:
			ok++
			require.Len(t, got, 1, o.utr)
			assert.Equal(t, o.payin.ID, got[0].ID, "the payin the caller was given is the stored one")
		case o.unknown != nil:
			unknown++
			assert.Equal(t, e.cust.ID, o.unknown.CustomerID)
			if len(got) == 1 {
				unknownCreated++
			}
			if o.unknown.ProbablyCreated {
				probably++
				assert.Len(t, got, 1, "a repeat refused as a duplicate proves the payin exists")
			}
		default:
			assert.Empty(t, got, "refused (%v), yet recorded", o.err)
		}
	}
	t.Logf("%d initiates: %d succeeded, %d unknown (%d of them recorded, %d marked probably created); faults: %+v",
		n, ok, unknown, unknownCreated, probably, e.sb.Stats())
	assert.Positive(t, ok)
}
