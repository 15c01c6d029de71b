package fiatramptest_test

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/fiatramptest"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// everySentinel is each sentinel of package fiatramp; TestRefusal checks
// against the package's source that none is missing.
var everySentinel = []error{
	fiatramp.ErrFieldMissing, fiatramp.ErrInternal, fiatramp.ErrUnavailable, fiatramp.ErrUnauthorized,
	fiatramp.ErrRateLimited, fiatramp.ErrClientReferenceExists, fiatramp.ErrQuotationNotFound,
	fiatramp.ErrCustomerMismatch, fiatramp.ErrQuotationExpired, fiatramp.ErrQuotationAlreadyLinked,
	fiatramp.ErrExchangeOrderInUse, fiatramp.ErrInsufficientBalance, fiatramp.ErrNotEntitled,
	fiatramp.ErrPayoutIDInvalid, fiatramp.ErrQuotationIDInvalid, fiatramp.ErrCustomerNotFound,
	fiatramp.ErrBankNotFound, fiatramp.ErrCustomerUnverified, fiatramp.ErrBankUnverified,
	fiatramp.ErrOnrampDisabled, fiatramp.ErrAmountBelowMinimum, fiatramp.ErrAmountAboveMaximum,
	fiatramp.ErrAMLScreeningFailed, fiatramp.ErrEDDRequired, fiatramp.ErrDailyLimitExhausted,
	fiatramp.ErrMalformedResponse, fiatramp.ErrPagination, fiatramp.ErrInvalidRequest,
	fiatramp.ErrOutcomeUnknown, fiatramp.ErrRedirect, fiatramp.ErrClockSkew, fiatramp.ErrNotFound,
	fiatramp.ErrPayoutNotFound, fiatramp.ErrPayinNotFound, fiatramp.ErrServiceTimeout,
	fiatramp.ErrServiceUnknown, fiatramp.ErrUPIUnsupported, fiatramp.ErrEDDNotRequired,
	fiatramp.ErrUTRInUse, fiatramp.ErrUTRInvalid, fiatramp.ErrPayinIDInvalid, fiatramp.ErrEmailInUse,
	fiatramp.ErrPhoneInUse, fiatramp.ErrDuplicateContact, fiatramp.ErrInvalidCountry,
	fiatramp.ErrInvalidResidenceCountry, fiatramp.ErrNonResidentUnsupported, fiatramp.ErrInputMalformed,
	fiatramp.ErrAdditionalInfoMalformed, fiatramp.ErrInvalidDateFormat, fiatramp.ErrInvalidDateRange,
	fiatramp.ErrInvalidAadhaar, fiatramp.ErrInvalidDocumentType, fiatramp.ErrKYCExists,
	fiatramp.ErrKYCInUse, fiatramp.ErrUpdateLimitExceeded, fiatramp.ErrVPAInUse,
	fiatramp.ErrAccountNumberInUse, fiatramp.ErrBankAccountLimit, fiatramp.ErrNotCreated,
	fiatramp.ErrRetryBudgetExhausted,
}

// libraryOwn are the sentinels of the library's own errors: no answer of
// the service stands for them.
var libraryOwn = map[error]bool{
	fiatramp.ErrMalformedResponse: true, fiatramp.ErrPagination: true, fiatramp.ErrInvalidRequest: true,
	fiatramp.ErrOutcomeUnknown: true, fiatramp.ErrNotCreated: true, fiatramp.ErrRetryBudgetExhausted: true,
}

