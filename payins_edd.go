package fiatramp

import (
	"context"

	"github.com/fiatramp/fiatramp-go/types"
)

var savePayinEDDBody = compileBody[types.SavePayinEDDRequest]()

// SaveEDD submits a customer's enhanced due diligence for payins: POST
// /ren/api/v1/payin/edd/save with the payout EDD's members but
// "declaration", which the newest payin save does not show (it is sent
// only when Declaration is true), plus {"account_operator",
// "account_operator_name", "p2p_trading_status", "purpose",
// "relation_with_account_operator", "supporting_purpose_doc_url"}; every
// list is sent as an array ([] when empty), relation_with_account_operator
// in lower case ("brother"), as the service documents it. Once verified it lifts the customer's payin limits and their
// payout limits too. The EDD is saved PROCESSING, then reviewed (VERIFIED
// or FAILED, each announced by an EDD webhook).
//
// Refused before sending (ErrInvalidRequest, naming the field): what
// PayoutsService.SaveEDD refuses, and a supporting document URL that is
// not a URL at all. The service's refusals are those of
// PayoutsService.SaveEDD, and a repeat is handled alike.
func (s *PayinsService) SaveEDD(ctx context.Context, req types.SavePayinEDDRequest, opts ...RequestOption) (*types.EDD, error) {
	if err := checkEDD(req.CustomerID, req.SourceOfIncome); err != nil {
		return nil, err
	}
	var err error
	if req.BankStatementPasswords, err = eddDocuments("bank_statement_url", "bank_statement_passwords", req.BankStatementURLs, req.BankStatementPasswords); err != nil {
		return nil, err
	}
	if req.ITRReportPasswords, err = eddDocuments("itr_report_url", "itr_report_passwords", req.ITRReportURLs, req.ITRReportPasswords); err != nil {
		return nil, err
	}
	if err := absoluteURLs("supporting_purpose_doc_url", req.SupportingPurposeDocURLs); err != nil {
		return nil, err
	}
	return call[types.EDD](ctx, s.client, opPayinsSaveEDD.op().with(savePayinEDDBody(req)), opts)
}
