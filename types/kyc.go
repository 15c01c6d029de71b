package types

import (
	"encoding/json"
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
	return decode(kycConfigurationPlan, c, data)
}

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
	return decode(additionalInfoRequiredPlan, a, data)
}

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
	return decode(additionalInfoRulesPlan, r, data)
}

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
	return decode(infoRequirementPlan, q, data)
}
