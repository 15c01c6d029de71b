package sandbox

// The KYC submissions: add KYC data (POST /cms/api/v1/kyc/add-kyc-data),
// the four updates (PATCH /cms/api/v1/kyc/update-{tax,document,selfie,
// additional}-info), the reset (POST /cms/api/v1/kyc/reset-kyc), and the
// automatic decision (Settings.KYCAutoDecision).

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// Messages of the KYC submissions: the service's words, but for
// msgKYCNotFound (an update or a reset without KYC data, which the service
// does not document) and the REST framework's field refusals.
const (
	msgKYCExists         = "KYC already exists"
	msgKYCInUse          = "KYC already in use"
	msgLimitExceeded     = "Limit exceeded"
	msgSelfieLimit       = "Kyc update limit exceeded"
	msgKYCNotFound       = "KYC not found"
	msgResetNotVerified  = "KYC can be reset only for a VERIFIED customer"
	msgDateFormat        = "Date has wrong format. Use one of these formats instead: DD-MM-YYYY."
	msgInvalidURL        = "Enter a valid URL."
	msgAdditionalInfoStr = "Not a valid string."
)

// dateLayout is the service's date form, DD-MM-YYYY.
const dateLayout = "02-01-2006"

// maxKYCUpdates is how many KYC updates a customer may make.
const maxKYCUpdates = 3

// kycRecord is a customer's KYC data on file.
type kycRecord struct {
	filed            bool // KYC data was added (and not reset since)
	taxNumber, docNo string
	docType          string
	failure          types.KYCFailureReason // set with status FAILED
	updates          int
	// decision numbers the customer's pending automatic decision; a later
	// submission or a move by the simulation makes an earlier one stale.
	decision uint32
}

// validURL is the REST framework's URLField in short: an absolute http or
// https URL with a host and no white space.
func validURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && !strings.ContainsAny(raw, " \t\r\n")
}

// kycFields reads the members KYC data and the updates share.
type kycFields struct{ f *fields }

// date reads a date member in DD-MM-YYYY.
func (k kycFields) date(name string, required bool) string {
	v, ok := k.f.str(name, required)
	if ok {
		if _, err := time.Parse(dateLayout, v); err != nil || len(v) != 10 {
			k.f.fail(name, msgDateFormat)
		}
	}
	return v
}

// url reads a URL member.
func (k kycFields) url(name string, required bool) string {
	v, ok := k.f.str(name, required)
	if ok && !validURL(v) {
		k.f.fail(name, msgInvalidURL)
	}
	return v
}

// document reads document_type (one of the configuration's), the image
// URLs and document_details.document_number.
func (k kycFields) document() (docType, number string) {
	docType, ok := k.f.str("document_type", true)
	if ok && !slices.Contains(supportedDocumentTypes(), docType) {
		k.f.fail("document_type", fmt.Sprintf("%q is not a valid choice.", docType))
	}
	k.url("document_front_image_url", true)
	k.url("document_back_image_url", false)
	if d := k.f.object("document_details", true); d != nil {
		number, _ = d.str("document_number", true)
		if extra := d.object("additional_data", false); extra != nil {
			stringValues(extra)
		}
	}
	return docType, number
}

// kycRefused is the refusal of the KYC fields read so far, or nil: only
// dates wrong, INPUT_INVALID_DATE_FORMAT; only the document type,
// KYC_INVALID_DOC_TYPE; otherwise the field errors (REQ_FIELD_MISSING).
func kycRefused(f *fields) *reply {
	rep := f.refused()
	switch {
	case rep == nil:
		return nil
	case onlyErrors(f, func(_, m string) bool { return m == msgDateFormat }):
		r := codedFieldRefusal(CodeInvalidDateFormat, f)
		return &r
	case onlyErrors(f, func(name, m string) bool {
		return name == "document_type" && strings.HasSuffix(m, "is not a valid choice.")
	}):
		r := codedFieldRefusal(CodeInvalidDocType, f)
		return &r
	}
	return rep
}

// stringValues refuses a member of f that is not a string or null.
func stringValues(f *fields) {
	for k, v := range f.m {
		if _, ok := v.(string); !ok && v != nil {
			f.fail(k, msgAdditionalInfoStr)
		}
	}
}

// supportedDocumentTypes are the documents the KYC configuration accepts.
func supportedDocumentTypes() []string {
	return []string{"AADHAAR", "PASSPORT", "VOTER_ID", "DRIVING_LICENSE"}
}

// inUse reports whether value, a tax number or document number, is on
// file for another customer of the organization.
func inUse(m map[string]uuid.UUID, value string, self uuid.UUID) bool {
	id, ok := m[strings.ToUpper(value)]
	return ok && id != self
}

