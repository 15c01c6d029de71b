package types

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"
)

// KYCConfiguration is what a customer's KYC needs: the identity documents
// accepted and the additional information asked for. It is the data of
// GET /cms/api/v1/kyc/configuration/{customer_id}.
type KYCConfiguration struct {
	// SupportedDocumentTypes lists the identity documents accepted
	// (AADHAAR, PASSPORT, VOTER_ID, DRIVING_LICENSE seen).
	SupportedDocumentTypes []string `json:"supported_document_types"`
	// AdditionalInfoRequired says which further information the customer
	// must give, and how much of it.
	AdditionalInfoRequired AdditionalInfoRequired `json:"additional_info_required"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var kycConfigurationPlan = compilePlan[KYCConfiguration]()

// UnmarshalJSON decodes the data of a KYC configuration fetch and
// keeps a copy of data in Raw. null leaves c unchanged; on error c is
// unchanged.
func (c *KYCConfiguration) UnmarshalJSON(data []byte) error {
	return decode(c, data)
}

func (*KYCConfiguration) plan() *plan { return kycConfigurationPlan }

// AdditionalInfoRequired is the additional_info_required object of the KYC
// configuration. Besides options and rules it
// carries one object per piece of information (income_range and profession
// are documented); every such object-valued key lands in Fields, and the two
// documented ones are also reachable as IncomeRange and Profession. Keys whose
// value is not an object (other than options) are skipped; the parent's Raw
// keeps them. As for every key, the last occurrence of a repeated one
// decides: a later null (or other non-object) removes an earlier object.
type AdditionalInfoRequired struct {
	// Options names the pieces of information that may be asked for
	// (income_range, profession seen).
	Options []string `json:"options"`
	// Rules says how many of Options are needed.
	Rules AdditionalInfoRules `json:"rules"`
	// IncomeRange describes the income_range requirement; nil when absent
	// or not an object.
	IncomeRange *InfoRequirement `json:"income_range,omitempty" fiatramp:"fromrest"`
	// Profession describes the profession requirement; nil when absent or
	// not an object.
	Profession *InfoRequirement `json:"profession,omitempty" fiatramp:"fromrest"`
	// Fields holds every object-valued key other than rules, income_range
	// and profession included. Nil when there are none; at most
	// MaxOtherMembers keys: an object with more is refused as malformed.
	Fields map[string]InfoRequirement `json:"-" fiatramp:"rest"`
}

var additionalInfoRequiredPlan = compilePlan[AdditionalInfoRequired]()

// UnmarshalJSON decodes additional_info_required with exact member names,
// the last of a repeated one deciding alone: a later null clears options or
// rules, and removes an earlier requirement object from Fields. null leaves
// a unchanged; on error a is unchanged.
func (a *AdditionalInfoRequired) UnmarshalJSON(data []byte) error {
	return decode(a, data)
}

func (*AdditionalInfoRequired) plan() *plan { return additionalInfoRequiredPlan }

// AdditionalInfoRules is additional_info_required.rules: how many of the
// options a customer must give.
type AdditionalInfoRules struct {
	// Type is the kind of rule (allOf seen).
	Type string `json:"type"`
	// MinRequired is the least number of options the customer must give.
	MinRequired int `json:"min_required"`
}

var additionalInfoRulesPlan = compilePlan[AdditionalInfoRules]()

// UnmarshalJSON decodes additional_info_required.rules with exact member
// names, the last of a repeated one winning. null leaves r unchanged; on
// error r is unchanged.
func (r *AdditionalInfoRules) UnmarshalJSON(data []byte) error {
	return decode(r, data)
}

func (*AdditionalInfoRules) plan() *plan { return additionalInfoRulesPlan }

// InfoRequirement describes one piece of additional KYC information, such
// as income_range or profession.
type InfoRequirement struct {
	// Type is the kind of value expected, as the service names it.
	Type string `json:"type"`
	// Required reports whether the customer must give this information;
	// false when null.
	Required bool `json:"required"`
}

var infoRequirementPlan = compilePlan[InfoRequirement]()

// UnmarshalJSON decodes one requirement ({"type", "required"}) with exact
// member names, the last of a repeated one winning; a null required is
// false. null leaves q unchanged; on error q is unchanged.
func (q *InfoRequirement) UnmarshalJSON(data []byte) error {
	return decode(q, data)
}

func (*InfoRequirement) plan() *plan { return infoRequirementPlan }

// DocumentDetails is the document_details object of KYC data and of a
// document update: the document's number and any further details the
// document type carries, as text.
type DocumentDetails struct {
	// DocumentNumber is the number printed on the document (required).
	DocumentNumber string `json:"document_number"`
	// AdditionalData holds further details of the document, key to text;
	// sent as an object, {} when empty.
	AdditionalData map[string]string `json:"additional_data"`
}

// AddKYCDataRequest is the body of add KYC data, POST
// /cms/api/v1/kyc/add-kyc-data. Dates are DD-MM-YYYY; URLs are absolute
// http or https. The client refuses before sending an empty customer_id,
// full_name, phone, full_address, tax_number, document_type or document
// number, a date in another form and what is not a URL at all.
type AddKYCDataRequest struct {
	CustomerID  uuid.UUID `json:"customer_id"`
	FullName    string    `json:"full_name"`
	Phone       string    `json:"phone"`
	FullAddress string    `json:"full_address"`
	// DOB is the date of birth, DD-MM-YYYY.
	DOB string `json:"dob"`
	// RegisteredDate is the registration date, DD-MM-YYYY (optional; left
	// out when empty).
	RegisteredDate string `json:"registered_date,omitempty"`
	// TaxNumber is the tax id (PAN in India); one customer's only.
	TaxNumber string `json:"tax_number"`
	// DocumentType is one of the configuration's SupportedDocumentTypes.
	DocumentType string `json:"document_type"`
	// DocumentFrontImageURL and DocumentBackImageURL are the document's
	// images; the back is optional (left out when empty).
	DocumentFrontImageURL string          `json:"document_front_image_url"`
	DocumentBackImageURL  string          `json:"document_back_image_url,omitempty"`
	DocumentDetails       DocumentDetails `json:"document_details"`
	// SelfieURL is the customer's selfie (optional; left out when empty).
	SelfieURL string `json:"selfie_url,omitempty"`
	// SelfieVerificationStatus says whether the selfie was verified by the
	// caller.
	SelfieVerificationStatus bool `json:"selfie_verification_status"`
	// AdditionalInfo answers the configuration's additional information,
	// keyed by its options (income_range, profession); {} when empty.
	AdditionalInfo map[string]string `json:"additional_info"`
}

// UpdateTaxInfoRequest is the body of PATCH /cms/api/v1/kyc/update-tax-info.
type UpdateTaxInfoRequest struct {
	CustomerID uuid.UUID `json:"customer_id"`
	TaxNumber  string    `json:"tax_number"`
}

// UpdateDocumentInfoRequest is the body of PATCH
// /cms/api/v1/kyc/update-document-info.
type UpdateDocumentInfoRequest struct {
	CustomerID            uuid.UUID       `json:"customer_id"`
	FullAddress           string          `json:"full_address"`
	DocumentType          string          `json:"document_type"`
	DocumentFrontImageURL string          `json:"document_front_image_url"`
	DocumentBackImageURL  string          `json:"document_back_image_url,omitempty"`
	DocumentDetails       DocumentDetails `json:"document_details"`
	// Phone is sent when set (left out when empty).
	Phone string `json:"phone,omitempty"`
}

// UpdateSelfieRequest is the body of PATCH /cms/api/v1/kyc/update-selfie-info.
type UpdateSelfieRequest struct {
	CustomerID uuid.UUID `json:"customer_id"`
	SelfieURL  string    `json:"selfie_url"`
}

// UpdateAdditionalInfoRequest is the body of PATCH
// /cms/api/v1/kyc/update-additional-info.
type UpdateAdditionalInfoRequest struct {
	CustomerID     uuid.UUID         `json:"customer_id"`
	AdditionalInfo map[string]string `json:"additional_info"`
}

// KYCResult is the answer of add KYC data, of each KYC update and of the
// KYC reset: the customer's id and KYC status, and why it failed.
type KYCResult struct {
	// ID is the customer's id.
	ID uuid.UUID `json:"id"`
	// Status is the customer's KYC status after the call: PROCESSING after
	// KYC data or a selfie update, UNVERIFIED after another update or a
	// reset.
	Status KYCStatus `json:"status"`
	// FailureReason is "" when null or absent.
	FailureReason KYCFailureReason `json:"failure_reason"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

var kycResultPlan = compilePlan[KYCResult]()

// UnmarshalJSON decodes {id, status, failure_reason} and keeps a copy of
// data in Raw. null leaves r unchanged; on error r is unchanged.
func (r *KYCResult) UnmarshalJSON(data []byte) error { return decode(r, data) }

func (*KYCResult) plan() *plan { return kycResultPlan }

// MissingInfoError is what CheckAdditionalInfo returns: the additional
// information the configuration asks for that info lacks. Option names
// the first option missing, in the configuration's order.
type MissingInfoError struct {
	// Option is the missing option, e.g. "profession".
	Option string
	// Rule is the rule that asks for it: "allOf", "anyOf", "min_required"
	// or "required".
	Rule string
	// Need and Have are how many options the rule needs and how many info
	// gives (for anyOf and min_required).
	Need, Have int
}

// Error says which option is missing and by which rule.
func (e *MissingInfoError) Error() string {
	if e.Rule == "anyOf" || e.Rule == "min_required" {
		return fmt.Sprintf("additional_info: %d of the options given, the rule %s needs %d: %q is missing",
			e.Have, e.Rule, e.Need, e.Option)
	}
	return fmt.Sprintf("additional_info: %q is missing (rule %s)", e.Option, e.Rule)
}

// CheckAdditionalInfo checks info, the additional_info of KYC data or of
// an update, against the configuration's rules, before it is sent: every
// option a requirement marks required must be given; with rules.type
// allOf, every option; with anyOf, at least one; and at least
// rules.min_required of the options in any case. An option counts as given
// when its value is not blank. Keys that are not options are not checked
// (the service may know more than the configuration lists). It returns nil
// or a *MissingInfoError naming the first missing option, in the order of
// Options.
func (c *KYCConfiguration) CheckAdditionalInfo(info map[string]string) error {
	a := &c.AdditionalInfoRequired
	given := func(opt string) bool { return strings.TrimSpace(info[opt]) != "" }
	firstMissing := func() string {
		for _, o := range a.Options {
			if !given(o) {
				return o
			}
		}
		return ""
	}
	have := 0
	for _, o := range a.Options {
		if given(o) {
			have++
		}
	}
	for _, o := range a.Options {
		if req, ok := a.requirement(o); ok && req.Required && !given(o) {
			return &MissingInfoError{Option: o, Rule: "required"}
		}
	}
	switch a.Rules.Type {
	case "allOf":
		if m := firstMissing(); m != "" {
			return &MissingInfoError{Option: m, Rule: "allOf", Need: len(a.Options), Have: have}
		}
	case "anyOf":
		if have == 0 && len(a.Options) > 0 {
			return &MissingInfoError{Option: a.Options[0], Rule: "anyOf", Need: 1, Have: 0}
		}
	}
	if need := min(a.Rules.MinRequired, len(a.Options)); have < need {
		return &MissingInfoError{Option: firstMissing(), Rule: "min_required", Need: need, Have: have}
	}
	return nil
}

// requirement returns the requirement object of option o, if the
// configuration has one.
func (a *AdditionalInfoRequired) requirement(o string) (InfoRequirement, bool) {
	if r, ok := a.Fields[o]; ok {
		return r, true
	}
	switch {
	case o == "income_range" && a.IncomeRange != nil:
		return *a.IncomeRange, true
	case o == "profession" && a.Profession != nil:
		return *a.Profession, true
	}
	return InfoRequirement{}, false
}