// exportedSentinels parses package fiatramp and returns the names of its
// exported Err variables.
func exportedSentinels(t *testing.T) []string {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, "..", func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	require.NoError(t, err)
	var names []string
	for _, file := range pkgs["fiatramp"].Files {
		for _, decl := range file.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, spec := range gd.Specs {
					for _, n := range spec.(*ast.ValueSpec).Names {
						if strings.HasPrefix(n.Name, "Err") && n.IsExported() {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	return names
}

// TestRefusal checks that every sentinel of a refusal of the service has a
// refusal that matches it, that the library's own have none, and that
// each call returns a new error.
func TestRefusal(t *testing.T) {
	var names []string
	for _, s := range everySentinel {
		require.Len(t, fiatramp.SentinelNames(s), 1)
		names = append(names, fiatramp.SentinelNames(s)[0])
	}
	require.ElementsMatch(t, exportedSentinels(t), names, "everySentinel is package fiatramp's sentinels")

	for _, s := range everySentinel {
		name := fiatramp.SentinelNames(s)[0]
		if libraryOwn[s] {
			assert.PanicsWithValue(t, "fiatramptest: Refusal: no refusal of the service stands for "+name,
				func() { fiatramptest.Refusal(s) }, name)
			continue
		}
		e := fiatramptest.Refusal(s)
		assert.ErrorIs(t, e, s, name)
		assert.NotEmpty(t, e.Error(), name)
		assert.NotSame(t, e, fiatramptest.Refusal(s), "%s: a new error each call", name)
	}
	assert.PanicsWithValue(t, "fiatramptest: Refusal: no refusal of the service stands for the error boom",
		func() { fiatramptest.Refusal(errors.New("boom")) })
	assert.Panics(t, func() { fiatramptest.Refusal(nil) })
}

// TestRefusalAsTheSandboxSends checks a few refusals against the same
// refusal from the sandbox: same status and message.
func TestRefusalAsTheSandboxSends(t *testing.T) {
	ctx := context.Background()
	client, sb := fiatramptest.NewClient(t, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	payee := sb.NewPayee(t)
	same := func(sentinel error, err error) {
		t.Helper()
		var got *fiatramp.APIError
		require.ErrorAs(t, err, &got)
		want := fiatramptest.Refusal(sentinel)
		assert.Equal(t, want.StatusCode, got.StatusCode)
		assert.Equal(t, want.Message, got.Message)
		assert.Equal(t, fiatramp.SentinelNames(want), fiatramp.SentinelNames(got))
	}

	_, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: payee.Quotation.ID, CustomerID: payee.Customer.ID})
	require.NoError(t, err)
	_, err = client.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: payee.Quotation.ID, CustomerID: payee.Customer.ID})
	same(fiatramp.ErrQuotationAlreadyLinked, err)

	q := sb.NewQuotation(t, payee, decimal.NewFromInt(5))
	sb.Advance(time.Hour)
	_, err = client.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: payee.Customer.ID})
	same(fiatramp.ErrQuotationExpired, err)

	require.NoError(t, sb.SetKYCStatus(payee.Customer.ID, types.KYCProcessing))
	_, err = client.Payouts.CreateQuotation(ctx, types.CreatePayoutQuotationRequest{
		CustomerID: payee.Customer.ID, BankID: payee.BankAccount.ID, Asset: "USDT", Network: "TRON", Fiat: "INR",
		SendingAmount: decimal.NewFromInt(10),
	})
	same(fiatramp.ErrCustomerUnverified, err)
}

// TestNewClientCleansUp checks that the server stops with the test.
func TestNewClientCleansUp(t *testing.T) {
	var url string
	t.Run("test", func(t *testing.T) {
		client, sb := fiatramptest.NewClient(t)
		url = sb.Server.URL
		_, err := client.Payouts.GetBalance(context.Background())
		require.NoError(t, err)
	})
	_, err := http.Get(url)
	require.Error(t, err, "the sandbox still serves after its test ended")
}

