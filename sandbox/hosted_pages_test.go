package sandbox_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// browser is a plain HTTP client that, like a browser, does not follow
// redirects by itself here, so that a test sees them.
func browser() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// getPage fetches a hosted page and returns its status and HTML.
func getPage(t *testing.T, link string) (int, string) {
	t.Helper()
	resp, err := browser().Get(link)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if resp.StatusCode != http.StatusSeeOther {
		assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
		assert.Equal(t, "same-origin", resp.Header.Get("Referrer-Policy"), "no Referer, so no token, to another site")
		assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'none'")
	}
	return resp.StatusCode, string(b)
}

// postForm sends a hosted page's form with origin as its Origin header
// ("" for none), returning the answer's status, Location and HTML.
func postForm(t *testing.T, link, origin string, form url.Values) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, link, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := browser().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// tokenOf is the token a hosted link ends with.
func tokenOf(link string) string { return link[strings.LastIndexByte(link, '/')+1:] }

func TestHostedKYCPageApprove(t *testing.T) {
	e, rc := hookEnv(t, nil)
	c := e.customer(e.org, sandbox.Customer{Name: `Ravi <script>alert("x")</script> & Co`, KYCStatus: types.KYCProcessing})
	l, err := e.client.KYC.GenerateLink(ctx(t), types.KYCLinkRequest{CustomerID: c.ID, RedirectURL: "https://shop.example/kyc-done?step=2"})
	require.NoError(t, err)
	token := tokenOf(l.URL)
	assert.Regexp(t, regexp.MustCompile(`^[0-9a-f]{64}$`), token, "an unguessable token")

	status, html := getPage(t, l.URL)
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, html, c.ID.String())
	assert.Contains(t, html, "Ravi &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; Co", "the name is escaped")
	assert.NotContains(t, html, "<script")
	assert.NotContains(t, html, e.org.APISecret)
	assert.NotContains(t, html, e.org.APIKey)
	assert.Contains(t, html, `name="token" value="`+token+`"`)
	for _, reason := range []string{"DOCUMENT_VERIFICATION_FAILED", "TAX_VERIFICATION_FAILED"} {
		assert.Contains(t, html, `<option value="`+reason+`">`)
	}

	// Without the token, with another's, or from another site: refused,
	// nothing moves.
	origin := strings.TrimSuffix(l.URL, sandbox.HostedPrefix+"kyc/"+token)
	for name, tc := range map[string]struct {
		origin string
		form   url.Values
	}{
		"no token":       {origin, url.Values{"decision": {"approve"}}},
		"wrong token":    {origin, url.Values{"decision": {"approve"}, "token": {strings.Repeat("0", 64)}}},
		"cross-site":     {"https://evil.example", url.Values{"decision": {"approve"}, "token": {token}}},
		"unknown":        {origin, url.Values{"decision": {"maybe"}, "token": {token}}},
		"no reason":      {origin, url.Values{"decision": {"decline"}, "token": {token}}},
		"reason unknown": {origin, url.Values{"decision": {"decline"}, "reason": {"BAD_LUCK"}, "token": {token}}},
	} {
		st, loc, _ := postForm(t, l.URL, tc.origin, tc.form)
		assert.Contains(t, []int{http.StatusForbidden, http.StatusBadRequest}, st, name)
		assert.Empty(t, loc, name)
		got, _ := e.sb.Customer(c.ID)
		assert.Equal(t, types.KYCProcessing, got.KYCStatus, name)
	}

	st, loc, _ := postForm(t, l.URL, origin, url.Values{"decision": {"approve"}, "token": {token}})
	require.Equal(t, http.StatusSeeOther, st)
	assert.Equal(t, "https://shop.example/kyc-done?step=2", loc)
	got, _ := e.sb.Customer(c.ID)
	assert.Equal(t, types.KYCVerified, got.KYCStatus)

	settle(t, e.sb)
	hooks := rc.hooks()
	require.Len(t, hooks, 1)
	assert.True(t, signedBy(e.org, hooks[0]))
	ev, err := webhook.Verify(e.org.APIKey, e.org.APISecret, hooks[0].header, []byte(hooks[0].body), e.sb.Now())
	require.NoError(t, err)
	assert.Equal(t, webhook.TypeCustomer, ev.Type)
	assert.Equal(t, c.ID.String(), ev.ID)
	assert.Equal(t, webhook.EventName("VERIFIED"), ev.Event)

	// The link is spent: a second decision is refused.
	st, loc, html = postForm(t, l.URL, "", url.Values{"decision": {"decline"}, "reason": {"KYC_FAILED"}, "token": {token}})
	assert.Equal(t, http.StatusBadRequest, st)
	assert.Empty(t, loc)
	assert.Contains(t, html, "This link has been used")
	got, _ = e.sb.Customer(c.ID)
	assert.Equal(t, types.KYCVerified, got.KYCStatus)
}

