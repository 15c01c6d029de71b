package fiatramp

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

var savePayoutEDDBody = compileBody[types.SavePayoutEDDRequest]()

// The bodies of the EDD saves.
// SaveEDD submits a customer's enhanced due diligence for payouts, which
// lifts their payout limits once verified: POST /ren/api/v1/payout/edd/save
// with {"bank_statement_passwords", "bank_statement_url", "customer_id",
// "declaration", "itr_report_passwords", "itr_report_url",
// "source_of_income"}; every list is sent as an array ([] when empty). The
// EDD is saved PROCESSING, then reviewed (VERIFIED or FAILED, each
// announced by an EDD webhook).
//
// Refused before sending (ErrInvalidRequest, naming the field): a nil
// CustomerID, a blank SourceOfIncome, a document URL that is not a URL at
// all (a URL written without its scheme is sent as given), and a list of
// passwords whose length is not that of its URLs (nil sends "" for each).
// Declaration is sent as given: the service judges a save the customer
// has not declared true. The service refuses a customer whose KYC is not verified ("Customer is unverified",
// ErrCustomerUnverified) and a customer who needs no EDD ("EDD not
// required", ErrEDDNotRequired).
//
// A save is not repeated once an attempt may have reached the service:
// the service refuses a second save while the first is PROCESSING ("EDD
// not required"), which would report a saved EDD as never filed. Such a
// call ends in an *OutcomeUnknownError (ErrOutcomeUnknown); a refusal
// with no earlier attempt that may have acted is returned as it is.
func (s *PayoutsService) SaveEDD(ctx context.Context, req types.SavePayoutEDDRequest, opts ...RequestOption) (*types.EDD, error) {
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
	return call[types.EDD](ctx, s.client, opPayoutsSaveEDD.op().with(savePayoutEDDBody(req)), opts)
}

// checkEDD refuses the members every EDD save needs.
func checkEDD(customerID uuid.UUID, source types.SourceOfIncome) error {
	if err := requireID("customer_id", customerID); err != nil {
		return err
	}
	return requireText("source_of_income", string(source))
}

// eddDocuments checks a list of document URLs and its passwords, and
// returns the passwords to send: one "" per URL when passwords is nil.
func eddDocuments(urlField, passwordField string, urls, passwords []string) ([]string, error) {
	if err := absoluteURLs(urlField, urls); err != nil {
		return nil, err
	}
	if passwords == nil {
		return make([]string, len(urls)), nil
	}
	if len(passwords) != len(urls) {
		return nil, invalid(passwordField, fmt.Sprintf("%d passwords for %d documents: give one per document, \"\" for none", len(passwords), len(urls)))
	}
	return passwords, nil
}

// absoluteURLs refuses a list holding anything checkWebURL refuses.
func absoluteURLs(field string, urls []string) error {
	for i, raw := range urls {
		if _, err := checkWebURL(fmt.Sprintf("%s[%d]", field, i), raw); err != nil {
			return err
		}
	}
	return nil
}

// eddKnownBy is what a saved EDD is known by: its id and status.
func eddKnownBy() resultRule {
	return requires(
		need("id", func(e *types.EDD) bool { return e.ID == uuid.Nil }),
		need("status", func(e *types.EDD) bool { return e.Status == "" }))
}
