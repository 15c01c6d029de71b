package main

// fiatramp sandbox: serve the whole service in memory until interrupted.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

// sandboxConfig is what the sandbox command's flags say.
type sandboxConfig struct {
	addr           string
	fixtures       string
	noDemo         bool
	pageSize       int
	seed           uint64
	publicURL      string
	remittancePath string
	validity       time.Duration
	server         sandbox.ServerSettings
	control        bool
	startupFile    string
	// Bank accounts.
	bankDelay time.Duration
	// allowRemoteWebhooks lets webhook deliveries leave this machine.
	allowRemoteWebhooks bool
}

// sandboxFlags defines the sandbox command's flags, with usage on out.
func sandboxFlags(out io.Writer) (*flag.FlagSet, *sandboxConfig) {
	def := sandbox.DefaultSettings()
	var c sandboxConfig
	fs := flag.NewFlagSet("fiatramp sandbox", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:4010", "`host:port` to listen on (port 0 picks a free one)")
	fs.StringVar(&c.fixtures, "fixtures", "", "load the fixtures JSON `file` (see sandbox.Fixtures)")
	fs.BoolVar(&c.noDemo, "no-demo", false, "do not add the demo organization")
	fs.IntVar(&c.pageSize, "page-size", def.PageSize, "items per page of every list (bank accounts, customers, payout and payin history)")
	fs.Uint64Var(&c.seed, "seed", 0, "seed for fault fractions and generated references (0: random)")
	fs.StringVar(&c.publicURL, "public-url", "", "absolute base `URL` the bank list's page links start with\n(default: taken from each request)")
	fs.StringVar(&c.remittancePath, "remittance-path", def.RemittancePayoutPath, "`path` of the remittance payout operation")
	fs.DurationVar(&c.validity, "quotation-validity", def.PayoutQuotationValidity,
		"how long the demo's payout quotations (and fixtures' without expires_at) stay valid\n(payin quotations keep their own validity)")
	fs.DurationVar(&c.bankDelay, "bank-verification-delay", 0,
		"verify a bank account added through the interface this long after, on the sandbox clock\n(0: only the bank verification simulation moves it)")
	fs.BoolVar(&c.allowRemoteWebhooks, "allow-remote-webhooks", false,
		"deliver webhooks to any host; without it only localhost and loopback addresses receive them,\nand a delivery to a URL elsewhere is logged not sent")
	srv := sandbox.DefaultServerSettings()
	c.server = srv // the limits without a flag (MinReadRate, ReadRateGrace) keep their defaults
	fs.DurationVar(&c.server.ReadHeaderTimeout, "read-header-timeout", srv.ReadHeaderTimeout, "longest a request's headers may take to arrive (0: no limit)")
	fs.DurationVar(&c.server.ReadTimeout, "read-timeout", srv.ReadTimeout, "longest a whole request may take to arrive; a body cut off is answered 408 (0: no limit)")
	fs.DurationVar(&c.server.WriteTimeout, "write-timeout", srv.WriteTimeout, "longest from a request's headers to the end of its answer (0: no limit)")
	fs.DurationVar(&c.server.IdleTimeout, "idle-timeout", srv.IdleTimeout, "how long a kept-alive connection may wait for its next request (0: the read timeout)")
	fs.IntVar(&c.server.MaxConns, "max-conns", srv.MaxConns, "most connections open at once; at the cap a new one closes the one idle longest,\n"+
		"else the slowest sending a request, and waits only while every one is being answered (0: no limit)")
	fs.StringVar(&c.startupFile, "startup-file", "", "write the start document to `file` instead of stdout, whole and only once serving\n"+
		"(a failed start leaves it as it was), mode 0600 (it holds secrets); removed on stop")
	fs.BoolVar(&c.control, "control", false, "serve the control plane under "+sandbox.ControlPrefix+" (clock, faults, fixtures, reset, state),\n"+
		"guarded by an admin token: $"+envControlToken+", else a random one, printed at start")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: fiatramp sandbox [flags]\n\nServe a fiatramp sandbox until interrupted. Flags:\n\n")
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), "\nExample:\n\n\tfiatramp sandbox -quotation-validity 24h -startup-file sandbox.json &\n\tjq -r .demo.organization.api_key sandbox.json\n"+
			"\n\tfiatramp sandbox -control -startup-file sandbox.json &\n"+
			"\tcurl -H \"Authorization: Bearer $(jq -r .control.token sandbox.json)\" \"$(jq -r .control.url sandbox.json)/clock\"\n")
	}
	return fs, &c
}