func TestHostedKYCPageDecline(t *testing.T) {
	e, rc := hookEnv(t, nil)
	c := e.customer(e.org, sandbox.Customer{Name: "Ravi Kumar", KYCStatus: types.KYCProcessing})
	l, err := e.client.KYC.GenerateLink(ctx(t), types.KYCLinkRequest{CustomerID: c.ID, RedirectURL: "http://localhost:9/back"})
	require.NoError(t, err)
	st, loc, _ := postForm(t, l.URL, "", url.Values{"decision": {"decline"}, "reason": {"TAX_VERIFICATION_FAILED"}, "token": {tokenOf(l.URL)}})
	require.Equal(t, http.StatusSeeOther, st)
	assert.Equal(t, "http://localhost:9/back", loc)
	got, _ := e.sb.Customer(c.ID)
	assert.Equal(t, types.KYCTaxVerificationFailed, got.KYCStatus)
	settle(t, e.sb)
	hooks := rc.hooks()
	require.Len(t, hooks, 1)
	ev, err := webhook.Verify(e.org.APIKey, e.org.APISecret, hooks[0].header, []byte(hooks[0].body), e.sb.Now())
	require.NoError(t, err)
	assert.Equal(t, webhook.EventName("FAILED"), ev.Event)
	require.NotNil(t, ev.Metadata.FailureReason)
	assert.Equal(t, "TAX_VERIFICATION_FAILED", *ev.Metadata.FailureReason)
}

// TestHostedKYCPageOffersOnlyAllowedMoves: the page offers what the KYC
// simulation's transitions allow from the customer's status, and nothing
// to a customer it allows no decision for.
func TestHostedKYCPageOffersOnlyAllowedMoves(t *testing.T) {
	e := newEnv(t)
	c := e.customer(e.org, sandbox.Customer{Name: "New One", KYCStatus: types.KYCUnverified})
	l, err := e.client.KYC.GenerateLink(ctx(t), types.KYCLinkRequest{CustomerID: c.ID, RedirectURL: "https://shop.example/"})
	require.NoError(t, err)
	status, html := getPage(t, l.URL)
	require.Equal(t, http.StatusOK, status)
	assert.NotContains(t, html, `id="approve"`)
	assert.NotContains(t, html, `id="decline"`)
	assert.Contains(t, html, `id="no-decision"`)
	st, _, _ := postForm(t, l.URL, "", url.Values{"decision": {"approve"}, "token": {tokenOf(l.URL)}})
	assert.Equal(t, http.StatusBadRequest, st)
	got, _ := e.sb.Customer(c.ID)
	assert.Equal(t, types.KYCUnverified, got.KYCStatus)
}

