package sandbox

// Hosted pages: the pages the sandbox serves itself for the KYC link
// (kyc_links.go) and the widget link (widget.go), plain server-rendered
// HTML a tester clicks through.
//
// A page is reached only by the unguessable token in its URL (32 random
// bytes from crypto/rand), never by the API key or secret, which no page
// shows. Its forms POST back to the same URL with the token in a hidden
// field, which must match the URL's: a form on another site cannot know
// it, and a request whose Origin names another host (or is "null") is
// refused. Every value shown goes through html/template, which escapes it
// for its context. The answers are not cached and send a Referer only to
// the sandbox itself (Referrer-Policy same-origin: with no-referrer,
// browsers send the forms' Origin as "null"), so the token does not leak
// to the page a KYC decision redirects to.

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// HostedPrefix is the path under which the sandbox serves its hosted
// pages: the KYC page at HostedPrefix + "kyc/{token}" and the widget page
// at HostedPrefix + "widget/{token}".
const HostedPrefix = "/hosted/"

// maxPageForm caps what a hosted page reads of a form.
const maxPageForm = 4 << 10

// kycFailureReasons are the reasons a tester may decline KYC with on the
// hosted KYC page, the service's catalogue of a customer's failure_reason:
// the document, tax and selfie checks (recoverable by an update) and
// KYC_FAILED (final).
func kycFailureReasons() []string {
	return []string{"DOCUMENT_VERIFICATION_FAILED", "TAX_VERIFICATION_FAILED", "SELFIE_VERIFICATION_FAILED", "KYC_FAILED"}
}

// kycLink is a hosted KYC link's state.
type kycLink struct {
	customer    *customer
	redirectURL string
	decided     types.KYCStatus // "" until a tester decides
}

// newPageToken returns an unguessable token for a hosted page.
func newPageToken() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("sandbox: crypto/rand: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// hostedBase is the absolute URL the hosted pages' links start with:
// Settings.PublicURL when set, or else the scheme, Host and mount prefix
// the request arrived with.
func (s *Sandbox) hostedBase(r *http.Request) string {
	return strings.TrimSuffix(s.pageBase(r), r.URL.EscapedPath())
}

// serveHosted serves a hosted page: GET shows it, POST acts on its form.
func (s *Sandbox) serveHosted(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'")

	kind, token, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, HostedPrefix), "/")
	if kind != "kyc" && kind != "widget" || token == "" || strings.Contains(token, "/") {
		writePage(w, http.StatusNotFound, errorPage("Not found", "There is no page here."))
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodPost:
		if !sameOrigin(r) {
			writePage(w, http.StatusForbidden, errorPage("Refused", "This form was sent from another site."))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxPageForm)
		if err := r.ParseForm(); err != nil {
			writePage(w, http.StatusBadRequest, errorPage("Refused", "The form could not be read."))
			return
		}
		if subtle.ConstantTimeCompare([]byte(r.PostForm.Get("token")), []byte(token)) != 1 {
			writePage(w, http.StatusForbidden, errorPage("Refused", "The form does not carry this page's token."))
			return
		}
	default:
		h.Set("Allow", "GET, HEAD, POST")
		writePage(w, http.StatusMethodNotAllowed, errorPage("Refused", "Method not allowed."))
		return
	}
	s.mu.Lock()
	s.runDueLocked(false)
	now := s.now()
	var p page
	if kind == "kyc" {
		p = s.kycPage(r, token, now)
	} else {
		p = s.widgetPage(r, token, now)
	}
	s.mu.Unlock()
	if p.redirect != "" {
		http.Redirect(w, r, p.redirect, http.StatusSeeOther)
		return
	}
	writePage(w, p.status, p.body)
}

// sameOrigin reports whether a form's request came from the sandbox's own
// pages: an Origin header, when sent, must name the request's host; an
// opaque origin ("null") is refused.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && u.Host == r.Host
}

// page is a hosted page's answer: a redirect, or a status and HTML.
type page struct {
	status   int
	body     []byte
	redirect string
}

