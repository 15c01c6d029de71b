package types

import (
	"encoding/json"
	"reflect"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
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
	Raw json.RawMessage `json:"-"`
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
	IncomeRange *InfoRequirement `json:"income_range,omitempty"`
	// Profession describes the profession requirement; nil when absent or
	// not an object.
	Profession *InfoRequirement `json:"profession,omitempty"`
	// Fields holds every object-valued key other than rules, income_range
	// and profession included. Nil when there are none.
	Fields map[string]InfoRequirement `json:"-"`
}

// AdditionalInfoRules is additional_info_required.rules: how many of the
// options a customer must give.
type AdditionalInfoRules struct {
	// Type is the kind of rule (allOf seen).
	Type string `json:"type"`
	// MinRequired is the least number of options the customer must give.
	MinRequired int `json:"min_required"`
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

var (
	additionalInfoRequiredType = reflect.TypeFor[AdditionalInfoRequired]()
	additionalInfoRulesType    = reflect.TypeFor[AdditionalInfoRules]()
	infoRequirementType        = reflect.TypeFor[InfoRequirement]()
	kycConfigurationType       = reflect.TypeFor[KYCConfiguration]()
	boolType                   = reflect.TypeFor[bool]()
)

// UnmarshalJSON decodes additional_info_required.rules with exact member
// names, the last of a repeated one winning. null leaves r unchanged; on
// error r is unchanged.
func (r *AdditionalInfoRules) UnmarshalJSON(data []byte) error {
	var out AdditionalInfoRules
	m := objectMembers("AdditionalInfoRules", additionalInfoRulesType, data)
	for m.next() {
		switch string(m.key) {
		case "type":
			memberString(&m, &out.Type)
		case "min_required":
			m.int(&out.MinRequired)
		default:
			m.skip()
		}
	}
	return finishObject(&m, r, &out, nil)
}

// UnmarshalJSON decodes one requirement ({"type", "required"}) with exact
// member names, the last of a repeated one winning; a null required is
// false. null leaves q unchanged; on error q is unchanged.
func (q *InfoRequirement) UnmarshalJSON(data []byte) error {
	var out InfoRequirement
	m := objectMembers("InfoRequirement", infoRequirementType, data)
	for m.next() {
		switch string(m.key) {
		case "type":
			memberString(&m, &out.Type)
		case "required":
			switch raw := string(jsonscan.TrimSpace(m.raw)); raw {
			case "true", "false", "null":
				out.Required = raw == "true"
			default:
				m.fail(typeError(m.raw, boolType))
			}
		default:
			m.skip()
		}
	}
	return finishObject(&m, q, &out, nil)
}

// UnmarshalJSON decodes additional_info_required with exact member names,
// the last of a repeated one deciding alone: a later null clears options or
// rules, and removes an earlier requirement object from Fields. null leaves
// a unchanged; on error a is unchanged.
func (a *AdditionalInfoRequired) UnmarshalJSON(data []byte) error {
	var out AdditionalInfoRequired
	m := objectMembers("AdditionalInfoRequired", additionalInfoRequiredType, data)
	for m.next() {
		switch {
		case m.keyIs("options"):
			memberJSON(&m, &out.Options)
		case m.keyIs("rules"):
			memberValue(&m, &out.Rules)
		case len(m.raw) > 0 && m.raw[0] == '{':
			var req InfoRequirement
			memberValue(&m, &req)
			if out.Fields == nil {
				out.Fields = make(map[string]InfoRequirement)
			}
			out.Fields[string(m.key)] = req
		default:
			// The last occurrence decides: a later null (or any value
			// that is not an object) removes an earlier requirement.
			delete(out.Fields, string(m.key))
			m.skip()
		}
	}
	if len(out.Fields) == 0 {
		out.Fields = nil
	}
	if r, ok := out.Fields["income_range"]; ok {
		out.IncomeRange = &r
	}
	if r, ok := out.Fields["profession"]; ok {
		out.Profession = &r
	}
	return finishObject(&m, a, &out, nil)
}

// UnmarshalJSON decodes the data of a KYC configuration fetch and
// keeps a copy of data in Raw. null leaves c unchanged; on error c is
// unchanged.
func (c *KYCConfiguration) UnmarshalJSON(data []byte) error {
	var out KYCConfiguration
	m := objectMembers("KYCConfiguration", kycConfigurationType, data)
	for m.next() {
		switch string(m.key) {
		case "supported_document_types":
			memberJSON(&m, &out.SupportedDocumentTypes)
		case "additional_info_required":
			memberValue(&m, &out.AdditionalInfoRequired)
		default:
			m.skip()
		}
	}
	return finishObject(&m, c, &out, &out.Raw)
}

// KYCStatusSimulation is the answer of the sandbox KYC status simulation,
// PATCH /cms/api/v1/kyc/mock-kyc-status: {id, status}.
type KYCStatusSimulation struct {
	// ID is the id of the customer whose status was set.
	ID uuid.UUID `json:"id"`
	// Status is the KYC status the customer now has.
	Status KYCStatus `json:"status"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-"`
}

var kycStatusSimulationType = reflect.TypeFor[KYCStatusSimulation]()

// UnmarshalJSON decodes the data of the KYC status simulation and keeps a copy
// of data in Raw. null leaves s unchanged; on error s is unchanged.
func (s *KYCStatusSimulation) UnmarshalJSON(data []byte) error {
	var out KYCStatusSimulation
	m := objectMembers("KYCStatusSimulation", kycStatusSimulationType, data)
	for m.next() {
		switch string(m.key) {
		case "id":
			m.uuid(&out.ID)
		case "status":
			memberString(&m, &out.Status)
		default:
			m.skip()
		}
	}
	return finishObject(&m, s, &out, &out.Raw)
}
