package fiatramp

// A customer's KYC submissions: the KYC data, the four updates and the
// reset.

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

var addKYCDataBody = compileBody[types.AddKYCDataRequest]()

// AddData submits a customer's KYC data: POST /cms/api/v1/kyc/add-kyc-data.
// The customer moves to PROCESSING; the result arrives by the CUSTOMER
// webhook (or a fetch). Refused before sending (ErrInvalidRequest, naming
// the field): a nil customer_id; an empty full_name, phone, full_address,
// tax_number, document_type or document_details.document_number; dob (or
// a set registered_date) not a date in DD-MM-YYYY; a document image or
// selfie URL that is not a URL at all (blank, white space inside, a scheme
// other than http or https, no host). With CheckKYCRules, the
// additional_info is checked against the configuration's rules too. The
// service refuses a second submission ("KYC already exists") and a tax
// number or document of another customer ("KYC already in use").
func (s *KYCService) AddData(ctx context.Context, req types.AddKYCDataRequest, opts ...RequestOption) (*types.KYCResult, error) {
	if err := checkAddKYCData(&req); err != nil {
		return nil, err
	}
	if err := checkRules(req.AdditionalInfo, opts); err != nil {
		return nil, err
	}
	return call[types.KYCResult](ctx, s.client, opKYCAddData.op().with(addKYCDataBody(req)), opts)
}

// checkAddKYCData refuses the bad input of KYC data.
func checkAddKYCData(req *types.AddKYCDataRequest) error {
	for _, c := range []func() error{
		func() error { return requireID("customer_id", req.CustomerID) },
		func() error { return requireText("full_name", req.FullName) },
		func() error { return requireText("phone", req.Phone) },
		func() error { return requireText("full_address", req.FullAddress) },
		func() error { return checkDate("dob", req.DOB, true) },
		func() error { return checkDate("registered_date", req.RegisteredDate, false) },
		func() error { return requireText("tax_number", req.TaxNumber) },
		func() error {
			return checkDocument(req.DocumentType, req.DocumentFrontImageURL, req.DocumentBackImageURL, req.DocumentDetails)
		},
		func() error { return checkURL("selfie_url", req.SelfieURL, false) },
	} {
		if err := c(); err != nil {
			return err
		}
	}
	return nil
}

// checkDocument refuses an empty document type or number and image URLs
// that are not URLs at all (the back image may be empty).
func checkDocument(docType, front, back string, details types.DocumentDetails) error {
	if err := requireText("document_type", docType); err != nil {
		return err
	}
	if err := checkURL("document_front_image_url", front, true); err != nil {
		return err
	}
	if err := checkURL("document_back_image_url", back, false); err != nil {
		return err
	}
	return requireText("document_details.document_number", details.DocumentNumber)
}

// checkDate refuses a date that is not a real day written DD-MM-YYYY
// (an optional one may be empty).
func checkDate(field, date string, required bool) error {
	if date == "" && !required {
		return nil
	}
	if _, err := time.Parse("02-01-2006", date); err != nil || len(date) != 10 {
		return invalid(field, "want a date DD-MM-YYYY (e.g. 31-01-1990), got "+quote(date))
	}
	return nil
}

// checkURL refuses what checkWebURL refuses (an optional URL may be
// empty).
func checkURL(field, raw string, required bool) error {
	if raw == "" && !required {
		return nil
	}
	_, err := checkWebURL(field, raw)
	return err
}

var updateTaxInfoBody = compileBody[types.UpdateTaxInfoRequest]()

// UpdateTaxInfo replaces a customer's tax number: PATCH
// /cms/api/v1/kyc/update-tax-info with {"customer_id", "tax_number"}; the
// recovery of TAX_VERIFICATION_FAILED. A customer has at most three
// updates ("Limit exceeded"); a tax number of another customer is refused
// ("KYC already in use"). Sent once, as every update uses one of the
// three: an attempt that may have acted and got no answer ends the call
// in an *OutcomeUnknownError.
func (s *KYCService) UpdateTaxInfo(ctx context.Context, req types.UpdateTaxInfoRequest, opts ...RequestOption) (*types.KYCResult, error) {
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	if err := requireText("tax_number", req.TaxNumber); err != nil {
		return nil, err
	}
	return call[types.KYCResult](ctx, s.client, opKYCUpdateTaxInfo.op().with(updateTaxInfoBody(req)), opts)
}

var updateDocumentInfoBody = compileBody[types.UpdateDocumentInfoRequest]()

