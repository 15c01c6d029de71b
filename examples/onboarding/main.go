// Command onboarding shows a customer's KYC failing and recovering, and the
// hosted KYC link, against the embedded sandbox.
//
// It starts the sandbox with one empty organization and a webhook receiver
// (webhook.Handler) registered for it, then:
//
//   - a customer whose tax check fails (TAX_VERIFICATION_FAILED): the tax
//     update (KYC.UpdateTaxInfo) sends the KYC back for a decision, and it
//     is VERIFIED;
//   - a customer whose document check fails (DOCUMENT_VERIFICATION_FAILED):
//     the document update (KYC.UpdateDocumentInfo), then the hosted KYC link
//     (KYC.GenerateLink): the page the sandbox serves there is fetched with
//     net/http, and the customer approved on it as a tester would.
//
// Each decision arrives as a signed CUSTOMER webhook. It needs no
// credentials and no network beyond loopback.
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "onboarding:", err)
		os.Exit(1)
	}
}

// story is what the steps share: the client, the webhook events received,
// and the number of the last step printed.
type story struct {
	client *fiatramp.Client
	events chan *webhook.Event
	step   int
}

func run(ctx context.Context) error {
	sb := sandbox.New()
	defer func() { _ = sb.Close() }()
	org, err := sb.AddOrganization(sandbox.Organization{Name: "Onboarding Exchange"})
	if err != nil {
		return err
	}
	srv, err := sandbox.NewServer(sb)
	if err != nil {
		return err
	}
	defer srv.Close()
	client, err := srv.Client(org)
	if err != nil {
		return err
	}
	fmt.Println("started the embedded sandbox at", srv.URL)

	s := &story{client: client, events: make(chan *webhook.Event, 16)}
	s.heading("webhook receiver (webhook.Handler) on loopback, registered")
	hookURL, stop, err := receive(org, sb.Now, s.events)
	if err != nil {
		return err
	}
	defer stop()
	registered, err := client.Organization.SetWebhookURL(ctx, hookURL)
	if err != nil {
		return err
	}
	fmt.Println("   registered", registered)

	if err := s.taxFailure(ctx); err != nil {
		return err
	}
	if err := s.documentFailure(ctx); err != nil {
		return err
	}
	fmt.Println("\nDone.")
	return nil
}

// taxFailure: the tax check fails, the tax number is corrected, and the
// customer is verified.
func (s *story) taxFailure(ctx context.Context) error {
	id, err := s.submit(ctx, "Ravi Kumar", "ravi@example.com", "+919800000002", "ABCDE1234F", "P1234567")
	if err != nil {
		return err
	}
	if err := s.fail(ctx, id, types.KYCTaxVerificationFailed); err != nil {
		return err
	}
	s.heading("update the tax number (KYC.UpdateTaxInfo)")
	res, err := s.client.KYC.UpdateTaxInfo(ctx, types.UpdateTaxInfoRequest{CustomerID: id, TaxNumber: "ABCDE1235F"})
	if err != nil {
		return err
	}
	fmt.Println("   KYC:", res.Status)
	return s.verify(ctx, id)
}

// documentFailure: the document check fails, the document is sent again,
// and the customer is approved on the hosted KYC page.
func (s *story) documentFailure(ctx context.Context) error {
	id, err := s.submit(ctx, "Meera Iyer", "meera@example.com", "+919800000003", "FGHIJ5678K", "P7654321")
	if err != nil {
		return err
	}
	if err := s.fail(ctx, id, types.KYCDocumentVerificationFailed); err != nil {
		return err
	}
	s.heading("send the document again (KYC.UpdateDocumentInfo)")
	res, err := s.client.KYC.UpdateDocumentInfo(ctx, types.UpdateDocumentInfoRequest{
		CustomerID: id, FullAddress: "4 Residency Road, Bengaluru", DocumentType: "PASSPORT",
		DocumentFrontImageURL: "https://img.example/meera-front-retake.png",
		DocumentDetails:       types.DocumentDetails{DocumentNumber: "P7654321"},
	})
	if err != nil {
		return err
	}
	fmt.Println("   KYC:", res.Status)
	return s.hostedLink(ctx, id)
}