func writePage(w http.ResponseWriter, status int, body []byte) {
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// kycPageData is what the KYC page shows.
type kycPageData struct {
	Token       string
	CustomerID  uuid.UUID
	Name        string
	Status      types.KYCStatus
	Decided     types.KYCStatus
	CanApprove  bool
	Reasons     []string // the reasons the customer may be declined with now
	RedirectURL string
	Error       string
}

// kycPage shows the hosted KYC page of token or acts on its form; s.mu is
// held. A decision moves the customer through the KYC status simulation
// (simulateKYCStatus, with its transitions and webhooks) and redirects to
// the link's redirect_url; a link is decided once.
func (s *Sandbox) kycPage(r *http.Request, token string, now time.Time) page {
	o, ref := s.st.page(token)
	l := ref.kyc
	if o == nil || l == nil {
		return page{status: http.StatusNotFound, body: errorPage("Link not found", "This KYC link is not known to the sandbox.")}
	}
	c := l.customer
	data := kycPageData{Token: token, CustomerID: c.ID, Name: c.Name, Status: c.KYCStatus, Decided: l.decided, RedirectURL: l.redirectURL}
	if l.decided == "" {
		data.CanApprove = kycSimulationAllows(c, types.KYCVerified)
		for _, reason := range kycFailureReasons() {
			if kycSimulationAllows(c, kycStatusForReason(reason)) {
				data.Reasons = append(data.Reasons, reason)
			}
		}
	}
	status := http.StatusOK
	if r.Method == http.MethodPost {
		to, reason, msg := kycDecision(r.PostForm, data)
		if msg == "" {
			body := map[string]any{"customer_id": c.ID.String(), "kyc_status": string(to)}
			if reason != "" {
				body["failure_reason"] = reason
			}
			rq := &request{r: r, org: o, now: now, body: newFields(body)}
			rep := s.simulateKYCStatus(rq)
			if rep.status == http.StatusOK {
				l.decided = to
				return page{redirect: l.redirectURL}
			}
			msg = replyMessage(rep)
		}
		data.Error, status = msg, http.StatusBadRequest
	}
	return page{status: status, body: render(kycTemplate, data)}
}

// kycDecision reads the KYC page's form: approve, or decline with one of
// the reasons offered. It returns the status to move to, the reason, or
// why the form is refused.
func kycDecision(form url.Values, data kycPageData) (to types.KYCStatus, reason, refused string) {
	if data.Decided != "" {
		return "", "", "This link has been used: the customer is " + string(data.Decided) + "."
	}
	switch form.Get("decision") {
	case "approve":
		if !data.CanApprove {
			return "", "", "This customer cannot be approved now (KYC status " + string(data.Status) + ")."
		}
		return types.KYCVerified, "", ""
	case "decline":
		reason = form.Get("reason")
		for _, r := range data.Reasons {
			if r == reason {
				return kycStatusForReason(reason), reason, ""
			}
		}
		return "", "", "Choose a failure reason this customer can be declined with now."
	}
	return "", "", "Choose approve or decline."
}

// kycStatusForReason is the KYC status a decline with reason moves the
// customer to: the reason itself where it is a KYC status, else FAILED.
func kycStatusForReason(reason string) types.KYCStatus {
	if st := types.KYCStatus(reason); st.IsKnown() {
		return st
	}
	return types.KYCFailed
}

// replyMessage is the message of a reply's envelope.
func replyMessage(rep reply) string {
	var env struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(rep.body, &env) != nil || env.Message == "" {
		return http.StatusText(rep.status)
	}
	return env.Message
}

// render executes t with data; the templates are the package's own and
// their data its own structs, so it cannot fail but by a bug.
func render(t *template.Template, data any) []byte {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		panic("sandbox: hosted page: " + err.Error())
	}
	return b.Bytes()
}

// errorPage renders a page saying what went wrong.
func errorPage(title, message string) []byte {
	return render(errorTemplate, struct{ Title, Message string }{title, message})
}