// startup is the JSON document printed on start.
type startup struct {
	BaseURL  string            `json:"base_url"`
	Control  *controlInfo      `json:"control,omitempty"`
	Demo     *sandbox.Demo     `json:"demo,omitempty"`
	Fixtures *sandbox.Fixtures `json:"fixtures,omitempty"`
}

// runSandbox is `fiatramp sandbox`.
func runSandbox(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, c := sandboxFlags(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return &usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "fiatramp sandbox: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return &usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if err := c.check(); err != nil {
		fmt.Fprintln(stderr, "fiatramp sandbox:", err)
		fs.Usage()
		return &usageError{err.Error()}
	}

	// Read the fixtures before listening, so a bad file costs no port.
	var fixtures *sandbox.Fixtures
	if c.fixtures != "" {
		f, err := readFixtures(c.fixtures)
		if err != nil {
			return err
		}
		fixtures = &f
	}

	sb := sandbox.New(func(st *sandbox.Settings) {
		st.PageSize = c.pageSize
		st.Seed = c.seed
		st.PublicURL = c.publicURL
		st.RemittancePayoutPath = c.remittancePath
		st.PayoutQuotationValidity = c.validity
		st.BankVerificationDelay = c.bankDelay
		st.AllowRemoteWebhooks = c.allowRemoteWebhooks
	})
	var out startup
	if fixtures != nil {
		loaded, err := sb.Load(*fixtures)
		if err != nil {
			return fmt.Errorf("%s: %w", c.fixtures, err)
		}
		out.Fixtures = &loaded
	}
	if !c.noDemo {
		demo, err := sb.SeedDemo()
		if err != nil {
			return err
		}
		out.Demo = &demo
	}

	opts := []sandbox.ServerOption{func(st *sandbox.ServerSettings) { *st = c.server }}
	if c.control {
		opts = append(opts, sandbox.WithControl(os.Getenv(envControlToken)))
	}
	srv, err := sandbox.Listen(sb, c.addr, opts...)
	if err != nil {
		return err
	}
	defer srv.Close()
	out.BaseURL = reachable(srv.URL)
	if c.control {
		out.Control = &controlInfo{URL: out.BaseURL + sandbox.ControlPrefix, Token: srv.ControlToken()}
	}

	doc, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	doc = append(doc, '\n')
	note := ""
	if out.Control != nil {
		note = "; control plane at " + out.Control.URL + " (token in the document)"
	}
	if c.allowRemoteWebhooks {
		note += "; webhooks are delivered to any host (-allow-remote-webhooks)"
	} else {
		note += "; webhooks are delivered only to this machine (localhost, loopback addresses): -allow-remote-webhooks sends elsewhere"
	}
	if c.startupFile != "" {
		// The file appears whole, and only now that the port is bound: a
		// reader waiting for it never reads a half-written document, nor
		// an empty one from a start that failed.
		if err := writeFileAtomic(c.startupFile, doc); err != nil {
			return err
		}
		defer removeIfSame(c.startupFile)()
		fmt.Fprintf(stderr, "fiatramp sandbox: serving %s (%s)%s; start document in %s; stop with Ctrl-C\n",
			out.BaseURL, contents(out), note, c.startupFile)
	} else {
		// The note first: once the document is out, a reader of both has both.
		fmt.Fprintf(stderr, "fiatramp sandbox: serving %s (%s)%s; stop with Ctrl-C\n", out.BaseURL, contents(out), note)
		if _, err := stdout.Write(doc); err != nil {
			return err
		}
	}

	<-ctx.Done()
	return nil
}

