package fiatramp_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

var eddID = uuid.MustParse("83e47391-b1c2-4edd-b2f6-af91a4627389")

// payoutEDDRequest is a complete payout EDD.
func payoutEDDRequest() types.SavePayoutEDDRequest {
	return types.SavePayoutEDDRequest{
		CustomerID: customerID, SourceOfIncome: types.SourceOfIncomeSalary,
		BankStatementURLs: []string{"https://docs.example/jan.pdf", "https://docs.example/feb.pdf"}, BankStatementPasswords: []string{"", "pässword"},
		ITRReportURLs: []string{"http://docs.example/itr-2025.pdf"},
		Declaration:   true,
	}
}

func TestPayoutsSaveEDD(t *testing.T) {
	h := newHarness(t)
	body := `{"bank_statement_passwords":["","p\u00e4ssword"],"bank_statement_url":["https://docs.example/jan.pdf","https://docs.example/feb.pdf"],` +
		`"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","declaration":true,"itr_report_passwords":[""],"itr_report_url":["http://docs.example/itr-2025.pdf"],"source_of_income":"SALARY"}`
	data := `{"id":"` + eddID.String() + `","status":"PROCESSING"}`
	calls := h.expect(http.MethodPost, "/ren/api/v1/payout/edd/save", body, http.StatusOK, ok(data))
	e, err := h.client.Payouts.SaveEDD(context.Background(), payoutEDDRequest())
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, eddID, e.ID)
	assert.Equal(t, types.EDDProcessing, e.Status)
	assert.Equal(t, data, string(e.Raw))
}

// TestPayoutsSaveEDDBadInput: what cannot be right is refused before
// sending, naming the field.
// TestPayoutsSaveEDDDeclarationAsGiven: a declaration that is not true is
// the service's to judge: it is sent, not refused.
func TestPayoutsSaveEDDDeclarationAsGiven(t *testing.T) {
	h := newHarness(t)
	req := payoutEDDRequest()
	req.Declaration = false
	body := `{"bank_statement_passwords":["","p\u00e4ssword"],"bank_statement_url":["https://docs.example/jan.pdf","https://docs.example/feb.pdf"],` +
		`"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","declaration":false,"itr_report_passwords":[""],"itr_report_url":["http://docs.example/itr-2025.pdf"],"source_of_income":"SALARY"}`
	calls := h.expect(http.MethodPost, "/ren/api/v1/payout/edd/save", body, http.StatusOK, ok(`{"id":"`+eddID.String()+`","status":"PROCESSING"}`))
	_, err := h.client.Payouts.SaveEDD(context.Background(), req)
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
}

func TestPayoutsSaveEDDBadInput(t *testing.T) {
	for field, mod := range map[string]func(*types.SavePayoutEDDRequest){
		"customer_id":              func(r *types.SavePayoutEDDRequest) { r.CustomerID = uuid.Nil },
		"source_of_income":         func(r *types.SavePayoutEDDRequest) { r.SourceOfIncome = " " },
		"bank_statement_url[1]":    func(r *types.SavePayoutEDDRequest) { r.BankStatementURLs[1] = "feb.pdf" },
		"itr_report_url[0]":        func(r *types.SavePayoutEDDRequest) { r.ITRReportURLs[0] = "file:///etc/passwd" },
		"bank_statement_passwords": func(r *types.SavePayoutEDDRequest) { r.BankStatementPasswords = []string{""} },
		"itr_report_passwords":     func(r *types.SavePayoutEDDRequest) { r.ITRReportPasswords = []string{"", ""} },
	} {
		t.Run(field, func(t *testing.T) {
			h := newHarness(t)
			req := payoutEDDRequest()
			mod(&req)
			e, err := h.client.Payouts.SaveEDD(context.Background(), req)
			assert.Nil(t, e)
			require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
			var v *fiatramp.ValidationError
			require.ErrorAs(t, err, &v)
			assert.Equal(t, field, v.Field)
			assert.Zero(t, h.mock.GetTotalCallCount())
		})
	}
}

func TestPayoutsSaveEDDRefusals(t *testing.T) {
	for message, want := range map[string]error{
		"Customer is unverified": fiatramp.ErrCustomerUnverified,
		"EDD not required":       fiatramp.ErrEDDNotRequired,
	} {
		t.Run(message, func(t *testing.T) {
			h := newHarness(t)
			h.mock.RegisterResponder(http.MethodPost, testBase+"/ren/api/v1/payout/edd/save",
				httpmock.NewStringResponder(http.StatusBadRequest, fail(message, "", `{}`)))
			e, err := h.client.Payouts.SaveEDD(context.Background(), payoutEDDRequest())
			assert.Nil(t, e)
			var apiErr *fiatramp.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, message, apiErr.Message)
			require.ErrorIs(t, err, want)
			var unknown *fiatramp.OutcomeUnknownError
			assert.NotErrorAs(t, err, &unknown, "a refusal is an answer")
		})
	}
}

