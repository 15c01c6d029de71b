package sandbox

// Routes: the one table of the service's operations the sandbox serves,
// and the matching of a request's method and path against it.

import (
	"net/http"
	"slices"
	"sort"
	"strings"
)

// Path prefixes of the service's areas: payouts (pos), customers, wallets,
// bank accounts and KYC (cms), payin quotations (pis), the organization
// (org).
const (
	posBase = "/pos/api/v1"
	cmsBase = "/cms/api/v1"
	pisBase = "/pis/api/v1"
	orgBase = "/org/api/v1"
	renBase = "/ren/api/v1" // limits and EDD
)

// operation is one line of the route table: an HTTP method, a path
// template whose "{name}" segments are parameters, and the handler.
type operation struct {
	method   string
	template string
	handle   handlerFunc
}

// operations is the sandbox's route table: every operation of the service
// it serves, once. Each line's handler lives in the file with the base
// name of the client's file defining the method it serves (the handler of
// Payouts.GetQuotation, a method of payouts_quotations.go, is in
// sandbox/payouts_quotations.go; TestHandlersLiveInTheirClientFilesName
// holds this). Fixed paths come before the parameterised ones that would
// also match them (balance before {payout_id}). The remittance payout is
// listed at DefaultRemittancePayoutPath and served at
// Settings.RemittancePayoutPath.
func operations() []operation {
	return []operation{
		{http.MethodPost, posBase + "/prefunded/payout/initiate", (*Sandbox).createPrefundedPayout},
		{http.MethodPost, posBase + "/payout/initiate", (*Sandbox).createPayout},
		{http.MethodPost, DefaultRemittancePayoutPath, (*Sandbox).createRemittancePayout},
		{http.MethodGet, posBase + "/payout/balance", (*Sandbox).getBalance},
		{http.MethodPatch, posBase + "/payout/mock-payout-status", (*Sandbox).simulatePayoutStatus},
		{http.MethodGet, posBase + "/payout/history", (*Sandbox).payoutHistory}, // before {payout_id}
		{http.MethodGet, posBase + "/payout/{payout_id}", (*Sandbox).getPayout},
		{http.MethodPost, cmsBase + "/wallet/add", (*Sandbox).addWalletOp},
		{http.MethodPatch, cmsBase + "/kyc/mock-kyc-status", (*Sandbox).simulateKYCStatus},
		{http.MethodGet, cmsBase + "/kyc/configuration/{customer_id}", (*Sandbox).getKYCConfiguration},
		{http.MethodGet, cmsBase + "/bank/list/{customer_id}", (*Sandbox).listBankAccounts},
		{http.MethodGet, cmsBase + "/bank/{customer_id}/{bank_id}", (*Sandbox).getBankAccount},
		{http.MethodPost, cmsBase + "/bank/mock-bank-verification", (*Sandbox).simulateBankVerification},
		{http.MethodPost, pisBase + "/payin/quotation", (*Sandbox).createPayinQuotation},
		{http.MethodGet, pisBase + "/payin/quotation/{quotation_id}", (*Sandbox).getPayinQuotation},
		{http.MethodPatch, pisBase + "/payin/mock-payin-status", (*Sandbox).simulatePayinStatus},
		{http.MethodPost, orgBase + "/organizations/api-webhooks", (*Sandbox).registerWebhook},
		// Configuration, rates, limits and EDD.
		{http.MethodGet, posBase + "/payout/fetch-rate", (*Sandbox).getPayoutRate},
		{http.MethodGet, pisBase + "/payin/fetch-rate", (*Sandbox).getPayinRate},
		{http.MethodGet, posBase + "/payout/configuration", (*Sandbox).getPayoutConfiguration},
		{http.MethodGet, pisBase + "/payin/configuration", (*Sandbox).getPayinConfiguration},
		{http.MethodGet, renBase + "/payout/limits/{customer_id}", (*Sandbox).getPayoutLimits},
		{http.MethodGet, renBase + "/payin/limits/{customer_id}", (*Sandbox).getPayinLimits},
		{http.MethodPost, renBase + "/payout/edd/save", (*Sandbox).savePayoutEDD},
		{http.MethodPost, renBase + "/payin/edd/save", (*Sandbox).savePayinEDD},
		// Payout quotations and history.
		{http.MethodPost, posBase + "/payout/quotation", (*Sandbox).createPayoutQuotation},
		{http.MethodGet, posBase + "/payout/quotation/{quotation_id}", (*Sandbox).getPayoutQuotation},
		{http.MethodPatch, posBase + "/payout/update-transfer-id", (*Sandbox).linkTransfer},
		// Bank accounts and the organization's webhook URL.
		{http.MethodPost, cmsBase + "/bank/create", (*Sandbox).addBankAccountOp},
		// Payins after the quotation.
		{http.MethodPost, pisBase + "/payin/initiate", (*Sandbox).initiatePayin},
		{http.MethodGet, pisBase + "/payin/history", (*Sandbox).listPayinHistory},
		{http.MethodPatch, pisBase + "/payin/update-transfer-id", (*Sandbox).linkPayinTransfer},
		{http.MethodGet, pisBase + "/payin/{payin_id}", (*Sandbox).getPayin},
		// Customers and KYC.
		{http.MethodPost, cmsBase + "/customer/create", (*Sandbox).createCustomer},
		{http.MethodGet, cmsBase + "/customer/list", (*Sandbox).listCustomers},
		{http.MethodGet, cmsBase + "/customer/{customer_id}", (*Sandbox).getCustomer},
		{http.MethodPost, cmsBase + "/kyc/add-kyc-data", (*Sandbox).addKYCData},
		{http.MethodPatch, cmsBase + "/kyc/update-tax-info", (*Sandbox).updateTaxInfo},
		{http.MethodPatch, cmsBase + "/kyc/update-document-info", (*Sandbox).updateDocumentInfo},
		{http.MethodPatch, cmsBase + "/kyc/update-selfie-info", (*Sandbox).updateSelfie},
		{http.MethodPatch, cmsBase + "/kyc/update-additional-info", (*Sandbox).updateAdditionalInfo},
		{http.MethodPost, cmsBase + "/kyc/reset-kyc", (*Sandbox).resetKYC},
		// The hosted KYC link and the hosted widget.
		{http.MethodPost, cmsBase + "/kyc/generate-link", (*Sandbox).generateKYCLink},
		{http.MethodPost, "/widget/initialize", (*Sandbox).initializeWidget},
	}
}