// hostedLink sends customer id to the hosted KYC link; the sandbox's page
// there is fetched, and the customer approved on it as a tester would.
func (s *story) hostedLink(ctx context.Context, id uuid.UUID) error {
	s.heading("hosted KYC link (KYC.GenerateLink)")
	link, err := s.client.KYC.GenerateLink(ctx, types.KYCLinkRequest{CustomerID: id, RedirectURL: "https://shop.example/kyc-done"})
	if err != nil {
		return err
	}
	fmt.Println("   link:", link.URL)

	// A browser would open the link; net/http shows what it gets. The
	// client does not follow the page's redirect to shop.example.
	browser := &http.Client{
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	body, status, err := fetch(ctx, browser, http.MethodGet, link.URL, nil)
	if err != nil {
		return err
	}
	fmt.Printf("   GET: %d %s, %s, KYC status on the page %s\n", status, http.StatusText(status),
		pageHeading(body), pageField(body, "kyc-status"))
	if status != http.StatusOK {
		return fmt.Errorf("the hosted KYC page answered %d", status)
	}
	fmt.Println("   the page offers:", pageOffers(body))

	s.heading("approve on the hosted page, as a tester")
	u, err := url.Parse(link.URL)
	if err != nil {
		return err
	}
	token := u.Path[strings.LastIndexByte(u.Path, '/')+1:]
	form := url.Values{"token": {token}, "decision": {"approve"}}
	resp, err := post(ctx, browser, link.URL, form)
	if err != nil {
		return err
	}
	fmt.Printf("   POST: %d %s, on to %s\n", resp.StatusCode, http.StatusText(resp.StatusCode), resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther {
		return fmt.Errorf("the hosted KYC page answered the approval with %d", resp.StatusCode)
	}
	if err := s.await(ctx, id); err != nil {
		return err
	}
	return s.show(ctx, id)
}

// submit creates a customer and adds its KYC data; it is PROCESSING.
func (s *story) submit(ctx context.Context, name, email, phone, tax, passport string) (uuid.UUID, error) {
	s.heading("create customer %s and add KYC data", name)
	c, err := s.client.Customers.Create(ctx, types.CreateCustomerRequest{
		FullName: name, Email: email, Phone: phone, Alpha3CountryCode: "IND",
	})
	if err != nil {
		return uuid.Nil, err
	}
	fmt.Printf("   customer %s: %s\n", c.ID, c.Status)
	cfg, err := s.client.KYC.GetConfiguration(ctx, c.ID)
	if err != nil {
		return uuid.Nil, err
	}
	res, err := s.client.KYC.AddData(ctx, types.AddKYCDataRequest{
		CustomerID: c.ID, FullName: name, Phone: phone, FullAddress: "12 MG Road, Pune",
		DOB: "31-01-1990", TaxNumber: tax, DocumentType: "PASSPORT",
		DocumentFrontImageURL: "https://img.example/front.png",
		DocumentDetails:       types.DocumentDetails{DocumentNumber: passport},
		AdditionalInfo:        map[string]string{"income_range": "5-10L", "profession": "engineer"},
	}, fiatramp.CheckKYCRules(cfg))
	if err != nil {
		return uuid.Nil, err
	}
	fmt.Println("   KYC:", res.Status)
	return c.ID, nil
}

// fail has the KYC simulation fail the customer's check with reason.
func (s *story) fail(ctx context.Context, id uuid.UUID, reason types.KYCStatus) error {
	s.heading("KYC simulation (sandbox): the check fails with %s", reason)
	if _, err := s.client.KYC.SimulateStatus(ctx, id, reason); err != nil {
		return err
	}
	if err := s.await(ctx, id); err != nil {
		return err
	}
	return s.show(ctx, id)
}

// verify has the KYC simulation pass the customer's check.
func (s *story) verify(ctx context.Context, id uuid.UUID) error {
	s.heading("KYC simulation (sandbox): the check passes")
	if _, err := s.client.KYC.SimulateStatus(ctx, id, types.KYCVerified); err != nil {
		return err
	}
	if err := s.await(ctx, id); err != nil {
		return err
	}
	return s.show(ctx, id)
}

// show fetches the customer and prints its status.
func (s *story) show(ctx context.Context, id uuid.UUID) error {
	c, err := s.client.Customers.Get(ctx, id)
	if err != nil {
		return err
	}
	line := fmt.Sprintf("   customer %s: %s", c.ID, c.Status)
	if c.FailureReason != "" {
		line += fmt.Sprintf(", failure %s (recoverable by an update: %t)", c.FailureReason, c.FailureReason.IsRecoverable())
	}
	fmt.Println(line)
	return nil
}

// await waits for the CUSTOMER webhook about id, printing each event that
// arrives until then.
func (s *story) await(ctx context.Context, id uuid.UUID) error {
	for {
		select {
		case ev := <-s.events:
			line := fmt.Sprintf("   webhook: %s %s %s", ev.Type, ev.ID, ev.Event)
			if ev.Metadata.FailureReason != nil {
				line += ", failure " + *ev.Metadata.FailureReason
			}
			fmt.Println(line + " (signature verified)")
			if ev.Type == webhook.TypeCustomer && ev.ID == id.String() {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("no CUSTOMER webhook for %s arrived: %w", id, ctx.Err())
		}
	}
}

// heading prints the next numbered step.
func (s *story) heading(format string, args ...any) {
	s.step++
	fmt.Printf("%d. %s\n", s.step, fmt.Sprintf(format, args...))
}

// fetch sends a request and returns the answer's body (at most 1 MiB) and
// status.
func fetch(ctx context.Context, c *http.Client, method, target string, body io.Reader) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return nil, 0, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return b, resp.StatusCode, err
}

// post sends form to target as a browser's form would, and returns the
// answer with its body read and closed.
func post(ctx context.Context, c *http.Client, target string, form url.Values) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return resp, resp.Body.Close()
}

// pageHeading returns the HTML page's first plain <h1>, quoted, or
// "no heading".
func pageHeading(body []byte) string {
	if m := regexp.MustCompile(`<h1>([^<]*)</h1>`).FindSubmatch(body); m != nil {
		return fmt.Sprintf("%q", m[1])
	}
	return "no heading"
}

// pageOffers lists the decisions the KYC page's forms offer.
func pageOffers(body []byte) string {
	var offers, reasons []string
	if strings.Contains(string(body), `id="approve"`) {
		offers = append(offers, "approve")
	}
	for _, m := range regexp.MustCompile(`<option value="([A-Z_]+)">`).FindAllSubmatch(body, -1) {
		reasons = append(reasons, string(m[1]))
	}
	if len(reasons) > 0 {
		offers = append(offers, "decline with "+strings.Join(reasons, " or "))
	}
	if len(offers) == 0 {
		return "no decision"
	}
	return strings.Join(offers, "; ")
}

// pageField returns the text of the element with the given id, or "-".
func pageField(body []byte, id string) string {
	for _, m := range regexp.MustCompile(`id="([a-z-]+)">([^<]*)<`).FindAllSubmatch(body, -1) {
		if string(m[1]) == id {
			return string(m[2])
		}
	}
	return "-"
}

// receive serves a webhook receiver for organization o on a loopback port,
// verifying deliveries on the clock now, and sends each event handled to
// events. It returns the receiver's URL and a function that stops it.
func receive(o sandbox.Organization, now func() time.Time, events chan<- *webhook.Event) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	h := webhook.Handler(o.APIKey, o.APISecret, func(_ context.Context, ev *webhook.Event) error {
		select {
		case events <- ev:
		default: // nobody is listening any more
		}
		return nil
	}, webhook.WithClock(now))
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/webhooks", func() { _ = srv.Close() }, nil
}