// TestSaveEDDLostAnswer: a save whose answer is lost (a 503 after the
// service may have saved it) must not end in "EDD not required", which the
// service answers a repeat once the first save is PROCESSING: that would
// tell the caller no EDD was filed when one was. It ends in an
// *OutcomeUnknownError instead, for payouts and payins alike.
func TestSaveEDDLostAnswer(t *testing.T) {
	for name, save := range map[string]func(*fiatramp.Client) (*types.EDD, error){
		"payout": func(c *fiatramp.Client) (*types.EDD, error) {
			return c.Payouts.SaveEDD(context.Background(), payoutEDDRequest())
		},
		"payin": func(c *fiatramp.Client) (*types.EDD, error) {
			r := payoutEDDRequest()
			return c.Payins.SaveEDD(context.Background(), types.SavePayinEDDRequest{CustomerID: r.CustomerID, SourceOfIncome: r.SourceOfIncome,
				BankStatementURLs: r.BankStatementURLs, BankStatementPasswords: r.BankStatementPasswords, ITRReportURLs: r.ITRReportURLs, Declaration: true})
		},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}))
			var n int
			h.mock.RegisterResponder(http.MethodPost, testBase+"/ren/api/v1/"+name+"/edd/save", func(*http.Request) (*http.Response, error) {
				if n++; n == 1 {
					return httpmock.NewStringResponse(http.StatusServiceUnavailable, `{"status":false,"message":"unavailable","data":null}`), nil
				}
				return httpmock.NewStringResponse(http.StatusBadRequest, fail("EDD not required", "", `{}`)), nil
			})
			e, err := save(h.client)
			assert.Nil(t, e)
			assert.NotErrorIs(t, err, fiatramp.ErrEDDNotRequired, "the first attempt may have saved it")
			require.ErrorIs(t, err, fiatramp.ErrOutcomeUnknown)
			op := map[string]string{"payout": "Payouts.SaveEDD", "payin": "Payins.SaveEDD"}[name]
			assert.Contains(t, err.Error(), "("+op+")", "the message names the operation")
			if name == "payin" {
				assert.NotContains(t, err.Error(), "payout")
			}
		})
	}
}

type floorEDDRequest struct {
	BankStatementPasswords []string  `json:"bank_statement_passwords"`
	BankStatementURL       []string  `json:"bank_statement_url"`
	CustomerID             uuid.UUID `json:"customer_id"`
	Declaration            bool      `json:"declaration"`
	ITRReportPasswords     []string  `json:"itr_report_passwords"`
	ITRReportURL           []string  `json:"itr_report_url"`
	SourceOfIncome         string    `json:"source_of_income"`
}

type floorEDD struct {
	ID     uuid.UUID `json:"id"`
	Status string    `json:"status"`
}

// BenchmarkPayoutsSaveEDDVsFloor compares Payouts.SaveEDD with the hand-written
// floor (floorSend), interleaved, through an in-memory transport:
//
//	go test -run '^$' -bench 'PayoutsSaveEDDVsFloor' -benchtime 20000x .
func BenchmarkPayoutsSaveEDDVsFloor(b *testing.B) {
	ctx := context.Background()
	eddReq := types.SavePayoutEDDRequest{CustomerID: customerID, SourceOfIncome: types.SourceOfIncomeSalary,
		BankStatementURLs: []string{"https://docs.example/jan.pdf"}, Declaration: true}
	compareInMemory(b, []byte(ok(`{"id":"83e47391-b1c2-4edd-b2f6-af91a4627389","status":"PROCESSING"}`)),
		func(c *fiatramp.Client) error { _, err := c.Payouts.SaveEDD(ctx, eddReq); return err },
		func(hc *http.Client) error {
			return floorSend(ctx, hc, http.MethodPost, memoryBase+"/ren/api/v1/payout/edd/save", floorEDDRequest{
				BankStatementPasswords: []string{""}, BankStatementURL: eddReq.BankStatementURLs, CustomerID: customerID,
				Declaration: true, ITRReportPasswords: []string{}, ITRReportURL: []string{}, SourceOfIncome: "SALARY"}, new(floorEDD))
		})
}