// TestNewPayee checks that each payee is a new customer, ready to be paid,
// and that more quotations for it can be paid too.
func TestNewPayee(t *testing.T) {
	ctx := context.Background()
	client, sb := fiatramptest.NewClient(t)
	a, b := sb.NewPayee(t), sb.NewPayee(t)
	require.NotEqual(t, a.Customer.ID, b.Customer.ID)
	require.Equal(t, types.KYCVerified, a.Customer.KYCStatus)
	require.Equal(t, a.BankAccount.ID, a.Quotation.BankID)
	require.True(t, a.Quotation.SendingAmount.Equal(decimal.NewFromInt(fiatramptest.QuotationAmount)))

	for i, q := range []struct {
		id    uuid.UUID
		payee fiatramptest.Payee
	}{{a.Quotation.ID, a}, {sb.NewQuotation(t, a, decimal.NewFromInt(3)).ID, a}, {b.Quotation.ID, b}} {
		p, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: q.id, CustomerID: q.payee.Customer.ID})
		require.NoError(t, err, "payout %d", i)
		require.Equal(t, types.PayoutProcessing, p.Status)
	}
	require.True(t, sb.Balance(sb.Organization.ID, "USDT").Equal(decimal.NewFromInt(fiatramptest.Balance)),
		"standard payouts leave the prefunded balance alone")
}

// TestNewDelivery checks that a receiver keyed as the organization accepts
// the delivery, and one keyed otherwise refuses it.
func TestNewDelivery(t *testing.T) {
	_, sb := fiatramptest.NewClient(t)
	var got *webhook.Event
	fn := func(_ context.Context, ev *webhook.Event) error { got = ev; return nil }
	ref := "order-7"
	ev := webhook.Event{Type: webhook.TypePayin, ID: "q-1", Event: webhook.EventFailed,
		Metadata: webhook.Metadata{ClientReferenceID: &ref}}

	rec := httptest.NewRecorder()
	webhook.Handler(sb.Organization.APIKey, "another secret", fn).ServeHTTP(rec, sb.NewDelivery(t, "/hooks", ev))
	require.Equal(t, http.StatusUnauthorized, rec.Code)
	require.Nil(t, got)

	// Moved on the sandbox clock: a receiver on the same clock accepts it.
	sb.Advance(time.Hour)
	rec = httptest.NewRecorder()
	webhook.Handler(sb.Organization.APIKey, sb.Organization.APISecret, fn, webhook.WithClock(sb.Now)).
		ServeHTTP(rec, sb.NewDelivery(t, "/hooks", ev))
	require.Equal(t, http.StatusOK, rec.Code)
	require.NotNil(t, got)
	require.Equal(t, "order-7", *got.Metadata.ClientReferenceID)
	require.Equal(t, "PAYIN/FAILED/q-1", got.DedupeKey())
}

// The sandbox's own delivery of a payout's final status reaches a
// receiver served by the test, and names the payout's reference: what
// ties the event to a job whose create answer was lost.
func TestSandboxDeliveryCarriesTheReference(t *testing.T) {
	ctx := context.Background()
	client, sb := fiatramptest.NewClient(t)
	got := make(chan webhook.Event, 4)
	receiver := httptest.NewServer(webhook.Handler(sb.Organization.APIKey, sb.Organization.APISecret,
		func(_ context.Context, ev *webhook.Event) error { got <- *ev; return nil },
		webhook.WithClock(sb.Now)))
	t.Cleanup(receiver.Close)
	require.NoError(t, sb.SetWebhookURL(sb.Organization.ID, receiver.URL))

	payee := sb.NewPayee(t)
	p, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: payee.Quotation.ID, CustomerID: payee.Customer.ID, ClientReferenceID: "order-42",
	})
	require.NoError(t, err)
	_, err = client.Payouts.SimulateStatus(ctx, p.ID, types.PayoutSuccess)
	require.NoError(t, err)
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, sb.WaitDeliveries(wctx))

	ev := <-got
	assert.Equal(t, webhook.TypePayout, ev.Type)
	assert.Equal(t, webhook.EventSuccess, ev.Event)
	assert.Equal(t, p.ID.String(), ev.ID)
	require.NotNil(t, ev.Metadata.ClientReferenceID)
	assert.Equal(t, "order-42", *ev.Metadata.ClientReferenceID)
}