func TestHostedPagesRefuseUnknownTokens(t *testing.T) {
	e := newEnv(t)
	base := e.client.BaseURL() + sandbox.HostedPrefix
	for _, p := range []string{"kyc/" + strings.Repeat("a", 64), "widget/nope", "kyc/", "other/x", "kyc/a/b"} {
		status, html := getPage(t, base+p)
		assert.Equal(t, http.StatusNotFound, status, p)
		assert.NotContains(t, html, e.org.APISecret)
	}
	req, err := http.NewRequest(http.MethodDelete, base+"kyc/x", nil)
	require.NoError(t, err)
	resp, err := browser().Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

// TestHostedPagesAfterReset: Reset forgets every token.
func TestHostedPagesAfterReset(t *testing.T) {
	e := newEnv(t)
	c := e.customer(e.org, sandbox.Customer{Name: "R", KYCStatus: types.KYCProcessing})
	l, err := e.client.KYC.GenerateLink(ctx(t), types.KYCLinkRequest{CustomerID: c.ID, RedirectURL: "https://shop.example/"})
	require.NoError(t, err)
	e.sb.Reset()
	status, _ := getPage(t, l.URL)
	assert.Equal(t, http.StatusNotFound, status)
}

func TestGenerateKYCLinkFieldErrors(t *testing.T) {
	e := newEnv(t)
	const path = "/cms/api/v1/kyc/generate-link"
	for _, bad := range []string{"/relative", "javascript:alert(1)", "https://", "ftp://x.example/"} {
		err := e.client.Do(ctx(t), http.MethodPost, path, map[string]any{"customer_id": e.cust.ID, "redirect_url": bad}, nil)
		apiErr := refused(t, err, http.StatusBadRequest, "Enter a valid URL.", fiatramp.ErrFieldMissing)
		assert.Equal(t, map[string][]string{"redirect_url": {"Enter a valid URL."}}, apiErr.FieldErrors, bad)
	}
	err := e.client.Do(ctx(t), http.MethodPost, path, map[string]any{}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, "This field is required.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{"customer_id": {"This field is required."}, "redirect_url": {"This field is required."}}, apiErr.FieldErrors)
	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "F"})
	_, err = e.client.KYC.GenerateLink(ctx(t), types.KYCLinkRequest{CustomerID: foreign.ID, RedirectURL: "https://shop.example/"})
	refused(t, err, http.StatusBadRequest, custNotFound, fiatramp.ErrCustomerNotFound)
}

// TestHostedKYCPageAfterUpdate: a customer an update sent back to
// UNVERIFIED, its KYC data on file, awaits a decision; the page offers the
// decisions the KYC simulation accepts for it, and approving verifies it.
func TestHostedKYCPageAfterUpdate(t *testing.T) {
	e := newEnv(t)
	c, err := e.client.Customers.Create(ctx(t), types.CreateCustomerRequest{
		FullName: "Ravi Kumar", Email: "ravi.update@example.com", Phone: "+919800000077", Alpha3CountryCode: "IND",
	})
	require.NoError(t, err)
	_, err = e.client.KYC.AddData(ctx(t), types.AddKYCDataRequest{
		CustomerID: c.ID, FullName: "Ravi Kumar", Phone: "+919800000077", FullAddress: "12 MG Road, Pune",
		DOB: "31-01-1990", TaxNumber: "ABCDE7777F", DocumentType: "PASSPORT",
		DocumentFrontImageURL: "https://img.example/front.png",
		DocumentDetails:       types.DocumentDetails{DocumentNumber: "P7777777"},
		AdditionalInfo:        map[string]string{"income_range": "5-10L", "profession": "engineer"},
	})
	require.NoError(t, err)
	_, err = e.client.KYC.SimulateStatus(ctx(t), c.ID, types.KYCTaxVerificationFailed)
	require.NoError(t, err)
	res, err := e.client.KYC.UpdateTaxInfo(ctx(t), types.UpdateTaxInfoRequest{CustomerID: c.ID, TaxNumber: "ABCDE7778F"})
	require.NoError(t, err)
	require.Equal(t, types.KYCUnverified, res.Status)

	l, err := e.client.KYC.GenerateLink(ctx(t), types.KYCLinkRequest{CustomerID: c.ID, RedirectURL: "https://shop.example/"})
	require.NoError(t, err)
	status, html := getPage(t, l.URL)
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, html, `id="approve"`)
	assert.Contains(t, html, `<option value="DOCUMENT_VERIFICATION_FAILED">`)
	assert.NotContains(t, html, `id="no-decision"`)
	st, loc, _ := postForm(t, l.URL, "", url.Values{"decision": {"approve"}, "token": {tokenOf(l.URL)}})
	require.Equal(t, http.StatusSeeOther, st)
	assert.Equal(t, "https://shop.example/", loc)
	got, _ := e.sb.Customer(c.ID)
	assert.Equal(t, types.KYCVerified, got.KYCStatus)
}
