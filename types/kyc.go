package types

import (
	"encoding/json"
	"reflect"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
)

// KYCConfiguration is the KYC configuration of a customer (interface.md
// sections 2.8 and 4.10).
type KYCConfiguration struct {
	// SupportedDocumentTypes is supported_document_types (AADHAAR,
	// PASSPORT, VOTER_ID, DRIVING_LICENSE seen).
	SupportedDocumentTypes []string `json:"supported_document_types"`
	// AdditionalInfoRequired is additional_info_required.
	AdditionalInfoRequired AdditionalInfoRequired `json:"additional_info_required"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-"`
}

// AdditionalInfoRequired is the additional_info_required object of the KYC
// configuration (interface.md section 2.8). Besides options and rules it
// carries one object per piece of information (income_range and profession
// are documented); every such object-valued key lands in Fields, and the two
// documented ones are also reachable as IncomeRange and Profession. Keys whose
// value is not an object (other than options) are skipped; the parent's Raw
// keeps them.
type AdditionalInfoRequired struct {
	// Options is options (income_range, profession seen).
	Options []string `json:"options"`
	// Rules is rules.
	Rules AdditionalInfoRules `json:"rules"`
	// IncomeRange is income_range; nil when absent or not an object.
	IncomeRange *InfoRequirement `json:"income_range,omitempty"`
	// Profession is profession; nil when absent or not an object.
	Profession *InfoRequirement `json:"profession,omitempty"`
	// Fields holds every object-valued key other than rules, income_range
	// and profession included. Nil when there are none.
	Fields map[string]InfoRequirement `json:"-"`
}

// AdditionalInfoRules is additional_info_required.rules (interface.md section
// 2.8).
type AdditionalInfoRules struct {
	// Type is type (allOf seen).
	Type string `json:"type"`
	// MinRequired is min_required.
	MinRequired int `json:"min_required"`
}

// InfoRequirement describes one piece of additional KYC information
// (interface.md section 2.8, income_range and profession).
type InfoRequirement struct {
	// Type is type.
	Type string `json:"type"`
	// Required is required.
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

// UnmarshalJSON decodes additional_info_required (interface.md section 2.8).
// null leaves a unchanged; on error a is unchanged.
func (a *AdditionalInfoRequired) UnmarshalJSON(data []byte) error {
	var out AdditionalInfoRequired
	m := objectMembers("AdditionalInfoRequired", additionalInfoRequiredType, data)
	for m.next() {
		switch {
		case m.keyIs("options"):
			out.Options = nil
			m.json(&out.Options)
		case m.keyIs("rules"):
			out.Rules = AdditionalInfoRules{}
			m.value(&out.Rules)
		case len(m.raw) > 0 && m.raw[0] == '{':
			var req InfoRequirement
			m.value(&req)
			if out.Fields == nil {
				out.Fields = make(map[string]InfoRequirement)
			}
			out.Fields[string(m.key)] = req
		default:
			m.skip()
		}
	}
	if r, ok := out.Fields["income_range"]; ok {
		out.IncomeRange = &r
	}
	if r, ok := out.Fields["profession"]; ok {
		out.Profession = &r
	}
	return finishObject(&m, a, &out, nil)
}

// UnmarshalJSON decodes the KYC configuration of interface.md section 2.8 and
// keeps a copy of data in Raw. null leaves c unchanged; on error c is
// unchanged.
func (c *KYCConfiguration) UnmarshalJSON(data []byte) error {
	var out KYCConfiguration
	m := objectMembers("KYCConfiguration", kycConfigurationType, data)
	for m.next() {
		switch string(m.key) {
		case "supported_document_types":
			m.json(&out.SupportedDocumentTypes)
		case "additional_info_required":
			m.value(&out.AdditionalInfoRequired)
		default:
			m.skip()
		}
	}
	return finishObject(&m, c, &out, &out.Raw)
}

// KYCStatusSimulation is the data of the sandbox KYC status simulation
// (interface.md section 4.7): {id, status}.
type KYCStatusSimulation struct {
	// ID is the customer id (id).
	ID uuid.UUID `json:"id"`
	// Status is the KYC status now set (status).
	Status KYCStatus `json:"status"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-"`
}

var kycStatusSimulationType = reflect.TypeFor[KYCStatusSimulation]()

// UnmarshalJSON decodes the data of interface.md section 4.7 and keeps a copy
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