// kycCustomer reads customer_id and returns the request's customer, or
// the refusal.
func (s *Sandbox) kycCustomer(rq *request) (*customer, *reply) {
	id := rq.body.uuid("customer_id")
	if rep := rq.body.refused(); rep != nil {
		return nil, rep
	}
	c := s.orgCustomer(rq, id)
	if c == nil {
		rep := rule(msgCustomerNotFound)
		return nil, &rep
	}
	return c, nil
}

// kycAnswer is the data of every KYC submission: {id, status,
// failure_reason}.
func kycAnswer(message string, c *customer) reply {
	j := newCustomerJSON(c)
	return success(http.StatusOK, message, struct {
		ID            uuid.UUID       `json:"id"`
		Status        types.KYCStatus `json:"status"`
		FailureReason *string         `json:"failure_reason"`
	}{c.ID, j.Status, j.FailureReason})
}

// addKYCData is POST /cms/api/v1/kyc/add-kyc-data. The customer must have
// no KYC data on file ("KYC already exists"); its tax number and document
// number must be no other customer's ("KYC already in use"). The customer
// moves to PROCESSING (no webhook: none is sent for PROCESSING), to be
// decided by the KYC simulation or by Settings.KYCAutoDecision.
func (s *Sandbox) addKYCData(rq *request) reply {
	f := rq.body
	k := kycFields{f}
	id := f.uuid("customer_id")
	f.str("full_name", true)
	f.str("phone", true)
	f.str("full_address", true)
	k.date("dob", true)
	k.date("registered_date", false)
	tax, _ := f.str("tax_number", true)
	docType, docNo := k.document()
	k.url("selfie_url", false)
	f.boolean("selfie_verification_status")
	if info := f.object("additional_info", false); info != nil {
		stringValues(info)
	}
	if rep := kycRefused(f); rep != nil {
		return *rep
	}
	c := s.orgCustomer(rq, id)
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	if c.profile.kyc.filed {
		return rule(msgKYCExists)
	}
	o := rq.org
	if inUse(o.taxes, tax, c.ID) || inUse(o.docs, docNo, c.ID) {
		return coded(CodeKYCInUse, msgKYCInUse)
	}
	c.profile.kyc = kycRecord{filed: true, taxNumber: strings.ToUpper(tax), docNo: strings.ToUpper(docNo), docType: docType,
		decision: c.profile.kyc.decision}
	o.taxes[c.profile.kyc.taxNumber], o.docs[c.profile.kyc.docNo] = c.ID, c.ID
	s.submitted(rq, c, types.KYCProcessing)
	return kycAnswer("KYC data added successfully", c)
}

// submitted moves c, of the request's organization, to status after a
// submission and, with Settings.KYCAutoDecision, schedules its decision;
// s.mu is held.
func (s *Sandbox) submitted(rq *request, c *customer, status types.KYCStatus) {
	c.KYCStatus = status
	c.profile.kyc.failure = ""
	c.profile.kyc.decision++
	if s.settings.KYCAutoDecision <= 0 {
		return
	}
	o, decision := rq.org, c.profile.kyc.decision
	s.schedule(rq.now.Add(s.settings.KYCAutoDecision), jobKYC, 0, func(at time.Time) {
		// Gone with its organization, or decided, submitted again or
		// moved by the simulation meanwhile: this decision is stale.
		if s.st.orgs[o.ID] != o || c.profile.kyc.decision != decision || !awaitingDecision(c) {
			return
		}
		s.decide(o, at, c, s.settings.KYCAutoFailureReason)
	})
}

// update runs one KYC update of c: the limit of three, then change (which
// may refuse), then the move to status; s.mu is held.
func (s *Sandbox) update(rq *request, c *customer, limitMsg string, status types.KYCStatus, change func(o *org) *reply) reply {
	if !c.profile.kyc.filed {
		return rule(msgKYCNotFound)
	}
	if c.profile.kyc.updates >= maxKYCUpdates {
		return rule(limitMsg)
	}
	if rep := change(rq.org); rep != nil {
		return *rep
	}
	c.profile.kyc.updates++
	s.submitted(rq, c, status)
	return kycAnswer("KYC updated successfully", c)
}

