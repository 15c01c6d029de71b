package browsertest

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// findBrowser returns the Chromium to drive: $FIATRAMP_CHROMIUM, or the
// first of chromium, chromium-browser, google-chrome on the PATH. Without
// one the test skips, unless FIATRAMP_REQUIRE_BROWSER=1, when it fails.
func findBrowser(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("FIATRAMP_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium found (chromium, chromium-browser or google-chrome on the PATH, or FIATRAMP_CHROMIUM): " +
		"install it with `DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium` to click through the hosted pages"
	if os.Getenv("FIATRAMP_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg + " (FIATRAMP_REQUIRE_BROWSER=1)")
	}
	t.Skip(msg)
	return ""
}

// newBrowser starts a headless Chromium with a fresh profile and returns a
// context driving one tab in it; both end with the test.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path := findBrowser(t)
	// The profile is removed by hand, after the browser has closed: its
	// helper processes may still write there for a moment, which would
	// fail t.TempDir's own removal.
	profile, err := os.MkdirTemp("", "fiatramp-browsertest-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true), // Chromium refuses its sandbox as root
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(800, 600),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx, chromedp.WithErrorf(quietErrorf))
	t.Cleanup(func() {
		_ = chromedp.Cancel(ctx) // closes the browser and waits for it
		cancelCtx()
		cancelAlloc()
		for i := 0; i < 50; i++ {
			if err := os.RemoveAll(profile); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("could not remove the browser profile %s", profile)
	})
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelTimeout)
	if err := chromedp.Run(ctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// quietErrorf logs chromedp's errors but those about events it cannot
// decode: the protocol types of the chromedp that builds with Go 1.23
// predate enum values a newer Chromium sends (an IPAddressSpace of
// "Loopback" in network events), which the test does not use.
func quietErrorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if strings.Contains(msg, "could not unmarshal event") {
		return
	}
	log.Print("chromedp: " + msg)
}

// receiver collects the webhooks the sandbox delivers, each verified with
// webhook.Verify against the organization's key and secret.
type receiver struct {
	mu     sync.Mutex
	events []*webhook.Event
	errs   []error
	got    chan struct{}
}

func newReceiver(t *testing.T, org sandbox.Organization, sb *sandbox.Sandbox) (*receiver, string) {
	rc := &receiver{got: make(chan struct{}, 16)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err == nil {
			var ev *webhook.Event
			ev, err = webhook.Verify(org.APIKey, org.APISecret, r.Header, body, sb.Now())
			rc.mu.Lock()
			if err == nil {
				rc.events = append(rc.events, ev)
			}
			rc.mu.Unlock()
		}
		if err != nil {
			rc.mu.Lock()
			rc.errs = append(rc.errs, err)
			rc.mu.Unlock()
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		rc.got <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	return rc, srv.URL + "/hooks"
}

// next waits for the next verified webhook.
func (rc *receiver) next(t *testing.T) *webhook.Event {
	t.Helper()
	select {
	case <-rc.got:
	case <-time.After(20 * time.Second):
		rc.mu.Lock()
		defer rc.mu.Unlock()
		t.Fatalf("no verified webhook arrived; refused: %v", rc.errs)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.events[len(rc.events)-1]
}

// shop is the page the KYC page redirects to.
func shop(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><title>Shop</title><h1 id="done">Back at the shop</h1>`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// screenshot saves the tab as name.png, in $FIATRAMP_SCREENSHOT_DIR when
// set (browsertest/testdata holds the committed ones), else in a
// temporary directory.
func screenshot(name string, dir *string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var png []byte
		if err := chromedp.CaptureScreenshot(&png).Do(ctx); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(*dir, name+".png"), png, 0o644)
	})
}

// run runs actions in the tab one at a time, so that a failure names
// the step that failed.
func run(t *testing.T, ctx context.Context, actions ...chromedp.Action) {
	t.Helper()
	for i, a := range actions {
		stepCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
		err := chromedp.Run(stepCtx, a)
		cancel()
		if err != nil {
			var loc, html string
			diagCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
			_ = chromedp.Run(diagCtx, chromedp.Location(&loc), chromedp.OuterHTML("html", &html, chromedp.ByQuery))
			cancel()
			t.Fatalf("browser step %d (%T): %v\nthe tab is at %s:\n%s", i+1, a, err, loc, html)
		}
	}
}

// world is a sandbox served on loopback with one organization whose
// webhooks go to a receiver, a client signing as it, and a browser.
type world struct {
	sb      *sandbox.Sandbox
	org     sandbox.Organization
	client  *fiatramp.Client
	hooks   *receiver
	shopURL string
	browser context.Context
	shots   string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{browser: newBrowser(t), shots: os.Getenv("FIATRAMP_SCREENSHOT_DIR")}
	if w.shots == "" {
		w.shots = t.TempDir()
	}
	w.sb = sandbox.New()
	srv, err := sandbox.NewServer(w.sb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	if w.org, err = w.sb.AddOrganization(sandbox.Organization{Name: "Browser Test Org"}); err != nil {
		t.Fatal(err)
	}
	var url string
	w.hooks, url = newReceiver(t, w.org, w.sb)
	if err := w.sb.SetWebhookURL(w.org.ID, url); err != nil {
		t.Fatal(err)
	}
	if w.client, err = srv.Client(w.org, fiatramp.WithClock(w.sb.Now)); err != nil {
		t.Fatal(err)
	}
	w.shopURL = shop(t)
	return w
}

// pendingCustomer adds a customer whose KYC is PROCESSING, with a name
// the page must escape.
func (w *world) pendingCustomer(t *testing.T, name string) sandbox.Customer {
	t.Helper()
	c, err := w.sb.AddCustomer(sandbox.Customer{OrganizationID: w.org.ID, Name: name, KYCStatus: types.KYCProcessing})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// kycStatus is the customer's KYC status as the sandbox holds it.
func (w *world) kycStatus(t *testing.T, c sandbox.Customer) types.KYCStatus {
	t.Helper()
	got, ok := w.sb.Customer(c.ID)
	if !ok {
		t.Fatalf("customer %s is gone", c.ID)
	}
	return got.KYCStatus
}

func TestKYCPageApproveInBrowser(t *testing.T) {
	w := newWorld(t)
	c := w.pendingCustomer(t, `Asha <b>Rao</b>`)
	link, err := w.client.KYC.GenerateLink(w.browser, types.KYCLinkRequest{CustomerID: c.ID, RedirectURL: w.shopURL + "/kyc-done"})
	if err != nil {
		t.Fatal(err)
	}
	var name, status, html, loc string
	run(t, w.browser,
		chromedp.Navigate(link.URL),
		chromedp.WaitVisible("#approve", chromedp.ByID),
		chromedp.Text("#customer-name", &name, chromedp.ByID),
		chromedp.Text("#kyc-status", &status, chromedp.ByID),
		chromedp.OuterHTML("html", &html, chromedp.ByQuery),
		screenshot("kyc-page", &w.shots),
		chromedp.Click("#approve", chromedp.ByID),
		chromedp.WaitVisible("#done", chromedp.ByID),
		chromedp.Location(&loc),
	)
	if name != `Asha <b>Rao</b>` {
		t.Errorf("the page shows the name %q, not as text", name)
	}
	if strings.Contains(html, "<b>Rao") {
		t.Error("the customer's name reached the page as HTML")
	}
	if strings.Contains(html, w.org.APISecret) {
		t.Error("the page shows the API secret")
	}
	if status != "PROCESSING" {
		t.Errorf("status shown %q, want PROCESSING", status)
	}
	if loc != w.shopURL+"/kyc-done" {
		t.Errorf("redirected to %q, want the redirect_url", loc)
	}
	if got := w.kycStatus(t, c); got != types.KYCVerified {
		t.Errorf("customer is %s after approval, want VERIFIED", got)
	}
	ev := w.hooks.next(t)
	if ev.Type != webhook.TypeCustomer || ev.ID != c.ID.String() || ev.Event != "VERIFIED" {
		t.Errorf("webhook %s %s %s, want CUSTOMER %s VERIFIED", ev.Type, ev.ID, ev.Event, c.ID)
	}
}

func TestKYCPageDeclineInBrowser(t *testing.T) {
	w := newWorld(t)
	c := w.pendingCustomer(t, "Ravi Kumar")
	link, err := w.client.KYC.GenerateLink(w.browser, types.KYCLinkRequest{CustomerID: c.ID, RedirectURL: w.shopURL + "/kyc-done"})
	if err != nil {
		t.Fatal(err)
	}
	const reason = "DOCUMENT_VERIFICATION_FAILED"
	run(t, w.browser,
		chromedp.Navigate(link.URL),
		chromedp.WaitVisible("#decline", chromedp.ByID),
		chromedp.SetValue("#reason", reason, chromedp.ByID),
		screenshot("kyc-decline", &w.shots),
		chromedp.Click("#decline", chromedp.ByID),
		chromedp.WaitVisible("#done", chromedp.ByID),
	)
	if got := w.kycStatus(t, c); got != types.KYCDocumentVerificationFailed {
		t.Errorf("customer is %s after the decline, want %s", got, reason)
	}
	ev := w.hooks.next(t)
	if ev.Type != webhook.TypeCustomer || ev.ID != c.ID.String() || ev.Event != "FAILED" {
		t.Errorf("webhook %s %s %s, want CUSTOMER %s FAILED", ev.Type, ev.ID, ev.Event, c.ID)
	}
	if ev.Metadata.FailureReason == nil || *ev.Metadata.FailureReason != reason {
		t.Errorf("webhook failure_reason %v, want %s", ev.Metadata.FailureReason, reason)
	}
}

func TestWidgetPageInBrowser(t *testing.T) {
	w := newWorld(t)
	order := types.WidgetRequest{
		AssetCode: "USDT", FiatAmount: decimal.RequireFromString("2600.50"), FiatCurrency: "INR",
		FlowType: types.WidgetFlowBuy, NetworkCode: "TRON", PaymentMethod: types.PaymentMethodUPI,
		WalletAddress: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
	}
	done, err := w.client.Widget.Initialize(w.browser, order)
	if err != nil {
		t.Fatal(err)
	}
	left, err := w.client.Widget.Initialize(w.browser, order)
	if err != nil {
		t.Fatal(err)
	}
	var amount, wallet, state, title string
	run(t, w.browser,
		chromedp.Navigate(done.WidgetLink),
		chromedp.WaitVisible("#complete", chromedp.ByID),
		chromedp.Text("#fiat-amount", &amount, chromedp.ByID),
		chromedp.Text("#wallet-address", &wallet, chromedp.ByID),
		screenshot("widget-page", &w.shots),
		chromedp.Click("#complete", chromedp.ByID),
		chromedp.WaitNotPresent("#complete", chromedp.ByID),
		chromedp.Text("#state", &state, chromedp.ByID),
		screenshot("widget-completed", &w.shots),
	)
	if amount != "2600.50 INR" || wallet != order.WalletAddress {
		t.Errorf("the page shows %q to %q", amount, wallet)
	}
	if state != "COMPLETED" {
		t.Errorf("the page shows the state %q after completing, want COMPLETED", state)
	}

	// The other session's token runs out on the sandbox clock.
	w.sb.Advance(sandbox.WidgetValidity)
	run(t, w.browser,
		chromedp.Navigate(left.WidgetLink),
		chromedp.WaitVisible("#title", chromedp.ByID),
		chromedp.Text("#title", &title, chromedp.ByID),
		screenshot("widget-expired", &w.shots),
	)
	if title != "Link expired" {
		t.Errorf("an expired token shows %q, want the expiry error page", title)
	}
	sessions := w.sb.WidgetSessions(w.org.ID)
	if len(sessions) != 2 || sessions[0].State != sandbox.WidgetCompleted || sessions[1].State != sandbox.WidgetExpired {
		t.Errorf("sessions %+v, want COMPLETED then EXPIRED", sessions)
	}
}