// pageHead is the start of every hosted page: no external asset, no
// script.
const pageHead = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{block "title" .}}fiatramp sandbox{{end}}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}.banner{background:#fff3cd;border:1px solid #e0c36c;padding:.5rem .75rem;font-size:.9rem}
table{border-collapse:collapse;margin:1rem 0}td,th{text-align:left;padding:.3rem .8rem .3rem 0;vertical-align:top}
th{font-weight:600}code{word-break:break-all}.error{color:#a00;font-weight:600}
form{display:inline-block;margin:.5rem 1rem .5rem 0}button{font-size:1rem;padding:.4rem 1rem}
</style></head><body>
<p class="banner">fiatramp sandbox: a test page. Nothing here is real.</p>
`

const pageFoot = `</body></html>
`

var errorTemplate = template.Must(template.New("error").Parse(pageHead + `
<h1 id="title">{{.Title}}</h1>
<p id="message">{{.Message}}</p>
` + pageFoot))

var kycTemplate = template.Must(template.New("kyc").Parse(pageHead + `
<h1>KYC verification</h1>
<table>
<tr><th>Customer</th><td><code id="customer-id">{{.CustomerID}}</code></td></tr>
<tr><th>Name</th><td id="customer-name">{{.Name}}</td></tr>
<tr><th>KYC status</th><td id="kyc-status">{{.Status}}</td></tr>
</table>
{{if .Error}}<p class="error" id="error">{{.Error}}</p>{{end}}
{{if .Decided}}<p id="decided">Decided: {{.Decided}}. <a href="{{.RedirectURL}}">Continue</a></p>
{{else}}
{{if .CanApprove}}<form method="post" id="approve-form">
<input type="hidden" name="token" value="{{.Token}}">
<button type="submit" name="decision" value="approve" id="approve">Approve</button>
</form>{{end}}
{{if .Reasons}}<form method="post" id="decline-form">
<input type="hidden" name="token" value="{{.Token}}">
<input type="hidden" name="decision" value="decline">
<label for="reason">Failure reason</label>
<select name="reason" id="reason">{{range .Reasons}}<option value="{{.}}">{{.}}</option>{{end}}</select>
<button type="submit" id="decline">Decline</button>
</form>{{end}}
{{if not (or .CanApprove .Reasons)}}<p id="no-decision">The KYC simulation allows no decision from {{.Status}}: submit KYC data first.</p>{{end}}
{{end}}
` + pageFoot))

// widgetPageData is what the widget page shows.
type widgetPageData struct {
	Token string
	WidgetSession
	// Amount is FiatAmount with the digits it was sent with (2600.50
	// stays 2600.50).
	Amount string
	Error  string
}

// widgetPage shows the widget page of token or acts on its form (complete
// or abandon an open session); s.mu is held. An expired token shows an
// error page, 410.
func (s *Sandbox) widgetPage(r *http.Request, token string, now time.Time) page {
	o, ref := s.st.page(token)
	w := ref.widget
	if o == nil || w == nil {
		return page{status: http.StatusNotFound, body: errorPage("Link not found", "This widget link is not known to the sandbox.")}
	}
	state := w.stateAt(now)
	if state == WidgetExpired {
		return page{status: http.StatusGone, body: errorPage("Link expired", "This widget link's token has expired: it is valid 30 minutes.")}
	}
	data := widgetPageData{Token: token, WidgetSession: w.WidgetSession,
		Amount: w.FiatAmount.StringFixed(max(0, -w.FiatAmount.Exponent()))}
	if r.Method != http.MethodPost {
		return page{status: http.StatusOK, body: render(widgetTemplate, data)}
	}
	// Back to this page, by the path the request arrived with (a sandbox
	// mounted under a prefix keeps it).
	self := r.URL.EscapedPath()
	if u, err := url.ParseRequestURI(r.RequestURI); err == nil && r.RequestURI != "" {
		self = u.EscapedPath()
	}
	switch action := r.PostForm.Get("action"); {
	case state != WidgetOpen:
		data.Error = "This order is already " + string(state) + "."
	case action == "complete":
		w.State = WidgetCompleted
		return page{redirect: self}
	case action == "abandon":
		w.State = WidgetAbandoned
		return page{redirect: self}
	default:
		data.Error = "Choose complete or abandon."
	}
	return page{status: http.StatusBadRequest, body: render(widgetTemplate, data)}
}

var widgetTemplate = template.Must(template.New("widget").Parse(pageHead + `
<h1>Widget order</h1>
<table>
<tr><th>Flow</th><td id="flow-type">{{.FlowType}}</td></tr>
<tr><th>Amount</th><td id="fiat-amount">{{.Amount}} {{.FiatCurrency}}</td></tr>
<tr><th>Asset</th><td id="asset">{{.AssetCode}} on {{.NetworkCode}}</td></tr>
<tr><th>Payment method</th><td id="payment-method">{{.PaymentMethod}}</td></tr>
<tr><th>Wallet</th><td><code id="wallet-address">{{.WalletAddress}}</code></td></tr>
<tr><th>Valid until</th><td id="expires-at">{{.ExpiresAt.UTC.Format "2006-01-02 15:04:05 UTC"}}</td></tr>
<tr><th>State</th><td id="state">{{.State}}</td></tr>
</table>
{{if .Error}}<p class="error" id="error">{{.Error}}</p>{{end}}
{{if eq .State "OPEN"}}<form method="post" id="complete-form">
<input type="hidden" name="token" value="{{.Token}}">
<button type="submit" name="action" value="complete" id="complete">Complete order</button>
</form>
<form method="post" id="abandon-form">
<input type="hidden" name="token" value="{{.Token}}">
<button type="submit" name="action" value="abandon" id="abandon">Abandon</button>
</form>{{end}}
` + pageFoot))