// updateTaxInfo is PATCH /cms/api/v1/kyc/update-tax-info {customer_id,
// tax_number}: the customer goes back to UNVERIFIED.
func (s *Sandbox) updateTaxInfo(rq *request) reply {
	tax, _ := rq.body.str("tax_number", true)
	c, rep := s.kycCustomer(rq)
	if rep != nil {
		return *rep
	}
	return s.update(rq, c, msgLimitExceeded, types.KYCUnverified, func(o *org) *reply {
		if inUse(o.taxes, tax, c.ID) {
			r := coded(CodeKYCInUse, msgKYCInUse)
			return &r
		}
		delete(o.taxes, c.profile.kyc.taxNumber)
		c.profile.kyc.taxNumber = strings.ToUpper(tax)
		o.taxes[c.profile.kyc.taxNumber] = c.ID
		return nil
	})
}

// updateDocumentInfo is PATCH /cms/api/v1/kyc/update-document-info: the
// customer goes back to UNVERIFIED.
func (s *Sandbox) updateDocumentInfo(rq *request) reply {
	f := rq.body
	f.str("full_address", true)
	f.str("phone", false)
	docType, docNo := kycFields{f}.document()
	if rep := kycRefused(f); rep != nil {
		return *rep
	}
	c, rep := s.kycCustomer(rq)
	if rep != nil {
		return *rep
	}
	return s.update(rq, c, msgLimitExceeded, types.KYCUnverified, func(o *org) *reply {
		if inUse(o.docs, docNo, c.ID) {
			r := coded(CodeKYCInUse, msgKYCInUse)
			return &r
		}
		delete(o.docs, c.profile.kyc.docNo)
		c.profile.kyc.docNo, c.profile.kyc.docType = strings.ToUpper(docNo), docType
		o.docs[c.profile.kyc.docNo] = c.ID
		return nil
	})
}

// updateSelfie is PATCH /cms/api/v1/kyc/update-selfie-info {customer_id,
// selfie_url}: the customer moves to PROCESSING; past three updates,
// "Kyc update limit exceeded".
func (s *Sandbox) updateSelfie(rq *request) reply {
	kycFields{rq.body}.url("selfie_url", true)
	c, rep := s.kycCustomer(rq)
	if rep != nil {
		return *rep
	}
	return s.update(rq, c, msgSelfieLimit, types.KYCProcessing, func(*org) *reply { return nil })
}

// updateAdditionalInfo is PATCH /cms/api/v1/kyc/update-additional-info
// {customer_id, additional_info}: the customer goes back to UNVERIFIED.
func (s *Sandbox) updateAdditionalInfo(rq *request) reply {
	if info := rq.body.object("additional_info", true); info != nil {
		stringValues(info)
	}
	c, rep := s.kycCustomer(rq)
	if rep != nil {
		return *rep
	}
	return s.update(rq, c, msgLimitExceeded, types.KYCUnverified, func(*org) *reply { return nil })
}

// resetKYC is POST /cms/api/v1/kyc/reset-kyc {customer_id}: a VERIFIED
// customer goes back to UNVERIFIED with no KYC data on file (its tax and
// document numbers are free again, its updates counted afresh), to submit
// KYC data anew. No webhook is sent.
func (s *Sandbox) resetKYC(rq *request) reply {
	c, rep := s.kycCustomer(rq)
	if rep != nil {
		return *rep
	}
	if c.KYCStatus != types.KYCVerified {
		return rule(msgResetNotVerified)
	}
	if k := c.profile.kyc; k.filed {
		delete(rq.org.taxes, k.taxNumber)
		delete(rq.org.docs, k.docNo)
	}
	c.profile.kyc = kycRecord{decision: c.profile.kyc.decision + 1}
	c.KYCStatus = types.KYCUnverified
	return kycAnswer("KYC reset successfully", c)
}

// awaitingDecision reports whether c waits for a KYC decision: PROCESSING,
// or sent back to UNVERIFIED by an update with its KYC data on file.
func awaitingDecision(c *customer) bool {
	return c.KYCStatus == types.KYCProcessing || c.KYCStatus == types.KYCUnverified && c.profile.kyc.filed
}

// decide ends the KYC check of c, of organization o: VERIFIED, or FAILED
// with reason; it sends the CUSTOMER webhook stamped now; s.mu is held.
func (s *Sandbox) decide(o *org, now time.Time, c *customer, reason types.KYCFailureReason) {
	rq := &request{org: o, now: now}
	c.profile.kyc.decision++
	if reason == "" {
		c.KYCStatus, c.profile.kyc.failure = types.KYCVerified, ""
		s.emit(rq, EventTypeCustomer, c.ID.String(), string(types.KYCVerified), map[string]any{})
		return
	}
	c.KYCStatus, c.profile.kyc.failure = types.KYCFailed, reason
	s.emit(rq, EventTypeCustomer, c.ID.String(), string(types.KYCFailed), map[string]any{"failure_reason": string(reason)})
}