// writeFileAtomic replaces name with data, or leaves it as it was: data
// goes to a temporary file beside it (mode 0600), which is then renamed
// over name, so that no reader sees a partial file.
func writeFileAtomic(name string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// removeIfSame removes name if it is still the file it was when
// removeIfSame was called (deferred: when the sandbox stops), so that a
// stopped sandbox leaves no document of keys that no longer work, and one
// that another start has written since is left alone.
func removeIfSame(name string) func() {
	was, err := os.Stat(name)
	return func() {
		if now, err2 := os.Stat(name); err == nil && err2 == nil && os.SameFile(was, now) {
			_ = os.Remove(name)
		}
	}
}

// envControlToken names the variable that fixes the control plane's admin
// token (a flag value would land in shell history).
const envControlToken = "FIATRAMP_SANDBOX_CONTROL_TOKEN"

// controlInfo is where the control plane is and its admin token.
type controlInfo struct {
	URL   string `json:"url"`
	Token string `json:"token"`
}

// check refuses flag values the sandbox cannot run with.
func (c *sandboxConfig) check() error {
	if c.validity <= 0 {
		return fmt.Errorf("-quotation-validity %v is not positive", c.validity)
	}
	if c.bankDelay < 0 {
		return fmt.Errorf("-bank-verification-delay %v is negative", c.bankDelay)
	}
	for name, d := range map[string]time.Duration{
		"read-header-timeout": c.server.ReadHeaderTimeout, "read-timeout": c.server.ReadTimeout,
		"write-timeout": c.server.WriteTimeout, "idle-timeout": c.server.IdleTimeout,
	} {
		if d < 0 {
			return fmt.Errorf("-%s %v is negative", name, d)
		}
	}
	if c.server.MaxConns < 0 {
		return fmt.Errorf("-max-conns %d is negative", c.server.MaxConns)
	}
	if c.pageSize <= 0 {
		return fmt.Errorf("-page-size %d: want a positive number", c.pageSize)
	}
	if c.publicURL != "" {
		u, err := url.Parse(c.publicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("-public-url %q: want an absolute http or https URL without query", c.publicURL)
		}
	}
	if !strings.HasPrefix(c.remittancePath, "/") || strings.ContainsAny(c.remittancePath, "?# ") || strings.Trim(c.remittancePath, "/") == "" {
		return fmt.Errorf("-remittance-path %q: want an absolute path such as %s", c.remittancePath, sandbox.DefaultRemittancePayoutPath)
	}
	return nil
}

// readFixtures parses the fixtures file name.
func readFixtures(name string) (sandbox.Fixtures, error) {
	fh, err := os.Open(name)
	if err != nil {
		return sandbox.Fixtures{}, err
	}
	defer fh.Close()
	f, err := sandbox.LoadJSON(fh)
	if err != nil {
		return sandbox.Fixtures{}, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// reachable replaces an unspecified listening address (0.0.0.0, ::) in
// base with the loopback address, so the printed URL can be dialled.
func reachable(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	host, port, err := net.SplitHostPort(u.Host)
	if err != nil {
		return base
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		u.Host = net.JoinHostPort("127.0.0.1", port)
		return u.String()
	}
	return base
}

// contents says in a few words what the sandbox holds.
func contents(out startup) string {
	var parts []string
	if out.Demo != nil {
		parts = append(parts, "demo organization "+out.Demo.Organization.ID.String())
	}
	if out.Fixtures != nil {
		n := len(out.Fixtures.Organizations)
		word := "organizations"
		if n == 1 {
			word = "organization"
		}
		parts = append(parts, fmt.Sprintf("%d fixture %s", n, word))
	}
	if len(parts) == 0 {
		return "empty: no organization can sign"
	}
	return strings.Join(parts, ", ")
}