// route is an operation ready for matching: pattern is its path split into
// segments, where a segment "{}" matches one path segment (possibly empty)
// and becomes a parameter.
type route struct {
	method  string
	pattern []string
	handle  handlerFunc
}

// compileRoutes compiles the route table for a sandbox whose remittance payout is
// served at remittancePath. A template's "{name}" segments become "{}";
// remittancePath, which the sandbox's user sets, is split as given.
func compileRoutes(remittancePath string) []route {
	ops := operations()
	out := make([]route, len(ops))
	for i, op := range ops {
		if op.template == DefaultRemittancePayoutPath {
			out[i] = route{op.method, splitPath(remittancePath), op.handle}
			continue
		}
		pattern := splitPath(op.template)
		for j, seg := range pattern {
			if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
				pattern[j] = "{}"
			}
		}
		out[i] = route{op.method, pattern, op.handle}
	}
	return out
}

// splitPath splits a path into its segments, without the leading and
// trailing slashes.
func splitPath(path string) []string {
	return strings.Split(strings.Trim(path, "/"), "/")
}

// match finds the route of method and path. It returns the route and its
// parameters, or the HTTP status of the miss (404 or 405; allowed lists the
// methods the path does answer). A trailing slash is tolerated, but first
// tried as ending an empty parameter, so that GET /pos/api/v1/payout/
// reaches the operation and is refused as a missing payout id rather than
// as an unknown path, and another method there is a 405.
func match(routes []route, method, path string) (*route, []string, int) {
	trimmed := splitPath(path)
	if p := strings.TrimPrefix(path, "/"); strings.HasSuffix(p, "/") {
		rt, params, miss := matchSegments(routes, method, strings.Split(p, "/"))
		if miss == 0 {
			return rt, params, 0
		}
		if miss == http.StatusMethodNotAllowed {
			// Known with its empty parameter, for other methods.
			if rt, params, miss := matchSegments(routes, method, trimmed); miss == 0 {
				return rt, params, 0
			}
			return nil, nil, http.StatusMethodNotAllowed
		}
	}
	return matchSegments(routes, method, trimmed)
}

// allowed returns the methods that path answers, sorted: the Allow header
// of a 405.
func allowed(routes []route, path string) []string {
	var methods []string
	for i := range routes {
		m := routes[i].method
		if slices.Contains(methods, m) {
			continue
		}
		if _, _, miss := match(routes, m, path); miss == 0 {
			methods = append(methods, m)
		}
	}
	sort.Strings(methods)
	return methods
}

// matchSegments is match on a path split into segments. Where two
// templates fit, the one with fewer parameters does, wherever the table
// lists it: GET /pos/api/v1/payout/fetch-rate is the rate, not a payout
// whose id reads "fetch-rate".
func matchSegments(routes []route, method string, segs []string) (*route, []string, int) {
	pathMatched := false
	var best *route
	var bestParams []string
	for i := range routes {
		rt := &routes[i]
		if len(rt.pattern) != len(segs) {
			continue
		}
		var params []string
		ok := true
		for j, p := range rt.pattern {
			if p == "{}" {
				params = append(params, segs[j])
			} else if p != segs[j] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if rt.method != method {
			pathMatched = true
			continue
		}
		if best == nil || len(params) < len(bestParams) {
			best, bestParams = rt, params
		}
	}
	if best != nil {
		return best, bestParams, 0
	}
	if pathMatched {
		return nil, nil, http.StatusMethodNotAllowed
	}
	return nil, nil, http.StatusNotFound
}