// UpdateDocumentInfo replaces a customer's identity document: PATCH
// /cms/api/v1/kyc/update-document-info; the recovery of
// DOCUMENT_VERIFICATION_FAILED. The document is checked as AddData checks
// it, and full_address must not be empty. At most three updates per
// customer ("Limit exceeded"); a document of another customer is refused
// ("KYC already in use"). Sent once, like every update.
func (s *KYCService) UpdateDocumentInfo(ctx context.Context, req types.UpdateDocumentInfoRequest, opts ...RequestOption) (*types.KYCResult, error) {
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	if err := requireText("full_address", req.FullAddress); err != nil {
		return nil, err
	}
	if err := checkDocument(req.DocumentType, req.DocumentFrontImageURL, req.DocumentBackImageURL, req.DocumentDetails); err != nil {
		return nil, err
	}
	return call[types.KYCResult](ctx, s.client, opKYCUpdateDocumentInfo.op().with(updateDocumentInfoBody(req)), opts)
}

var updateSelfieBody = compileBody[types.UpdateSelfieRequest]()

// UpdateSelfie replaces a customer's selfie: PATCH
// /cms/api/v1/kyc/update-selfie-info with {"customer_id", "selfie_url"};
// the customer moves to PROCESSING. A selfie_url that is not absolute
// http(s) is refused before sending. Past three updates the service
// answers "Kyc update limit exceeded". Sent once, like every update.
func (s *KYCService) UpdateSelfie(ctx context.Context, req types.UpdateSelfieRequest, opts ...RequestOption) (*types.KYCResult, error) {
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	if err := checkURL("selfie_url", req.SelfieURL, true); err != nil {
		return nil, err
	}
	return call[types.KYCResult](ctx, s.client, opKYCUpdateSelfie.op().with(updateSelfieBody(req)), opts)
}

var updateAdditionalInfoBody = compileBody[types.UpdateAdditionalInfoRequest]()

// UpdateAdditionalInfo replaces a customer's additional information:
// PATCH /cms/api/v1/kyc/update-additional-info with {"additional_info",
// "customer_id"}. An empty additional_info is refused before sending;
// with CheckKYCRules it is checked against the configuration's rules.
// At most three updates per customer ("Limit exceeded"). Sent once, like
// every update.
func (s *KYCService) UpdateAdditionalInfo(ctx context.Context, req types.UpdateAdditionalInfoRequest, opts ...RequestOption) (*types.KYCResult, error) {
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	if len(req.AdditionalInfo) == 0 {
		return nil, invalid("additional_info", "is required")
	}
	if err := checkRules(req.AdditionalInfo, opts); err != nil {
		return nil, err
	}
	return call[types.KYCResult](ctx, s.client, opKYCUpdateAdditionalInfo.op().with(updateAdditionalInfoBody(req)), opts)
}

// resetKYCRequest is the body of the KYC reset.
type resetKYCRequest struct {
	CustomerID uuid.UUID `json:"customer_id"`
}

var resetKYCBody = compileBody[resetKYCRequest]()

// Reset resets a VERIFIED customer's KYC to UNVERIFIED, to redo it (with
// Aadhaar, which payins need): POST /cms/api/v1/kyc/reset-kyc with
// {"customer_id"}. It cannot be undone; the service refuses a customer
// that is not VERIFIED. Sent once.
func (s *KYCService) Reset(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.KYCResult, error) {
	if err := requireID("customer_id", customerID); err != nil {
		return nil, err
	}
	return call[types.KYCResult](ctx, s.client, opKYCReset.op().with(resetKYCBody(resetKYCRequest{CustomerID: customerID})), opts)
}

// CheckKYCRules makes AddData and UpdateAdditionalInfo check their
// additional_info against cfg (a KYC configuration, from
// KYCService.GetConfiguration) before sending, with
// KYCConfiguration.CheckAdditionalInfo: a missing option is refused with a
// *ValidationError (ErrInvalidRequest) whose field is
// "additional_info.<option>" and whose reason is the rule's message.
// Other calls ignore it; a nil cfg checks nothing.
func CheckKYCRules(cfg *types.KYCConfiguration) RequestOption {
	return func(rc *requestConfig) error {
		rc.kycRules = cfg
		return nil
	}
}

// checkRules applies a CheckKYCRules among opts to info.
func checkRules(info map[string]string, opts []RequestOption) error {
	if len(opts) == 0 {
		return nil
	}
	var rc requestConfig
	for _, o := range opts {
		if o != nil {
			if err := o(&rc); err != nil {
				return err
			}
		}
	}
	if rc.kycRules == nil {
		return nil
	}
	if err := rc.kycRules.CheckAdditionalInfo(info); err != nil {
		missing := err.(*types.MissingInfoError)
		return invalid("additional_info."+missing.Option, err.Error())
	}
	return nil
}
