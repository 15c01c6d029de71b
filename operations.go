package fiatramp

import (
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// Safety says what running an operation more than once could do, and so
// how the library retries it.
type Safety string

// Safety of the operations.
const (
	// SafetyRead: the operation only reads; every retryable failure is
	// retried.
	SafetyRead Safety = "read"
	// SafetyUpdate: the operation sets a state to the value it sends (a
	// simulation); a repeat sets the same value again, so it is retried
	// like a read.
	SafetyUpdate Safety = "update"
	// SafetyCreate: the operation creates something a spare copy of which
	// does no harm (a quotation that expires unused, a wallet address sent
	// again); it is retried like a read.
	SafetyCreate Safety = "create"
	// SafetyCreateOnce: the operation moves money or uses up something
	// and must not run twice (a payout create; a customer create or KYC
	// submission, refused as a duplicate once the first acted; a KYC
	// update, of which a customer has three). A payout create carrying a
	// client_reference_id, which the service refuses a second time, is
	// retried; any other, only while no attempt can have reached the
	// service. When an attempt may have acted
	// and none settled it, the call ends in an *OutcomeUnknownError.
	SafetyCreateOnce Safety = "create-once"
)

// OperationInfo describes one operation of the library: one row of its
// index of operations, from which the methods take their HTTP method,
// path and retry safety, an Observer its names, and the response check
// the members a result cannot be used without.
type OperationInfo struct {
	// Name is Service and Method joined by a dot, e.g. "Payouts.Get": the
	// Operation an Observer sees in CallInfo, for the typed method and for
	// a call through Client.Do to the same method and path.
	Name string
	// Service is the Client's field the method is called on, e.g.
	// "Payouts".
	Service string
	// Method is the Go method, e.g. "Get".
	Method string
	// HTTPMethod is the HTTP method, e.g. "GET".
	HTTPMethod string
	// Path is the path template from the base address, with a
	// placeholder for each id, e.g. "/pos/api/v1/payout/{payout_id}". For
	// Payouts.CreateRemittance it is DefaultRemittancePayoutPath, which
	// WithRemittancePayoutPath replaces.
	Path string
	// Safety says how the typed method retries the operation. A call
	// through Client.Do is retried by its HTTP method alone (see Do),
	// whatever the row of its path says.
	Safety Safety
	// Required are the members of the response's data without which the
	// result cannot be used (a payout's "id" and "status", say): an answer
	// that lacks one (absent, null, "", or the nil UUID for an id) is
	// refused with an error matching ErrMalformedResponse.
	Required []string
	// Helpers are the service's other methods that make this call, e.g.
	// "Wait", which polls Payouts.Get, or "BankAccounts", which follows
	// the pages of Customers.ListBankAccounts. An Observer sees their
	// calls under Name.
	Helpers []string
}

// Operations returns the library's index of operations, one row per
// typed operation, in a fresh slice the caller may keep and change. It
// lets a test or an Observer check a route table, name a route or list
// the operations it may see.
func Operations() []OperationInfo {
	out := make([]OperationInfo, 0, len(operations))
	for i := range operations {
		row := &operations[i]
		service, method, _ := strings.Cut(row.name, ".")
		out = append(out, OperationInfo{
			Name: row.name, Service: service, Method: method,
			HTTPMethod: row.method, Path: row.path, Safety: row.safety,
			Required: append([]string(nil), row.result.members...),
			Helpers:  append([]string(nil), row.helpers...),
		})
	}
	return out
}

// opID names a row of the index.
type opID int

// The rows of the index, in its order.
const (
	opPayoutsGetBalance opID = iota
	opPayoutsGetConfiguration
	opPayoutsGetRate
	opPayoutsList
	opPayoutsCreate
	opPayoutsSimulateStatus
	opPayoutsCreateQuotation
	opPayoutsGetQuotation
	opPayoutsLinkTransfer
	opPayoutsGet
	opPayoutsCreatePrefunded
	opPayoutsCreateRemittance
	opPayoutsSaveEDD
	opPayoutsGetLimits
	opPayinsGetConfiguration
	opPayinsGetRate
	opPayinsList
	opPayinsInitiate
	opPayinsSimulateStatus
	opPayinsCreateQuotation
	opPayinsGetQuotation
	opPayinsLinkTransfer
	opPayinsGet
	opPayinsSaveEDD
	opPayinsGetLimits
	opCustomersAddBankAccount
	opCustomersListBankAccounts
	opCustomersSimulateBankVerification
	opCustomersGetBankAccount
	opCustomersCreate
	opCustomersList
	opCustomersGet
	opCustomersAddWallet
	opKYCAddData
	opKYCGetConfiguration
	opKYCGenerateLink
	opKYCSimulateStatus
	opKYCReset
	opKYCUpdateAdditionalInfo
	opKYCUpdateDocumentInfo
	opKYCUpdateSelfie
	opKYCUpdateTaxInfo
	opOrganizationSetWebhookURL
	opWidgetInitialize
	numOperations
)

// opRow is one operation of the index.
type opRow struct {
	name   string // "Service.Method", also the Observer's name
	method string // HTTP method
	path   string // template from the base address, "{...}" for an id
	safety Safety
	// creates names what a create or create-once operation creates ("the
	// payout"), for the message of an *OutcomeUnknownError; "" for a read
	// or an update.
	creates string
	result  resultRule // the members the result is known by
	// helpers are the service's other methods that make this call.
	helpers []string
	// remittance: the path is the Client's WithRemittancePayoutPath, path
	// only its default.
	remittance bool
}

// operations is the index of operations: every typed operation, once.
// The methods build their calls from it (opID.op), Client.Do names a path
// it knows by it (callInfo), and the response check finds the members a
// result needs in it (missingMember). It is never written.
var operations = [numOperations]opRow{
	opPayoutsGetBalance: {
		name: "Payouts.GetBalance", method: http.MethodGet, path: posBase + "/payout/balance",
		safety: SafetyRead,
		// An unknown balance is not zero, which a nil map would read as.
		result: requires(need("available_balance", func(b *types.Balance) bool { return b.AvailableBalance == nil })),
	},
	opPayoutsGetConfiguration: {
		name: "Payouts.GetConfiguration", method: http.MethodGet, path: posBase + "/payout/configuration",
		safety: SafetyRead, result: configurationKnownBy(),
	},
	opPayoutsGetRate: {
		name: "Payouts.GetRate", method: http.MethodGet, path: posBase + "/payout/fetch-rate",
		safety: SafetyRead, result: rateKnownBy(),
	},
	opPayoutsList: {
		name: "Payouts.List", method: http.MethodGet, path: posBase + "/payout/history",
		safety: SafetyRead, helpers: []string{"All", "ListPage"},
		// results may be [] but must be there: a page without it cannot
		// say "no payouts".
		result: requires(need("results", func(p *types.PayoutPage) bool { return p.Results == nil })),
	},
	opPayoutsCreate: {
		name: "Payouts.Create", method: http.MethodPost, path: posBase + "/payout/initiate",
		safety: SafetyCreateOnce, creates: "the payout", result: payoutKnownBy(),
	},
	opPayoutsSimulateStatus: {
		name: "Payouts.SimulateStatus", method: http.MethodPatch, path: posBase + "/payout/mock-payout-status",
		safety: SafetyUpdate,
		result: requires(
			need("payout_id", func(s *types.PayoutStatusSimulation) bool { return s.PayoutID == uuid.Nil }),
			need("payout_status", func(s *types.PayoutStatusSimulation) bool { return s.PayoutStatus == "" })),
	},
	opPayoutsCreateQuotation: {
		name: "Payouts.CreateQuotation", method: http.MethodPost, path: posBase + "/payout/quotation",
		safety: SafetyCreate, creates: "the quotation", result: payoutQuotationKnownBy(),
	},
	opPayoutsGetQuotation: {
		name: "Payouts.GetQuotation", method: http.MethodGet, path: posBase + "/payout/quotation/{quotation_id}",
		safety: SafetyRead, result: payoutQuotationKnownBy(), helpers: []string{"Reconcile", "ReconcileOutcome"},
	},
	opPayoutsLinkTransfer: {
		name: "Payouts.LinkTransfer", method: http.MethodPatch, path: posBase + "/payout/update-transfer-id",
		safety: SafetyUpdate,
		result: requires(
			need("exchange_order_id", func(l *types.TransferLink) bool { return l.ExchangeOrderID == "" }),
			need("exchange_transfer_id", func(l *types.TransferLink) bool { return l.ExchangeTransferID == "" })),
	},
	opPayoutsGet: {
		name: "Payouts.Get", method: http.MethodGet, path: posBase + "/payout/{payout_id}",
		safety: SafetyRead, result: payoutKnownBy(), helpers: []string{"Wait"},
	},
	opPayoutsCreatePrefunded: {
		name: "Payouts.CreatePrefunded", method: http.MethodPost, path: posBase + "/prefunded/payout/initiate",
		safety: SafetyCreateOnce, creates: "the payout",
		result: requires(
			need("id", func(p *types.PrefundedPayout) bool { return p.ID == uuid.Nil }),
			need("status", func(p *types.PrefundedPayout) bool { return p.Status == "" })),
	},
	opPayoutsCreateRemittance: {
		name: "Payouts.CreateRemittance", method: http.MethodPost, path: DefaultRemittancePayoutPath,
		safety: SafetyCreateOnce, creates: "the payout", remittance: true,
		// The service does not document this payout's fields: only the id,
		// which every payout carries and Get takes, is required.
		result: requires(need("id", func(p *types.RemittancePayout) bool { return p.ID == uuid.Nil })),
	},
	opPayoutsSaveEDD: {
		name: "Payouts.SaveEDD", method: http.MethodPost, path: renBase + "/payout/edd/save",
		// A repeat after a lost answer is refused "EDD not required" once
		// the first is PROCESSING: create-once, so that it ends unknown.
		safety: SafetyCreateOnce, creates: "the EDD", result: eddKnownBy(),
	},
	opPayoutsGetLimits: {
		name: "Payouts.GetLimits", method: http.MethodGet, path: renBase + "/payout/limits/{customer_id}",
		safety: SafetyRead, result: limitsKnownBy(),
	},
	opPayinsGetConfiguration: {
		name: "Payins.GetConfiguration", method: http.MethodGet, path: pisBase + "/payin/configuration",
		safety: SafetyRead, result: configurationKnownBy(),
	},
	opPayinsGetRate: {
		name: "Payins.GetRate", method: http.MethodGet, path: pisBase + "/payin/fetch-rate",
		safety: SafetyRead, result: rateKnownBy(),
	},
	opPayinsList: {
		name: "Payins.List", method: http.MethodGet, path: pisBase + "/payin/history",
		safety: SafetyRead, helpers: []string{"All", "ListPage"},
		// A page without results cannot say "no payins".
		result: requires(need("results", func(p *types.PayinPage) bool { return p.Results == nil })),
	},
	opPayinsInitiate: {
		name: "Payins.Initiate", method: http.MethodPost, path: pisBase + "/payin/initiate",
		safety: SafetyCreateOnce, creates: "the payin", result: payinKnownBy(),
	},
	opPayinsSimulateStatus: {
		name: "Payins.SimulateStatus", method: http.MethodPatch, path: pisBase + "/payin/mock-payin-status",
		safety: SafetyUpdate,
		result: requires(
			need("payin_id", func(s *types.PayinStatusSimulation) bool { return s.PayinID == uuid.Nil }),
			need("payin_status", func(s *types.PayinStatusSimulation) bool { return s.PayinStatus == "" })),
	},
	opPayinsCreateQuotation: {
		name: "Payins.CreateQuotation", method: http.MethodPost, path: pisBase + "/payin/quotation",
		safety: SafetyCreate, creates: "the quotation", result: quotationKnownBy(),
	},
	opPayinsGetQuotation: {
		name: "Payins.GetQuotation", method: http.MethodGet, path: pisBase + "/payin/quotation/{quotation_id}",
		safety: SafetyRead, result: quotationKnownBy(), helpers: []string{"Reconcile", "ReconcileOutcome"},
	},
	opPayinsLinkTransfer: {
		name: "Payins.LinkTransfer", method: http.MethodPatch, path: pisBase + "/payin/update-transfer-id",
		safety: SafetyUpdate,
		result: requires(need("payin_id", func(l *types.PayinTransferLink) bool { return l.PayinID == uuid.Nil })),
	},
	opPayinsGet: {
		name: "Payins.Get", method: http.MethodGet, path: pisBase + "/payin/{payin_id}",
		safety: SafetyRead, result: payinKnownBy(),
	},
	opPayinsSaveEDD: {
		name: "Payins.SaveEDD", method: http.MethodPost, path: renBase + "/payin/edd/save",
		// A repeat after a lost answer is refused "EDD not required" once
		// the first is PROCESSING: create-once, so that it ends unknown.
		safety: SafetyCreateOnce, creates: "the EDD", result: eddKnownBy(),
	},
	opPayinsGetLimits: {
		name: "Payins.GetLimits", method: http.MethodGet, path: renBase + "/payin/limits/{customer_id}",
		safety: SafetyRead, result: limitsKnownBy(),
	},
	opCustomersAddBankAccount: {
		name: "Customers.AddBankAccount", method: http.MethodPost, path: cmsBase + "/bank/create",
		// A repeat cannot add a second account: the service refuses an
		// account number or VPA already in use, so it is retried. A retry
		// after a lost answer may read as that refusal: create-once, so
		// that such a call ends unknown (the method guards it).
		safety: SafetyCreateOnce, creates: "the bank account",
		// The same result type as GetBankAccount's, known by the same member.
		result: requires(need("id", func(b *types.BankAccount) bool { return b.ID == uuid.Nil })),
	},
	opCustomersListBankAccounts: {
		name: "Customers.ListBankAccounts", method: http.MethodGet, path: cmsBase + "/bank/list/{customer_id}",
		safety: SafetyRead, helpers: []string{"BankAccounts", "ListBankAccountsPage"},
		// count may be 0 and next and previous null; results may be [] but
		// must be there: a page without it cannot say "no accounts".
		result: requires(need("results", func(p *types.BankAccountPage) bool { return p.Results == nil })),
	},
	opCustomersSimulateBankVerification: {
		name: "Customers.SimulateBankVerification", method: http.MethodPost, path: cmsBase + "/bank/mock-bank-verification",
		safety: SafetyUpdate,
		result: requires(
			need("bank_id", func(s *types.BankVerificationSimulation) bool { return s.BankID == uuid.Nil }),
			need("bank_account_status", func(s *types.BankVerificationSimulation) bool { return s.BankAccountStatus == "" })),
	},
	opCustomersGetBankAccount: {
		name: "Customers.GetBankAccount", method: http.MethodGet, path: cmsBase + "/bank/{customer_id}/{bank_id}",
		safety: SafetyRead,
		result: requires(need("id", func(b *types.BankAccount) bool { return b.ID == uuid.Nil })),
	},
	opCustomersCreate: {
		name: "Customers.Create", method: http.MethodPost, path: cmsBase + "/customer/create",
		safety: SafetyCreateOnce, creates: "the customer", result: customerKnownBy(),
	},
	opCustomersList: {
		name: "Customers.List", method: http.MethodGet, path: cmsBase + "/customer/list",
		safety: SafetyRead, helpers: []string{"All", "ListPage"},
		result: requires(need("results", func(p *types.CustomerPage) bool { return p.Results == nil })),
	},
	opCustomersGet: {
		name: "Customers.Get", method: http.MethodGet, path: cmsBase + "/customer/{customer_id}",
		safety: SafetyRead, result: customerKnownBy(),
	},
	opCustomersAddWallet: {
		name: "Customers.AddWallet", method: http.MethodPost, path: cmsBase + "/wallet/add",
		safety: SafetyCreate, creates: "the wallet",
		result: requires(need("id", func(w *types.Wallet) bool { return w.ID == uuid.Nil })),
	},
	opKYCAddData: {
		name: "KYC.AddData", method: http.MethodPost, path: cmsBase + "/kyc/add-kyc-data",
		safety: SafetyCreateOnce, creates: "the KYC submission", result: kycResultKnownBy(),
	},
	opKYCGetConfiguration: {
		name: "KYC.GetConfiguration", method: http.MethodGet, path: cmsBase + "/kyc/configuration/{customer_id}",
		safety: SafetyRead,
		// additional_info_required may be absent (nothing more asked for);
		// the documents accepted are what a configuration is for.
		result: requires(need("supported_document_types", func(k *types.KYCConfiguration) bool { return k.SupportedDocumentTypes == nil })),
	},
	opKYCGenerateLink: {
		name: "KYC.GenerateLink", method: http.MethodPost, path: cmsBase + "/kyc/generate-link",
		// A spare link does no harm: the customer follows one of them.
		safety: SafetyCreate, creates: "the link",
		result: requires(need("url", func(l *types.KYCLink) bool { return l.URL == "" })),
	},
	opKYCSimulateStatus: {
		name: "KYC.SimulateStatus", method: http.MethodPatch, path: cmsBase + "/kyc/mock-kyc-status",
		safety: SafetyUpdate,
		result: requires(
			need("id", func(s *types.KYCStatusSimulation) bool { return s.ID == uuid.Nil }),
			need("status", func(s *types.KYCStatusSimulation) bool { return s.Status == "" })),
	},
	opKYCReset: {
		name: "KYC.Reset", method: http.MethodPost, path: cmsBase + "/kyc/reset-kyc",
		safety: SafetyCreateOnce, creates: "the KYC reset", result: kycResultKnownBy(),
	},
	opKYCUpdateAdditionalInfo: {
		name: "KYC.UpdateAdditionalInfo", method: http.MethodPatch, path: cmsBase + "/kyc/update-additional-info",
		safety: SafetyCreateOnce, creates: "the additional info update", result: kycResultKnownBy(),
	},
	opKYCUpdateDocumentInfo: {
		name: "KYC.UpdateDocumentInfo", method: http.MethodPatch, path: cmsBase + "/kyc/update-document-info",
		safety: SafetyCreateOnce, creates: "the document update", result: kycResultKnownBy(),
	},
	opKYCUpdateSelfie: {
		name: "KYC.UpdateSelfie", method: http.MethodPatch, path: cmsBase + "/kyc/update-selfie-info",
		safety: SafetyCreateOnce, creates: "the selfie update", result: kycResultKnownBy(),
	},
	opKYCUpdateTaxInfo: {
		name: "KYC.UpdateTaxInfo", method: http.MethodPatch, path: cmsBase + "/kyc/update-tax-info",
		safety: SafetyCreateOnce, creates: "the tax info update", result: kycResultKnownBy(),
	},
	opOrganizationSetWebhookURL: {
		name: "Organization.SetWebhookURL", method: http.MethodPost, path: orgBase + "/organizations/api-webhooks",
		safety: SafetyUpdate,
		result: requires(need("webhook_url", func(u *types.WebhookURL) bool { return *u == "" })),
	},
	opWidgetInitialize: {
		name: "Widget.Initialize", method: http.MethodPost, path: "/widget/initialize",
		// A spare session expires unused after 30 minutes.
		safety: SafetyCreate, creates: "the widget session",
		result: requires(need("widget_link", func(w *types.Widget) bool { return w.WidgetLink == "" })),
	},
}

// payoutQuotationKnownBy is what a payout quotation, created or fetched,
// is known by.
func payoutQuotationKnownBy() resultRule {
	return requires(need("id", func(q *types.PayoutQuotation) bool { return q.ID == uuid.Nil }))
}

// payinKnownBy is what a payin, initiated or fetched, is known by.
func payinKnownBy() resultRule {
	return requires(
		need("id", func(p *types.Payin) bool { return p.ID == uuid.Nil }),
		need("status", func(p *types.Payin) bool { return p.Status == "" }))
}

// customerKnownBy is what a customer, created or fetched, is known by.
func customerKnownBy() resultRule {
	return requires(
		need("id", func(c *types.Customer) bool { return c.ID == uuid.Nil }),
		need("status", func(c *types.Customer) bool { return c.Status == "" }))
}

// kycResultKnownBy is what the answer of a KYC submission, update or
// reset is known by.
func kycResultKnownBy() resultRule {
	return requires(
		need("id", func(r *types.KYCResult) bool { return r.ID == uuid.Nil }),
		need("status", func(r *types.KYCResult) bool { return r.Status == "" }))
}

// payoutKnownBy is what a payout, created or fetched, is known by.
func payoutKnownBy() resultRule {
	return requires(
		need("id", func(p *types.Payout) bool { return p.ID == uuid.Nil }),
		need("status", func(p *types.Payout) bool { return p.Status == "" }))
}

// quotationKnownBy is what a payin quotation, created or fetched, is
// known by.
func quotationKnownBy() resultRule {
	return requires(need("id", func(q *types.PayinQuotation) bool { return q.ID == uuid.Nil }))
}

// op returns the call of operation id with the placeholders of its path
// filled, in order, by args (ids, which need no escaping), and its retry
// safety. A create-once operation is returned one-shot: payoutCreate
// guards it by its reference.
func (id opID) op(args ...string) operation {
	row := &operations[id]
	op := operation{method: row.method, path: fillPath(row.path, args), row: row}
	if row.safety == SafetyCreateOnce {
		op.safety = oneShot
	}
	return op
}

// withQuery returns o with query, an encoded query (url.Values.Encode's
// form, "" for none), after its path; the row keeps the template without
// it, which names the call. Query parameters are not signed.
func (o operation) withQuery(query string) operation {
	if query != "" {
		o.path += "?" + query
	}
	return o
}

// with returns o carrying payload, its canonical body, signed and sent as
// it is.
func (o operation) with(payload []byte) operation {
	o.payload = payload
	return o
}

// fillPath replaces the "{...}" segments of template with args, in order.
// A missing argument is a bug of the calling method: it panics rather
// than send a path with a placeholder in it.
func fillPath(template string, args []string) string {
	if len(args) == 0 {
		if strings.IndexByte(template, '{') >= 0 {
			panic("fiatramp: no id for the path " + template)
		}
		return template
	}
	n := len(template) // an upper bound: the placeholders' length is in it
	for _, a := range args {
		n += len(a)
	}
	var b strings.Builder
	b.Grow(n)
	for _, a := range args {
		open := strings.IndexByte(template, '{')
		end := strings.IndexByte(template, '}')
		if open < 0 || end < open {
			panic("fiatramp: more ids than placeholders in the path " + template)
		}
		b.WriteString(template[:open])
		b.WriteString(a)
		template = template[end+1:]
	}
	if strings.IndexByte(template, '{') >= 0 {
		panic("fiatramp: fewer ids than placeholders in the path " + template)
	}
	b.WriteString(template)
	return b.String()
}

// knownRoute returns the row of the index whose method and path template
// fit a call of method to rel, the escaped path from the base address,
// or nil. Where two templates fit, the one with fewer placeholders does:
// GET /pos/api/v1/payout/balance is the balance, not a payout whose id
// reads "balance". The remittance payout is matched by the Client's path
// for it.
func knownRoute(method, rel, remittancePath string) *opRow {
	var best *opRow
	for i := range operations {
		row := &operations[i]
		switch {
		case row.method != method:
		case row.remittance:
			if rel == remittancePath {
				return row
			}
		case matchTemplate(row.path, rel):
			if best == nil || strings.Count(row.path, "{") < strings.Count(best.path, "{") {
				best = row
			}
		}
	}
	return best
}
