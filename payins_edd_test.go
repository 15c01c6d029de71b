package fiatramp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestPayinsSaveEDD(t *testing.T) {
	h := newHarness(t)
	body := `{"account_operator":"SELF","account_operator_name":"Asha Rao","bank_statement_passwords":[""],"bank_statement_url":["https://docs.example/s.pdf"],` +
		`"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","declaration":true,"itr_report_passwords":[],"itr_report_url":[],"p2p_trading_status":true,` +
		`"purpose":"Investment","relation_with_account_operator":"brother","source_of_income":"BUSINESS_INCOME","supporting_purpose_doc_url":["https://docs.example/why.pdf"]}`
	calls := h.expect(http.MethodPost, "/ren/api/v1/payin/edd/save", body, http.StatusOK, ok(`{"id":"`+eddID.String()+`","status":"PROCESSING"}`))
	e, err := h.client.Payins.SaveEDD(context.Background(), types.SavePayinEDDRequest{
		CustomerID: customerID, SourceOfIncome: types.SourceOfIncomeBusiness,
		BankStatementURLs: []string{"https://docs.example/s.pdf"}, Declaration: true,
		Purpose: "Investment", AccountOperator: "SELF", AccountOperatorName: "Asha Rao", RelationWithAccountOperator: "Brother",
		P2PTradingStatus: true, SupportingPurposeDocURLs: []string{"https://docs.example/why.pdf"},
	})
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, eddID, e.ID)
}

func TestPayinsSaveEDDBadInput(t *testing.T) {
	for field, req := range map[string]types.SavePayinEDDRequest{
		"supporting_purpose_doc_url[0]": {CustomerID: customerID, SourceOfIncome: "OTHERS", Declaration: true, SupportingPurposeDocURLs: []string{"https:///nohost"}},
		"source_of_income":              {CustomerID: customerID, Declaration: true},
	} {
		t.Run(field, func(t *testing.T) {
			h := newHarness(t)
			_, err := h.client.Payins.SaveEDD(context.Background(), req)
			var v *fiatramp.ValidationError
			require.ErrorAs(t, err, &v)
			assert.Equal(t, field, v.Field)
			assert.Zero(t, h.mock.GetTotalCallCount())
		})
	}
	// An unknown source of income is sent as given: enums are open.
	h := newHarness(t)
	h.mock.RegisterNoResponder(nil)
	calls := h.expect(http.MethodPost, "/ren/api/v1/payin/edd/save",
		`{"bank_statement_passwords":[],"bank_statement_url":[],"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","declaration":true,"itr_report_passwords":[],"itr_report_url":[],"p2p_trading_status":false,"source_of_income":"PENSION","supporting_purpose_doc_url":[]}`,
		http.StatusOK, ok(`{"id":"`+eddID.String()+`","status":"PROCESSING"}`))
	_, err := h.client.Payins.SaveEDD(context.Background(), types.SavePayinEDDRequest{CustomerID: customerID, SourceOfIncome: "PENSION", Declaration: true})
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
}

// TestPayinsSaveEDDWithoutDeclaration: the newest payin save shows no
// declaration, so a request without one is sent without the member, not
// refused.
func TestPayinsSaveEDDWithoutDeclaration(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterNoResponder(nil)
	calls := h.expect(http.MethodPost, "/ren/api/v1/payin/edd/save",
		`{"bank_statement_passwords":[],"bank_statement_url":[],"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","itr_report_passwords":[],"itr_report_url":[],"p2p_trading_status":false,"source_of_income":"SALARY","supporting_purpose_doc_url":[]}`,
		http.StatusOK, ok(`{"id":"`+eddID.String()+`","status":"PROCESSING"}`))
	_, err := h.client.Payins.SaveEDD(context.Background(), types.SavePayinEDDRequest{CustomerID: customerID, SourceOfIncome: types.SourceOfIncomeSalary})
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
}
