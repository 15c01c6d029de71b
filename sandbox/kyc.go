package sandbox

// KYC: the KYC status simulation (PATCH /cms/api/v1/kyc/mock-kyc-status)
// and the KYC configuration (GET /cms/api/v1/kyc/configuration/{customer_id}).
// The submissions are kyc_submissions.go, the hosted link kyc_links.go.

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// kycTransitions is the sandbox KYC simulation's transition table, as the
// service documents it: the statuses a customer in status from may move
// to. A status not in the table, or mapped to nothing, allows no move; the
// service documents no moves out of TAX_VERIFICATION_FAILED and
// DOCUMENT_VERIFICATION_FAILED, so the sandbox refuses them.
func kycTransitions(from types.KYCStatus) []types.KYCStatus {
	switch from {
	case types.KYCUnverified:
		return nil
	case types.KYCFailed, types.KYCVerified:
		return []types.KYCStatus{types.KYCUnverified}
	case types.KYCProcessing:
		return []types.KYCStatus{
			types.KYCTaxVerificationFailed,
			types.KYCDocumentVerificationFailed,
			types.KYCVerified,
			types.KYCUnverified,
		}
	}
	return nil
}

// kycMoveAllowed reports whether the KYC simulation may move a customer
// from one status to another.
func kycMoveAllowed(from, to types.KYCStatus) bool {
	return slices.Contains(kycTransitions(from), to)
}

// kycSimulationAllows reports whether the KYC simulation (the operation or
// the hosted KYC page) may move c to status to: along kycTransitions, or,
// for a customer an update sent back to UNVERIFIED with its KYC data on
// file, as from PROCESSING.
func kycSimulationAllows(c *customer, to types.KYCStatus) bool {
	return kycMoveAllowed(c.KYCStatus, to) || awaitingDecision(c) && kycMoveAllowed(types.KYCProcessing, to)
}

// simulateKYCStatus is PATCH /cms/api/v1/kyc/mock-kyc-status with
// {customer_id, kyc_status}, answering {id, status} and moving a customer
// only along kycTransitions. A move to VERIFIED sends the CUSTOMER webhook
// VERIFIED; a move to a failed status sends FAILED
// with that status as failure_reason; a move to UNVERIFIED sends none. A
// customer that an update sent back to UNVERIFIED, with its KYC data on
// file, moves as a PROCESSING one does. A move to the customer's current
// status answers success, changes nothing and sends nothing (a retried
// simulation sets the same status again).
func (s *Sandbox) simulateKYCStatus(rq *request) reply {
	f := rq.body
	customerID := f.uuid("customer_id")
	status, ok := f.str("kyc_status", true)
	to := types.KYCStatus(status)
	if ok && !to.IsKnown() {
		f.fail("kyc_status", fmt.Sprintf("%q is not a valid choice.", status))
	}
	if rep := f.refused(); rep != nil {
		return *rep
	}
	c := s.orgCustomer(rq, customerID)
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	from := c.KYCStatus
	answer := success(http.StatusOK, "KYC status updated successfully", struct {
		ID     uuid.UUID       `json:"id"`
		Status types.KYCStatus `json:"status"`
	}{c.ID, to})
	if from == to {
		// A repeat of the move just made (a retry after a lost answer):
		// nothing changes, a pending automatic decision stays, no webhook.
		return answer
	}
	// A customer an update sent back to UNVERIFIED, its KYC data on file,
	// awaits a decision as a PROCESSING one does.
	if !kycSimulationAllows(c, to) {
		return rule(fmt.Sprintf("KYC status cannot move from %s to %s.", from, to))
	}
	c.KYCStatus = to
	c.profile.kyc.decision++ // a pending automatic decision is stale
	c.profile.kyc.failure = ""
	switch to {
	case types.KYCVerified:
		s.emit(rq, EventTypeCustomer, c.ID.String(), string(types.KYCVerified), map[string]any{})
	case types.KYCTaxVerificationFailed, types.KYCDocumentVerificationFailed, types.KYCFailed:
		s.emit(rq, EventTypeCustomer, c.ID.String(), string(types.KYCFailed), map[string]any{"failure_reason": string(to)})
	}
	return answer
}

// kycConfiguration is the KYC configuration, the same for every customer:
// the values the service's documentation shows.
type kycConfiguration struct {
	SupportedDocumentTypes []string              `json:"supported_document_types"`
	AdditionalInfoRequired kycAdditionalInfoJSON `json:"additional_info_required"`
}

type kycAdditionalInfoJSON struct {
	Options     []string       `json:"options"`
	Rules       kycRulesJSON   `json:"rules"`
	IncomeRange kycInfoReqJSON `json:"income_range"`
	Profession  kycInfoReqJSON `json:"profession"`
}

type kycRulesJSON struct {
	Type        string `json:"type"`
	MinRequired int    `json:"min_required"`
}

type kycInfoReqJSON struct {
	Type     string `json:"type"`
	Required bool   `json:"required"`
}

// getKYCConfiguration is GET /cms/api/v1/kyc/configuration/{customer_id};
// an absent or foreign customer is refused "Customer not found or access
// denied".
func (s *Sandbox) getKYCConfiguration(rq *request) reply {
	if s.pathCustomer(rq, rq.params[0]) == nil {
		return rule(msgCustomerNotFound)
	}
	return s.static.kycConfiguration
}

// kycConfigurationReply is the answer of the KYC configuration, the same
// for every customer: encoded once, by New.
func kycConfigurationReply() reply {
	return success(http.StatusOK, "KYC configuration fetched successfully", kycConfiguration{
		SupportedDocumentTypes: []string{"AADHAAR", "PASSPORT", "VOTER_ID", "DRIVING_LICENSE"},
		AdditionalInfoRequired: kycAdditionalInfoJSON{
			Options:     []string{"income_range", "profession"},
			Rules:       kycRulesJSON{Type: "allOf", MinRequired: 2},
			IncomeRange: kycInfoReqJSON{Type: "string", Required: true},
			Profession:  kycInfoReqJSON{Type: "string", Required: true},
		},
	})
}
